#!/usr/bin/env node
/**
 * Lint benchmark: ESLint (Node API) with @typescript-eslint/parser and no type information over a
 * generated tree, once with no rules (the parser-only floor: parse, scope analysis, traversal) and
 * once with `@mcp-mrtr/eslint-plugin`'s `recommended` config. Runs alternate off/on, after one
 * warm-up pass each; figures are medians. Per-rule times come from ESLint's `stats: true`.
 *
 *   node bench/lint/lint-bench.mjs [--files 2000] [--seed 42] [--reps 3] [--dir <existing tree>]
 *
 * Needs the plugin built (`npx turbo run build --filter=@mcp-mrtr/eslint-plugin`; `npm run bench`
 * builds everything first). Writes bench/out/lint.json.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generateTree } from './generate-tree.mjs';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const PLUGIN_DIST = join(root, 'packages/eslint-plugin/dist/index.js');
const TARGET_OVERHEAD_PCT = 5;
const MCP_DIR = 'src/mcp/';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function loadPlugin() {
  if (!existsSync(PLUGIN_DIST)) {
    throw new Error(`${relative(root, PLUGIN_DIST)} missing: build it first (npx turbo run build --filter=@mcp-mrtr/eslint-plugin)`);
  }
  const mod = await import(pathToFileURL(PLUGIN_DIST).href);
  const plugin = mod.default ?? mod;
  if (!plugin?.configs?.recommended) throw new Error('the plugin build has no configs.recommended');
  return plugin;
}

/** One ESLint pass over the tree; returns wall time and what ESLint's stats say. */
async function lintOnce({ ESLint, dir, configs }) {
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: configs,
    cache: false,
    stats: true,
    errorOnUnmatchedPattern: false,
  });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const results = await eslint.lintFiles(['src/**/*.ts']);
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - t0;
  // CPU time of this process: what the lint costs, less sensitive than wall time to other load on a shared machine
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const ruleMs = {};
  let parseMs = 0;
  let statsTotalMs = 0;
  const findings = {};
  const filesWithFindings = [];
  const allFiles = [];
  let fatal = 0;
  for (const result of results) {
    const pass = result.stats?.times?.passes?.[0];
    if (pass) {
      parseMs += pass.parse?.total ?? 0;
      statsTotalMs += pass.total ?? 0;
      for (const [rule, t] of Object.entries(pass.rules ?? {})) ruleMs[rule] = (ruleMs[rule] ?? 0) + (t.total ?? 0);
    }
    const rel = relative(dir, result.filePath).split(sep).join('/');
    allFiles.push(rel);
    if (result.messages.length) filesWithFindings.push(rel);
    for (const m of result.messages) {
      if (m.fatal) fatal++;
      const key = m.ruleId ?? '(parse error)';
      findings[key] = (findings[key] ?? 0) + 1;
    }
  }
  return { wallMs, cpuMs, parseMs, statsTotalMs, ruleMs, findings, filesWithFindings, allFiles, files: results.length, fatal };
}

/**
 * @param {{ dir?: string, files?: number, seed?: number, reps?: number, log?: (...a: unknown[]) => void, out?: string | false }} options
 */
