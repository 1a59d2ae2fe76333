/**
 * A test that assigns a mock on a server's request method and calls the server's own request
 * handler, on a server no client initialized:
 *
 *   function mockSampling(srv: Server) { (srv as any).createMessage = vi.fn().mockResolvedValue(...) }
 *   mockSampling(server);
 *   const handler = (server as any)._requestHandlers.get('tools/call');
 *   const response = await handler!({ method: 'tools/call', params: { ... } }, ctx);
 *
 * The legacy handler called the mock. The migrated one returns input_required, which the SDK's
 * wrapper behind `_requestHandlers` serves on the 2025 era through its legacy shim: the shim asks
 * with the server's own `createMessage` / `listRoots` (the mock) and retries the handler, but only
 * for a client that declared sampling / roots at initialize, and answers "Cannot request input ..."
 * otherwise (test/assigned-mock-shim.test.ts). So the call goes through a helper written at the end
 * of the file that first initializes the server, through its own initialize handler, as a 2025-era
 * client declaring the capabilities of the mocks assigned on it (own properties shadowing the SDK's
 * methods), when no client initialized it yet. The test then runs the migrated handler, the SDK's
 * shim and its mock as a 2025-era client would.
 *
 * Declaring a capability changes what `getClientCapabilities()` returns, so the run asks for this
 * only when no code of the run reads the client capabilities (run/test-mocks.ts): there, a handler
 * behaves the same with the capability declared or unknown. Only calls of a tools/call, prompts/get
 * or resources/read handler taken from the map of a server (a plain name) that the calling test
 * assigns such a mock on before the call, directly or through a same-file function it gives that server.
 */
import { MRTR_METHODS } from '@mcp-mrtr/surface';
import { Node, SyntaxKind, type BinaryExpression, type SourceFile, type Symbol as MorphSymbol } from 'ts-morph';
import { referencesOf, unwrapExpression } from '../find/resolve.js';
import type { TextEdit } from '../text-edits.js';

export const SHIM_CLIENT_HELPER = 'callAsClientOfServerMocks';

/** The server members the SDK's legacy shim sends with, and the client capability each needs. */
export const SHIM_SENT_MEMBERS: Readonly<Record<string, string>> = { createMessage: 'sampling', listRoots: 'roots' };

/** The 2025-era revision the helper's initialize asks for (the SDK answers with one it serves when it does not serve this one). */
const LEGACY_REVISION = '2025-11-25';

export interface ShimAnsweredCalls {
  edits: TextEdit[];
  notes: string[];
  /** The start positions of the assignments answering the calls (reported as rewritten, not flagged). */
  mocks: number[];
}

/**
 * The edits routing the file's calls of a server's own request handler through the helper, for the
 * servers the file assigns a mock of one of `members` on (the members whose request the run migrated).
 */
export function shimAnsweredCalls(sourceFile: SourceFile, members: ReadonlySet<string>): ShimAnsweredCalls {
  const out: ShimAnsweredCalls = { edits: [], notes: [], mocks: [] };
  const text = sourceFile.getFullText();
  if (members.size === 0 || !text.includes('_requestHandlers') || new RegExp(`\\b${SHIM_CLIENT_HELPER}\\b`).test(text)) return out;
  const mocks = new Set<BinaryExpression>();
  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const server = requestHandlerServer(call.getExpression());
    if (!server || call.getArguments().length !== 2 || call.getArguments().some((a) => Node.isSpreadElement(a))) continue;
    const assigned = assignedMocksOn(sourceFile, server.symbol, members).filter((mock) => mock.setBefore(call)).map((mock) => mock.assignment);
    if (assigned.length === 0) continue;
    assigned.forEach((m) => mocks.add(m));
    const callee = call.getExpression();
    const openParen = call.getFirstChildByKind(SyntaxKind.OpenParenToken);
    if (!openParen) continue;
    out.edits.push({ start: callee.getStart(), end: openParen.getEnd(), text: `${SHIM_CLIENT_HELPER}(${server.name}, ${callee.getText()}, ` });
    const lines = assigned.map((m) => m.getStartLineNumber()).join(', ');
    out.notes.push(
      `${call.getStartLineNumber()}: the test calls ${server.name}'s own request handler, whose SDK legacy shim answers the migrated handler's input_required with the mock assigned on ${server.name} (line ${lines}) only for a client that declared its capability at initialize; the call goes through ${SHIM_CLIENT_HELPER} (added at the end of this file), which first initializes ${server.name} as a 2025-era client declaring the capabilities of the mocks assigned on it`,
    );
  }
  out.mocks = [...mocks].map((m) => m.getStart());
  return out;
}

/** `<server>._requestHandlers.get('tools/call')`, directly or through a const: the server's name and symbol. */
function requestHandlerServer(callee: Node): { name: string; symbol: MorphSymbol } | undefined {
  let expression = unwrapExpression(callee);
  if (Node.isIdentifier(expression)) {
    const declaration = expression.getSymbol()?.getDeclarations()[0];
    if (!declaration || !Node.isVariableDeclaration(declaration) || declaration.getVariableStatement()?.getDeclarationKind() !== 'const') return undefined;
    const initializer = declaration.getInitializer();
    if (!initializer) return undefined;
    expression = unwrapExpression(initializer);
  }
  if (!Node.isCallExpression(expression)) return undefined;
  const get = expression.getExpression();
  const [method] = expression.getArguments();
  if (!Node.isPropertyAccessExpression(get) || get.getName() !== 'get' || !method || !Node.isStringLiteral(method) && !Node.isNoSubstitutionTemplateLiteral(method)) return undefined;
  if (!(MRTR_METHODS as readonly string[]).includes(method.getLiteralText())) return undefined;
  const map = unwrapExpression(get.getExpression());
  if (!Node.isPropertyAccessExpression(map) || map.getName() !== '_requestHandlers') return undefined;
  const server = unwrapExpression(map.getExpression());
  const symbol = Node.isIdentifier(server) ? server.getSymbol() : undefined;
  return symbol && { name: server.getText(), symbol };
}

