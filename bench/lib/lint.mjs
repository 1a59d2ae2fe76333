/**
 * ESLint over the tree with the plugin's recommended rules off and on, through plugin-B's
 * `bench/lint/lint-bench.mjs`. Missing (not written yet) → null figures with the reason.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function runLint({ root, tree, reps, log }) {
  const file = join(root, 'bench/lint/lint-bench.mjs');
  if (!existsSync(file)) return { error: 'bench/lint/lint-bench.mjs not present' };
  try {
    const mod = await import(pathToFileURL(file).href);
    const fn = mod.lintBench ?? mod.runLintBench ?? mod.default;
    if (typeof fn !== 'function') return { error: 'bench/lint/lint-bench.mjs exports no bench function' };
    const r = await fn({ dir: tree, reps, log: (...a) => log('  lint', ...a), out: false });
    return normaliseLint(r);
  } catch (err) {
    return { error: `lint bench failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/**
 * One shape for the report whatever the lint bench version returns. `overheadPct` is the lint
 * bench's own headline figure (paired per-file CPU time when it provides that, else whole-tree wall).
 */
export function normaliseLint(r) {
  const { topRules, ...rest } = r;
  const paired = Array.isArray(r.paired);
  return {
    measure: paired ? 'paired CPU' : 'wall',
    offMs: r.offMs ?? r.withoutMs ?? null,
    onMs: r.onMs ?? r.withMs ?? null,
    overheadPct: r.overheadPct ?? null,
    wallOverheadPct: r.wholeTree?.wallOverheadPct ?? (paired ? null : (r.overheadPct ?? null)),
    cpuOverheadPct: r.wholeTree?.cpuOverheadPct ?? r.cpuOverheadPct ?? null,
    rulesOverheadPct: r.rulesPctOfParse ?? r.rulesOverheadPct ?? null,
    topRules: topRules ?? [],
    raw: rest,
  };
}
