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
 *
 * A mock that fails the request (`vi.fn().mockRejectedValue(...)`) stands for a client that cannot
 * be asked, whose failure the legacy handler's catch took. Through the shim a client that declared
 * the capability and fails it gets the call's error result instead, so declaring it would not test
 * that catch. A 2025-era client that did not declare it still reaches it: the migrated handler's
 * capability check throws where the request was. So the call goes through a second helper that does
 * not declare the failing mocks' capabilities, when every migrated request of that kind fails for
 * such a client into the catch its legacy failure went to (`undeclaredCaught`, rewrite/fail-open.ts)
 * and the test does not read the mock, which is then never called. Otherwise the call stays as it
 * is and the mock flagged, with why.
 */
import { MRTR_METHODS, SERVER_METHOD_TO_LEGACY } from '@mcp-mrtr/surface';
import { Node, SyntaxKind, type BinaryExpression, type PropertyAccessExpression, type SourceFile, type Symbol as MorphSymbol } from 'ts-morph';
import { referencesOf, unwrapExpression } from '../find/resolve.js';
import type { TextEdit } from '../text-edits.js';

export const SHIM_CLIENT_HELPER = 'callAsClientOfServerMocks';
/** The helper for a call whose mocks of some members fail: it declares the capabilities of the others only. */
export const SHIM_UNDECLARED_HELPER = 'callAsClientOfServerMocksWithout';

/**
 * Per member the shim sends with (`createMessage`, `listRoots`) whose request the run migrated:
 * whether a test's failing mock of it is driven as a client that did not declare its capability
 * (run/test-mocks.ts: every migrated site of its request fails, for such a client, into the catch the
 * legacy failure went to).
 */
export type ShimMembers = ReadonlyMap<string, boolean>;

/** The server members the SDK's legacy shim sends with, and the client capability each needs. */
export const SHIM_SENT_MEMBERS: Readonly<Record<string, string>> = { createMessage: 'sampling', listRoots: 'roots' };

/** The 2025-era revision the helper's initialize asks for (the SDK answers with one it serves when it does not serve this one). */
const LEGACY_REVISION = '2025-11-25';

export interface ShimAnsweredCalls {
  edits: TextEdit[];
  notes: string[];
  /** The start positions of the assignments answering the calls (reported as rewritten, not flagged). */
  mocks: number[];
  /** Those of `mocks` that fail the request: every call they are in effect for is driven as a client not declaring its capability. */
  undeclared: number[];
  /** The helpers the edits call, to append to the file. */
  helpers: Array<'declaring' | 'undeclared'>;
  /** The failing mocks in effect at a call that is not driven (they stay flagged): why, by start position. */
  undrivenFailing: Map<number, string>;
}

/**
 * The edits routing the file's calls of a server's own request handler through the helper, for the
 * servers the file assigns a mock of one of `members` on (the members whose request the run migrated).
 * The mocks in effect at a call are the ones its test set last before it, one per member. A call
 * whose mock of a member fails the request (`mockRejectedValue`) goes through the helper that does
 * not declare that member's capability, when the member allows it (`ShimMembers`) and the test
 * does not read that member (`expect(server.createMessage)...`: the mock is no longer called);
 * otherwise the call keeps its text and the failing mock stays flagged.
 */