/** An assignment of a mock on the server, and whether the test calling the request handler made it before the call. */
interface AssignedMock {
  assignment: BinaryExpression;
  setBefore(call: Node): boolean;
}

/**
 * The assignments `<target>.<member> = <mock>` of the file whose target is the server (its symbol),
 * or a parameter of a same-file function that a call gives the server. A mock is set before a call
 * when the assignment, or such a call of its function, comes earlier in the calling test's own function.
 */
function assignedMocksOn(sourceFile: SourceFile, server: MorphSymbol, members: ReadonlySet<string>): AssignedMock[] {
  const out: AssignedMock[] = [];
  for (const assignment of sourceFile.getDescendantsOfKind(SyntaxKind.BinaryExpression)) {
    const left = assignment.getLeft();
    if (assignment.getOperatorToken().getKind() !== SyntaxKind.EqualsToken || !Node.isPropertyAccessExpression(left) || !members.has(left.getName())) continue;
    if (rejects(assignment.getRight())) continue;
    const target = unwrapExpression(left.getExpression());
    const symbol = Node.isIdentifier(target) ? target.getSymbol() : undefined;
    const parameter = symbol?.getDeclarations()[0];
    const setters = symbol === server ? [assignment] : parameter && Node.isParameterDeclaration(parameter) ? callsGivingServer(parameter, server) : [];
    if (setters.length > 0) out.push({ assignment, setBefore: (call) => setters.some((setter) => earlierInSameFunction(setter, call)) });
  }
  return out;
}

/**
 * Whether the mock is configured to reject (`vi.fn().mockRejectedValue(...)`): the legacy handler
 * saw that error (its catch ran), while the shim turns a failed answer into the call's error result
 * before the migrated handler runs again, so the test's expectation no longer holds and its flag stays.
 */
function rejects(mock: Node): boolean {
  for (let n: Node = unwrapExpression(mock); Node.isCallExpression(n); ) {
    const callee = n.getExpression();
    if (!Node.isPropertyAccessExpression(callee)) return false;
    if (REJECTIONS.has(callee.getName())) return true;
    n = callee.getExpression();
  }
  return false;
}

const REJECTIONS = new Set(['mockRejectedValue', 'mockRejectedValueOnce']);

/** The calls of the parameter's function (a declaration or a const) that give it the server. */
function callsGivingServer(parameter: Node, server: MorphSymbol): Node[] {
  if (!Node.isParameterDeclaration(parameter)) return [];
  const fn = parameter.getParent();
  const index = Node.isFunctionLikeDeclaration(fn) ? fn.getParameters().indexOf(parameter) : -1;
  const nameNode = Node.isFunctionDeclaration(fn) ? fn.getNameNode() : fn.getParentIfKind(SyntaxKind.VariableDeclaration)?.getNameNode();
  if (index < 0 || !nameNode || !Node.isIdentifier(nameNode)) return [];
  // References the language service cannot list: no call is known to give the server, so the mock stays flagged.
  return (referencesOf(nameNode) ?? []).flatMap((ref) => {
    const call = ref.getParent();
    if (!call || !Node.isCallExpression(call) || call.getExpression() !== ref) return [];
    const arg = call.getArguments()[index];
    const value = arg && unwrapExpression(arg);
    return value && Node.isIdentifier(value) && value.getSymbol() === server ? [call] : [];
  });
}

function earlierInSameFunction(setter: Node, call: Node): boolean {
  const fn = call.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a));
  return !!fn && setter.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a)) === fn && setter.getStart() < call.getStart();
}

/** The helper's text (TypeScript annotations in a TypeScript file), to append to the file. */
export function shimClientHelperText(typescript: boolean): string {
  const t = (annotation: string): string => (typescript ? annotation : '');
  const members = Object.entries(SHIM_SENT_MEMBERS).map(([member, capability]) => `['${member}', '${capability}']`).join(', ');
  return `
/**
 * Calls a server's own request handler as a 2025-era client that answers with the test's mocks
 * (written by mcp-mrtr): the migrated handler returns input_required, which the SDK's legacy shim
 * answers with the server's ${Object.keys(SHIM_SENT_MEMBERS).join(' / ')} (the mocks assigned on it) only for a
 * client that declared the capability at initialize. A server no client initialized is initialized
 * first, through its own initialize handler, declaring the capabilities of the mocks on it.
 */
async function ${SHIM_CLIENT_HELPER}(server${t(': any')}, handler${t(': Function')}, ...args${t(': any[]')})${t(': Promise<any>')} {
  const capabilities${t(': Record<string, object>')} = {};
  for (const [member, capability] of [${members}]) {
    if (Object.prototype.hasOwnProperty.call(server, member)) capabilities[capability] = {};
  }
  if (server.getClientCapabilities() === undefined && Object.keys(capabilities).length > 0) {
    const initialize = { method: 'initialize', params: { protocolVersion: '${LEGACY_REVISION}', capabilities, clientInfo: { name: 'mcp-mrtr-test-client', version: '1.0.0' } } };
    await server._requestHandlers.get('initialize')(initialize, args[args.length - 1]);
  }
  return handler(...args);
}
`;
}
