/**
 * A test calling a registered handler taken from the McpServer's private maps without a context:
 * `const handler = (server as any)._registeredTools['ask'].handler; await handler({ topic })`, or
 * through a same-file getter (`getRegisteredTool(server, 'ask')` returning `tools?.[name]?.handler`).
 * v1 handlers the test called so ignored their missing `extra`; a handler this run migrated reads
 * `ctx.mcpReq.requestState()` first, so the call throws a TypeError before the handler does anything.
 *
 * An awaited call of such a handler by a plain name goes through the answering helper of
 * `answer-rounds.ts` with the first round's context (`{ mcpReq: { requestState: () => undefined } }`):
 * as its context argument, after the call's arguments; for a handler registered without an input
 * schema, whose one argument is its context, in place of that argument (an empty `{}`, the v1
 * `extra` such a test passes; any other is reported). A handler that answers without asking (a capability check's fallback, a validation error) returns
 * its result as before; one that asks gets no answer (the test has no client) and its input_required
 * result is returned as it is. Any other call is reported at its line. Only calls whose tool or
 * prompt name is written in the call (or in the getter's call) and is one the run migrated a handler
 * of: a handler the run left alone still works without a context.
 */
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { Node, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';
import { ANSWER_HELPER, helperNameFree } from './answer-rounds.js';
import { SPY_ANSWER_HELPER, spyAnswerEdits, spyAnswerFor, type SpyAnswer } from './spy-answers.js';
import { FIRST_ROUND_CONTEXT } from './protocol-handler-contexts.js';
import { unwrapExpression } from '../find/resolve.js';
import type { ImportRequest } from '../rewrite/imports.js';
import { markerAnchor, markerComment } from '../markers.js';
import type { TextEdit } from '../text-edits.js';

/** McpServer's private maps of registered tools and prompts (v1 and v2), keyed by name. */
const REGISTRY_MAPS = ['_registeredTools', '_registeredPrompts'];
/** The entry's function: `callback` in v1, `handler` in v2. */
const HANDLER_PROPERTIES = new Set(['handler', 'callback']);

export interface ContextlessHandlerCall {
  call: CallExpression;
  /** The registered name the handler was taken under. */
  name: string;
  /** The edits routing the call through an answering helper, or why it cannot be. */
  route: TextEdit[] | { why: string };
  /** The test's spies answering the call's rounds, when the route goes through their helper (`spy-answers.ts`), with the codec import it needs. */
  answer?: SpyAnswer & { opensState: boolean; codecImport?: ImportRequest };
}

/**
 * The import specifier of the state codec that seals the requestState of the handler registered
 * under a name, from the test file; undefined when its file imports none (its rounds carry no state).
 */
export type StateCodecOf = (name: string) => string | undefined;

/**
 * The file's calls of a migrated handler (by its registered name) taken from a registry map, with no
 * context. `contextOnly`: the names the run registered without an input schema, whose handler's one
 * parameter is the context (the run's registrations say so; a name not among them takes (args, ctx)).
 */
export function contextlessHandlerCalls(
  sourceFile: SourceFile,
  migratedNames: ReadonlySet<string>,
  codecOf?: StateCodecOf,
  contextOnly: ReadonlySet<string> = new Set(),
): ContextlessHandlerCall[] {
  // the test-mock stage's calls (it knows the run's codecs) are answered by the test's spies when they can be
  const drivesSpies = codecOf !== undefined;
  if (migratedNames.size === 0 || !REGISTRY_MAPS.some((m) => sourceFile.getFullText().includes(m))) return [];
  const out: ContextlessHandlerCall[] = [];
  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const args = call.getArguments();
    // a handler with an input schema takes (args, ctx): one argument means no context
    if (args.length !== 1 || Node.isSpreadElement(args[0]!)) continue;
    const source = registeredSourceOf(call.getExpression(), migratedNames);
    if (source === undefined) continue;
    const argumentIsContext = contextOnly.has(source.name);
    const route = routeEdits(call, argumentIsContext);
    // the spies' helper calls handler(args, ctx): a handler taking only its context keeps the first round's route
    const answer = Array.isArray(route) && drivesSpies && !argumentIsContext ? spyAnswerFor(call, source.server) : undefined;
    const codec = answer && codecOf!(source.name);
    const spyRoute = answer && spyAnswerEdits(call, answer, codec);
    out.push(spyRoute ? { call, name: source.name, route: spyRoute.edits, answer: { ...answer, opensState: codec !== undefined, ...(spyRoute.codecImport ? { codecImport: spyRoute.codecImport } : {}) } } : { call, name: source.name, route });
  }
  return out;
}

/** A handler taken from a registry map: its migrated registered name, and the server expression it was taken from. */
interface RegisteredSource {
  name: string;
  server?: Node;
}

