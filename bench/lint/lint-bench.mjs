#!/usr/bin/env node
/**
 * Lint benchmark: ESLint (Node API) with @typescript-eslint/parser and no type information over a
 * generated tree, with no rules (the parser-only floor: parse, scope analysis, traversal) and with
 * `@mcp-mrtr/eslint-plugin`'s `recommended` config.
 *
 * Two measurements, both medians of `reps`:
 * - whole tree: `eslint.lintFiles()` over the tree, off and on alternately, wall and CPU time, with
 *   `stats: true` for the per-rule times (what `TIMING=1` prints);
 * - paired (the headline overhead): every file linted by both configurations back to back (order
 *   alternating), CPU time of this process summed per configuration. On a shared machine the load
 *   drifts by tens of percent between whole-tree runs; pairing each file's two lints cancels that drift.
 *
 *   node bench/lint/lint-bench.mjs [--files 2000] [--seed 42] [--reps 3] [--dir <existing tree>] [--no-whole-tree]
 *
 * Needs the plugin built (`npx turbo run build --filter=@mcp-mrtr/eslint-plugin`; `npm run bench`
 * builds everything first). Writes bench/out/lint.json.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generateTree } from './generate-tree.mjs';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const PLUGIN_DIST = join(root, 'packages/eslint-plugin/dist/index.js');
const TARGET_OVERHEAD_PCT = 5;
/** The generator writes MCP server modules under src/mcp/; everything else is ordinary code. */
const MCP_DIR = 'src/mcp/';
const PATTERN = 'src/**/*.ts';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const pct = (on, off) => ((on - off) / off) * 100;
const cpuNow = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

async function loadPlugin() {
  if (!existsSync(PLUGIN_DIST)) {
    throw new Error(`${relative(root, PLUGIN_DIST)} missing: build it first (npx turbo run build --filter=@mcp-mrtr/eslint-plugin)`);
  }
  const mod = await import(pathToFileURL(PLUGIN_DIST).href);
  const plugin = mod.default ?? mod;
  if (!plugin?.configs?.recommended) throw new Error('the plugin build has no configs.recommended');
  return plugin;
}

function newEslint(ESLint, dir, configs, stats) {
  return new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: configs, cache: false, stats, errorOnUnmatchedPattern: false });
}

/** One `lintFiles` pass over the tree: wall and CPU time, and what ESLint's stats say. */
async function lintTree({ ESLint, dir, configs }) {
  const eslint = newEslint(ESLint, dir, configs, true);
  const t0 = performance.now();
  const c0 = cpuNow();
  const results = await eslint.lintFiles([PATTERN]);
  const cpuMs = cpuNow() - c0;
  const wallMs = performance.now() - t0;
  const ruleMs = {};
  let parseMs = 0;
  const findings = {};
  const filesWithFindings = [];
  const allFiles = [];
  for (const result of results) {
    const pass = result.stats?.times?.passes?.[0];
    if (pass) {
      parseMs += pass.parse?.total ?? 0;
      for (const [rule, t] of Object.entries(pass.rules ?? {})) ruleMs[rule] = (ruleMs[rule] ?? 0) + (t.total ?? 0);
    }
    const rel = relative(dir, result.filePath).split(sep).join('/');
    allFiles.push(rel);
    if (result.messages.length) filesWithFindings.push(rel);
    for (const m of result.messages) {
      const key = m.ruleId ?? '(parse error)';
      findings[key] = (findings[key] ?? 0) + 1;
    }
  }
  return { wallMs, cpuMs, parseMs, ruleMs, findings, filesWithFindings, allFiles };
}

/** Every file linted by both configurations back to back; CPU time summed per configuration. */
async function lintPaired({ eslints, texts, pass }) {
  const sum = { off: 0, on: 0 };
  for (let i = 0; i < texts.length; i++) {
    const [filePath, text] = texts[i];
    const order = (i + pass) % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
    for (const variant of order) {
      const c0 = cpuNow();
      await eslints[variant].lintText(text, { filePath });
      sum[variant] += cpuNow() - c0;
    }
  }
  return sum;
}

