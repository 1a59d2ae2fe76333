/**
 * A unit test that calls a request helper directly with a fake server
 * (`await askColour(fakeServer, 'Which?')`, the fake's `server.elicitInput` answering) while tools
 * call the same helper. The helper is rewritten for the tools (it takes the request context and a
 * key, and returns input_required instead of sending the request); the test's call goes through a
 * small driver written at the end of the test file, which plays the 2026-07-28 client: it calls the
 * helper with a request context, answers each round's inputRequests with the fake's own method (the
 * one the legacy helper called, on the same object) and calls it again with inputResponses. So the
 * test keeps exercising the code the tools run, answered by the fake it already has.
 *
 * Only when that is plain: the helper makes the request itself, on an object one of its parameters
 * holds (`server.server.elicitInput(...)`, `server.createMessage(...)`), write-once (no
 * requestState), and the test's call is a plain call of the helper's name with its arguments as
 * they are. Otherwise the test stays a caller the rewrite cannot serve, and the request is flagged.
 */
import { SERVER_METHOD_TO_LEGACY, TARGET } from '@mcp-mrtr/surface';
import { Node, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';
import { flavourOf } from './state-module.js';
import { helperArguments, nameNodeOf, planHelper, type HelperWork } from './helper.js';
import { looksLikeTestFile } from '../test-mocks/find.js';
import type { Reach } from '../model.js';
import type { FileWork } from './emit-common.js';

export const HELPER_DRIVER = 'callHelperAnsweringInputRequests';

/** How many rounds the driver answers before it returns what the helper asks (a helper asking forever). */
const MAX_ROUNDS = 8;

/** The key the driver passes: the helper asks under the key its caller gives, whatever it is. */
const DRIVER_KEY = 'request';

export interface DrivenTestCall {
  call: CallExpression;
  helper: HelperWork;
  /** The helper's parameter holding the object the request is sent on. */
  receiverIndex: number;
  /** The property path from that parameter to the object (`.server` of `server.server.elicitInput`), may be empty. */
  receiverPath: string;
  /** The legacy method the fake answers with (`elicitInput`). */
  method: string;
}

/** The plan for driving the test's call through the driver, or why it cannot be. */
export function drivenTestCall(call: CallExpression, helper: HelperWork): DrivenTestCall | string {
  const name = helper.name;
  if (helper.point.kind !== 'direct' || helper.ctxParam !== undefined || helper.senderParam !== undefined) return `\`${name}\` does not send the request on a server it is given`;
  const site = helper.point.sites[0]!;
  const callee = Node.isCallExpression(site.node) ? site.node.getExpression() : undefined;
  if (site.shape !== 'server-method' || !callee || !Node.isPropertyAccessExpression(callee) || !SERVER_METHOD_TO_LEGACY[callee.getName()]) {
    return `\`${name}\` does not call the request's method on a server object`;
  }
  const path: string[] = [];
  let receiver: Node = callee.getExpression();
  while (Node.isPropertyAccessExpression(receiver) && !receiver.getQuestionDotTokenNode()) {
    path.unshift(receiver.getName());
    receiver = receiver.getExpression();
  }
  const params = helper.fn.getParameters();
  const receiverIndex = Node.isIdentifier(receiver) ? params.findIndex((p) => Node.isIdentifier(p.getNameNode()) && p.getName() === receiver.getText()) : -1;
  if (receiverIndex < 0) return `\`${name}\` sends the request on \`${callee.getExpression().getText()}\`, not on an object one of its parameters holds`;
  if (assigns(helper.fn, receiver.getText())) return `\`${name}\` assigns its parameter \`${receiver.getText()}\``;
  const testCallee = call.getExpression();
  if (!Node.isIdentifier(testCallee) || call.getTypeArguments().length > 0 || call.getQuestionDotTokenNode()) return `the test's call \`${testCallee.getText()}(...)\` is not a plain call of \`${name}\``;
  const args = call.getArguments();
  if (args.some((a) => Node.isSpreadElement(a)) || args.length > params.length) return `the test's call of \`${name}\` spreads or adds arguments`;
  if (!helperNameFree(call.getSourceFile().getFullText())) return `the test file already uses the name ${HELPER_DRIVER}`;
  return { call, helper, receiverIndex, receiverPath: path.map((p) => `.${p}`).join(''), method: callee.getName() };
}

/** Every call of the helper's name in a test file (whichever test makes it). */
export function testCallsOf(helper: HelperWork): CallExpression[] {
  const nameNode = nameNodeOf(helper.fn);
  if (!nameNode || !Node.isIdentifier(nameNode)) return [];
  const calls: CallExpression[] = [];
  for (const ref of nameNode.findReferencesAsNodes()) {
    const file = ref.getSourceFile();
    if (ref === nameNode || file.isInNodeModules() || !looksLikeTestFile(file.getFilePath(), file.getFullText())) continue;
    const call = ref.getParent();
    if (call && Node.isCallExpression(call) && call.getExpression() === ref) calls.push(call);
  }
  return calls;
}

/**
 * Whether the helper holding the request takes the helper form and every test calling it can be
 * driven (then the handlers' calls need no inlined copy of the helper kept beside the tests' one).
 */
export function testCallsDriven(reach: Reach): boolean {
  const fn = reach.site.node.getFirstAncestor((a) => Node.isFunctionDeclaration(a) || Node.isFunctionExpression(a) || Node.isArrowFunction(a) || Node.isMethodDeclaration(a));
  if (!fn) return false;
  let helper: HelperWork;
  try {
    helper = planHelper(fn, [reach.site]);
  } catch {
    return false;
  }
  return testCallsOf(helper).every((call) => typeof drivenTestCall(call, helper) !== 'string');
}

function assigns(fn: Node, name: string): boolean {
  return fn.getDescendantsOfKind(SyntaxKind.BinaryExpression).some((e) => e.getOperatorToken().getText().endsWith('=') && !/^[!=]==?$/.test(e.getOperatorToken().getText()) && e.getLeft().getText() === name);
}

function helperNameFree(text: string): boolean {
  return !new RegExp(`\\b${HELPER_DRIVER}\\b`).test(text);
}

/** The edit routing the test's call through the driver. */
export function drivenCallEdit(driven: DrivenTestCall): { start: number; end: number; text: string } {
  const { call, helper } = driven;
  const args = helperArguments(call, helper);
  const receiver = `(args) => args[${driven.receiverIndex}]${driven.receiverPath}`;
  return { start: call.getStart(), end: call.getEnd(), text: `${HELPER_DRIVER}(${call.getExpression().getText()}, [${args.join(', ')}], ${receiver}, '${driven.method}')` };
}

/** Adds the driver at the end of the test file (once) and the import of the capabilities key it reads. */
export function addDriver(file: SourceFile, fw: FileWork, added: Set<SourceFile>): void {
  if (added.has(file)) return;
  added.add(file);
  fw.values.add(TARGET.clientCapabilitiesMetaKey);
  const ts = flavourOf(file) === 'ts';
  const text = file.getFullText();
  fw.edits.push({ start: text.length, end: text.length, text: `${text.endsWith('\n') ? '' : '\n'}${driverText(ts)}` });
}

function driverText(ts: boolean): string {
  const t = (annotation: string): string => (ts ? annotation : '');
  const key = TARGET.clientCapabilitiesMetaKey;
  return `
/**
 * Calls a request helper as an MCP 2026-07-28 client drives it (written by mcp-mrtr): the migrated
 * helper takes the request's context and a key and returns input_required instead of sending its
 * request, so each round's inputRequests are answered by the test's fake (the method the helper
 * called before, on the same object, with the request's params) and the helper is called again
 * with inputResponses. The client capabilities are the fake's getClientCapabilities(), or every
 * kind of request when it has none. Any other result is returned as it is.
 */
async function ${HELPER_DRIVER}(helper${t(': (...args: any[]) => Promise<any>')}, args${t(': any[]')}, receiver${t(': (args: any[]) => any')}, method${t(': string')})${t(': Promise<any>')} {
  const sender = receiver(args);
  const capabilities = typeof sender?.getClientCapabilities === 'function' ? sender.getClientCapabilities() : { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
  const envelope = { [${key}]: capabilities };
  let result = await helper(...args, { mcpReq: { envelope } }, '${DRIVER_KEY}');
  for (let round = 1; round <= ${MAX_ROUNDS} && result?.resultType === 'input_required' && result.requestState === undefined; round++) {
    const inputResponses${t(': Record<string, unknown>')} = {};
    for (const [key, request] of Object.entries${t('<any>')}(result.inputRequests ?? {})) inputResponses[key] = await sender[method](request.params);
    result = await helper(...args, { mcpReq: { envelope, inputResponses } }, '${DRIVER_KEY}');
  }
  return result;
}
`;
}