export function shimAnsweredCalls(sourceFile: SourceFile, members: ShimMembers): ShimAnsweredCalls {
  const out: ShimAnsweredCalls = { edits: [], notes: [], mocks: [], undeclared: [], helpers: [], undrivenFailing: new Map() };
  const text = sourceFile.getFullText();
  if (members.size === 0 || !text.includes('_requestHandlers') || new RegExp(`\\b(${SHIM_CLIENT_HELPER}|${SHIM_UNDECLARED_HELPER})\\b`).test(text)) return out;
  const mocks = new Set<BinaryExpression>();
  const failing = new Set<BinaryExpression>();
  const undriven = new Set<BinaryExpression>();
  const helpers = new Set<'declaring' | 'undeclared'>();
  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const server = requestHandlerServer(call.getExpression());
    if (!server || call.getArguments().length !== 2 || call.getArguments().some((a) => Node.isSpreadElement(a))) continue;
    const assigned = mocksInEffect(assignedMocksOn(sourceFile, server.symbol, members), call);
    if (assigned.length === 0) continue;
    const fails = assigned.filter((m) => rejects(m.getRight()));
    const withheld = [...new Set(fails.map(memberOf))];
    fails.forEach((m) => failing.add(m));
    const why = withheld.map((member) => undrivenWhy(call, member, members, fails)).find((w) => w !== undefined);
    if (why !== undefined) {
      fails.forEach((m) => {
        undriven.add(m);
        if (!out.undrivenFailing.has(m.getStart())) out.undrivenFailing.set(m.getStart(), why);
      });
      continue;
    }
    const callee = call.getExpression();
    const openParen = call.getFirstChildByKind(SyntaxKind.OpenParenToken);
    if (!openParen) continue;
    assigned.forEach((m) => mocks.add(m));
    const lines = assigned.map((m) => m.getStartLineNumber()).join(', ');
    if (withheld.length === 0) {
      helpers.add('declaring');
      out.edits.push({ start: callee.getStart(), end: openParen.getEnd(), text: `${SHIM_CLIENT_HELPER}(${server.name}, ${callee.getText()}, ` });
      out.notes.push(
        `${call.getStartLineNumber()}: the test calls ${server.name}'s own request handler, whose SDK legacy shim answers the migrated handler's input_required with the mock assigned on ${server.name} (line ${lines}) only for a client that declared its capability at initialize; the call goes through ${SHIM_CLIENT_HELPER} (added at the end of this file), which first initializes ${server.name} as a 2025-era client declaring the capabilities of the mocks assigned on it`,
      );
      continue;
    }
    helpers.add('undeclared');
    const capabilities = withheld.map((member) => SHIM_SENT_MEMBERS[member]).join(' or ');
    out.edits.push({ start: callee.getStart(), end: openParen.getEnd(), text: `${SHIM_UNDECLARED_HELPER}(${server.name}, [${withheld.map((m) => `'${m}'`).join(', ')}], ${callee.getText()}, ` });
    out.notes.push(
      `${call.getStartLineNumber()}: the test calls ${server.name}'s own request handler with the mock assigned on ${server.name} (line ${fails.map((m) => m.getStartLineNumber()).join(', ')}) failing the request, which the legacy handler's catch took as a client that cannot be asked; the call goes through ${SHIM_UNDECLARED_HELPER} (added at the end of this file), which first initializes ${server.name} as a 2025-era client that does not declare ${capabilities}, for which the migrated capability check fails into that catch`,
    );
  }
  out.mocks = [...mocks].filter((m) => !undriven.has(m)).map((m) => m.getStart());
  out.undeclared = [...mocks].filter((m) => failing.has(m) && !undriven.has(m)).map((m) => m.getStart());
  out.helpers = [...helpers];
  return out;
}

function memberOf(assignment: BinaryExpression): string {
  return (assignment.getLeft() as PropertyAccessExpression).getName();
}

/**
 * Why a call whose mock of `member` fails the request is not driven as a client that did not declare
 * its capability, or undefined when it is: the run does not allow it for the member, or the test
 * calling the request handler names the member anywhere but in the failing mocks' own assignments.
 */
function undrivenWhy(call: Node, member: string, members: ShimMembers, fails: BinaryExpression[]): string | undefined {
  const capability = SHIM_SENT_MEMBERS[member];
  const failure = `this mock fails the request, and through the shim a client that declared ${capability} and fails it gets the call's error result, which the migrated handler never sees`;
  if (members.get(member) !== true) {
    return `${failure}; as a client that did not declare ${capability} the test is not driven either: not every migrated ${SERVER_METHOD_TO_LEGACY[member]} request fails for such a client, where its legacy failure went, into a catch that does not read the error`;
  }
  const fn = call.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a));
  const own = new Set<Node>(fails.map((m) => m.getLeft()));
  const names = fn?.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression).filter((p) => p.getName() === member && !own.has(p)) ?? [];
  const elements = fn?.getDescendantsOfKind(SyntaxKind.ElementAccessExpression).filter((e) => e.getArgumentExpression()?.getText().slice(1, -1) === member) ?? [];
  const read = [...names, ...elements].sort((a, b) => a.getStart() - b.getStart())[0];
  if (!fn || read) {
    const where = read ? ` (line ${read.getStartLineNumber()})` : '';
    return `${failure}; as a client that did not declare ${capability} (whose capability check fails into the handler's catch as the failure did) the mock is never called, and the test reads ${member}${where}`;
  }
  return undefined;
}

