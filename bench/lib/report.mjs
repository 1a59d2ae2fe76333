/** Turns measured figures into ratios, target verdicts and the markdown table (console + README). */
import { readFileSync, writeFileSync } from 'node:fs';

const GIB = 1024 ** 3;
export const README_START = '<!-- bench:start -->';
export const README_END = '<!-- bench:end -->';

const ratio = (a, b) => (a != null && b != null && b > 0 ? a / b : null);

/** Ratios per size and across sizes, from `sizes[i].tools[id].medianMs`. */
export function computeRatios(sizes) {
  const at = (files) => sizes.find((s) => s.files === files);
  const ms = (size, id) => size?.tools[id]?.medianMs ?? null;
  const cpu = (size, id) => size?.tools[id]?.medianCpuMs ?? null;
  const perSize = sizes.map((s) => ({
    files: s.files,
    officialOverMigrate: ratio(ms(s, 'official'), ms(s, 'migrate')),
    migrateOverFloor: ratio(ms(s, 'migrate'), ms(s, 'floor')),
    checkOverFloor: ratio(ms(s, 'check'), ms(s, 'floor')),
    officialOverFloor: ratio(ms(s, 'official'), ms(s, 'floor')),
    cpu: {
      officialOverMigrate: ratio(cpu(s, 'official'), cpu(s, 'migrate')),
      migrateOverFloor: ratio(cpu(s, 'migrate'), cpu(s, 'floor')),
      checkOverFloor: ratio(cpu(s, 'check'), cpu(s, 'floor')),
      officialOverFloor: ratio(cpu(s, 'official'), cpu(s, 'floor')),
    },
    lintOverheadPct: s.lint?.overheadPct ?? null,
    lintMeasure: s.lint?.measure ?? null,
    lintWallOverheadPct: s.lint?.wallOverheadPct ?? null,
    lintRulesPct: s.lint?.rulesOverheadPct ?? null,
  }));
  const scaling = {};
  const big = at(10000);
  const mid = at(2000);
  const scalingCpu = {};
  for (const id of ['floor', 'migrate', 'check', 'official']) {
    scaling[id] = ratio(ms(big, id), ms(mid, id));
    scalingCpu[id] = ratio(cpu(big, id), cpu(mid, id));
  }
  return { perSize, scaling10kOver2k: scaling, scaling10kOver2kCpu: scalingCpu };
}

/** The issue's targets: PASS / MISS, or n/a with the reason when the figure is missing. */
export function evaluateTargets(sizes, ratios) {
  const at = (files) => sizes.find((s) => s.files === files);
  const per2k = ratios.perSize.find((r) => r.files === 2000);
  const rss10k = (id) => at(10000)?.tools[id]?.peakRssBytes ?? null;
  const lintSize = at(2000) ?? [...sizes].reverse().find((s) => s.lint?.overheadPct != null);
  const verdict = (value, ok, missing) => (value == null ? { status: 'n/a', note: missing } : { status: ok(value) ? 'PASS' : 'MISS' });
  const na2k = at(2000) ? 'a tool did not run at 2,000 files' : 'run with --sizes including 2000';
  const na10k = at(10000) ? 'a tool did not run at 10,000 files' : 'run with --full (or --sizes 2000,10000)';
  return [
    { id: 'vs-official', target: 'migrate --dry-run at 2,000 files ≥ 3x faster than official v1-to-v2', value: per2k?.officialOverMigrate ?? null, cpuValue: per2k?.cpu.officialOverMigrate ?? null, unit: 'x', ...verdict(per2k?.officialOverMigrate, (v) => v >= 3, na2k) },
    { id: 'vs-floor', target: 'migrate --dry-run at 2,000 files ≤ 2x the parse floor', value: per2k?.migrateOverFloor ?? null, cpuValue: per2k?.cpu.migrateOverFloor ?? null, unit: 'x', ...verdict(per2k?.migrateOverFloor, (v) => v <= 2, na2k) },
    { id: 'scaling', target: 'migrate --dry-run: 10,000 files ≤ 5.5x the time of 2,000', value: ratios.scaling10kOver2k.migrate, cpuValue: ratios.scaling10kOver2kCpu.migrate, unit: 'x', ...verdict(ratios.scaling10kOver2k.migrate, (v) => v <= 5.5, na10k) },
    { id: 'rss-migrate', target: 'migrate --dry-run peak RSS at 10,000 files < 1 GiB', value: rss10k('migrate'), unit: 'bytes', ...verdict(rss10k('migrate'), (v) => v < GIB, na10k) },
    { id: 'rss-check', target: 'check peak RSS at 10,000 files < 1 GiB', value: rss10k('check'), unit: 'bytes', ...verdict(rss10k('check'), (v) => v < GIB, na10k) },
    { id: 'lint-overhead', target: `ESLint recommended overhead < 5%${lintSize ? ` (${fmtInt(lintSize.files)} files, ${lintSize.lint?.measure ?? 'wall'})` : ''}`, value: lintSize?.lint?.overheadPct ?? null, wallValue: lintSize?.lint?.wallOverheadPct ?? null, rulesValue: lintSize?.lint?.rulesOverheadPct ?? null, unit: '%', ...verdict(lintSize?.lint?.overheadPct, (v) => v < 5, 'lint bench did not run') },
  ];
}

