/** The results table (markdown) and the per-repository flagged and migrated sites. */

const n = (v) => (v === null || v === undefined ? '–' : String(v));

function tests(t) {
  if (!t) return '–';
  if (t.passed === null) return t.note === 'no test script' ? 'none' : t.note ?? '–';
  return `${t.passed}/${t.failed}${t.timedOut ? ' (timeout)' : ''}${t.reused ? '*' : ''}`;
}

function tsc(t) {
  if (!t) return '–';
  if (t.errors === null) return t.note === 'no tsconfig' ? 'n/a' : t.note ?? '–';
  return String(t.errors);
}

export const COLUMNS = ['repository', 'install', 'text sites', 'engine sites', 'text sites unseen', 'migrated', 'flagged', 'files changed / failed', 'tsc errors before → after', 'tests pass/fail before → after', 'comment lines lost', 'time (s)'];

export function row(r) {
  if (r.error && !r.engine) return [r.name, r.pm ?? '–', n(r.textSites?.total), `error: ${r.error.slice(0, 80)}`, '', '', '', '', '', '', '', n(r.seconds)];
  const install = r.steps?.installBefore ? `${r.steps.installBefore.method}${r.steps.installAfter && !r.steps.installAfter.ok ? ' (after: failed)' : ''}` : '–';
  const changed = (r.changed ?? []).filter((c) => !/package(-lock)?\.json$|pnpm-lock\.yaml$|yarn\.lock$/.test(c)).length;
  return [
    r.name,
    install,
    n(r.textSites?.total),
    n(r.engine?.sitesFound),
    r.engine ? textSitesTheEngineMissed(r).length : '–',
    n(r.engine?.sitesMigrated),
    n(r.engine?.sitesFlagged),
    `${changed} / ${n(r.engine?.filesFailed)}`,
    `${tsc(r.tscBefore)} → ${tsc(r.tscAfter)}`,
    `${tests(r.testsBefore)} → ${tests(r.testsAfter)}`,
    n(r.commentLinesLost),
    n(r.seconds),
  ];
}

export function totals(repos) {
  const sum = (f) => repos.reduce((s, r) => s + (f(r) ?? 0), 0);
  const compiles = (t) => t?.errors === 0;
  return {
    repos: repos.length,
    textSites: sum((r) => r.textSites?.total),
    engineSites: sum((r) => r.engine?.sitesFound),
    unseen: sum((r) => (r.engine ? textSitesTheEngineMissed(r).length : 0)),
    migrated: sum((r) => r.engine?.sitesMigrated),
    flagged: sum((r) => r.engine?.sitesFlagged),
    compilingBefore: repos.filter((r) => compiles(r.tscBefore)).length,
    compilingAfter: repos.filter((r) => compiles(r.tscAfter)).length,
    compiledThenBroke: repos.filter((r) => compiles(r.tscBefore) && !compiles(r.tscAfter)).map((r) => r.name),
    testsPassingBefore: sum((r) => r.testsBefore?.passed),
    testsPassingAfter: sum((r) => r.testsAfter?.passed),
    testsFailingBefore: sum((r) => r.testsBefore?.failed),
    testsFailingAfter: sum((r) => r.testsAfter?.failed),
    commentLinesLost: sum((r) => r.commentLinesLost),
  };
}

// The engine reports a `sendRequest` at its call, the text search at the method string, which may
// sit in a request object built lines earlier: match per file and request family, not per line.
const FAMILY = { elicitInput: 'elicit', 'elicitation/create': 'elicit', createMessage: 'sampling', 'sampling/createMessage': 'sampling', listRoots: 'roots', 'roots/list': 'roots' };

/**
 * Text-search sites with no engine site of the same family left in the same file. A text site on
 * the line of an engine site is matched to it first, so that a method string earlier in the file (a
 * tool description naming 'sampling/createMessage') is the one left over, not the request.
 */
