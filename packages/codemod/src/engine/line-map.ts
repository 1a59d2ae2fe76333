/**
 * Maps 1-based line numbers of a transformed text back to the text it came from (sites are found
 * after the v1-to-v2 upgrade, reports speak about the original file). Unchanged lines map exactly;
 * lines inside a changed hunk map by position within the hunk.
 */
import { diffArrays } from 'diff';
import type { OriginalLineOf } from './report-lines.js';

export interface LineMap {
  toOriginal(line: number): number;
}

export function identityLineMap(offset = 0): LineMap {
  return { toOriginal: (line) => line + offset };
}

export function buildLineMap(original: string, transformed: string, offset = 0): LineMap {
  if (original === transformed) return identityLineMap(offset);
  const a = original.split(/\r?\n/);
  const b = transformed.split(/\r?\n/);
  const map = new Array<number>(b.length + 1);
  let oldLine = 1;
  let newLine = 1;
  const changes = diffArrays(a.map((l) => l.trim()), b.map((l) => l.trim()));
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    const count = change.count ?? change.value.length;
    if (!change.added && !change.removed) {
      for (let k = 0; k < count; k++) map[newLine++] = oldLine++;
      continue;
    }
    if (change.removed) {
      const next = changes[i + 1];
      if (next?.added) {
        const added = next.count ?? next.value.length;
        for (let k = 0; k < added; k++) map[newLine++] = oldLine + Math.min(k, Math.max(count - 1, 0));
        oldLine += count;
        i++;
      } else {
        oldLine += count;
      }
      continue;
    }
    // pure addition: attribute to the old line at this point
    for (let k = 0; k < count; k++) map[newLine++] = Math.min(oldLine, a.length);
  }
  return {
    toOriginal: (line) => (map[line] ?? Math.min(line, a.length)) + offset,
  };
}

/**
 * Lines of the text being rewritten → lines of the user's file: through each file's upgrade line
 * map, and first back to the text before the rewrite when an inlining pass has already changed it.
 */
export function originalLineAfter(files: Map<string, { path: string; lineMap: LineMap }>, textBefore: Map<string, string>): OriginalLineOf {
  const rewritten = new Map<string, { text: string; map: LineMap }>();
  return (sourceFile, line) => {
    const file = files.get(sourceFile.getFilePath());
    const before = file && textBefore.get(file.path);
    if (!file || before === undefined) return line;
    const text = sourceFile.getFullText();
    if (text === before) return file.lineMap.toOriginal(line);
    let cached = rewritten.get(file.path);
    if (cached?.text !== text) rewritten.set(file.path, (cached = { text, map: buildLineMap(before, text) }));
    return file.lineMap.toOriginal(cached.map.toOriginal(line));
  };
}
