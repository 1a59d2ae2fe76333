/**
 * The test-mock stage: unit tests that mock a request the run migrated get their mechanical mocks
 * rewritten into client answers and every other such mock flagged with a marker
 * (engine/test-mocks). In a test file that is, or imports, a file the run leaves upgraded to v2,
 * hand-built v1 handler contexts are reshaped to the v2 one (`context-literals.ts`), but for fakes
 * holding a mock reported here. It runs on the file results, so a test file the run left out of its
 * project is read again; a file already holding test-mock sites is left alone.
 */
import { LEGACY_METHODS, SERVER_METHOD_TO_LEGACY, TODO_MARKER, isLegacyMethod, type LegacyMethod } from '@mcp-mrtr/surface';
import path from 'node:path';
import { answeringMocksIn, drivenRejectedAnswersIn, reshapeContextMockText, undrivenCallsIn } from '../engine/test-mocks/context-literals.js';
import { REJECTED_ANSWER_ADVICE, rejectedAnswerReason } from '../engine/test-mocks/answer-shape.js';
import { markerComment } from '../engine/markers.js';
import { CONTEXTLESS_CALL_ADVICE, type StateCodecOf, type UndrivenCall } from '../engine/test-mocks/contextless-handler-calls.js';
import { CODEC_EXPORT } from '../engine/rewrite/state-module.js';
import { SHIM_SENT_MEMBERS, type ShimMembers } from '../engine/test-mocks/shim-answered-calls.js';
import { looksLikeTestFile, mockSites, reportedMockInside } from '../engine/test-mocks/index.js';
import { renamedRegistrations, renamedRegistrationSites } from '../engine/test-mocks/renamed-registrations.js';
import { relativeImports } from '../engine/prefilter.js';
import { isV1Source } from '../engine/upgrade.js';
import type { FileResult, MigrationResult, SiteResult } from '../types.js';
import { summarize } from './result.js';
import type { RunState } from './state.js';
import type { Handler, HandlerRegistration } from '../engine/model.js';
import { contextIndex } from '../engine/rewrite/context.js';

/** What the stage knows of the whole run when it looks at one file. */
interface MockContext {
  read: (file: string) => string | undefined;
  /** The legacy requests the run migrated: only mocks of those are reported. */
  migrated: ReadonlySet<LegacyMethod>;
  /** Files the run leaves on v2 after upgrading them: the handlers a test's fake contexts are passed to. */
  upgraded: ReadonlySet<string>;
  /** Every file of the run (relative imports resolve among them). */
  paths: Set<string>;
  /** The registered names (tools, prompts) of the handlers the run migrated. */
  migratedHandlers: ReadonlySet<string>;
  /** Per registered name of a migrated handler, the state codec its file imports (the file and the specifier). */
  stateCodecs: ReadonlyMap<string, { file: string; specifier: string }>;
  /** Those the run's registrations give no input schema: the handler's one parameter is its context. */
  contextOnlyHandlers: ReadonlySet<string>;
  /** Per file of the run, the v1 registration methods its upgrade renamed (`tool` -> `registerTool`: renamed-registrations.ts). */
  renamedIn: ReadonlyMap<string, string[]>;
  /** The server members whose assigned mocks a test may have the SDK's legacy shim answer with (`shim-answered-calls.ts`), each with whether its failing mock may be driven as a client not declaring its capability; computed when a test calls a request handler. */
  shimMembers: () => ShimMembers;
}

export function testMocksStage({ env, results, lateEdits, heldOnV1, beforeTestMocks, contextOnlyHandlers }: Pick<RunState, 'env' | 'results'> & Partial<Pick<RunState, 'lateEdits' | 'heldOnV1' | 'beforeTestMocks' | 'contextOnlyHandlers'>>): void {
  if (!env.testMocks) return;
  const ofRun = contextOf([...results.values()], [], env.testMocks.read, contextOnlyHandlers);
  // one file of a run (jscodeshift): the client-capability checks of the other files are not seen, so no test initializes a server
  const context = env.testMocks.anyRequestMigrated ? { ...ofRun, migrated: new Set(LEGACY_METHODS), shimMembers: () => new Map() } : ofRun;
  for (const [filePath, file] of results) {
    // a test kept on v1 with the code it tests (run/v1-hold-back.ts) still drives that v1 code
    if (heldOnV1?.has(filePath)) continue;
    const next = withTestMockSites(file, context);
    if (next.output !== file.output) {
      lateEdits?.add(filePath);
      beforeTestMocks?.set(filePath, file);
    }
    results.set(filePath, next);
  }
}

