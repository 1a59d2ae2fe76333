/**
 * The type checker's word on a split of one import component between v1 and v2 (run/v1-hold-back.ts):
 * the held files at their v1 texts, the others as the run left them. The split stands only when no
 * file on either side of an import between the two parts has an error it did not have before: a
 * held file against its text in the project as it is on disk (all on v1, as before the run),
 * another file against its text with nothing held (what verify accepted). Only the held files'
 * texts are swapped (they go back to v1 anyway); the others keep their nodes.
 */
import { ts, type Project } from 'ts-morph';
import { scriptKindOf } from '../engine/script-kind.js';
import { importedFiles } from '../engine/upgrade-scope.js';
import { restoreText } from './rewrite.js';
import type { LoadedFile } from './state.js';
import { newErrors } from '../engine/new-errors.js';
import { errorKeys } from './verify.js';

export type SplitCheck = { compiles: true } | { compiles: false; why: string };

/**
 * Whether the component compiles split: `held` at their v1 texts, the others as they are now.
 * `originalProject` loads the project from disk (its v1 texts). Plain JavaScript on the border is not
 * checked by the compiler: a split there is refused.
 */
export function checkSplit(component: readonly LoadedFile[], held: ReadonlySet<string>, originalProject: () => Project, shown: (file: string) => string): SplitCheck {
  const known = new Set(component.map((f) => f.path));
  const border = new Set<string>();
  for (const file of component) {
    for (const target of importedFiles({ path: file.path, sourceFile: file.sourceFile, v1Text: v1TextOf(file) }, known)) {
      if (held.has(file.path) === held.has(target)) continue;
      border.add(file.path);
      border.add(target);
    }
  }
  const checked = component.filter((f) => border.has(f.path));
  const unchecked = checked.find((f) => !typeCheckable(f));
  if (unchecked) return { compiles: false, why: `${shown(unchecked.path)} is not type-checked, so no split of it can be verified` };
  const before = new Map<string, string[]>();
  for (const f of checked) if (!held.has(f.path)) before.set(f.path, errorKeys(f.sourceFile));
  // as upgradeTypeErrors does: the held files' v1 texts in a project of their own, the others as on disk
  const original = originalProject();
  const heldChecked = checked.filter((f) => held.has(f.path));
  const originals = heldChecked.map((f) => original.createSourceFile(f.path, v1TextOf(f), { overwrite: true, scriptKind: scriptKindOf(f.path) }));
  heldChecked.forEach((f, i) => before.set(f.path, errorKeys(originals[i]!)));
  const current = new Map(component.filter((f) => held.has(f.path)).map((f) => [f.path, f.sourceFile.getFullText()]));
  try {
    for (const f of component) if (held.has(f.path)) restoreText(f, v1TextOf(f));
    for (const f of checked) {
      const added = newErrors(before.get(f.path)!, errorKeys(f.sourceFile));
      if (added.length > 0) return { compiles: false, why: `it leaves a type error in ${shown(f.path)} (${added[0]})` };
    }
    return { compiles: true };
  } finally {
    for (const f of component) if (held.has(f.path)) restoreText(f, current.get(f.path)!);
  }
}

function typeCheckable(file: LoadedFile): boolean {
  const kind = scriptKindOf(file.path);
  return kind === ts.ScriptKind.TS || kind === ts.ScriptKind.TSX;
}

function v1TextOf(file: LoadedFile): string {
  return file.sliced?.body ?? file.source.body;
}
