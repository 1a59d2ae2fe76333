#!/usr/bin/env node
/**
 * CPU profile of one tool run on a generated tree, summarised: self time by function and by
 * module, inclusive time by function. For finding hot spots, not for the benchmark figures.
 *
 *   node bench/profile.mjs [--files 2000] [--seed 42] [--tool migrate|check|official] [--top 25]
 *   node bench/profile.mjs --from <file.cpuprofile>      (summarise an existing profile)
 *
 * Uses the tree bench/run.mjs generated ($TMPDIR/mcp-mrtr-bench/<files>-seed<seed>); generates it when missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchTools } from './lib/tools.mjs';
import { loadGenerator, prepareTree } from './lib/tree.mjs';
import os from 'node:os';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { values: opts } = parseArgs({
  options: {
    files: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '42' },
    tool: { type: 'string', default: 'migrate' },
    top: { type: 'string', default: '25' },
    interval: { type: 'string', default: '1000' },
    'trees-dir': { type: 'string' },
    from: { type: 'string' },
  },
});
const files = Number(opts.files);
const seed = Number(opts.seed);
const top = Number(opts.top);
let wallMs = null;
let profPath = opts.from;
if (!profPath) {
  const tree = join(opts['trees-dir'] ?? join(os.tmpdir(), 'mcp-mrtr-bench'), `${files}-seed${seed}`);
  if (!existsSync(join(tree, 'tsconfig.json'))) await prepareTree({ root, tree, files, seed, generateTree: await loadGenerator(root) });
  const tool = benchTools(root).find((t) => t.id === opts.tool);
  if (!tool?.available) throw new Error(`tool ${opts.tool} not available (${tool ? relative(root, tool.entry) : 'unknown id'})`);
  const profDir = join(root, 'bench/out/prof', `${opts.tool}-${files}`);
  rmSync(profDir, { recursive: true, force: true });
  mkdirSync(profDir, { recursive: true });
  const t0 = performance.now();
  const run = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', profDir, '--cpu-prof-interval', opts.interval, ...tool.args(tree)], {
    cwd: tree,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  wallMs = performance.now() - t0;
  if (run.status !== 0 && run.status !== 1) console.error(run.stderr.slice(-2000));
  const profFile = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!profFile) throw new Error('no .cpuprofile written');
  profPath = join(profDir, profFile);
  console.log(`${tool.label} on ${files} files: ${(wallMs / 1000).toFixed(2)} s wall (profiled)`);
}
const profile = JSON.parse(readFileSync(profPath, 'utf8'));
const summary = summarise(profile);
writeFileSync(profPath.replace(/\.cpuprofile$/, '.summary.json'), JSON.stringify({ wallMs, ...summary }, null, 2));

const pct = (ms) => `${((ms / summary.totalMs) * 100).toFixed(1).padStart(5)}%`;
console.log(`${(summary.totalMs / 1000).toFixed(2)} s sampled`);
console.log(`\nself time by module:`);
for (const m of summary.byModule.slice(0, top)) console.log(`  ${pct(m.ms)}  ${m.module}`);
console.log(`\nself time by function:`);
for (const f of summary.bySelf.slice(0, top)) console.log(`  ${pct(f.ms)}  ${f.fn}`);
console.log(`\ninclusive time by function:`);
for (const f of summary.byInclusive.slice(0, top)) console.log(`  ${pct(f.ms)}  ${f.fn}`);
console.log(`\ninclusive time in project code (packages/*):`);
for (const f of summary.byInclusive.filter((x) => / packages\//.test(x.fn)).slice(0, top)) console.log(`  ${pct(f.ms)}  ${f.fn}`);
console.log(`\nprofile: ${relative(root, profPath)} (open in Chrome DevTools / speedscope)`);

function summarise(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const inclusive = new Map();
  const modules = new Map();
  let totalMs = 0;
  const key = (n) => {
    const cf = n.callFrame;
    const where = cf.url ? `${shortUrl(cf.url)}:${cf.lineNumber + 1}` : '(native)';
    return `${cf.functionName || '(anonymous)'} ${where}`;
  };
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    totalMs += ms;
    const node = byId.get(profile.samples[i]);
    if (!node) continue;
    const k = key(node);
    self.set(k, (self.get(k) ?? 0) + ms);
    const mod = moduleOf(node.callFrame);
    modules.set(mod, (modules.get(mod) ?? 0) + ms);
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id);
      const kk = key(n);
      if (seen.has(kk)) continue;
      seen.add(kk);
      inclusive.set(kk, (inclusive.get(kk) ?? 0) + ms);
    }
  }
  const sorted = (m, name) => [...m].map(([k, ms]) => ({ [name]: k, ms })).sort((a, b) => b.ms - a.ms);
  const interesting = (fn) => !/^\((root|program|anonymous\) \(native\))/.test(fn) && !/node:internal|^\(garbage/.test(fn);
  return {
    totalMs,
    byModule: sorted(modules, 'module'),
    bySelf: sorted(self, 'fn'),
    byInclusive: sorted(inclusive, 'fn').filter((f) => interesting(f.fn)),
  };
}

function shortUrl(url) {
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm !== -1) return path.slice(nm + 'node_modules/'.length);
  return path.startsWith(root) ? relative(root, path) : path;
}

function moduleOf(cf) {
  if (!cf.url) return cf.functionName.startsWith('(') ? cf.functionName : '(native)';
  const path = cf.url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const rest = path.slice(nm + 'node_modules/'.length).split('/');
    const pkg = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    return `${pkg}/${rest.at(-1)}`;
  }
  if (path.startsWith('node:')) return 'node internals';
  return path.startsWith(root) ? relative(root, path) : path;
}
