/**
 * What zod 4 rejects in a project written for zod 3. When the run raises the project's zod
 * (run/zod-raise.ts), it analyses its code with the v2 server's zod 4 and package.json's zod is
 * bumped to the server's range (zod-floor.ts, package-json.ts). Code using zod 3 API that zod 4 changed
 * (`z.record(valueSchema)`, `error.errors`, ...) then fails to compile in the project's own files,
 * changed by the run or not; the comparison with the original text cannot see it (the original is
 * analysed with zod 4 too), so each such error at a zod API use is reported here, at its line.
 */
import { Node } from 'ts-morph';
import { buildLineMap } from '../engine/line-map.js';
import { zodFloorCause, type ZodFloor } from '../engine/zod-floor.js';
import type { LoadedFile, RunState } from './state.js';
import type { TypeError } from './type-error.js';
import { typeErrors } from './verify.js';

const ZOD_DECLARATION = /[\\/]node_modules[\\/]zod[\\/]/;

export function addZodApiErrors(state: RunState): void {
  const floor = state.zodRaised;
  if (!state.typeChecked || !floor) return;
  const live = state.loaded.filter((f) => !f.failed);
  for (const file of live) {
    if (!file.sourceFile.getImportDeclarations().some((d) => /^zod(\/|$)/.test(d.getModuleSpecifierValue()))) continue;
    const known = new Set((state.upgradeErrors.get(file.path) ?? []).map((e) => e.start));
    const found = typeErrors(file.sourceFile).filter((e) => !known.has(e.start) && atZodApi(file, e.start));
    if (found.length === 0) continue;
    // lines are reported in the file's text before the run, like its request sites
    const lines = buildLineMap(file.sliced?.body ?? file.source.body, file.sourceFile.getFullText());
    for (const e of found) Object.assign(e, zodCause(floor), { line: lines.toOriginal(e.line) });
    state.upgradeErrors.set(file.path, [...(state.upgradeErrors.get(file.path) ?? []), ...found].sort((a, b) => a.start - b.start));
  }
}

function zodCause(floor: ZodFloor): Pick<TypeError, 'cause' | 'advice'> {
  return {
    cause: `zod 4 rejects this zod 3 code: package.json's zod is raised to ${floor.range} because ${zodFloorCause(floor)}`,
    advice: `rewrite this use for zod 4's API (the project's code was written for zod ${floor.installed})`,
  };
}

/** Whether the error lies in an expression that reads a zod API: a member declared by zod, or a member of a zod type. */
function atZodApi(file: LoadedFile, start: number): boolean {
  const node = file.sourceFile.getDescendantAtPos(start);
  if (!node) return false;
  for (const n of [node, ...node.getAncestors()]) {
    if (Node.isStatement(n) || Node.isSourceFile(n)) break;
    if (!Node.isPropertyAccessExpression(n)) continue;
    try {
      const declared = [...(n.getNameNode().getSymbol()?.getDeclarations() ?? []), ...(n.getExpression().getType().getSymbol()?.getDeclarations() ?? [])];
      if (declared.some((d) => ZOD_DECLARATION.test(d.getSourceFile().getFilePath()))) return true;
    } catch {
      continue;
    }
  }
  return false;
}
