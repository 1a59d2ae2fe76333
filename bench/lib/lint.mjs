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

function normaliseLint(r) {
  const offMs = r.offMs ?? r.withoutMs ?? null;
  const onMs = r.onMs ?? r.withMs ?? null;
  const overheadPct = r.overheadPct ?? (offMs && onMs ? ((onMs - offMs) / offMs) * 100 : null);
  const { topRules, ...rest } = r;
  const cpuOverheadPct = r.cpuOverheadPct ?? null;
  return { offMs, onMs, overheadPct, cpuOverheadPct, rulesOverheadPct: r.rulesOverheadPct ?? null, topRules: topRules ?? [], raw: rest };
}