/** Where the callee's handler was taken from, when the callee is such a handler of a migrated name. */
function registeredSourceOf(callee: Node, migratedNames: ReadonlySet<string>): RegisteredSource | undefined {
  const expression = unwrapExpression(callee);
  if (Node.isIdentifier(expression)) {
    const declaration = expression.getSymbol()?.getDeclarations()[0];
    if (!declaration || !Node.isVariableDeclaration(declaration) || declaration.getVariableStatement()?.getDeclarationKind() !== 'const') return undefined;
    const initializer = declaration.getInitializer();
    return initializer ? handlerSource(unwrapExpression(initializer), migratedNames) : undefined;
  }
  return handlerSource(expression, migratedNames);
}

/** `<map>[name].handler` written out, or a call of a same-file getter returning one, with a migrated name. */
function handlerSource(expression: Node, migratedNames: ReadonlySet<string>): RegisteredSource | undefined {
  if (Node.isPropertyAccessExpression(expression) && HANDLER_PROPERTIES.has(expression.getName())) {
    const entry = unwrapExpression(expression.getExpression());
    if (!REGISTRY_MAPS.some((m) => entry.getText().includes(m))) return undefined;
    const key = Node.isElementAccessExpression(entry) ? entry.getArgumentExpression() : Node.isPropertyAccessExpression(entry) ? entry.getNameNode() : undefined;
    const name = key && (Node.isStringLiteral(key) || Node.isNoSubstitutionTemplateLiteral(key) ? key.getLiteralText() : Node.isIdentifier(key) ? key.getText() : undefined);
    if (name === undefined || !migratedNames.has(name)) return undefined;
    const map = Node.isElementAccessExpression(entry) || Node.isPropertyAccessExpression(entry) ? unwrapExpression(entry.getExpression()) : undefined;
    return { name, server: map && Node.isPropertyAccessExpression(map) && REGISTRY_MAPS.includes(map.getName()) ? map.getExpression() : undefined };
  }
  if (!Node.isCallExpression(expression)) return undefined;
  const getter = registryGetter(expression.getExpression());
  if (!getter) return undefined;
  const args = expression.getArguments();
  const name = args
    .map((a) => (Node.isStringLiteral(a) || Node.isNoSubstitutionTemplateLiteral(a) ? a.getLiteralText() : undefined))
    .find((n): n is string => n !== undefined && migratedNames.has(n));
  if (name === undefined) return undefined;
  return { name, server: getter.serverParameter === undefined ? undefined : args[getter.serverParameter] };
}

/**
 * The callee, when it is a function of this file that reads a registry map and returns an entry's
 * handler, with the index of its parameter holding the server whose map it reads.
 */
function registryGetter(callee: Node): { serverParameter?: number } | undefined {
  if (!Node.isIdentifier(callee)) return undefined;
  const declaration = callee.getSymbol()?.getDeclarations()[0];
  const fn = declaration && Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : declaration;
  if (!fn || !(Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) return undefined;
  const body = fn.getBody();
  if (!body || !REGISTRY_MAPS.some((m) => body.getText().includes(m))) return undefined;
  const returned = Node.isBlock(body) ? body.getDescendantsOfKind(SyntaxKind.ReturnStatement).map((r) => r.getExpression()) : [body];
  const returnsHandler = returned.some((r) => {
    const value = r && unwrapExpression(r);
    return !!value && Node.isPropertyAccessExpression(value) && HANDLER_PROPERTIES.has(value.getName());
  });
  if (!returnsHandler) return undefined;
  const mapBases = body
    .getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)
    .filter((access) => REGISTRY_MAPS.includes(access.getName()))
    .map((access) => unwrapExpression(access.getExpression()).getText());
  const index = fn.getParameters().findIndex((p) => mapBases.includes(p.getName()));
  return index < 0 ? {} : { serverParameter: index };
}

/**
 * `handler(args)` → `callAnsweringInputRequests(handler, args, <first round>)`, for an awaited call of a
 * plain name; `handler({})` → `callAnsweringInputRequests(handler, <first round>)` when the argument is the context.
 */
