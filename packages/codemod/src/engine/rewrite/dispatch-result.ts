/**
 * How a dispatching handler (reach/dispatch.ts) gets the tool function's result to the client,
 * and whether a migrated tool's input_required result gets there too:
 *
 *   return tool.handler(args, extra)                   returned: it reaches the client as it is
 *   const result = await tool.handler(args, extra);    post-processed: wrapped into a text block,
 *   if ('content' in result) return result;              a footer appended, ... The result is
 *   return { content: [{ type: 'text', ... }] };         passed through untouched by a guard
 *                                                        written right after the declaration:
 *                                                        `if (isInputRequiredResult(result)) return result;`
 *
 * The guard is only written when the post-processing is provably the only thing between the tool
 * and the handler's return: the code after the declaration is free of effects (purity.ts) and
 * leaves the handler on every path. An input_required round then skips nothing but that pure
 * transformation, and every other result takes the path it took before.
 */
import { Node, SyntaxKind, type CallExpression, type Identifier, type VariableStatement } from 'ts-morph';
import { referencesOf } from '../find/resolve.js';
import { definitelyExits } from './control-flow.js';
import { abbreviate, firstEffect } from './purity.js';
import { line } from './points.js';
import { indentOf, type TextEdit } from '../text-edits.js';

export const PASS_THROUGH_GUARD = 'isInputRequiredResult';

export type ResultRoute =
  | { kind: 'returned' }
  | { kind: 'post-processed'; statement: VariableStatement; name: string }
  | { kind: 'blocked'; reason: string };

/** How `call`'s result leaves `fn` (`fn` is the dispatching handler, `call` runs the tool function). */
export function resultRoute(call: CallExpression, fn: Node): ResultRoute {
  let node: Node = call;
  let parent = node.getParent();
  while (parent && (Node.isAwaitExpression(parent) || Node.isParenthesizedExpression(parent) || Node.isAsExpression(parent) || Node.isNonNullExpression(parent) || Node.isSatisfiesExpression(parent))) {
    node = parent;
    parent = parent.getParent();
  }
  if (!parent) return blocked('is not returned');
  if (Node.isReturnStatement(parent)) return { kind: 'returned' };
  if (parent === fn && Node.isArrowFunction(fn)) return { kind: 'returned' };
  if (Node.isVariableDeclaration(parent) && parent.getInitializer() === node && Node.isIdentifier(parent.getNameNode())) {
    const name = parent.getNameNode();
    const refs = referencesOf(name as Identifier)?.filter((r) => r !== name);
    if (!refs) return blocked(`is stored in \`${parent.getName()}\`, whose uses could not be listed`);
    if (refs.length === 0) return blocked(`is stored in \`${parent.getName()}\` and never returned`);
    if (refs.every((r) => Node.isReturnStatement(valueParentOf(r)))) return { kind: 'returned' };
    return postProcessed(parent.getName(), parent.getVariableStatement(), fn);
  }
  const statement = node.getFirstAncestor((a) => Node.isStatement(a));
  return blocked(`is used in \`${abbreviate((statement ?? parent).getText(), 50)}\` instead of being returned as it is`);
}

/**
 * `const result = await call(...)` followed by code that turns `result` into the handler's return:
 * a guard after the declaration passes an input_required result through, when that code is pure
 * and leaves the handler on every path (so nothing after the enclosing block runs either).
 */
function postProcessed(name: string, statement: VariableStatement | undefined, fn: Node): ResultRoute {
  const stored = `is stored in \`${name}\``;
  const block = statement?.getParent();
  if (!statement || !block || !Node.isBlock(block) || statement.getDeclarations().length !== 1) return blocked(`${stored}, which is not declared in a statement of its own`);
  const rest = block.getStatements().slice(block.getStatements().indexOf(statement) + 1);
  const exit = rest.findIndex((s) => definitelyExits(s));
  if (exit < 0) return blocked(`${stored} and post-processed by code that does not return on every path (after line ${line(statement)})`);
  const effect = firstEffect(rest.slice(0, exit + 1), fn);
  if (effect) return blocked(`${stored} and post-processed by code that runs \`${effect.description}\` (line ${line(effect.node)}), which has effects and must not be skipped`);
  return { kind: 'post-processed', statement, name };
}

/** The guard after the declaration: an input_required result leaves the handler as the tool returned it. */
export function passThroughEdit(route: Extract<ResultRoute, { kind: 'post-processed' }>): TextEdit {
  const { statement, name } = route;
  const indent = indentOf(statement);
  const newline = statement.getSourceFile().getFullText().includes('\r\n') ? '\r\n' : '\n';
  const semicolon = statement.getLastChildByKind(SyntaxKind.SemicolonToken) ? ';' : '';
  return { start: statement.getEnd(), end: statement.getEnd(), text: `${newline}${indent}if (${PASS_THROUGH_GUARD}(${name})) return ${name}${semicolon}` };
}

function blocked(how: string): ResultRoute {
  return { kind: 'blocked', reason: how };
}

function valueParentOf(node: Node): Node | undefined {
  let parent = node.getParent();
  while (parent && (Node.isAwaitExpression(parent) || Node.isParenthesizedExpression(parent) || Node.isAsExpression(parent) || Node.isNonNullExpression(parent))) parent = parent.getParent();
  return parent;
}
