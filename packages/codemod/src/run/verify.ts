/**
 * The verify stage: every changed file is re-parsed and, with types, its compiler errors are
 * compared with its text before the rewrite; the upgrade's own output is checked the same way
 * against the original (v1) text.
 */
import { MCP_PACKAGE_PREFIX } from '@mcp-mrtr/surface';
import { ts, type Project, type SourceFile } from 'ts-morph';
import type { Reach, SiteDecision } from '../engine/model.js';
import { scriptKindOf } from '../engine/script-kind.js';
import { UnionFind } from '../engine/union-find.js';
import type { LoadedFile } from './state.js';
import type { TypeError } from './type-error.js';
import { newErrors } from '../engine/new-errors.js';
import { repairClosedUnionReads } from '../engine/union-member-reads.js';
import { upgradeErrorCause } from '../engine/upgrade-error-causes.js';
import { v2TypeHint } from '../engine/v2-type-hints.js';
import { bindAndCheckDiagnostics, type CheckingProgram } from './reused-diagnostics.js';
import { inZodRegistration, registersWithZod, zodFloorAdvice, zodFloorCause, type ZodFloor } from '../engine/zod-floor.js';

export interface Verification {
  restored: Map<string, string>;
  droppedCreated: Set<string>;
  component(file: string): Set<string>;
}

/**
 * Re-parses every changed file and, with types, compares its errors with the pre-rewrite text.
 * A failing file restores every file its sites' handlers and helpers touch (a handler is never
 * half-rewritten across files).
 */
export function verifyChanges(
  project: Project,
  loaded: LoadedFile[],
  preRewrite: Map<string, string>,
  createdFiles: string[],
  reaches: Reach[],
  typeChecked: boolean,
  zodFloor?: ZodFloor,
): Verification {
  const components = new UnionFind();
  for (const reach of reaches) {
    const siteFile = reach.site.sourceFile.getFilePath();
    components.add(siteFile);
    for (const { handler, path: steps } of reach.handlers) {
      components.union(siteFile, handler.sourceFile.getFilePath());
      for (const step of steps) if (!step.call.wasForgotten()) components.union(siteFile, step.call.getSourceFile().getFilePath());
    }
  }
  const changed = loaded.filter((f) => f.sourceFile.getFullText() !== preRewrite.get(f.path));
  const failures = new Map<string, string>();
  for (const file of changed) {
    const error = firstSyntaxError(file.sourceFile);
    if (error) failures.set(file.path, `the rewritten file does not parse (${error})`);
  }
  for (const created of createdFiles) {
    const sf = project.getSourceFile(created);
    const error = sf ? firstSyntaxError(sf) : undefined;
    if (error) failures.set(created, `the created file does not parse (${error})`);
  }
  if (typeChecked && changed.length > 0) {
    // Files without errors after the rewrite need no baseline: only the others are checked again
    // on their pre-rewrite text (one more program), and only their new errors count.
    const after = new Map(changed.filter((f) => !failures.has(f.path)).map((f) => [f.path, errorKeys(f.sourceFile)]));
    const candidates = changed.filter((f) => (after.get(f.path)?.length ?? 0) > 0);
    if (process.env.MCP_MRTR_TIMINGS === '1') process.stderr.write(`mcp-mrtr verify: ${changed.length} changed files typechecked, ${candidates.length} with errors checked against their pre-rewrite text\n`);
    const rewritten = new Map(candidates.map((f) => [f.path, f.sourceFile.getFullText()]));
    for (const f of candidates) f.sourceFile.replaceWithText(preRewrite.get(f.path)!);
    const before = new Map(candidates.map((f) => [f.path, errorKeys(f.sourceFile)]));
    for (const f of candidates) {
      f.sourceFile.replaceWithText(rewritten.get(f.path)!);
      const added = newErrors(before.get(f.path)!, after.get(f.path)!);
      // with a zod below v2's floor, a registration's handler arguments are unknown: say why
      const cause = zodFloor && registersWithZod(f.sourceFile) ? `; ${zodFloorCause(zodFloor)}` : '';
      if (added.length > 0) failures.set(f.path, `the rewritten file has new type errors: ${added.slice(0, 2).join('; ')}${cause}`);
    }
  }
  const restored = new Map<string, string>();
  for (const [file, reason] of failures) {
    if (!preRewrite.has(file)) continue;
    for (const member of components.members(file)) if (preRewrite.has(member) && !restored.has(member)) restored.set(member, reason);
  }
  const droppedCreated = new Set<string>();
  const anyChangedLeft = changed.some((f) => !restored.has(f.path));
  for (const created of createdFiles) {
    if (failures.has(created) || !anyChangedLeft) {
      droppedCreated.add(created);
      const sf = project.getSourceFile(created);
      if (sf) project.removeSourceFile(sf);
    }
  }
  return { restored, droppedCreated, component: (file) => new Set(components.members(file)) };
}

