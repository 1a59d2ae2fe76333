import { readFileSync } from 'node:fs';
import { mayContainLegacySite } from '@mcp-mrtr/surface';
import { listSourceFiles } from './tree-files.mjs';

export function median(values) {
  const xs = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const mid = xs.length >> 1;
  return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

export function maxOf(values) {
  const xs = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  return xs.length ? Math.max(...xs) : null;
}

/** Files, lines and candidate (pre-filter positive) files of a generated tree, counted independently of the generator. */
export function treeStats(dir) {
  let files = 0;
  let lines = 0;
  let candidates = 0;
  for (const file of listSourceFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    files++;
    lines += text.split('\n').length;
    if (mayContainLegacySite(text)) candidates++;
  }
  return { files, lines, candidates };
}
