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
 * Only when that is plain: the helper makes the request itself, write-once (no requestState), on an
 * object one of its parameters holds (`server.server.elicitInput(...)`, `server.createMessage(...)`)
 * and the test's call is a plain call of the helper's name with its arguments as they are; or, for a
 * method, on an object a field of its instance holds (`this.server.elicitInput(...)`, the field set
 * by the constructor or a setter) and the test's call is a plain call of the method on an instance
 * it built and holds in a variable (`prompts.askName(...)`, test-instance.ts): the driver calls the
 * method bound to that instance and answers with the instance's field, read as the method reads it.
 * Otherwise the test stays a caller the rewrite cannot serve, and the request is flagged.
 */
import { SERVER_METHOD_TO_LEGACY, TARGET } from '@mcp-mrtr/surface';
import { Node, type CallExpression, type PropertyAccessExpression, type SourceFile } from 'ts-morph';
import { flavourOf } from './module-flavour.js';
import { helperArguments, planHelper, type HelperWork } from './helper.js';
import { helperName } from './function-body.js';
import { abbreviate } from './purity.js';
import { parametersOf, requestReceiver, type RequestReceiver } from './request-receiver.js';
import { testInstance } from './test-instance.js';
import { reportLine } from '../report-lines.js';
import { looksLikeTestFile } from '../test-mocks/find.js';
import { functionNameNode, referencesOf } from '../find/resolve.js';
import type { Reach, Site } from '../model.js';
import type { FileWork } from './emit-common.js';

export const HELPER_DRIVER = 'callHelperAnsweringInputRequests';

/** How many rounds the driver answers before it returns what the helper asks (a helper asking forever). */
const MAX_ROUNDS = 8;

/** The key the driver passes: the helper asks under the key its caller gives, whatever it is. */
const DRIVER_KEY = 'request';

export interface DrivenTestCall {
  call: CallExpression;
  helper: HelperWork;
  /** The object the request is sent on, as the test's call reaches it. */
  receiver: RequestReceiver;
  /** The instance a method is called on (`prompts` of `prompts.askName(...)`); undefined for a function. */
  instance?: string;
  /** The legacy method the fake answers with (`elicitInput`). */
  method: string;
}

/**
 * Why a test's call of `fn` (the function making the request `site`) cannot go through the driver,
 * judged from the call and the request alone (the reach stage's view; drivenTestCall adds the
 * helper form's own conditions).
 */
export function testCallObstacle(call: CallExpression, fn: Node, site: Site): string | undefined {
  const planned = plannedReceiver(call, fn, site);
  return typeof planned === 'string' ? planned : undefined;
}

/** The request's receiver and the instance the test calls a method on, or why the call cannot be driven. */
function plannedReceiver(call: CallExpression, fn: Node, site: Site): { receiver: RequestReceiver; instance?: string; callee: PropertyAccessExpression } | string {
  const name = helperName(fn);
  const callee = Node.isCallExpression(site.node) ? site.node.getExpression() : undefined;
  if (site.shape !== 'server-method' || !callee || !Node.isPropertyAccessExpression(callee) || !SERVER_METHOD_TO_LEGACY[callee.getName()]) {
    return `\`${name}\` does not call the request's method on a server object`;
  }
  const receiver = requestReceiver(fn, callee);
  if (typeof receiver === 'string') return receiver;
  const where = `${call.getSourceFile().getBaseName()}:${reportLine(call)}`;
  const testCallee = call.getExpression();
  const method = Node.isMethodDeclaration(fn) || Node.isPropertyDeclaration(fn.getParent());
  const instance = method ? testInstance(testCallee, fn) : undefined;
  if (instance && 'obstacle' in instance) return `the test's call \`${abbreviate(testCallee.getText(), 40)}(...)\` (${where}) ${instance.obstacle}`;
  if ((!method && !Node.isIdentifier(testCallee)) || call.getTypeArguments().length > 0 || call.getQuestionDotTokenNode()) {
    return `the test's call \`${abbreviate(testCallee.getText(), 40)}(...)\` (${where}) is not a plain call of \`${name}\``;
  }
  const args = call.getArguments();
  if (args.some((a) => Node.isSpreadElement(a)) || args.length > parametersOf(fn).length) return `the test's call of \`${name}\` (${where}) spreads or adds arguments`;
  if (!helperNameFree(call.getSourceFile().getFullText())) return `${call.getSourceFile().getBaseName()} already uses the name ${HELPER_DRIVER}`;
  return { receiver, callee, ...(instance ? { instance: instance.name } : {}) };
}