/**
 * When verify leaves no request migrated, what the rewrite added only in their support serves
 * nothing: the `requestState: { verify }` wiring of a server construction in a file no rewritten
 * handler is in (it was never part of a restored handler's files), and the modules the rewrite
 * created (the codec, the client-capabilities helper). Left in place, the wiring alone counted as
 * a change of the run and kept the v1-to-v2 upgrade of every connected file. Returns the files to
 * put back to their pre-rewrite text (those the serving stage did not change since) and the
 * created files to drop.
 */
export function unservedRewriteSupport(input: {
  loaded: LoadedFile[];
  preRewrite: Map<string, string>;
  postRewrite: Map<string, string>;
  createdFiles: string[];
  decisions: Iterable<SiteDecision>;
}): { restore: LoadedFile[]; drop: Set<string> } {
  const migrated = [...input.decisions].some((d) => d.status === 'migrated' || d.callers?.some((c) => c.status === 'migrated'));
  if (migrated) return { restore: [], drop: new Set() };
  const restore = input.loaded.filter((f) => {
    const text = f.sourceFile.getFullText();
    return text !== input.preRewrite.get(f.path) && text === input.postRewrite.get(f.path);
  });
  return { restore, drop: new Set(input.createdFiles) };
}

const MISSING_MODULE_CODES = [2307, 2792];

export const TYPE_ERROR_ADVICE = 'the v1-to-v2 upgrade of this line does not compile and no automatic repair covers it: adapt it to the v2 API by hand (the v2 migration guide lists the renamed and stricter types)';

export function typeErrorReason(e: TypeError): string {
  return `the v1-to-v2 upgrade leaves a type error here: ${e.message}${e.cause ? ` (${e.cause})` : ''}`;
}

/** A line of a file's current text → the line of the user's file (for notes written after the rewrite). */
export type OriginalLine = (file: LoadedFile, line: number) => number;

/**
 * Type errors of each upgraded file that its original (v1) text did not have. Only files with
 * errors after are checked on their original text (one more program), as verify does. When the
 * texts cannot be swapped in the run's project (ts-morph can fail to re-resolve imports after a
 * swap: "node was removed or forgotten"), the originals are checked in a project of their own
 * (`originalProject`, the run's tsconfig and resolution): the comparison, and with it the markers
 * and the failed count, must not be lost while the upgrade still writes those errors. With
 * `repair` (a file's line in its current text → in the user's file, for the notes), the errors that
 * are reads of a property only some members of a closed v2 union declare are repaired where the
 * repair compiles (`repairUnionReads`, its notes on the file) and are not returned; with 'trial',
 * the same but without notes: the caller only asks which errors no repair covers and puts the
 * texts back itself.
 */
