/**
 * A parameter fed a reference to a legacy request method by a call in the same file
 * (`confirmFlow(server.server.elicitInput.bind(server.server), …)`): the calls of that parameter
 * inside the called function are legacy requests too. Recognised without a type checker.
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { findVariable, unwrap } from './ast.js';

type Source = Readonly<TSESLint.SourceCode>;

/**
 * `reference` is an argument of a call to a function declared in this file: the calls of the
 * matching parameter inside that function.
 */
export function callsOfFedParameter(sourceCode: Source, reference: TSESTree.Node): TSESTree.CallExpression[] {
  let arg: TSESTree.Node = reference;
  while (arg.parent && (arg.parent.type === AST_NODE_TYPES.TSAsExpression || arg.parent.type === AST_NODE_TYPES.TSNonNullExpression)) arg = arg.parent;
  const call = arg.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || unwrap(call.callee).type !== AST_NODE_TYPES.Identifier) return [];
  const index = call.arguments.indexOf(arg as TSESTree.CallExpressionArgument);
  if (index < 0) return [];
  const def = findVariable(sourceCode, unwrap(call.callee) as TSESTree.Identifier)?.defs[0];
  let fn: TSESTree.Node | undefined = def?.node;
  if (fn?.type === AST_NODE_TYPES.VariableDeclarator) fn = fn.init ?? undefined;
  if (!fn || !(fn.type === AST_NODE_TYPES.FunctionDeclaration || fn.type === AST_NODE_TYPES.FunctionExpression || fn.type === AST_NODE_TYPES.ArrowFunctionExpression)) return [];
  const param = fn.params[index];
  if (param?.type !== AST_NODE_TYPES.Identifier) return [];
  const calls: TSESTree.CallExpression[] = [];
  for (const ref of findVariable(sourceCode, param)?.references ?? []) {
    const parent = ref.identifier.parent;
    if (parent?.type === AST_NODE_TYPES.CallExpression && unwrap(parent.callee) === ref.identifier) calls.push(parent);
  }
  return calls;
}