function routeEdits(call: CallExpression, argumentIsContext: boolean): TextEdit[] | { why: string } {
  if (!Node.isAwaitExpression(call.getParent())) return { why: 'the call is not awaited where it is made' };
  const callee = call.getExpression();
  // `handler!(...)` too: the helper takes the same value
  const name = Node.isNonNullExpression(callee) ? callee.getExpression() : callee;
  if (!Node.isIdentifier(name) || call.getTypeArguments().length > 0) return { why: 'the handler is not called by a plain name' };
  if (!helperNameFree(call.getSourceFile().getFullText())) return { why: `the file already uses the name ${ANSWER_HELPER}` };
  const openParen = call.getFirstChildByKind(SyntaxKind.OpenParenToken);
  const [arg] = call.getArguments();
  if (!openParen || !arg) return { why: 'the handler is not called by a plain name' };
  if (argumentIsContext) {
    // the only context a v1 test handed is an empty extra; anything else in it would be lost
    if (!Node.isObjectLiteralExpression(arg) || arg.getProperties().length > 0 || /\/[/*]/.test(arg.getText())) {
      return { why: "the tool was registered without an input schema, so the call's argument is the handler's context, and it is not an empty one the first round's can replace" };
    }
    return [
      { start: callee.getStart(), end: openParen.getEnd(), text: `${ANSWER_HELPER}(${callee.getText()}, ` },
      { start: arg.getStart(), end: arg.getEnd(), text: FIRST_ROUND_CONTEXT },
    ];
  }
  return [
    { start: callee.getStart(), end: openParen.getEnd(), text: `${ANSWER_HELPER}(${callee.getText()}, ` },
    { start: arg.getEnd(), end: arg.getEnd(), text: `, ${FIRST_ROUND_CONTEXT}` },
  ];
}

/** A call the helper cannot take: reported at its line with the reason. */
export interface UndrivenCall {
  line: number;
  column: number;
  snippet: string;
  reason: string;
}

export const CONTEXTLESS_CALL_ADVICE =
  'call the handler with a context: the first round\'s ({ mcpReq: { requestState: () => undefined } }), and when it returns input_required, answer its inputRequests and call it again with inputResponses and the returned requestState; or drive the tool through a Client';

/** Why the call fails after the migration (the reason of its report, or of its note when routed). */
function failure(name: string): string {
  return `the test calls the handler of '${name}', taken from the server's private map, without a context: this run migrated it, and the migrated handler reads its context (ctx.mcpReq) for the rounds before, so the call throws a TypeError`;
}

/** What the contextless calls of a file change in it. */
export interface ContextlessCallChanges {
  edits: TextEdit[];
  /** The imports the edits use, one request a routed call: for rewrite/imports.ts `ensureNamedImportsOf` on the edited file. */
  imports: ImportRequest[];
  notes: string[];
  /** Some call goes through the first-round helper of `answer-rounds.ts`. */
  answering: boolean;
  /** Some call goes through the spy-answering helper of `spy-answers.ts`. */
  spyAnswering: boolean;
  /** The start positions of the spies answering a call (the mock scan reports them as rewritten). */
  answeringSpies: number[];
  undriven: UndrivenCall[];
}

/**
 * The file's contextless calls of migrated handlers: the edits routing the awaited ones through an
 * answering helper (with a note each), a marker above each other one, and those reported
 * (`driveNone`: every call, nothing edited).
 */
export function contextlessCallChanges(
  sourceFile: SourceFile,
  migratedNames: ReadonlySet<string>,
  driveNone = false,
  codecOf?: StateCodecOf,
  contextOnly: ReadonlySet<string> = new Set(),
): ContextlessCallChanges {
  const out: ContextlessCallChanges = { edits: [], imports: [], notes: [], answering: false, spyAnswering: false, answeringSpies: [], undriven: [] };
  for (const { call, name, route, answer } of contextlessHandlerCalls(sourceFile, migratedNames, driveNone ? undefined : codecOf, contextOnly)) {
    const line = call.getStartLineNumber();
    if (driveNone) {
      const { column } = sourceFile.getLineAndColumnAtPos(call.getStart());
      out.undriven.push({ line, column, snippet: call.getText().split('\n')[0]!.slice(0, 80), reason: failure(name) });
      continue;
    }
    if (Array.isArray(route)) {
      out.edits.push(...route);
      if (answer) {
        out.spyAnswering = true;
        if (answer.codecImport) out.imports.push(answer.codecImport);
        out.answeringSpies.push(...answer.spies.map((spy) => spy.getStart()));
        const spyLines = answer.spies.map((spy) => spy.getStartLineNumber()).join(', ');
        out.notes.push(`${line}: ${failure(name)}; the call goes through ${SPY_ANSWER_HELPER} (added at the end of this file), which answers the handler's inputRequests with the test's spies on ${answer.receiver} (line ${spyLines}), called with each request's params, and calls it again with inputResponses${answer.opensState ? ' and its requestState, opened with the generated state codec' : ''}`);
        continue;
      }
      out.answering = true;
      const replacing = contextOnly.has(name) ? ' in place of the empty one it was called with (registered without an input schema, the handler takes only its context)' : '';
      out.notes.push(`${line}: ${failure(name)}; the call goes through ${ANSWER_HELPER} (added at the end of this file) with the first round's context ${FIRST_ROUND_CONTEXT}${replacing}: the handler's result comes back as it was, or its input_required result when it asks (nothing in the test answers it)`);
      continue;
    }
    const reason = `${failure(name)}; not driven: ${route.why}`;
    const anchor = markerAnchor(call);
    const text = sourceFile.getFullText();
    const lineStart = text.lastIndexOf('\n', anchor.getStart() - 1) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
    // marked by an earlier run (or by the mock scan): one marker a statement
    const previousLine = text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart);
    if (!previousLine.includes(TODO_MARKER)) out.edits.push({ start: lineStart, end: lineStart, text: `${indent}${markerComment(reason, CONTEXTLESS_CALL_ADVICE)}\n` });
    const { column } = sourceFile.getLineAndColumnAtPos(call.getStart());
    out.undriven.push({ line, column, snippet: call.getText().split('\n')[0]!.slice(0, 80), reason });
  }
  return out;
}
