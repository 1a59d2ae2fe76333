/**
 * The importers check: the files a run can break without the verify stage ever typechecking them.
 *
 * - Project files that import a file the run changed and are not changed themselves: the tsconfig's
 *   files outside the migrated paths (a unit test of an upgraded tool module, where a type the
 *   module returns comes from the v2 SDK now), TypeScript test files beside the tsconfig that it does
 *   not include, and files of the run the pre-filter kept aside or that verify did not check because
 *   nothing changed in them.
 * - Files changed after verify: the test-mock stage's rewrites. One that adds a type error is undone
 *   (its mocks only marked, each saying why) and the file checked again as it is then.
 *
 * Each is typechecked twice, in a program over the run's output texts and in one over the texts on
 * disk (what the project compiles today); an error only the first has is a flagged `type-error`
 * site at its line (exit 1), with the compiler's message and the changed files it imports, and a
 * file of the run gets an `@mcp-mrtr-todo` marker above it. A file outside the run is not written:
 * its report entry says where and why. Before that, the errors a repair covers are repaired:
 * reads of a result property v2 declares wider (run/importer-repairs.ts, type-only, also in a file
 * outside the run that the tsconfig holds), and, in a file of the run, reads of a property only
 * some members of a closed v2 union declare (engine/union-member-reads.ts), each kept where the
 * file then has fewer errors and no new one.
 */
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Project, SourceFile } from 'ts-morph';
import type { DependencyResolutions } from '../engine/dependency-resolutions.js';
import type { LibraryFiles } from '../engine/library-files.js';
import { addMarkers } from '../engine/markers.js';
import { buildLineMap } from '../engine/line-map.js';
import { relativeImports } from '../engine/prefilter.js';
import { ProjectFiles } from '../engine/project-files.js';
import { scriptKindOf } from '../engine/script-kind.js';
import type { FileResult, SiteResult } from '../types.js';
import { repairClosedUnionReads } from '../engine/union-member-reads.js';
import { upgradeErrorCause } from '../engine/upgrade-error-causes.js';
import { v2TypeHint } from '../engine/v2-type-hints.js';
import type { ZodFloor } from '../engine/zod-floor.js';
import { projectFileNames, testFilesBeside, type BesideOptions } from '../tests-beside.js';
import { outsidePathsReason, repairWidenedReads } from './importer-repairs.js';
import { createProject } from './load.js';
import type { RunState } from './state.js';
import { withTestMocksMarkedOnly } from './test-mocks.js';
import type { TypeError } from './type-error.js';
import { firstSyntaxError, freshErrors, typeErrors } from './verify.js';

/** Share of the heap limit the run may already use for the check's two programs to be built. */
const HEAP_SHARE_BEFORE_CHECK = 0.25;

export const IMPORTER_TYPE_ERROR_ADVICE =
  'adapt this line by hand to what the migrated files it imports now export (their SDK types are the v2 ones); tsc --noEmit shows the full message';

/** One file to check: its text on disk, its text after the run, and the changed files it imports. */
interface Candidate {
  path: string;
  before: string;
  after: string;
  imports: string[];
}