/**
 * The result of a test file whose test-mock rewrite did not typecheck (the importers check): its
 * result before the rewrite, with the mocks of migrated requests only marked (none rewritten, no
 * fake context reshaped), each saying why, and a note on the file.
 */
export function withTestMocksMarkedOnly(before: FileResult, results: Iterable<FileResult>, read: (file: string) => string | undefined, why: string): FileResult {
  const marked = withTestMockSites(before, contextOf([...results], [], read), false);
  const known = new Set(before.sites);
  return {
    ...marked,
    sites: marked.sites.map((s) => (known.has(s) || s.method !== 'test-mock' ? s : { ...s, status: 'flagged' as const, reason: `${s.reason ?? 'test mock'}; not rewritten: ${why}` })),
    notes: [...(marked.notes ?? []), `the test-mock rewrite of this file was undone: ${why}`],
  };
}

/**
 * A whole result with the test-mock sites of its files and of any other `discovered` file added,
 * and its summary counted again.
 */
export function addTestMockSites(result: MigrationResult, discovered: readonly string[], read: (file: string) => string | undefined): MigrationResult {
  const context = contextOf(result.files, discovered, read);
  const known = new Set(result.files.map((f) => f.path));
  const extra: FileResult[] = discovered.filter((p) => !known.has(p)).map((p) => ({ path: p, status: 'unchanged', sites: [] }));
  const files = [...result.files, ...extra].map((file) => withTestMockSites(file, context));
  // Extra files with nothing found come back as the same object: leave them out of the result.
  const kept = files.filter((f) => !extra.includes(f));
  return { ...result, summary: summarize(kept), files: kept };
}

function contextOf(files: FileResult[], discovered: readonly string[], read: (file: string) => string | undefined, contextOnlyHandlers: ReadonlySet<string> = new Set()): MockContext {
  const migrated = new Set<LegacyMethod>();
  const migratedHandlers = new Set<string>();
  const stateCodecs = new Map<string, { file: string; specifier: string }>();
  for (const file of files) {
    for (const site of file.sites) {
      if (site.status !== 'migrated' || !isLegacyMethod(site.method)) continue;
      migrated.add(site.method);
      if (site.handler === undefined) continue;
      migratedHandlers.add(site.handler);
      const specifier = file.output === undefined ? undefined : importedCodecSpecifier(file.output);
      if (specifier !== undefined) stateCodecs.set(site.handler, { file: file.path, specifier });
    }
  }
  const upgraded = new Set(files.filter((f) => f.original !== undefined && f.output !== undefined && isV1Source(f.original) && !isV1Source(f.output)).map((f) => f.path));
  const renamedIn = new Map<string, string[]>();
  for (const file of files) {
    if (!upgraded.has(file.path)) continue;
    const renamed = renamedRegistrations(file.original!, file.output!);
    if (renamed.length > 0) renamedIn.set(file.path, renamed);
  }
  return { read, migrated, upgraded, paths: new Set([...files.map((f) => f.path), ...discovered]), migratedHandlers, stateCodecs, contextOnlyHandlers, renamedIn, shimMembers: once(() => shimMembersOf(files, migrated, read)) };
}

function once<T>(compute: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: compute() }).v;
}

/**
 * The members (`createMessage`, `listRoots`) of the requests the run migrated, whose assigned mocks
 * the SDK's legacy shim may answer a test's request-handler call with once the helper has declared
 * their capabilities at initialize; none when code of the run, as written, reads the client
 * capabilities (declaring one, or declaring none, could turn such a check's branch). Each with
 * whether every migrated site of its request fails, for a client that did not declare the
 * capability, where the legacy request failed, into a catch that does not read the error
 * (`undeclaredCaught`): then a test's failing mock of it is driven as such a client.
 */