/**
 * @param {{ dir?: string, files?: number, seed?: number, reps?: number, wholeTree?: boolean,
 *   log?: (...a: unknown[]) => void, out?: string | false }} options
 */
export async function lintBench({
  dir,
  files = 2000,
  seed = 42,
  reps = 3,
  wholeTree = true,
  log = (...a) => console.error('[lint-bench]', ...a),
  out,
} = {}) {
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
  const variants = { off: [base], on: [base, plugin.configs.recommended] };

  // Whole-tree runs (with ESLint stats for per-rule times and the findings).
  const runs = { off: [], on: [] };
  if (wholeTree) {
    await lintTree({ ESLint, dir, configs: variants.on }); // warm-up: module loading, JIT
    for (let rep = 0; rep < reps; rep++) {
      for (const variant of rep % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
        const r = await lintTree({ ESLint, dir, configs: variants[variant] });
        runs[variant].push(r);
        const rules = Object.values(r.ruleMs).reduce((a, b) => a + b, 0);
        log(`tree ${variant.padEnd(3)} #${rep + 1}: ${(r.wallMs / 1000).toFixed(2)} s wall, ${(r.cpuMs / 1000).toFixed(2)} s CPU, parse ${(r.parseMs / 1000).toFixed(2)} s, rules ${rules.toFixed(0)} ms`);
      }
    }
  }

  // Paired per-file runs: the overhead figure.
  const eslints = { off: newEslint(ESLint, dir, variants.off, false), on: newEslint(ESLint, dir, variants.on, false) };
  const paths = (await eslints.off.lintFiles([PATTERN])).map((r) => r.filePath).sort(); // also warms up `off`
  const texts = paths.map((p) => [p, readFileSync(p, 'utf8')]);
  const paired = [];
  for (let pass = 0; pass < reps; pass++) {
    const sum = await lintPaired({ eslints, texts, pass });
    paired.push(sum);
    log(`paired #${pass + 1}: off ${(sum.off / 1000).toFixed(2)} s CPU, on ${(sum.on / 1000).toFixed(2)} s CPU, overhead ${pct(sum.on, sum.off).toFixed(1)}%`);
  }
  const offMs = median(paired.map((p) => p.off));
  const onMs = median(paired.map((p) => p.on));
  const overheadPct = median(paired.map((p) => pct(p.on, p.off)));

  const result = {
    timestamp: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadavg: os.loadavg().map((x) => +x.toFixed(2)),
    tree: relative(root, dir),
    files: texts.length,
    mcpFiles: texts.filter(([p]) => relative(dir, p).split(sep).join('/').startsWith(MCP_DIR)).length,
    reps,
    parser: '@typescript-eslint/parser (no type information)',
    method: 'paired: each file linted with no rules and with recommended back to back, CPU time summed per configuration',
    offMs: +offMs.toFixed(1),
    onMs: +onMs.toFixed(1),
    overheadPct: +overheadPct.toFixed(2),
    targetPct: TARGET_OVERHEAD_PCT,
    withinTarget: overheadPct < TARGET_OVERHEAD_PCT,
    paired: paired.map((p) => ({ offCpuMs: +p.off.toFixed(1), onCpuMs: +p.on.toFixed(1), overheadPct: +pct(p.on, p.off).toFixed(2) })),
  };

  if (wholeTree) {
    const offWall = median(runs.off.map((r) => r.wallMs));
    const onWall = median(runs.on.map((r) => r.wallMs));
    const offCpu = median(runs.off.map((r) => r.cpuMs));
    const onCpu = median(runs.on.map((r) => r.cpuMs));
    const perRule = Object.keys(runs.on[0].ruleMs)
      .map((rule) => ({ rule, ms: median(runs.on.map((r) => r.ruleMs[rule] ?? 0)) }))
      .sort((a, b) => b.ms - a.ms);
    const rulesMs = perRule.reduce((a, r) => a + r.ms, 0);
    const offParse = median(runs.off.map((r) => r.parseMs));
    const last = runs.on[runs.on.length - 1];
    const isMcp = (f) => f.startsWith(MCP_DIR);
    result.wholeTree = {
      offWallMs: +offWall.toFixed(1),
      onWallMs: +onWall.toFixed(1),
      wallOverheadPct: +pct(onWall, offWall).toFixed(2),
      offCpuMs: +offCpu.toFixed(1),
      onCpuMs: +onCpu.toFixed(1),
      cpuOverheadPct: +pct(onCpu, offCpu).toFixed(2),
      runs: {
        off: runs.off.map((r) => ({ wallMs: +r.wallMs.toFixed(1), cpuMs: +r.cpuMs.toFixed(1), parseMs: +r.parseMs.toFixed(1) })),
        on: runs.on.map((r) => ({ wallMs: +r.wallMs.toFixed(1), cpuMs: +r.cpuMs.toFixed(1), parseMs: +r.parseMs.toFixed(1), rulesMs: +Object.values(r.ruleMs).reduce((a, b) => a + b, 0).toFixed(1) })),
      },
    };
    // ESLint's own per-rule timing (wall clock inside the on runs), relative to the parse time of the off runs
    result.rulesMs = +rulesMs.toFixed(1);
    result.rulesPctOfParse = +((rulesMs / offParse) * 100).toFixed(2);
    result.topRules = perRule.map((r) => ({ rule: r.rule, ms: +r.ms.toFixed(1), pctOfParse: +((r.ms / offParse) * 100).toFixed(2) }));
    result.findings = last.findings;
    result.filesWithFindings = last.filesWithFindings.length;
    result.nonMcpFilesWithFindings = last.filesWithFindings.filter((f) => !isMcp(f));
    result.mcpFilesWithoutFindings = last.allFiles.filter(isMcp).filter((f) => !last.filesWithFindings.includes(f));
  }

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
  console.log(`  paired CPU time, parser only (no rules):   ${s(r.offMs)}`);
  console.log(`  paired CPU time, + @mcp-mrtr recommended:  ${s(r.onMs)}`);
  console.log(`  plugin overhead:                           ${r.overheadPct.toFixed(1)}%  (target < ${r.targetPct}%: ${r.withinTarget ? 'met' : 'NOT met'}; passes ${r.paired.map((p) => `${p.overheadPct.toFixed(1)}%`).join(', ')})`);
  if (r.wholeTree) {
    const w = r.wholeTree;
    console.log(`  whole-tree runs: wall ${s(w.offWallMs)} → ${s(w.onWallMs)} (${w.wallOverheadPct.toFixed(1)}%), CPU ${s(w.offCpuMs)} → ${s(w.onCpuMs)} (${w.cpuOverheadPct.toFixed(1)}%)`);
    console.log(`  rule time (ESLint stats): ${r.rulesMs.toFixed(0)} ms = ${r.rulesPctOfParse.toFixed(2)}% of the parse time; per rule (median ms, % of parse):`);
    for (const t of r.topRules) console.log(`    ${t.rule.padEnd(48)} ${t.ms.toFixed(1).padStart(8)}  ${t.pctOfParse.toFixed(2)}%`);
    console.log(`  findings: ${Object.entries(r.findings).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
    console.log(`  ordinary (non-MCP) files with findings: ${r.nonMcpFilesWithFindings.length}${r.nonMcpFilesWithFindings.length ? ` (${r.nonMcpFilesWithFindings.slice(0, 5).join(', ')})` : ''}`);
    console.log(`  MCP server files without findings: ${r.mcpFilesWithoutFindings.length}${r.mcpFilesWithoutFindings.length ? ` (${r.mcpFilesWithoutFindings.slice(0, 5).join(', ')})` : ''}`);
  }
  console.log(`  machine: ${r.cpus} CPUs, load average at the end ${r.loadavg.join(' / ')}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      files: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '42' },
      reps: { type: 'string', default: '3' },
      dir: { type: 'string' },
      'whole-tree': { type: 'boolean', default: true },
    },
    allowNegative: true,
  });
  const r = await lintBench({ files: Number(values.files), seed: Number(values.seed), reps: Number(values.reps), dir: values.dir, wholeTree: values['whole-tree'] });
  print(r);
  console.log('  written: bench/out/lint.json');
}