export function importersCheckStage(state: Pick<RunState, 'env' | 'results' | 'typeChecked' | 'options' | 'lateEdits' | 'libraryFiles' | 'dependencyResolutions'> & Partial<Pick<RunState, 'beforeTestMocks' | 'zodRaised'>>): void {
  const { env, results, typeChecked } = state;
  if (!typeChecked || !env.tsconfig || !env.manifests) return;
  const changed = changedOutputs(results);
  if (changed.size === 0) return;
  // the tsconfig's files: candidates, and the files outside the run it may write a type-only repair into
  const held = new Set(projectFileNames(env.tsconfig));
  const candidates = candidatesOf(env.tsconfig, held, results, changed, state.lateEdits, { cwd: state.options.cwd, ignore: state.options.ignore, walked: env.testsBeside });
  if (candidates.length === 0) return;
  const cwd = state.options.cwd ?? process.cwd();
  // Two more programs over the candidates and everything they import, beside the run's own project:
  // with large declaration dependencies (a generated cloud API client) they do not fit in the heap,
  // and the whole run dies. The check is then left out and each changed file says so.
  if (liveHeapOver(v8.getHeapStatistics().heap_size_limit * HEAP_SHARE_BEFORE_CHECK)) {
    for (const filePath of changed.keys()) {
      const file = results.get(filePath);
      if (file && file.status !== 'created') file.notes = [...(file.notes ?? []), `the ${candidates.length} unchanged file(s) importing the changed files were not typechecked against the migration (the run's memory would not hold two more programs of this project): run tsc --noEmit`];
    }
    return;
  }
  const { errors: found, after, beforeKeys } = newTypeErrors(env.tsconfig, candidates, changed, state.libraryFiles, state.zodRaised, state.dependencyResolutions);
  for (const checkedCandidate of candidates) {
    let candidate = checkedCandidate;
    let errors = found.get(candidate.path);
    if (!errors || errors.length === 0) continue;
    const checked = after.getSourceFileOrThrow(candidate.path);
    let rewritten = state.lateEdits.has(candidate.path);
    const undone = rewritten ? undoTestMockRewrite(state, candidate, errors, checked, beforeKeys.get(candidate.path)!) : undefined;
    if (undone) {
      results.set(candidate.path, undone.result);
      candidate = { ...candidate, after: undone.text };
      errors = undone.errors;
      rewritten = false;
      if (errors.length === 0) continue;
    }
    // a file of the run, or one the tsconfig holds: the run may write its type-only repair
    const outside = !results.has(candidate.path);
    const repair = !outside || held.has(candidate.path) ? repairWidenedReads(checked, candidate.after, errors, beforeKeys.get(candidate.path)!) : undefined;
    if (repair) {
      candidate = { ...candidate, after: repair.text };
      errors = repair.errors;
    }
    // changes the emitted JavaScript (the value it reads is the same): in a file of the run only
    const narrowed = outside ? undefined : repairClosedUnionReads(checked, errors, () => freshErrors(beforeKeys.get(candidate.path)!, typeErrors(checked)));
    if (narrowed) {
      candidate = { ...candidate, after: checked.getFullText() };
      errors = narrowed.errors;
    }
    const notes = [...(repair?.notes ?? []), ...(narrowed?.notes.map((n) => `${n.line}: ${n.text}`) ?? [])].sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
    const repaired = repair || narrowed ? { notes, ...(outside ? { outsidePaths: outsidePathsReason(env.tsconfig, cwd, notes.length) } : {}) } : undefined;
    const lines = buildLineMap(candidate.before, candidate.after);
    const reasoned = errors.map((e) => {
      const known = upgradeErrorCause(checked, e.start, e.detail);
      return { error: e, reason: `${importerReason(candidate, rewritten, cwd, e)}${known ? ` (${known.cause})` : ''}`, advice: v2TypeHint(checked, e.start) ?? known?.advice ?? IMPORTER_TYPE_ERROR_ADVICE };
    });
    const sites = reasoned.map(({ error: e, reason, advice }): SiteResult => ({
      line: lines.toOriginal(e.line),
      column: e.column,
      method: 'type-error',
      status: 'flagged',
      reason,
      advice,
      snippet: e.snippet,
    }));
    const file = results.get(candidate.path);
    const marked = file && sites.length > 0 ? markedText(checked, reasoned) : undefined;
    results.set(candidate.path, withSites(file, candidate, sites, marked ?? (repaired ? candidate.after : undefined), repaired));
  }
}

/**
 * Whether the live heap is over `bytes`. `heapUsed` counts garbage until V8's next full collection
 * (several times the live heap, heap-growth.ts), and in a process that ran migrations before this one
 * (an API caller's loop, a test worker running many files) most of it is theirs: read alone, an
 * earlier run's garbage left this run's check out. Over the line, the garbage is collected and the
 * heap read again: one full collection, only in a run that would otherwise leave the check out.
 */
function liveHeapOver(bytes: number): boolean {
  if (process.memoryUsage().heapUsed <= bytes) return false;
  collectGarbage();
  return process.memoryUsage().heapUsed > bytes;
}