export function upgradeTypeErrors(files: LoadedFile[], originalProject?: () => Project, zodFloor?: ZodFloor, repair?: OriginalLine | 'trial'): Map<string, TypeError[]> {
  const after = new Map(files.map((f) => [f.path, typeErrors(f.sourceFile)]));
  const candidates = files.filter((f) => after.get(f.path)!.length > 0);
  const out = new Map<string, TypeError[]>();
  if (candidates.length === 0) return out;
  // Every upgraded file goes back to its original text, not only those with errors: an error in one
  // file can come from another's upgrade (a helper's result now typed by v2), and with that helper
  // still upgraded the original would show the same error and hide it.
  const current = new Map(files.map((f) => [f.path, f.sourceFile.getFullText()]));
  let before: Map<string, string[]>;
  try {
    for (const f of files) {
      const original = f.sliced?.body ?? f.source.body;
      if (f.sourceFile.getFullText() !== original) f.sourceFile.replaceWithText(original);
    }
    before = new Map(candidates.map((f) => [f.path, errorKeys(f.sourceFile)]));
  } catch (error) {
    for (const f of files) if (f.sourceFile.getFullText() !== current.get(f.path)) f.sourceFile.replaceWithText(current.get(f.path)!);
    try {
      if (!originalProject) throw error;
      before = originalErrorKeys(candidates, originalProject());
    } catch (second) {
      // the comparison is lost then, not the run: each file says so, with its count
      for (const f of candidates) {
        f.notes.push(
          `${after.get(f.path)!.length} compiler error(s) after the v1-to-v2 upgrade could not be compared with the original's (${(second as Error).message.split('\n')[0]}): run tsc --noEmit and check them`,
        );
      }
      return out;
    }
  }
  for (const f of files) if (f.sourceFile.getFullText() !== current.get(f.path)) f.sourceFile.replaceWithText(current.get(f.path)!);
  const freshOf = new Map(candidates.map((f) => [f.path, freshErrors(before.get(f.path)!, after.get(f.path)!)]));
  if (repair) repairUnionReads(files, candidates, before, freshOf, repair);
  for (const f of candidates) {
    const fresh = freshOf.get(f.path)!;
    for (const e of fresh) {
      e.advice ??= v2TypeHint(f.sourceFile, e.start);
      const known = upgradeErrorCause(f.sourceFile, e.start, e.detail);
      e.cause ??= known?.cause;
      e.advice ??= known?.advice;
    }
    if (zodFloor) {
      for (const e of fresh) {
        if (!inZodRegistration(f.sourceFile, e.start)) continue;
        e.cause = zodFloorCause(zodFloor);
        e.advice = zodFloorAdvice(zodFloor);
      }
    }
    if (fresh.length > 0) out.set(f.path, fresh);
  }
  return out;
}

/**
 * Reads of a property only some members of a closed v2 union declare, repaired in each file with
 * such an error (engine/union-member-reads.ts: each read kept only when its file then has fewer
 * errors and no new one). A repaired read's type can reach another file (a value the file exports
 * typed by it, before the error's type): every upgraded file is checked again, and when one that
 * had no error has one now, or another's errors grow, every repair is undone. `freshOf` is updated.
 */
function repairUnionReads(files: LoadedFile[], candidates: LoadedFile[], before: Map<string, string[]>, freshOf: Map<string, TypeError[]>, lineOf: OriginalLine | 'trial'): void {
  const repaired: Array<{ file: LoadedFile; text: string; notes: string[] }> = [];
  for (const f of candidates) {
    const text = f.sourceFile.getFullText();
    const done = repairClosedUnionReads(f.sourceFile, freshOf.get(f.path)!, () => freshErrors(before.get(f.path)!, typeErrors(f.sourceFile)));
    // the repair adds no line: a line of the repaired text is one of the text the map was made for
    if (done) repaired.push({ file: f, text, notes: lineOf === 'trial' ? [] : done.notes.map((n) => `${lineOf(f, n.line)}: ${n.text}`) });
  }
  if (repaired.length === 0) return;
  const again = new Map(candidates.map((f) => [f.path, freshErrors(before.get(f.path)!, typeErrors(f.sourceFile))]));
  const worse =
    files.some((f) => !again.has(f.path) && typeErrors(f.sourceFile).length > 0) ||
    candidates.some((f) => newErrors(freshOf.get(f.path)!.map((e) => e.key), again.get(f.path)!.map((e) => e.key)).length > 0);
  if (worse) {
    for (const { file, text } of repaired) file.sourceFile.replaceWithText(text);
    return;
  }
  for (const [filePath, errors] of again) freshOf.set(filePath, errors);
  for (const { file, notes } of repaired) file.notes.push(...notes);
}

/** The errors of `after` that `before` (keys) did not have: the first occurrences of a key the original also had are the original's. */
export function freshErrors(before: string[], after: TypeError[]): TypeError[] {
  const added = new Set(newErrors(before, after.map((e) => e.key)));
  const remaining = new Map<string, number>();
  for (const key of before) remaining.set(key, (remaining.get(key) ?? 0) + 1);
  return after.filter((e) => {
    const n = remaining.get(e.key) ?? 0;
    if (n > 0) {
      remaining.set(e.key, n - 1);
      return false;
    }
    return added.has(e.key);
  });
}

/** Errors of each file's original text, in a project of their own (other files as on disk). */
function originalErrorKeys(files: LoadedFile[], project: Project): Map<string, string[]> {
  const originals = files.map((f) => project.createSourceFile(f.path, f.sliced?.body ?? f.source.body, { overwrite: true, scriptKind: scriptKindOf(f.path) }));
  return new Map(files.map((f, i) => [f.path, errorKeys(originals[i]!)]));
}

