/**
 * `verdicts.tsv`: a person's reading of each site of the committed run, summed into the figures the
 * results are judged by, and checked against the results (a site with no verdict, or a verdict for
 * a site the run no longer reports, is named: the file must describe the run it sits beside).
 */
import { existsSync, readFileSync } from 'node:fs';
import { textSitesTheEngineMissed } from './render.mjs';

export const REQUEST_METHODS = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);
// A request site whose `why` starts with this has a plain MRTR form (reached from a request
// handler and awaited there): the share migrated correctly is counted over these and the
// correct migrations.
const MRTR_FORM = /^MRTR form\b/i;

/** Rows of verdicts.tsv: repo, site (file:line), status (migrated, flagged, missed), method, verdict, why. */
export function readVerdicts(file) {
  if (!existsSync(file)) return undefined;
  const rows = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const [repo, site, status, method, verdict, why = ''] = line.split('\t');
    if (repo === 'repo') continue;
    rows.push({ repo, site, status, method, verdict, why });
  }
  return rows;
}

/** Sites of a results row as verdict keys: migrated, flagged, and text-search-only ("missed"). */
function sitesOfRun(r) {
  return [
    ...(r.migrated ?? []).map((s) => ({ status: 'migrated', site: `${s.file}:${s.line}`, method: s.method })),
    ...(r.flagged ?? []).map((s) => ({ status: 'flagged', site: `${s.file}:${s.line}`, method: s.method })),
    ...(r.engine ? textSitesTheEngineMissed(r) : []).map((s) => ({ status: 'missed', site: `${s.file}:${s.line}`, method: s.method })),
  ];
}

const key = (repo, status, site, method) => `${repo}\0${status}\0${site}\0${method}`;

/** The figures, and the mismatches between verdicts and results (as multisets: a line may hold two sites). */
export function summariseVerdicts(rows, repos) {
  const inRun = new Map();
  for (const r of repos) for (const s of sitesOfRun(r)) {
    const k = key(r.name, s.status, s.site, s.method);
    inRun.set(k, (inRun.get(k) ?? 0) + 1);
  }
  const unmatched = [];
  const left = new Map(inRun);
  for (const v of rows) {
    const k = key(v.repo, v.status, v.site, v.method);
    if ((left.get(k) ?? 0) > 0) left.set(k, left.get(k) - 1);
    else unmatched.push(`${v.repo} ${v.status} ${v.site} ${v.method}`);
  }
  const unjudged = [...left].flatMap(([k, n]) => Array.from({ length: n }, () => k.split('\0').join(' ')));

  const count = (f) => rows.filter(f).length;
  const request = (v) => REQUEST_METHODS.has(v.method);
  const correct = count((v) => request(v) && v.verdict === 'correct');
  const withForm = correct + count((v) => request(v) && v.verdict !== 'correct' && MRTR_FORM.test(v.why));
  return {
    requestSitesWithMrtrForm: withForm,
    migratedCorrectly: correct,
    wrong: rows.filter((v) => v.verdict === 'wrong'),
    flagsTrue: count((v) => v.verdict === 'reason-true'),
    flagsFalse: rows.filter((v) => v.verdict === 'reason-false'),
    missed: rows.filter((v) => v.status === 'missed'),
    unmatched,
    unjudged,
  };
}

/** `rows` counted by kind of site: request methods, serving, type-error, session-state, test-mock. */
function byKind(rows) {
  const counts = new Map();
  for (const v of rows) {
    const kind = REQUEST_METHODS.has(v.method) ? 'request' : v.method;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ${n}`).join(', ');
}

const pct = (a, b) => (b ? `${Math.round((100 * a) / b)}%` : 'n/a');

export function renderVerdicts(s) {
  const site = (v) => `- ${v.repo} \`${v.site}\` ${v.method}: ${v.why}`;
  return [
    '## Verdicts (`verdicts.tsv`)',
    '',
    `- request sites with an MRTR form migrated correctly: ${s.migratedCorrectly} of ${s.requestSitesWithMrtrForm} (${pct(s.migratedCorrectly, s.requestSitesWithMrtrForm)})`,
    `- wrong migrations: ${s.wrong.length}`,
    `- flags with a true reason: ${s.flagsTrue}; with a false reason: ${s.flagsFalse.length}${s.flagsFalse.length ? ` (${byKind(s.flagsFalse)})` : ''}`,
    `- text-search sites the engine did not report (read: missed or not a request): ${s.missed.length}`,
    ...(s.unjudged.length ? [`- sites of this run without a verdict: ${s.unjudged.length} (${s.unjudged.join('; ')})`] : []),
    ...(s.unmatched.length ? [`- verdicts for sites this run does not report: ${s.unmatched.length} (${s.unmatched.join('; ')})`] : []),
    '',
    ...(s.wrong.length ? ['Wrong migrations:', '', ...s.wrong.map(site), ''] : []),
    ...(s.flagsFalse.length ? ['Flags with a false reason:', '', ...s.flagsFalse.map(site), ''] : []),
    ...(s.missed.filter((v) => v.verdict === 'missed').length ? ['Missed sites:', '', ...s.missed.filter((v) => v.verdict === 'missed').map(site), ''] : []),
  ].join('\n');
}
