/**
 * The importers check's type-only repair: an importer's new errors that are reads of a result
 * property v2 declares wider than v1 (`engine/v1-declared-types.ts`) are repaired by asserting v1's
 * declared type, and the file is typechecked again. The repair is kept only when it removes errors
 * and adds none; the errors left are reported as before.
 *
 * It may write a file outside the run's paths when the project's tsconfig holds that file: the
 * errors are this run's (the check compares with the texts on disk) and the repair changes types
 * only (a type assertion is erased from the emitted JavaScript). Such a file says so in its result
 * (`outsidePaths`), with why.
 */
import path from 'node:path';
import type { SourceFile } from 'ts-morph';
import { assertV1DeclaredTypes } from '../engine/v1-declared-types.js';
import type { TypeError } from './type-error.js';
import { newErrors } from '../engine/new-errors.js';
import { freshErrors, typeErrors } from './verify.js';

export interface ImporterRepair {
  text: string;
  /** The errors left after the repair. */
  errors: TypeError[];
  /** `<line>: <note>` per repaired read. */
  notes: string[];
}

/**
 * Repairs `checked` (whose text is `text`, with `errors` that the file on disk, `diskKeys`, does
 * not have) in place; undefined, with the text put back, when nothing could be repaired or the
 * repair would add an error.
 */
export function repairWidenedReads(checked: SourceFile, text: string, errors: TypeError[], diskKeys: string[]): ImporterRepair | undefined {
  const notes = assertV1DeclaredTypes(checked, () => errors.map((e) => e.start));
  if (notes.length === 0) return undefined;
  const left = freshErrors(diskKeys, typeErrors(checked));
  if (left.length < errors.length && newErrors(errors.map((e) => e.key), left.map((e) => e.key)).length === 0) return { text: checked.getFullText(), errors: left, notes };
  checked.replaceWithText(text);
  return undefined;
}

/** Why a file outside the run's paths is written, for its result and the report. */
export function outsidePathsReason(tsconfig: string, cwd: string, repaired: number): string {
  const config = path.relative(cwd, tsconfig).split(path.sep).join('/') || 'tsconfig.json';
  return `${config} holds this file and the migration's v2 types broke ${repaired} read(s) of a result in it: each asserted back to v1's declared type, a change of types only (the emitted JavaScript is the same)`;
}