export function typeErrors(sf: SourceFile): TypeError[] {
  const text = sf.getFullText();
  return fileDiagnostics(sf)
    .filter((d) => d.category === ts.DiagnosticCategory.Error && d.start !== undefined)
    .map((d) => {
      const { line, column } = sf.getLineAndColumnAtPos(d.start!);
      const key = `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ').split('\n')[0]}`;
      const lineText = text.slice(text.lastIndexOf('\n', d.start! - 1) + 1, text.indexOf('\n', d.start!) < 0 ? text.length : text.indexOf('\n', d.start!)).trim();
      const head = `TS${d.code}: ${typeof d.messageText === 'string' ? d.messageText : d.messageText.messageText}`;
      const message = head.length > 200 ? `${head.slice(0, 197)}...` : head;
      const detail = innermostMessage(d.messageText);
      return { key, message, ...(detail ? { detail } : {}), start: d.start!, line, column, snippet: lineText.length > 80 ? `${lineText.slice(0, 77)}...` : lineText };
    })
    .filter((e) => !(MISSING_MODULE_CODES.some((code) => e.key.startsWith(`TS${code}:`)) && e.key.includes(MCP_PACKAGE_PREFIX)));
}

/** The last line of the first path down a message chain (its innermost elaboration), abbreviated; undefined for a one-line message. */
function innermostMessage(text: string | ts.DiagnosticMessageChain): string | undefined {
  if (typeof text === 'string' || !text.next?.[0]) return undefined;
  let chain = text.next[0];
  while (chain.next?.[0]) chain = chain.next[0];
  return chain.messageText.length > 240 ? `${chain.messageText.slice(0, 237)}...` : chain.messageText;
}

export function errorKeys(sf: SourceFile): string[] {
  // syntactic + semantic only: getPreEmitDiagnostics would add declaration-emit diagnostics when
  // the tsconfig asks for declarations, an emit-sized cost for nothing the rewrite can break
  return (
    fileDiagnostics(sf)
      .filter((d) => d.category === ts.DiagnosticCategory.Error)
      .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ').split('\n')[0]}`)
      // a v2 package the codemod does not carry (engine/own-packages.ts) and the project has not
      // installed yet does not resolve before `npm install`, which says nothing about the rewrite
      .filter((key) => !(MISSING_MODULE_CODES.some((code) => key.startsWith(`TS${code}:`)) && key.includes(MCP_PACKAGE_PREFIX)))
  );
}

/** Program diagnostics about how a file came into the program, when the bind-and-check pass is not exposed. */
const FILE_INCLUSION_CODES = new Set([6059, 6307, 6504, 1149, 1261]);

/**
 * The diagnostics of a file's own text: syntax, binding and checking. Not the program's diagnostics
 * about how files came into it (TS6307 "not listed within the file list of project", TS6059 "not
 * under rootDir"): they describe the project configuration the run loaded (a monorepo root
 * tsconfig over packages with their own), never a change of the text, and which importing file
 * carries them depends on the order the program was built in, so the same text can show them in
 * one program and not in the next.
 */
export function fileDiagnostics(sf: SourceFile): ts.Diagnostic[] {
  const program = sf.getProject().getProgram().compilerObject as CheckingProgram;
  const syntactic = program.getSyntacticDiagnostics(sf.compilerNode);
  if (typeof program.getBindAndCheckDiagnostics !== 'function') {
    return [...syntactic, ...program.getSemanticDiagnostics(sf.compilerNode).filter((d) => !FILE_INCLUSION_CODES.has(d.code))];
  }
  // as getSemanticDiagnostics filters them: a diagnostic skipped under an option the program has (noEmit)
  const options = program.getCompilerOptions() as Record<string, unknown>;
  const checked = bindAndCheckDiagnostics(sf, program).filter((d) => {
    const skippedOn = (d as { skippedOn?: string }).skippedOn;
    return !skippedOn || !options[skippedOn];
  });
  return [...syntactic, ...checked];
}

/** The first parse error of a file, with its line. */
export function firstSyntaxError(sf: SourceFile): string | undefined {
  const diagnostics = (sf.compilerNode as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  const first = diagnostics[0];
  if (!first) return undefined;
  const line = first.start !== undefined ? sf.getLineAndColumnAtPos(first.start).line : undefined;
  return `${line !== undefined ? `line ${line}: ` : ''}${ts.flattenDiagnosticMessageText(first.messageText, ' ')}`;
}
