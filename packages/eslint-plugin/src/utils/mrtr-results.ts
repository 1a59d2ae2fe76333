/**
 * Recognising MRTR target-API shapes: `inputRequired(...)` results, raw
 * `{ resultType: 'input_required' }` objects, `inputRequired.<builder>(...)` entries and answer reads
 * (`inputResponse`, `acceptedContent`, `inputResponses[key]`).
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { CTX_MCPREQ_READS, TARGET } from '@mcp-mrtr/surface';
import { findProperty, getPropertyName, getStaticString, importedLocalNames, outerParent, resolveConstInit, unwrap } from './ast.js';

type Source = Readonly<TSESLint.SourceCode>;

/** Local names of a target-API export, imported from any module (ast.ts `importedLocalNames`). */
export function localNamesOf(sourceCode: Source, exported: string): ReadonlySet<string> {
  return importedLocalNames(sourceCode, exported);
}

/** `inputRequired({...})` (not the builders `inputRequired.elicit(...)`). */
export function isInputRequiredCall(sourceCode: Source, node: TSESTree.CallExpression): boolean {
  const callee = unwrap(node.callee);
  return callee.type === AST_NODE_TYPES.Identifier && localNamesOf(sourceCode, TARGET.inputRequired).has(callee.name);
}

/** `inputRequired.<name>(...)`: returns `<name>` (whether or not it is a known builder). */
export function builderNameOf(sourceCode: Source, node: TSESTree.Node): string | undefined {
  const n = unwrap(node);
  if (n.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(n.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const object = unwrap(callee.object);
  if (object.type !== AST_NODE_TYPES.Identifier || !localNamesOf(sourceCode, TARGET.inputRequired).has(object.name)) return undefined;
  return getPropertyName(callee);
}

export function isKnownBuilder(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(TARGET.builders, name);
}

/**
 * `{ resultType: 'input_required', ... }` written by hand as a result: not error data
 * (`new SdkError(code, msg, { resultType: 'input_required' })`) nor a nested descriptor field.
 */
export function isRawInputRequiredObject(node: TSESTree.ObjectExpression): boolean {
  const prop = findProperty(node, TARGET.resultTypeField);
  if (!prop || getStaticString(prop.value) !== TARGET.inputRequiredValue) return false;
  const parent = outerParent(node);
  if (parent?.type === AST_NODE_TYPES.NewExpression) return false;
  if (parent?.type === AST_NODE_TYPES.Property && parent.value === node && getPropertyName(parent) !== 'result') return false;
  return true;
}

/** The object literal describing an input_required result, for a call or a raw object. */
export function resultSpecOf(sourceCode: Source, node: TSESTree.CallExpression | TSESTree.ObjectExpression): TSESTree.ObjectExpression | undefined {
  if (node.type === AST_NODE_TYPES.ObjectExpression) return node;
  const arg = node.arguments[0];
  if (!arg) return undefined;
  const resolved = resolveConstInit(sourceCode, arg);
  return resolved?.type === AST_NODE_TYPES.ObjectExpression ? resolved : undefined;
}

export type AnswerReader = 'inputResponse' | 'acceptedContent';

/** `inputResponse(responses, key)` / `acceptedContent(responses, key, schema?)`. */
export function answerReaderOf(sourceCode: Source, node: TSESTree.CallExpression): AnswerReader | undefined {
  const callee = unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  if (localNamesOf(sourceCode, TARGET.inputResponse).has(callee.name)) return 'inputResponse';
  if (localNamesOf(sourceCode, TARGET.acceptedContent).has(callee.name)) return 'acceptedContent';
  return undefined;
}

/** `x.inputResponses` (member access by that name; `ctx.mcpReq.inputResponses`, `params.inputResponses`). */
export function isInputResponsesMember(node: TSESTree.Node): node is TSESTree.MemberExpression {
  const n = unwrap(node);
  return n.type === AST_NODE_TYPES.MemberExpression && getPropertyName(n) === CTX_MCPREQ_READS.inputResponses;
}

/** `x.inputResponses.key` / `x.inputResponses['key']` / `x.inputResponses[k]`: the entry access. */
export function isInputResponseEntry(node: TSESTree.Node): node is TSESTree.MemberExpression {
  const n = unwrap(node);
  return n.type === AST_NODE_TYPES.MemberExpression && isInputResponsesMember(n.object);
}
