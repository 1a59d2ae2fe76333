#!/usr/bin/env node
/**
 * `npm run bench`: times mcp-mrtr against the official v1-to-v2 codemod and the parse floor on
 * seeded generated trees, in one run on the same machine, and reports ratios against the targets
 * listed in its README table. Every measurement is a fresh process; figures are medians of --reps runs.
 *
 *   node bench/run.mjs [--sizes 500,2000] [--full] [--reps 3] [--seed 42] [--tools migrate,official]
 *                      [--no-lint] [--lint-sizes 2000] [--no-readme] [--trees-dir <dir>] [--timeout-s 900]
 *   node bench/run.mjs --report-only bench/out/latest.json   (re-render table + README from saved figures)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measure, rssMethod } from './lib/measure.mjs';
import { benchTools, snapshotCli } from './lib/tools.mjs';
import { maxOf, median, treeStats } from './lib/stats.mjs';
import { computeRatios, evaluateTargets, renderMarkdown, updateReadme } from './lib/report.mjs';
import { normaliseLint, runLint } from './lib/lint.mjs';
import { loadGenerator, prepareTree } from './lib/tree.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outDir = join(root, 'bench/out');

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string' },
    full: { type: 'boolean', default: false },
    reps: { type: 'string', default: '3' },
    seed: { type: 'string', default: '42' },
    tools: { type: 'string' },
    lint: { type: 'boolean', default: true },
    'no-lint': { type: 'boolean', default: false },
    readme: { type: 'boolean', default: true },
    'no-readme': { type: 'boolean', default: false },
    'timeout-s': { type: 'string', default: '900' },
    'trees-dir': { type: 'string' },
    'lint-sizes': { type: 'string' },
    'report-only': { type: 'string' },
  },
  allowNegative: true,
});

const sizesWanted = opts.sizes
  ? opts.sizes.split(',').map((s) => Number(s.replace(/[_k]/g, (c) => (c === 'k' ? '000' : ''))))
  : opts.full
    ? [500, 2000, 10000]
    : [500, 2000];
if (sizesWanted.some((n) => !Number.isInteger(n) || n < 10)) throw new Error(`--sizes: expected numbers like 500,2000, got ${opts.sizes}`);
const reps = Number(opts.reps);
const seed = Number(opts.seed);
const withLint = opts.lint && !opts['no-lint'];
const withReadme = opts.readme && !opts['no-readme'];
const timeoutMs = Number(opts['timeout-s']) * 1000;
// ESLint passes are slow (several per size: warm-up, off/on per rep): by default lint the 2,000-file
// tree only (else the largest tree up to 2,000 files).
const lintSizes = opts['lint-sizes']
  ? opts['lint-sizes'].split(',').map(Number)
  : [sizesWanted.includes(2000) ? 2000 : Math.max(...sizesWanted.filter((n) => n <= 2000), 0)];

const log = (...a) => console.error('[bench]', ...a);

// --report-only <json>: re-render the table (and README) from a saved run, measuring nothing.
if (opts['report-only']) {
  const saved = JSON.parse(readFileSync(opts['report-only'], 'utf8'));
  for (const size of saved.sizes) if (size.lint?.raw) size.lint = normaliseLint({ ...size.lint.raw, topRules: size.lint.topRules });
  saved.ratios = computeRatios(saved.sizes);
  saved.targets = evaluateTargets(saved.sizes, saved.ratios);
  const markdown = renderMarkdown(saved);
  console.log(markdown);
  if (withReadme && updateReadme(join(root, 'README.md'), markdown)) log('README.md: benchmark section updated');
  process.exit(0);
}
// Trees live outside the repository: inside it, .gitignore (bench/out/) and the `out` build-directory
// rule would hide them from mcp-mrtr's discovery. A node_modules link gives the SDK's types.
const treesDir = opts['trees-dir'] ?? join(os.tmpdir(), 'mcp-mrtr-bench');

const generateTree = await loadGenerator(root);
const ourCli = snapshotCli(root);
let tools = benchTools(root, { ourCli });
if (opts.tools) {
  const keep = new Set(['floor', ...opts.tools.split(',')]);
  tools = tools.filter((t) => keep.has(t.id));
}
for (const t of tools.filter((t) => !t.available)) log(`${t.label}: ${relative(root, t.entry)} not found, reported as n/a`);

const startedAt = new Date();
const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
const meta = {
  timestamp: startedAt.toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model?.trim() ?? 'unknown CPU',
  totalMemGiB: +(os.totalmem() / 1024 ** 3).toFixed(1),
  loadavgAtStart: os.loadavg().map((x) => +x.toFixed(2)),
  commit: gitCommit(),
  reps,
  seed,
  rssMethod: rssMethod(),
};

const sizes = [];
for (const files of sizesWanted) {
  const tree = join(treesDir, `${files}-seed${seed}`);
  const g0 = performance.now();
  await prepareTree({ root, tree, files, seed, generateTree });
  const generateMs = performance.now() - g0;
  const stats = treeStats(tree);
  log(`tree ${files}: ${stats.files} files, ${stats.lines} lines, ${stats.candidates} MCP candidate files (generated in ${(generateMs / 1000).toFixed(1)} s)`);

  const runs = Object.fromEntries(tools.map((t) => [t.id, []]));
  for (let rep = 0; rep < reps; rep++) {
    // rotate the order so that no tool always runs first (warm page cache) or last (busy machine)
    const order = tools.map((_, i) => tools[(i + rep) % tools.length]);
    for (const tool of order) {
      if (!tool.available) continue;
      const r = await measure({
        nodeArgs: tool.args(tree),
        cwd: tree,
        logBase: join(outDir, 'logs', `${files}-${tool.id}-${rep + 1}`),
        okExitCodes: tool.okExitCodes,
        timeoutMs,
      });
      runs[tool.id].push(r);
      log(`  ${files} ${tool.label} #${rep + 1}: ${r.ok ? `${(r.wallMs / 1000).toFixed(2)} s (cpu ${r.cpuMs == null ? '?' : (r.cpuMs / 1000).toFixed(2)} s), ${r.rssBytes ? Math.round(r.rssBytes / 2 ** 20) : '?'} MiB` : `FAILED ${r.error}`}`);
    }
  }

  const toolFigures = {};
  for (const tool of tools) {
    const okRuns = runs[tool.id].filter((r) => r.ok);
    toolFigures[tool.id] = {
      label: tool.label,
      command: ['node', ...tool.args('<tree>').map((a) => (a === ourCli ? 'packages/codemod/dist/cli.js' : a.startsWith(root) ? relative(root, a) : a))].join(' '),
      status: !tool.available ? 'unavailable' : okRuns.length === runs[tool.id].length ? 'ok' : okRuns.length ? 'partial' : 'failed',
      medianMs: okRuns.length ? median(okRuns.map((r) => r.wallMs)) : null,
      medianCpuMs: okRuns.length ? median(okRuns.map((r) => r.cpuMs)) : null,
      medianRssBytes: okRuns.length ? median(okRuns.map((r) => r.rssBytes)) : null,
      peakRssBytes: okRuns.length ? maxOf(okRuns.map((r) => r.rssBytes)) : null,
      runs: runs[tool.id],
    };
  }

  let lint = null;
  if (withLint && lintSizes.includes(files)) {
    lint = await runLint({ root, tree, reps, log });
    if (lint?.error) log(`  lint: ${lint.error}`);
  }
  sizes.push({ files, lines: stats.lines, mcpModules: stats.candidates, generateMs, tree, tools: toolFigures, lint });
}

const ratios = computeRatios(sizes);
const targets = evaluateTargets(sizes, ratios);
const result = { meta: { ...meta, loadavgAtEnd: os.loadavg().map((x) => +x.toFixed(2)), durationS: +((Date.now() - startedAt) / 1000).toFixed(1) }, sizes, ratios, targets };
const markdown = renderMarkdown(result);

mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, `bench-${stamp}.json`), JSON.stringify(result, null, 2));
writeFileSync(join(outDir, 'latest.json'), JSON.stringify(result, null, 2));
writeFileSync(join(outDir, 'latest.md'), `${markdown}\n`);
console.log(markdown);
log(`figures: ${relative(root, join(outDir, `bench-${stamp}.json`))} and bench/out/latest.json`);
if (withReadme && updateReadme(join(root, 'README.md'), markdown)) log('README.md: benchmark section updated');

function gitCommit() {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim();
    return dirty ? `${sha}+dirty` : sha;
  } catch {
    return 'unknown';
  }
}