const fmtInt = (n) => n.toLocaleString('en-US');
const fmtS = (ms) => (ms == null ? 'n/a' : `${(ms / 1000).toFixed(2)} s`);
const fmtMiB = (b) => (b == null ? 'n/a' : `${Math.round(b / 1024 ** 2)} MiB`);
const fmtX = (x) => (x == null ? 'n/a' : `${x.toFixed(2)}x`);
const fmtPct = (p) => (p == null ? 'n/a' : `${p >= 0 ? '+' : ''}${p.toFixed(1)}%`);
const fmtValue = (t) =>
  t.value == null ? 'n/a' : t.unit === 'x' ? `${fmtX(t.value)}${t.cpuValue != null ? ` (CPU ${fmtX(t.cpuValue)})` : ''}` : t.unit === '%' ? `${fmtPct(t.value)} (whole-tree wall ${fmtPct(t.wallValue)}; rule time ${fmtPct(t.rulesValue)})` : fmtMiB(t.value);

function toolCell(tool) {
  if (!tool) return 'n/a';
  if (tool.status === 'unavailable') return 'n/a (not built)';
  if (tool.medianMs == null) return `n/a (failed)`;
  return `${fmtS(tool.medianMs)} · ${fmtMiB(tool.peakRssBytes)}`;
}

export function renderMarkdown(result) {
  const { sizes, ratios, targets, meta } = result;
  const out = [];
  out.push(
    `Run ${meta.timestamp} on ${meta.cpus} × ${meta.cpuModel}, Node ${meta.node}, commit ${meta.commit}; ` +
      `median of ${meta.reps} runs, each in a fresh process; peak RSS via ${meta.rssMethod}. ` +
      'Absolute seconds vary with machine load: compare the ratios.',
  );
  out.push('');
  out.push('| files | lines | MCP modules | parse floor | mcp-mrtr migrate --dry-run | mcp-mrtr check | official v1-to-v2 --dry-run | ESLint without → with plugin |');
  out.push('| ---: | ---: | ---: | --- | --- | --- | --- | --- |');
  for (const s of sizes) {
    const lint = s.lint?.offMs != null ? `${fmtS(s.lint.offMs)} → ${fmtS(s.lint.onMs)}${s.lint.measure === 'paired CPU' ? ' CPU' : ''}` : 'n/a';
    out.push(`| ${fmtInt(s.files)} | ${fmtInt(s.lines)} | ${s.mcpModules} | ${toolCell(s.tools.floor)} | ${toolCell(s.tools.migrate)} | ${toolCell(s.tools.check)} | ${toolCell(s.tools.official)} | ${lint} |`);
  }
  out.push('');
  out.push('Ratios of median wall time (of median CPU time, user + system, in parentheses: less sensitive to a busy machine):');
  out.push('');
  out.push('| files | official ÷ migrate | migrate ÷ floor | check ÷ floor | official ÷ floor | ESLint overhead (whole-tree wall) | plugin rule time ÷ parse time |');
  out.push('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const both = (w, c) => `${fmtX(w)} (${fmtX(c)})`;
  for (const r of ratios.perSize) {
    out.push(
      `| ${fmtInt(r.files)} | ${both(r.officialOverMigrate, r.cpu.officialOverMigrate)} | ${both(r.migrateOverFloor, r.cpu.migrateOverFloor)} | ${both(r.checkOverFloor, r.cpu.checkOverFloor)} | ${both(r.officialOverFloor, r.cpu.officialOverFloor)} | ${r.lintOverheadPct == null ? 'n/a' : `${fmtPct(r.lintOverheadPct)}${r.lintMeasure ? ` ${r.lintMeasure}` : ''} (${fmtPct(r.lintWallOverheadPct)})`} | ${fmtPct(r.lintRulesPct)} |`,
    );
  }
  const sc = ratios.scaling10kOver2k;
  if (Object.values(sc).some((v) => v != null)) {
    out.push('');
    const scc = ratios.scaling10kOver2kCpu;
    out.push(`Scaling 10,000 ÷ 2,000 files (linear = 5.0x), wall (CPU): migrate ${both(sc.migrate, scc.migrate)}, check ${both(sc.check, scc.check)}, official ${both(sc.official, scc.official)}, parse floor ${both(sc.floor, scc.floor)}.`);
  }
  const rules = sizes.at(-1)?.lint?.topRules;
  if (rules?.length) {
    out.push('');
    out.push(`Slowest plugin rules (${fmtInt(sizes.at(-1).files)} files, ESLint stats): ${rules.slice(0, 5).map((r) => `${r.rule.replace('@mcp-mrtr/', '')} ${r.ms.toFixed(0)} ms`).join(', ')}.`);
  }
  out.push('');
  out.push('| target | measured | verdict |');
  out.push('| --- | ---: | --- |');
  for (const t of targets) out.push(`| ${t.target} | ${fmtValue(t)} | ${t.status}${t.note ? ` (${t.note})` : ''} |`);
  return out.join('\n');
}

/** Replaces the text between the bench markers in README.md; adds a "## Benchmarks" section when absent. */
export function updateReadme(readmePath, markdown) {
  const original = readFileSync(readmePath, 'utf8');
  const block = `${README_START}\n${markdown}\n${README_END}`;
  const start = original.indexOf(README_START);
  const end = original.indexOf(README_END);
  let next;
  if (start !== -1 && end > start) {
    next = original.slice(0, start) + block + original.slice(end + README_END.length);
  } else {
    const section =
      '## Benchmarks\n\n' +
      '`npm run bench` generates seeded synthetic repositories (ordinary TypeScript with imports between files and ' +
      'about 2.5% MCP server modules with legacy requests), then times the tools below on the same tree; ' +
      '`npm run bench -- --full` adds the 10,000-file tree, `--sizes 500,2000,10000` picks sizes. ' +
      'Figures go to `bench/out/latest.json`; the table below is the latest run.\n\n' +
      `${block}\n`;
    next = `${original.replace(/\s*$/, '\n')}\n${section}`;
  }
  if (next !== original) writeFileSync(readmePath, next);
  return next !== original;
}