export async function lintBench({ dir, files = 2000, seed = 42, reps = 3, log = (...a) => console.error('[lint-bench]', ...a), out } = {}) {
  const { ESLint } = await import('eslint');
  const parser = await import('@typescript-eslint/parser');
  const plugin = await loadPlugin();

  if (!dir) {
    dir = join(root, 'bench/out/trees', `lint-${files}-seed${seed}`);
    const g = await generateTree({ files, seed, dir, mcpRatio: 0.025 });
    log(`generated ${g.files} files (${g.mcpFiles.length} MCP servers, ${g.lines} lines) in ${relative(root, dir)}`);
  }

  const base = {
    name: 'bench/parser-only',
    files: ['**/*.ts'],
    languageOptions: { parser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
  };
  const variants = {
    off: [base],
    on: [base, plugin.configs.recommended],
  };

  // Warm-up: module loading and JIT, not counted.
  await lintOnce({ ESLint, dir, configs: variants.off });
  await lintOnce({ ESLint, dir, configs: variants.on });

  const runs = { off: [], on: [] };
  for (let rep = 0; rep < reps; rep++) {
    const order = rep % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
    for (const variant of order) {
      const r = await lintOnce({ ESLint, dir, configs: variants[variant] });
      runs[variant].push(r);
      log(`${variant.padEnd(3)} #${rep + 1}: ${(r.wallMs / 1000).toFixed(2)} s wall, ${(r.cpuMs / 1000).toFixed(2)} s CPU, parse ${(r.parseMs / 1000).toFixed(2)} s, rules ${(Object.values(r.ruleMs).reduce((a, b) => a + b, 0)).toFixed(0)} ms`);
    }
  }

  const offMs = median(runs.off.map((r) => r.wallMs));
  const onMs = median(runs.on.map((r) => r.wallMs));
  const overheadPct = ((onMs - offMs) / offMs) * 100;
  const offCpuMs = median(runs.off.map((r) => r.cpuMs));
  const onCpuMs = median(runs.on.map((r) => r.cpuMs));
  const cpuOverheadPct = ((onCpuMs - offCpuMs) / offCpuMs) * 100;
  const ruleNames = Object.keys(runs.on[0].ruleMs);
  const perRule = ruleNames
    .map((rule) => ({ rule, ms: median(runs.on.map((r) => r.ruleMs[rule] ?? 0)) }))
    .sort((a, b) => b.ms - a.ms);
  const rulesMs = perRule.reduce((a, r) => a + r.ms, 0);
  // Rule time as ESLint measures it, relative to the floor: the same quantity as the wall-clock
  // overhead, without the noise of a shared machine.
  const rulesOverheadPct = (rulesMs / offMs) * 100;
  const last = runs.on[runs.on.length - 1];
  // the generator writes MCP server modules under src/mcp/, everything else is ordinary code
  const isMcp = (f) => f.startsWith(MCP_DIR);
  const mcpFiles = last.allFiles.filter(isMcp);
  const nonMcpWithFindings = last.filesWithFindings.filter((f) => !isMcp(f));
  const mcpWithoutFindings = mcpFiles.filter((f) => !last.filesWithFindings.includes(f));

  const result = {
    timestamp: new Date().toISOString(),
    node: process.version,
    tree: relative(root, dir),
    files: last.files,
    mcpFiles: mcpFiles.length,
    reps,
    parser: '@typescript-eslint/parser (no type information)',
    offMs: +offMs.toFixed(1),
    onMs: +onMs.toFixed(1),
    overheadPct: +overheadPct.toFixed(2),
    offCpuMs: +offCpuMs.toFixed(1),
    onCpuMs: +onCpuMs.toFixed(1),
    cpuOverheadPct: +cpuOverheadPct.toFixed(2),
    rulesMs: +rulesMs.toFixed(1),
    rulesOverheadPct: +rulesOverheadPct.toFixed(2),
    targetPct: TARGET_OVERHEAD_PCT,
    withinTarget: overheadPct < TARGET_OVERHEAD_PCT,
    loadavg: os.loadavg().map((x) => +x.toFixed(2)),
    cpus: os.cpus().length,
    topRules: perRule.map((r) => ({ rule: r.rule, ms: +r.ms.toFixed(1), pctOfFloor: +((r.ms / offMs) * 100).toFixed(2) })),
    findings: last.findings,
    filesWithFindings: last.filesWithFindings.length,
    nonMcpFilesWithFindings: nonMcpWithFindings,
    mcpFilesWithoutFindings: mcpWithoutFindings,
    runs: {
      off: runs.off.map((r) => ({ wallMs: +r.wallMs.toFixed(1), cpuMs: +r.cpuMs.toFixed(1), parseMs: +r.parseMs.toFixed(1) })),
      on: runs.on.map((r) => ({ wallMs: +r.wallMs.toFixed(1), cpuMs: +r.cpuMs.toFixed(1), parseMs: +r.parseMs.toFixed(1), rulesMs: +Object.values(r.ruleMs).reduce((a, b) => a + b, 0).toFixed(1) })),
    },
  };
  if (out !== false) {
    const file = out ?? join(root, 'bench/out/lint.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  }
  return result;
}

export default lintBench;

function print(r) {
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`Lint benchmark: ${r.files} files (${r.mcpFiles} MCP servers), ${r.parser}, median of ${r.reps}`);
  console.log(`  parser only (no rules):      ${s(r.offMs)}`);
  console.log(`  + @mcp-mrtr recommended:     ${s(r.onMs)}`);
  console.log(`  overhead (wall clock):       ${r.overheadPct.toFixed(1)}%  (target < ${r.targetPct}%: ${r.withinTarget ? 'met' : 'NOT met'})`);
  console.log(`  overhead (CPU time):         ${r.cpuOverheadPct.toFixed(1)}%  (${s(r.offCpuMs)} → ${s(r.onCpuMs)} CPU)`);
  console.log(`  rule time (ESLint stats):    ${r.rulesMs.toFixed(0)} ms = ${r.rulesOverheadPct.toFixed(2)}% of the floor`);
  console.log('  per rule (median ms, % of floor):');
  for (const t of r.topRules) console.log(`    ${t.rule.padEnd(48)} ${t.ms.toFixed(1).padStart(8)}  ${t.pctOfFloor.toFixed(2)}%`);
  console.log(`  machine: ${r.cpus} CPUs, load average at the end ${r.loadavg.join(' / ')}`);
  console.log(`  findings: ${Object.entries(r.findings).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  console.log(`  ordinary (non-MCP) files with findings: ${r.nonMcpFilesWithFindings.length}${r.nonMcpFilesWithFindings.length ? ` (${r.nonMcpFilesWithFindings.slice(0, 5).join(', ')})` : ''}`);
  console.log(`  MCP server files without findings: ${r.mcpFilesWithoutFindings.length}${r.mcpFilesWithoutFindings.length ? ` (${r.mcpFilesWithoutFindings.slice(0, 5).join(', ')})` : ''}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: { files: { type: 'string', default: '2000' }, seed: { type: 'string', default: '42' }, reps: { type: 'string', default: '3' }, dir: { type: 'string' } },
  });
  const r = await lintBench({ files: Number(values.files), seed: Number(values.seed), reps: Number(values.reps), dir: values.dir });
  print(r);
  console.log(`  written: ${relative(process.cwd(), join(root, 'bench/out/lint.json')) || 'bench/out/lint.json'}`);
}
