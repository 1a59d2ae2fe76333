/**
 * A test that spies the request method of the server a handler was registered on and calls that
 * handler without a context:
 *
 *   vi.spyOn(server.server, 'createMessage').mockResolvedValue({ role: 'assistant', ... });
 *   const handler = getRegisteredTool(server, 'summarize');
 *   const result = await handler({ emailId });
 *
 * tested the legacy handler's use of the answer. The migrated handler returns input_required and
 * expects the client to answer and the server's seam to open the sealed requestState it returned,
 * so the call is driven as client and seam would drive it: the helper written at the end of the
 * file answers each round's inputRequests by calling the spied method with the request's params (so
 * the test's own call-count and argument assertions see the call the legacy handler made), opens
 * the requestState with the generated state codec (its key is set by the generated test setup file)
 * and calls the handler again with inputResponses and that state.
 *
 * Only spies in the test's own function, before the call, on `<server>.server` or `<server>` (the
 * server the handler was taken from), each configured with fixed answers: a rejection, an
 * implementation or a spy calling through answers differently from the round the migrated handler
 * expects, so those tests keep the flag of the mock scan.
 */
import { SERVER_METHOD_TO_LEGACY } from '@mcp-mrtr/surface';
import { Node, SyntaxKind, type CallExpression } from 'ts-morph';
import { referencesOf, unwrapExpression } from '../find/resolve.js';
import type { ImportRequest } from '../rewrite/imports.js';
import { CODEC_EXPORT } from '../rewrite/state-module.js';
import type { TextEdit } from '../text-edits.js';

export const SPY_ANSWER_HELPER = 'callAnsweringFromServerMocks';

/** How many rounds the helper answers before it returns what the handler asks (a handler asking forever). */
const MAX_ROUNDS = 8;

/** Spy factories of the test runners whose spies the helper can call (`vi.spyOn`, `jest.spyOn`). */
const SPY_NAMESPACES = new Set(['vi', 'jest']);
/** Configurations whose answer is a fixed value: the helper's call of the spy gets what the legacy call got. */
const FIXED_ANSWERS = new Set(['mockResolvedValue', 'mockResolvedValueOnce', 'mockReturnValue', 'mockReturnValueOnce']);
/** Members of a spy read for assertions, which change nothing it answers. */
const READS = new Set(['mock', 'mockClear']);

export interface SpyAnswer {
  /** The spies answering the call's rounds. */
  spies: CallExpression[];
  /** The text of the spied object, handed to the helper. */
  receiver: string;
}

/**
 * The spies that can answer `call`'s rounds: `server` is the expression the handler was taken from.
 * Undefined when there are none, or when one of the spies on that server's request methods cannot.
 */
export function spyAnswerFor(call: CallExpression, server: Node | undefined): SpyAnswer | undefined {
  const serverName = server && unwrapExpression(server);
  if (!serverName || !Node.isIdentifier(serverName)) return undefined;
  const serverSymbol = serverName.getSymbol();
  const fn = call.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a));
  if (!serverSymbol || !fn) return undefined;
  const spies = fn.getDescendantsOfKind(SyntaxKind.CallExpression).filter((spy) => {
    if (spy.getStart() >= call.getStart() || spy.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a)) !== fn) return false;
    const [target, member] = spy.getArguments();
    return isSpyCall(spy) && !!member && Node.isStringLiteral(member) && member.getLiteralText() in SERVER_METHOD_TO_LEGACY && !!target && spiedServer(target) === serverSymbol;
  });
  const receivers = new Set(spies.map((spy) => unwrapExpression(spy.getArguments()[0]!).getText()));
  if (spies.length === 0 || receivers.size !== 1 || !spies.every(answersFixed)) return undefined;
  return { spies, receiver: [...receivers][0]! };
}

function isSpyCall(call: CallExpression): boolean {
  const callee = call.getExpression();
  return Node.isPropertyAccessExpression(callee) && callee.getName() === 'spyOn' && SPY_NAMESPACES.has(callee.getExpression().getText());
}

/** The symbol of `<server>` for a spy target `<server>.server` or `<server>`. */
function spiedServer(target: Node): ReturnType<Node['getSymbol']> {
  const object = unwrapExpression(target);
  const base = Node.isPropertyAccessExpression(object) && object.getName() === 'server' ? unwrapExpression(object.getExpression()) : object;
  return Node.isIdentifier(base) ? base.getSymbol() : undefined;
}