export function textSitesTheEngineMissed(r) {
  const engine = [...(r.migrated ?? []), ...(r.flagged ?? [])].map((e) => ({ file: e.file, line: e.line, family: FAMILY[e.method] ?? e.method, used: false }));
  const text = (r.textSites?.sites ?? []).map((s) => ({ site: s, family: FAMILY[s.method], matched: false }));
  for (const t of text) {
    const e = engine.find((x) => !x.used && x.file === t.site.file && x.family === t.family && x.line === t.site.line);
    if (e) { e.used = true; t.matched = true; }
  }
  for (const t of text) {
    if (t.matched) continue;
    const e = engine.find((x) => !x.used && x.file === t.site.file && x.family === t.family);
    if (e) { e.used = true; t.matched = true; }
  }
  return text.filter((t) => !t.matched).map((t) => t.site);
}

const mdRow = (cells) => `| ${cells.map((c) => String(c).replace(/\|/g, '\\|').replace(/\n/g, ' ')).join(' | ')} |`;

export function renderTable(repos) {
  const t = totals(repos);
  return [
    mdRow(COLUMNS),
    mdRow(COLUMNS.map(() => '---')),
    ...repos.map((r) => mdRow(row(r))),
    mdRow([`**total (${t.repos})**`, '', t.textSites, t.engineSites, t.unseen, t.migrated, t.flagged, '', `compiling: ${t.compilingBefore} → ${t.compilingAfter}`, `${t.testsPassingBefore}/${t.testsFailingBefore} → ${t.testsPassingAfter}/${t.testsFailingAfter}`, t.commentLinesLost, '']),
  ].join('\n');
}

/** Rows measured with different CLI builds (a partial re-run merged into a full one) are named. */
function cliNote(repos) {
  const byCli = new Map();
  for (const r of repos) if (r.cli) byCli.set(r.cli, [...(byCli.get(r.cli) ?? []), r.name]);
  if (byCli.size < 2) return [];
  return ['Rows come from more than one CLI build:', '', ...[...byCli].map(([cli, names]) => `- \`${cli}\`: ${names.join(', ')}`), ''];
}

/** `verdictsSection`: the figures of verdicts.tsv (lib/verdicts.mjs), placed under the table. */
export function renderMarkdown(repos, meta, verdictsSection) {
  const t = totals(repos);
  const lines = [
    '# Real-repository results',
    '',
    `Run ${meta.date} with mcp-mrtr at \`${meta.cli}\`, Node ${meta.node}. Generated by \`bench/realworld/run.mjs\`; columns are explained in README.md.`,
    '',
    renderTable(repos),
    '',
    ...cliNote(repos),
    ...(repos.some((r) => r.testsBefore?.reused) ? ['`*` test counts before the migration reused from an earlier run at the same commit (`--reuse-before`).', ''] : []),
    `Repositories that compiled before and not after: ${t.compiledThenBroke.length ? t.compiledThenBroke.join(', ') : 'none'}.`,
    '',
    ...(verdictsSection ? [verdictsSection, ''] : []),
    '## Sites per repository',
    '',
  ];
  for (const r of repos) {
    lines.push(`### ${r.name}`, '');
    if (r.error) lines.push(`- error: ${r.error}`);
    for (const s of r.migrated ?? []) lines.push(`- migrated \`${s.file}:${s.line}\` ${s.method}${s.reason ? `: ${s.reason}` : ''}`);
    for (const s of r.flagged ?? []) lines.push(`- flagged \`${s.file}:${s.line}\` ${s.method}: ${s.reason ?? '(no reason)'}`);
    for (const f of r.failedFiles ?? []) lines.push(`- failed file \`${f.file}\`: ${f.error}`);
    const textOnly = textSitesTheEngineMissed(r);
    for (const s of textOnly) lines.push(`- text search only \`${s.file}:${s.line}\` ${s.method}`);
    if (r.commentLinesLostByFile && Object.keys(r.commentLinesLostByFile).length) lines.push(`- comment lines lost: ${Object.entries(r.commentLinesLostByFile).map(([f, k]) => `${f} ${k}`).join(', ')}`);
    lines.push('');
  }
  return lines.join('\n');
}