/** The assignments in effect at `call`: per member, the one whose setter its test ran last before it. */
function mocksInEffect(assigned: AssignedMock[], call: Node): BinaryExpression[] {
  const latest = new Map<string, { assignment: BinaryExpression; at: number }>();
  for (const mock of assigned) {
    const at = mock.setAt(call);
    const member = memberOf(mock.assignment);
    const current = latest.get(member);
    if (at !== undefined && (!current || at > current.at)) latest.set(member, { assignment: mock.assignment, at });
  }
  return [...latest.values()].map((m) => m.assignment);
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

/** An assignment of a mock on the server, and where the test calling the request handler made it before the call (its latest setter there). */
interface AssignedMock {
  assignment: BinaryExpression;
  setAt(call: Node): number | undefined;
}

/**
 * The assignments `<target>.<member> = <mock>` of the file whose target is the server (its symbol),
 * or a parameter of a same-file function that a call gives the server. A mock is set before a call
 * when the assignment, or such a call of its function, comes earlier in the calling test's own function.
 */
function assignedMocksOn(sourceFile: SourceFile, server: MorphSymbol, members: ShimMembers): AssignedMock[] {
  const out: AssignedMock[] = [];
  for (const assignment of sourceFile.getDescendantsOfKind(SyntaxKind.BinaryExpression)) {
    const left = assignment.getLeft();
    if (assignment.getOperatorToken().getKind() !== SyntaxKind.EqualsToken || !Node.isPropertyAccessExpression(left) || !members.has(left.getName())) continue;
    const target = unwrapExpression(left.getExpression());
    const symbol = Node.isIdentifier(target) ? target.getSymbol() : undefined;
    const parameter = symbol?.getDeclarations()[0];
    const setters = symbol === server ? [assignment] : parameter && Node.isParameterDeclaration(parameter) ? callsGivingServer(parameter, server) : [];
    const setAt = (call: Node): number | undefined => {
      const before = setters.filter((setter) => earlierInSameFunction(setter, call)).map((setter) => setter.getStart());
      return before.length > 0 ? Math.max(...before) : undefined;
    };
    if (setters.length > 0) out.push({ assignment, setAt });
  }
  return out;
}

/**
 * Whether the mock is configured to reject (`vi.fn().mockRejectedValue(...)`): the legacy handler
 * saw that error (its catch ran), while the shim turns a failed answer of a client that declared the
 * capability into the call's error result before the migrated handler runs again. Such a call is
 * driven as a client that did not declare it, or not at all.
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

/** The helper's text (TypeScript annotations in a TypeScript file), to append to the file; `undeclared`: the helper not declaring the capabilities of given members. */
export function shimClientHelperText(typescript: boolean, undeclared = false): string {
  const t = (annotation: string): string => (typescript ? annotation : '');
  const members = Object.entries(SHIM_SENT_MEMBERS).map(([member, capability]) => `['${member}', '${capability}']`).join(', ');
  const sent = Object.keys(SHIM_SENT_MEMBERS).join(' / ');
  const doc = undeclared
    ? ` * Calls a server's own request handler as a 2025-era client that did not declare the capabilities
 * of the requests of \`withheld\`, members whose mocks fail (written by mcp-mrtr): the legacy
 * handler's catch took that failure as a client that cannot be asked, and for a client that did not
 * declare the capability the migrated handler's capability check fails into that catch. A server no
 * client initialized is initialized first, through its own initialize handler, declaring the
 * capabilities of the other mocks assigned on it (${sent}) only.`
    : ` * Calls a server's own request handler as a 2025-era client that answers with the test's mocks
 * (written by mcp-mrtr): the migrated handler returns input_required, which the SDK's legacy shim
 * answers with the server's ${sent} (the mocks assigned on it) only for a
 * client that declared the capability at initialize. A server no client initialized is initialized
 * first, through its own initialize handler, declaring the capabilities of the mocks on it.`;
  const name = undeclared ? SHIM_UNDECLARED_HELPER : SHIM_CLIENT_HELPER;
  const withheld = undeclared ? `, withheld${t(': string[]')}` : '';
  const declares = undeclared ? ' && !withheld.includes(member)' : '';
  // declaring nothing is what this helper is for: it initializes the server even then
  const initializes = undeclared ? '' : ' && Object.keys(capabilities).length > 0';
  return `
/**
${doc}
 */
async function ${name}(server${t(': any')}${withheld}, handler${t(': Function')}, ...args${t(': any[]')})${t(': Promise<any>')} {
  const capabilities${t(': Record<string, object>')} = {};
  for (const [member, capability] of [${members}]) {
    if (Object.prototype.hasOwnProperty.call(server, member)${declares}) capabilities[capability] = {};
  }
  if (server.getClientCapabilities() === undefined${initializes}) {
    const initialize = { method: 'initialize', params: { protocolVersion: '${LEGACY_REVISION}', capabilities, clientInfo: { name: 'mcp-mrtr-test-client', version: '1.0.0' } } };
    await server._requestHandlers.get('initialize')(initialize, args[args.length - 1]);
  }
  return handler(...args);
}
`;
}