/**
 * A full garbage collection: `gc` of a context created while --expose-gc is set. Unlike the heap
 * growth flag the CLI sets (heap-growth.ts), this leaves the process as it found it: V8 reads the flag
 * only when a context is created, and it is set back before any other code runs, so no context of
 * the caller's ever gets `gc`.
 */
function collectGarbage(): void {
  const exposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
  try {
    if (!exposed) v8.setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  } catch {
    // no gc to call: the heap is read as it is
  } finally {
    if (!exposed) v8.setFlagsFromString('--no-expose-gc');
  }
}

/**
 * A test-mock rewrite that adds a type error its file did not have before the rewrite is undone:
 * the file's result goes back to its text before the test-mock stage, with the mocks only marked
 * (`withTestMocksMarkedOnly`), and `checked` gets that text; the errors left are those of that text
 * that the file on disk does not have. Undefined when the errors are not the rewrite's.
 */
function undoTestMockRewrite(
  state: Pick<RunState, 'env' | 'results'> & Partial<Pick<RunState, 'beforeTestMocks'>>,
  candidate: Candidate,
  errors: TypeError[],
  checked: SourceFile,
  diskKeys: string[],
): { result: FileResult; text: string; errors: TypeError[] } | undefined {
  const before = state.beforeTestMocks?.get(candidate.path);
  if (!before || !state.env.testMocks) return undefined;
  checked.replaceWithText(before.output ?? candidate.before);
  const byRewrite = freshErrors(typeErrors(checked).map((e) => e.key), errors);
  if (byRewrite.length === 0) {
    checked.replaceWithText(candidate.after);
    return undefined;
  }
  const first = byRewrite[0]!;
  const line = buildLineMap(candidate.before, candidate.after).toOriginal(first.line);
  const why = `the rewritten test did not typecheck (${byRewrite.length} new error(s), the first at line ${line}: ${first.message})`;
  const result = withTestMocksMarkedOnly(before, state.results.values(), state.env.testMocks.read, why);
  const text = result.output ?? candidate.before;
  checked.replaceWithText(text);
  return { result, text, errors: freshErrors(diskKeys, typeErrors(checked)) };
}

/**
 * A file of the run gets an \`@mcp-mrtr-todo\` marker above each line (the run may write it, and a
 * search for the markers finds every site); undefined when the marked text would not parse.
 */
function markedText(sourceFile: SourceFile, errors: Array<{ error: TypeError; reason: string; advice: string }>): string | undefined {
  const requests = errors.map(({ error, reason, advice }) => ({ node: sourceFile.getDescendantAtPos(error.start) ?? sourceFile, reason, advice }));
  addMarkers(sourceFile, requests);
  return firstSyntaxError(sourceFile) ? undefined : sourceFile.getFullText();
}

/** The text of every file the run writes differently (created files included), by path. */
function changedOutputs(results: Map<string, FileResult>): Map<string, string> {
  const changed = new Map<string, string>();
  for (const [filePath, file] of results) {
    if (file.output === undefined || file.status === 'failed' || file.status === 'skipped') continue;
    if (file.status === 'created' || (file.original !== undefined && file.output !== file.original)) changed.set(filePath, file.output);
  }
  return changed;
}

/**
 * Files changed after verify, and every unchanged project or run file (not a declaration, not in
 * node_modules) with a relative import of a changed file.
 */
function candidatesOf(tsconfig: string, held: ReadonlySet<string>, results: Map<string, FileResult>, changed: Map<string, string>, lateEdits: ReadonlySet<string>, discovery: BesideOptions): Candidate[] {
  const known = new Set(changed.keys());
  const out: Candidate[] = [];
  for (const filePath of lateEdits) {
    const file = results.get(filePath);
    if (file?.original === undefined || file.output === undefined || file.output === file.original) continue;
    out.push({ path: filePath, before: file.original, after: file.output, imports: relativeImports(filePath, file.original, known) });
  }
  const seen = new Set([...changed.keys(), ...out.map((c) => c.path)]);
  for (const filePath of [...new Set([...held, ...results.keys(), ...testFilesBeside(tsconfig, discovery)])].sort()) {
    if (seen.has(filePath) || filePath.includes(`${path.sep}node_modules${path.sep}`) || /\.d\.[cm]?ts$/.test(filePath)) continue;
    const result = results.get(filePath);
    if (result && (result.status === 'failed' || result.status === 'skipped')) continue;
    const text = result?.original ?? readText(filePath);
    if (text === undefined) continue;
    const imports = relativeImports(filePath, text, known);
    if (imports.length > 0) out.push({ path: filePath, before: text, after: text, imports });
  }
  return out;
}

