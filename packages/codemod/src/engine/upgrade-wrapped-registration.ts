/**
 * A project's own wrapper around McpServer's v1 registration method: the original taken with
 * `const original = server.tool.bind(server)` and the member replaced,
 * `(server as any).tool = (...args) => { ...; return original(...args); }` (a log of tool calls,
 * error handling around every handler). The official v1-to-v2 transforms turn the project's calls
 * `server.tool(...)` into `server.registerTool(...)` but leave these references: v2's McpServer has
 * no `tool` (`server.tool.bind` throws at start-up, TS2339), and the wrapper would no longer see a
 * registration. The references follow the calls' rename when the wrapper cannot tell the two apart:
 * it reads of its arguments only the first (the name, first in both forms), the last (the handler,
 * last in both) and their count, and hands them all on (`original(...args)`). Any other use (an
 * argument read by position, the original called with other arguments) is left to verify, which
 * reports the compiler's message at the line.
 */
import { Node, SyntaxKind, type ArrowFunction, type FunctionExpression, type PropertyAccessExpression, type SourceFile } from 'ts-morph';
import { unwrapExpression } from './find/resolve.js';

/** v1 registration methods and the v2 method each call becomes; the name is first and the handler last in both. */
const RENAMED: Record<string, string> = { tool: 'registerTool', prompt: 'registerPrompt', resource: 'registerResource' };

type WrapperFunction = ArrowFunction | FunctionExpression;

export function renameWrappedRegistrations(sourceFile: SourceFile): string[] {
  const references = sourceFile.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression).filter((p) => Object.hasOwn(RENAMED, p.getName()) && !isCallee(p) && isMcpServer(p));
  if (references.length === 0) return [];
  const wrappers: WrapperFunction[] = [];
  const originals: Node[] = [];
  for (const reference of references) {
    const assigned = assignedWrapper(reference);
    if (assigned) wrappers.push(assigned);
    else {
      const original = boundOriginal(reference);
      if (!original) return [];
      originals.push(original);
    }
  }
  if (wrappers.length === 0 || !wrappers.every(passesArgumentsThrough)) return [];
  // the original is called only by a wrapper, with the wrapper's arguments as they came
  for (const original of originals) {
    const calls = original.getSourceFile().getDescendantsOfKind(SyntaxKind.Identifier).filter((id) => id !== original && id.getText() === original.getText() && id.getSymbol() === original.getSymbol());
    if (!calls.every((id) => wrappers.some((w) => w.containsRange(id.getPos(), id.getEnd())) && callsWithRestOf(id, wrappers))) return [];
  }
  const notes: string[] = [];
  for (const reference of references) {
    const from = reference.getName();
    notes.push(`${reference.getStartLineNumber()}: the project's wrapper of \`${from}\` now wraps \`${RENAMED[from]}\`, which the upgrade made of its calls (it reads only the name, the handler and their count)`);
    reference.getNameNode().replaceWithText(RENAMED[from]!);
  }
  return notes;
}

function isCallee(access: PropertyAccessExpression): boolean {
  const parent = access.getParent();
  return Node.isCallExpression(parent) && parent.getExpression() === access;
}

function isMcpServer(access: PropertyAccessExpression): boolean {
  try {
    return unwrapExpression(access.getExpression()).getType().getSymbol()?.getName() === 'McpServer';
  } catch {
    return false;
  }
}

/** `server.tool = (...args) => …` (the receiver possibly cast): the function assigned. */
function assignedWrapper(access: PropertyAccessExpression): WrapperFunction | undefined {
  const parent = access.getParent();
  if (!Node.isBinaryExpression(parent) || parent.getLeft() !== access || parent.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) return undefined;
  const right = unwrapExpression(parent.getRight());
  return Node.isArrowFunction(right) || Node.isFunctionExpression(right) ? right : undefined;
}

/** `const original = server.tool.bind(server)`: the name `original`. */
function boundOriginal(access: PropertyAccessExpression): Node | undefined {
  const bind = access.getParent();
  if (!Node.isPropertyAccessExpression(bind) || bind.getName() !== 'bind') return undefined;
  const call = bind.getParent();
  if (!Node.isCallExpression(call) || call.getExpression() !== bind) return undefined;
  const declaration = call.getParent();
  if (!Node.isVariableDeclaration(declaration) || declaration.getInitializer() !== call) return undefined;
  const name = declaration.getNameNode();
  return Node.isIdentifier(name) ? name : undefined;
}

/** The wrapper's one parameter is a rest parameter read only as its first element, its last element, its length, or spread. */
function passesArgumentsThrough(wrapper: WrapperFunction): boolean {
  const [rest, ...others] = wrapper.getParameters();
  if (!rest || others.length > 0 || !rest.isRestParameter()) return false;
  const name = rest.getNameNode();
  if (!Node.isIdentifier(name)) return false;
  const symbol = name.getSymbol();
  const lastIndexNames = new Set<string>();
  const uses = wrapper.getBody().getDescendantsOfKind(SyntaxKind.Identifier).filter((id) => id.getText() === name.getText() && id.getSymbol() === symbol);
  // `const last = args.length - 1` names the last index
  for (const use of uses) {
    const length = use.getParent();
    const minus = length?.getParent();
    const declaration = minus?.getParent();
    if (Node.isPropertyAccessExpression(length) && length.getName() === 'length' && isMinusOne(minus) && Node.isVariableDeclaration(declaration) && Node.isIdentifier(declaration.getNameNode())) lastIndexNames.add(declaration.getName());
  }
  return uses.every((use) => {
    const parent = use.getParent();
    if (Node.isSpreadElement(parent)) return true;
    if (Node.isPropertyAccessExpression(parent)) return parent.getName() === 'length';
    if (!Node.isElementAccessExpression(parent) || parent.getExpression() !== use) return false;
    const index = parent.getArgumentExpression();
    if (!index) return false;
    if (Node.isNumericLiteral(index)) return index.getLiteralValue() === 0;
    if (Node.isIdentifier(index)) return lastIndexNames.has(index.getText());
    return Node.isBinaryExpression(index) && isMinusOne(index) && index.getLeft().getText() === `${name.getText()}.length`;
  });
}

function isMinusOne(node: Node | undefined): boolean {
  return Node.isBinaryExpression(node) && node.getOperatorToken().getKind() === SyntaxKind.MinusToken && node.getRight().getText() === '1';
}

/** `original(...args)` (or `(original as any)(...args)`) with the rest parameter of the wrapper it is in. */
function callsWithRestOf(id: Node, wrappers: WrapperFunction[]): boolean {
  let callee: Node = id;
  while (Node.isParenthesizedExpression(callee.getParent()) || Node.isAsExpression(callee.getParent())) callee = callee.getParentOrThrow();
  const call = callee.getParent();
  if (!Node.isCallExpression(call) || call.getExpression() !== callee) return false;
  const args = call.getArguments();
  const wrapper = wrappers.find((w) => w.containsRange(call.getPos(), call.getEnd()));
  const rest = wrapper?.getParameters()[0]?.getName();
  return args.length === 1 && Node.isSpreadElement(args[0]) && args[0].getExpression().getText() === rest;
}