/** Whether the spy answers only with fixed values: its chain, and every use of a variable holding it. */
function answersFixed(spy: CallExpression): boolean {
  let outer: Node = spy;
  const configured: string[] = [];
  for (;;) {
    const access = outer.getParent();
    const next = access?.getParent();
    if (!access || !Node.isPropertyAccessExpression(access) || !next || !Node.isCallExpression(next) || next.getExpression() !== access) break;
    configured.push(access.getName());
    outer = next;
  }
  if (configured.length === 0 || !configured.every((m) => FIXED_ANSWERS.has(m))) return false;
  const holder = outer.getParent();
  if (!holder || Node.isExpressionStatement(holder)) return true;
  if (!Node.isVariableDeclaration(holder) || !Node.isIdentifier(holder.getNameNode())) return false;
  // uses that cannot be listed: the spy is not known to be only read
  const uses = referencesOf(holder.getNameNode().asKindOrThrow(SyntaxKind.Identifier));
  return !!uses && uses.every((use) => {
    const parent = use.getParent();
    if (parent && Node.isPropertyAccessExpression(parent) && parent.getExpression() === use) return READS.has(parent.getName()) || FIXED_ANSWERS.has(parent.getName());
    // handed to expect(...): an assertion
    return !!parent && Node.isCallExpression(parent) && parent.getExpression().getText() === 'expect';
  });
}

/** The edits routing a call through the spies' helper, and the state codec's import they need when the file has none. */
export interface SpyAnswerRoute {
  edits: TextEdit[];
  /** Requested through rewrite/imports.ts `ensureNamedImportsOf` once the edits are applied (it writes a module's requests once). */
  codecImport?: ImportRequest;
}

/**
 * `handler(args)` → `callAnsweringFromServerMocks(handler, args, <receiver>, requestStateCodec.verify)`,
 * with the state codec's import (`codecSpecifier`) when the file has none; without the opener when
 * the handler's file imports no codec (its rounds carry no state). Undefined when the file cannot take them.
 */
export function spyAnswerEdits(call: CallExpression, answer: SpyAnswer, codecSpecifier: string | undefined): SpyAnswerRoute | undefined {
  const sourceFile = call.getSourceFile();
  const text = sourceFile.getFullText();
  if (new RegExp(`\\b${SPY_ANSWER_HELPER}\\b`).test(text)) return undefined;
  const openParen = call.getFirstChildByKind(SyntaxKind.OpenParenToken);
  const [arg] = call.getArguments();
  if (!openParen || !arg) return undefined;
  const callee = call.getExpression();
  const route = (opener: string): TextEdit[] => [
    { start: callee.getStart(), end: openParen.getEnd(), text: `${SPY_ANSWER_HELPER}(${callee.getText()}, ` },
    { start: arg.getEnd(), end: arg.getEnd(), text: `, ${answer.receiver}${opener}` },
  ];
  if (codecSpecifier === undefined) return { edits: route('') };
  const imports = sourceFile.getImportDeclarations();
  const importsCodec = imports.some((d) => d.getNamedImports().some((n) => n.getName() === CODEC_EXPORT && n.getAliasNode() === undefined));
  // the name taken by something else, or a file without imports to put one after (CommonJS)
  if ((!importsCodec && new RegExp(`\\b${CODEC_EXPORT}\\b`).test(text)) || imports.length === 0) return undefined;
  return {
    edits: route(`, ${CODEC_EXPORT}.verify`),
    ...(importsCodec ? {} : { codecImport: { specifier: codecSpecifier, values: [CODEC_EXPORT], types: [] } }),
  };
}

/** The helper's text (TypeScript annotations in a TypeScript file), to append to the file. */
export function spyAnswerHelperText(typescript: boolean): string {
  const t = (annotation: string): string => (typescript ? annotation : '');
  const members = Object.entries(SERVER_METHOD_TO_LEGACY).map(([member, method]) => `'${method}': '${member}'`).join(', ');
  return `
/**
 * Calls a migrated handler as an MCP 2026-07-28 client and the server drive it (written by mcp-mrtr):
 * each round's inputRequests are answered by the test's mocks on \`server\` of the requests the
 * handler sent before (called with the request's params), and the handler is called again with
 * inputResponses and its requestState, opened as the server's verify hook opens it (\`openState\`).
 * A state nothing can open, or any other result, is returned as it is.
 */
async function ${SPY_ANSWER_HELPER}(handler${t(': Function')}, args${t(': unknown')}, server${t(': any')}, openState${t('?: (state: string, ctx: any) => Promise<unknown>')})${t(': Promise<any>')} {
  const members${t(': Record<string, string>')} = { ${members} };
  let ctx${t(': any')} = { mcpReq: { requestState: () => undefined } };
  let result = await handler(args, ctx);
  for (let round = 1; round <= ${MAX_ROUNDS} && result?.resultType === 'input_required' && (result.requestState === undefined || openState); round++) {
    const inputResponses${t(': Record<string, unknown>')} = {};
    for (const [key, request] of Object.entries${t('<any>')}(result.inputRequests ?? {})) inputResponses[key] = await server[members[request.method]](request.params);
    const state = result.requestState === undefined ? undefined : await openState${t('!')}(result.requestState, ctx);
    ctx = { mcpReq: { requestState: () => state, inputResponses } };
    result = await handler(args, ctx);
  }
  return result;
}
`;
}