/**
 * Errors of each candidate with the run's outputs that it does not have with the texts on disk.
 * Two programs of their own (the run's project holds the nodes the report still points at), each
 * resolving the candidates' imports in full.
 */
function newTypeErrors(
  tsconfig: string,
  candidates: Candidate[],
  changed: Map<string, string>,
  libraryFiles: LibraryFiles,
  lentZod: ZodFloor | undefined,
  resolutions: DependencyResolutions,
): { errors: Map<string, TypeError[]>; after: Project; beforeKeys: Map<string, string[]> } {
  // both programs resolve the imports of the candidates and of the changed files in full, so that
  // a type reaching a candidate through a changed file is the same in both but for the change
  const roots = new Set([...candidates.map((c) => c.path), ...changed.keys()]);
  // both with the zod the run analysed with: what a raised zod breaks is zod-api-errors.ts's to report
  const before = programOver(tsconfig, roots, libraryFiles, lentZod, resolutions, new Map(candidates.map((c) => [c.path, c.before])));
  const beforeKeys = new Map(candidates.map((c) => [c.path, typeErrors(before.getSourceFileOrThrow(c.path)).map((e) => e.key)]));
  const after = programOver(tsconfig, roots, libraryFiles, lentZod, resolutions, new Map([...changed, ...candidates.map((c) => [c.path, c.after] as const)]));
  return { errors: new Map(candidates.map((c) => [c.path, freshErrors(beforeKeys.get(c.path)!, typeErrors(after.getSourceFileOrThrow(c.path)))])), after, beforeKeys };
}

function programOver(tsconfig: string, roots: ReadonlySet<string>, libraryFiles: LibraryFiles, lentZod: ZodFloor | undefined, resolutions: DependencyResolutions, texts: Map<string, string>): Project {
  const files = new ProjectFiles();
  const project = createProject(tsconfig, files.host, roots, libraryFiles, lentZod, resolutions);
  for (const [filePath, text] of texts) files.addSourceFile(project, filePath, text, scriptKindOf(filePath));
  return project;
}

function importerReason(candidate: Candidate, rewritten: boolean, cwd: string, e: TypeError): string {
  const names = candidate.imports.map((p) => path.relative(cwd, p).split(path.sep).join('/'));
  const imported = names.length > 0 ? `${names.slice(0, 3).join(', ')}${names.length > 3 ? `, ... (${names.length})` : ''}` : '';
  if (rewritten) return `the test-mock rewrite of this file${imported ? ` (which imports ${imported}, changed by the migration)` : ''} leaves a type error here: ${e.message}`;
  return `the migration changed ${imported}, which this file imports, and this line no longer typechecks: ${e.message}`;
}

/**
 * The file's result with the sites (and the marked or repaired text) added; a file outside the run
 * gets one with its text as read and no output (never written), unless it was repaired.
 */
function withSites(file: FileResult | undefined, candidate: Candidate, sites: SiteResult[], output: string | undefined, repaired: { notes: string[]; outsidePaths?: string } | undefined): FileResult {
  if (!file && !repaired) return { path: candidate.path, status: 'flagged', sites, original: candidate.before };
  if (!file) return { path: candidate.path, status: 'changed', sites, original: candidate.before, output: candidate.after, notes: repaired!.notes, ...(repaired!.outsidePaths ? { outsidePaths: repaired!.outsidePaths } : {}) };
  const all = [...file.sites, ...sites].sort((a, b) => a.line - b.line || a.column - b.column);
  const notes = [...(file.notes ?? []), ...(repaired?.notes ?? [])];
  return {
    ...file,
    original: file.original ?? candidate.before,
    ...(output !== undefined ? { output } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    status: file.status !== 'unchanged' ? file.status : sites.length > 0 ? 'flagged' : 'changed',
    sites: all,
  };
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