function shimMembersOf(files: FileResult[], migrated: ReadonlySet<LegacyMethod>, read: (file: string) => string | undefined): ShimMembers {
  // the user's code as written: the migration's own helpers (the test driver, the capability module) read them too
  const readsCapabilities = files.some((f) => f.status !== 'created' && /\bgetClientCapabilities\s*\(/.test(f.original ?? read(f.path) ?? ''));
  if (readsCapabilities) return new Map();
  const members = Object.keys(SHIM_SENT_MEMBERS).filter((member) => [...migrated].some((method) => SERVER_METHOD_TO_LEGACY[member] === method));
  const sites = files.flatMap((f) => f.sites).filter((s) => s.status === 'migrated');
  return new Map(members.map((member) => [member, sites.filter((s) => s.method === SERVER_METHOD_TO_LEGACY[member]).every((s) => s.undeclaredCaught === true)]));
}

/** The relative specifier a migrated file imports the state codec from. */
function importedCodecSpecifier(text: string): string | undefined {
  const found = new RegExp(`import\\s*\\{[^}]*\\b${CODEC_EXPORT}\\b[^}]*\\}\\s*from\\s*['"](\\.[^'"]*)['"]`).exec(text);
  return found?.[1];
}

/** The state codec of a migrated handler as `testFile` imports it (the extension spelled as the handler's file spells it). */
function codecOfFrom(testFile: string, stateCodecs: MockContext['stateCodecs']): StateCodecOf {
  return (name) => {
    const codec = stateCodecs.get(name);
    if (!codec) return undefined;
    const target = path.join(path.dirname(codec.file), codec.specifier);
    const relative = path.relative(path.dirname(testFile), target).split(path.sep).join('/');
    return relative.startsWith('.') ? relative : `./${relative}`;
  };
}

/** The registry map entries' APIs: their handler takes (args, ctx), or only ctx without an input schema. */
const REGISTRY_APIS = new Set<HandlerRegistration>(['registerTool', 'tool', 'registerPrompt', 'prompt']);

/**
 * The registered names whose handler's only parameter is its context, by the registrations the run
 * found (rewrite/context.ts contextIndex), read before the rewrite changes them; a name registered both
 * ways is not among them. Without the run's registrations (a result given afterwards) none is known,
 * and a call is routed as taking (args, ctx).
 */
export function contextOnlyNames(handlers: readonly Handler[]): Set<string> {
  const contextOnly = new Set<string>();
  const withArguments = new Set<string>();
  for (const handler of handlers) {
    if (handler.name === undefined || !REGISTRY_APIS.has(handler.registration)) continue;
    (contextIndex(handler) === 0 ? contextOnly : withArguments).add(handler.name);
  }
  return new Set([...contextOnly].filter((name) => !withArguments.has(name)));
}

/**
 * One file's result with its test-mock sites. The rewrite is planned on the engine's output (after
 * the official v1→v2 upgrade, whose `@modelcontextprotocol/client` import the rewrite needs); site
 * lines and columns refer to the original text. The same object when there is nothing to add.
 */
function withTestMockSites(file: FileResult, { read, migrated: migratedRequests, upgraded, paths, migratedHandlers, stateCodecs, contextOnlyHandlers, renamedIn, shimMembers }: MockContext, rewrite = true): FileResult {
  if (file.status === 'failed' || file.status === 'skipped' || file.status === 'created') return file;
  if (file.sites.some((s) => s.method === 'test-mock')) return file;
  const original = file.original ?? read(file.path);
  if (original === undefined) return file;
  if (!looksLikeTestFile(file.path, original)) return file;
  const before = file.output ?? original;
  const onV2 = rewrite && (upgraded.has(file.path) || relativeImports(file.path, original, paths).some((p) => upgraded.has(p)));
  const codecOf = codecOfFrom(file.path, stateCodecs);
  // mocks answering a call the reshape drives are that call's rewrite, not mocks left behind
  // reading every file of the run for capability checks only for a test that calls a request handler
  const shim: ShimMembers = onV2 && before.includes('_requestHandlers') ? shimMembers() : new Map();
  const answering = onV2 ? answeringMocksIn(file.path, before, migratedHandlers, codecOf, contextOnlyHandlers, shim) : undefined;
  const mocks = mockSites(file.path, original, before, migratedRequests, rewrite, answering);
  const text = mocks?.output ?? before;
  const keep = reportedMockInside(file.path, text, migratedRequests);
  const fakes = onV2 ? reshapeContextMockText(file.path, text, keep, migratedRequests.size > 0, migratedHandlers, codecOf, contextOnlyHandlers, shim) : { output: text, notes: [] };
  // answers the driver of test-called helpers (written by the rewrite) gives and the migrated reader rejects
  const rejected = rewrite ? rejectedAnswerSites(file.path, original, before, fakes.output) : { sites: [], output: fakes.output };
  const undriven = undrivenSites(file.path, original, rewrite ? (fakes.undriven ?? []) : undefined, migratedHandlers, contextOnlyHandlers);
  const registrations = renamedRegistrationSites(file.path, original, rejected.output, renamedByImports(file.path, original, paths, renamedIn));
  if (!mocks && fakes.notes.length === 0 && rejected.sites.length === 0 && undriven.length === 0 && registrations.sites.length === 0) return file;
  const sites = [...(mocks?.sites ?? []), ...undriven, ...rejected.sites, ...registrations.sites];
  const migrated = sites.filter((s) => s.status === 'migrated').length;
  const rewritten = migrated > 0 || fakes.notes.length > 0;
  const status = file.status === 'unchanged' || file.status === 'flagged' ? (rewritten ? 'changed' : 'flagged') : file.status;
  const notes = [...(file.notes ?? []), ...fakes.notes];
  return {
    ...file,
    original,
    output: registrations.output,
    status,
    ...(notes.length > 0 ? { notes } : {}),
    sites: [...file.sites, ...sites].sort((a, b) => a.line - b.line || a.column - b.column),
  };
}

/** The registration methods renamed in the modules `file` imports, each with those modules (relative to `file`). */
function renamedByImports(file: string, original: string, paths: Set<string>, renamedIn: ReadonlyMap<string, string[]>): Map<string, string[]> {
  const byMethod = new Map<string, string[]>();
  if (renamedIn.size === 0) return byMethod;
  for (const imported of relativeImports(file, original, paths)) {
    for (const method of renamedIn.get(imported) ?? []) byMethod.set(method, [...(byMethod.get(method) ?? []), path.relative(path.dirname(file), imported)]);
  }
  return byMethod;
}

/**
 * The contextless calls of migrated handlers the test-mock rewrite did not drive, as flagged sites at
 * their lines in the original text (the upgrade leaves the calls in their order; when their count
 * differs, at the lines of the rewritten text). `undriven` undefined: nothing was rewritten (the
 * rewrite undone), so every such call is reported.
 */
function undrivenSites(file: string, original: string, undriven: UndrivenCall[] | undefined, migratedHandlers: ReadonlySet<string>, contextOnlyHandlers: ReadonlySet<string>): SiteResult[] {
  if (migratedHandlers.size === 0 || undriven?.length === 0) return [];
  const atOriginal = undrivenCallsIn(file, original, migratedHandlers, undriven === undefined, contextOnlyHandlers);
  const calls = undriven ?? atOriginal;
  return calls.map((call, i) => {
    const at = atOriginal.length === calls.length ? atOriginal[i]! : call;
    return { line: at.line, column: at.column, method: 'test-mock', status: 'flagged' as const, reason: call.reason, advice: CONTEXTLESS_CALL_ADVICE, snippet: at.snippet };
  });
}

/**
 * The tests whose fake sampling answer the driven helper's reader rejects (`answer-shape.ts`): they
 * exercise behaviour no real client can produce, so each is a flagged test-mock site at the answer's
 * line in the original text (in the driven text when the counts differ), with the test's title, and
 * a marker above the test (above the answer when it is in no test) in `output`.
 */
function rejectedAnswerSites(file: string, original: string, before: string, output: string): { sites: SiteResult[]; output: string } {
  const driven = drivenRejectedAnswersIn(file, before, true);
  if (driven.length === 0) return { sites: [], output };
  const atOriginal = drivenRejectedAnswersIn(file, original, false);
  const inOutput = drivenRejectedAnswersIn(file, output, true);
  const sites = driven.map((answer, i): SiteResult => {
    const at = atOriginal.length === driven.length ? atOriginal[i]! : answer;
    return { line: at.line, column: at.column, method: 'test-mock', status: 'flagged', reason: rejectedAnswerReason(at), advice: REJECTED_ANSWER_ADVICE, snippet: at.snippet };
  });
  if (inOutput.length !== driven.length) return { sites, output };
  const lines = output.split('\n');
  const marked = new Map<number, string>();
  inOutput.forEach((answer, i) => {
    const line = answer.test?.line ?? answer.line;
    if (!marked.has(line)) marked.set(line, markerComment(sites[i]!.reason!, REJECTED_ANSWER_ADVICE));
  });
  for (const [line, comment] of [...marked].sort((a, b) => b[0] - a[0])) {
    // a test marked by an earlier run keeps its one marker
    if (lines[line - 2]?.includes(TODO_MARKER)) continue;
    const indent = /^\s*/.exec(lines[line - 1] ?? '')![0];
    lines.splice(line - 1, 0, `${indent}${comment}`);
  }
  return { sites, output: lines.join('\n') };
}