/** The plan for driving the test's call through the driver, or why it cannot be. */
export function drivenTestCall(call: CallExpression, helper: HelperWork): DrivenTestCall | string {
  if (helper.point.kind !== 'direct' || helper.ctxParam !== undefined || helper.senderParam !== undefined) return `\`${helper.name}\` does not send the request on a server it is given`;
  const planned = plannedReceiver(call, helper.fn, helper.point.sites[0]!);
  if (typeof planned === 'string') return planned;
  return { call, helper, receiver: planned.receiver, method: planned.callee.getName(), ...(planned.instance !== undefined ? { instance: planned.instance } : {}) };
}

/**
 * Why the tests calling the request's function keep its handlers from migrating, or undefined when
 * every such call can go through the driver (the helper form decides the rest).
 */
export function testCallsObstacle(fn: Node, site: Site): string | undefined {
  for (const call of testCallsOf(fn)) {
    const obstacle = testCallObstacle(call, fn, site);
    if (obstacle) return obstacle;
  }
  return undefined;
}

/** Every call of the function's name in a test file (whichever test makes it). */
export function testCallsOf(fn: Node): CallExpression[] {
  const cached = TEST_CALLS.get(fn);
  if (cached) return cached;
  const nameNode = functionNameNode(fn);
  const calls: CallExpression[] = [];
  // references the language service cannot list: no test call is known
  for (const ref of (nameNode && Node.isIdentifier(nameNode) ? referencesOf(nameNode) : undefined) ?? []) {
    const file = ref.getSourceFile();
    if (ref === nameNode || file.isInNodeModules() || !looksLikeTestFile(file.getFilePath(), file.getFullText())) continue;
    const parent = ref.getParent();
    // `obj.method(...)`: the call of the property access
    const callee = parent && Node.isPropertyAccessExpression(parent) && parent.getNameNode() === ref ? parent : ref;
    const call = callee.getParent();
    if (call && Node.isCallExpression(call) && call.getExpression() === callee) calls.push(call);
  }
  TEST_CALLS.set(fn, calls);
  return calls;
}
const TEST_CALLS = new WeakMap<Node, CallExpression[]>();

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
  return testCallsOf(helper.fn).every((call) => typeof drivenTestCall(call, helper) !== 'string');
}

function helperNameFree(text: string): boolean {
  return !new RegExp(`\\b${HELPER_DRIVER}\\b`).test(text);
}

/**
 * The edit routing the test's call through the driver. A method is passed bound to the instance
 * the test calls it on, and its field is read with an element access, which TypeScript allows for
 * private and protected members too.
 */
export function drivenCallEdit(driven: DrivenTestCall): { start: number; end: number; text: string } {
  const { call, helper, receiver, instance } = driven;
  const args = helperArguments(call, helper);
  const path = receiver.path.map((p) => `.${p}`).join('');
  const held = receiver.kind === 'parameter' ? `(args) => args[${receiver.index}]${path}` : `() => ${instance}['${receiver.field}']${path}`;
  const callee = instance === undefined ? call.getExpression().getText() : `${instance}.${helper.name}.bind(${instance})`;
  return { start: call.getStart(), end: call.getEnd(), text: `${HELPER_DRIVER}(${callee}, [${args.join(', ')}], ${held}, '${driven.method}')` };
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
 *
 * A fake that fails the request stood for a client that cannot take it: the helper is called once
 * more as a client that did not declare that kind of request, which fails inside the helper where
 * the request failed before (its catch takes it, with the SDK's missing-capability error instead of
 * the fake's); when nothing in the helper catches it, the fake's own error is thrown, as before.
 */
async function ${HELPER_DRIVER}(helper${t(': (...args: any[]) => Promise<any>')}, args${t(': any[]')}, receiver${t(': (args: any[]) => any')}, method${t(': string')})${t(': Promise<any>')} {
  const sender = receiver(args);
  const capabilities = typeof sender?.getClientCapabilities === 'function' ? sender.getClientCapabilities() : { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
  const envelope = { [${key}]: capabilities };
  let result = await helper(...args, { mcpReq: { envelope } }, '${DRIVER_KEY}');
  for (let round = 1; round <= ${MAX_ROUNDS} && result?.resultType === 'input_required' && result.requestState === undefined; round++) {
    const inputResponses${t(': Record<string, unknown>')} = {};
    for (const [key, request] of Object.entries${t('<any>')}(result.inputRequests ?? {})) {
      try {
        inputResponses[key] = await sender[method](request.params);
      } catch (error) {
        const kinds${t(': Record<string, string>')} = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };
        const declared${t(': Record<string, unknown>')} = { ...capabilities };
        delete declared[kinds[request.method] ?? ''];
        try {
          return await helper(...args, { mcpReq: { envelope: { [${key}]: declared } } }, '${DRIVER_KEY}');
        } catch {
          throw error;
        }
      }
    }
    result = await helper(...args, { mcpReq: { envelope, inputResponses } }, '${DRIVER_KEY}');
  }
  return result;
}
`;
}
