/**
 * `mcp-mrtr check --baseline <file>`: the legacy sites a repository already knows about, so that the
 * gate fails only on new ones while the rest are migrated step by step.
 *
 * A site's identity is its file (relative to the baseline file's directory), method, enclosing
 * scope (`createServer > registerTool(delete_file)`) and its source text with whitespace removed:
 * no line or column, so code added or moved above a site does not make it new. Identical sites in
 * one scope are counted, and matched by count.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FileResult, MigrationResult, SiteResult } from '../types.js';
import { TOOL_NAME } from '../version.js';

export const BASELINE_VERSION = 1;

export interface BaselineEntry {
  file: string;
  method: string;
  scope: string;
  snippet: string;
  /** How many identical sites (present when more than one). */
  count?: number;
}

export interface BaselineFile {
  tool: typeof TOOL_NAME;
  baselineVersion: typeof BASELINE_VERSION;
  description: string;
  sites: BaselineEntry[];
}

export interface BaselineComparison {
  /** Sites not in the baseline: the ones the gate fails on. */
  fresh: Array<{ file: FileResult; site: SiteResult }>;
  known: number;
  /** Baseline entries no longer found (migrated or removed since). */
  gone: number;
}

function normalisedSnippet(snippet: string | undefined): string {
  return (snippet ?? '').replace(/\s+/g, '').replace(/"/g, "'");
}

function entryOf(file: FileResult, site: SiteResult, baseDir: string): Omit<BaselineEntry, 'count'> {
  return {
    file: path.relative(baseDir, file.path).split(path.sep).join('/'),
    method: site.method,
    scope: site.scope ?? site.handler ?? '',
    snippet: normalisedSnippet(site.snippet),
  };
}

const keyOf = (e: Omit<BaselineEntry, 'count'>) => JSON.stringify([e.file, e.method, e.scope, e.snippet]);

/** Sites the gate counts: everything but suppressed ones. */
function gatedSites(result: MigrationResult): Array<{ file: FileResult; site: SiteResult }> {
  return result.files.flatMap((file) => file.sites.filter((site) => site.status !== 'suppressed').map((site) => ({ file, site })));
}

export function buildBaseline(result: MigrationResult, baselinePath: string): BaselineFile {
  const baseDir = path.dirname(path.resolve(baselinePath));
  const counts = new Map<string, { entry: Omit<BaselineEntry, 'count'>; count: number }>();
  for (const { file, site } of gatedSites(result)) {
    const entry = entryOf(file, site, baseDir);
    const key = keyOf(entry);
    const known = counts.get(key);
    if (known) known.count++;
    else counts.set(key, { entry, count: 1 });
  }
  const sites = [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, { entry, count }]) => (count > 1 ? { ...entry, count } : entry));
  return {
    tool: TOOL_NAME,
    baselineVersion: BASELINE_VERSION,
    description: `Legacy MCP request sites known when this file was written; \`${TOOL_NAME} check --baseline\` fails only on sites not listed here. Regenerate with --update-baseline.`,
    sites,
  };
}

export function serialiseBaseline(baseline: BaselineFile): string {
  return JSON.stringify(baseline, null, 2) + '\n';
}

/** Reads a baseline file; throws with a one-line message when it is not one. */
export function readBaseline(file: string, display = file): BaselineFile {
  let parsed: Partial<BaselineFile>;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<BaselineFile>;
  } catch (error) {
    throw new Error(`cannot read baseline ${display}: ${(error as Error).message}`);
  }
  if (parsed.baselineVersion !== BASELINE_VERSION || !Array.isArray(parsed.sites)) {
    throw new Error(`${display} is not a ${TOOL_NAME} baseline (version ${BASELINE_VERSION}); write a new one with --update-baseline`);
  }
  return parsed as BaselineFile;
}

export function compareWithBaseline(result: MigrationResult, baseline: BaselineFile, baselinePath: string): BaselineComparison {
  const baseDir = path.dirname(path.resolve(baselinePath));
  const remaining = new Map<string, number>();
  for (const entry of baseline.sites) remaining.set(keyOf(entry), (remaining.get(keyOf(entry)) ?? 0) + (entry.count ?? 1));
  const fresh: BaselineComparison['fresh'] = [];
  let known = 0;
  for (const item of gatedSites(result)) {
    const key = keyOf(entryOf(item.file, item.site, baseDir));
    const left = remaining.get(key) ?? 0;
    if (left > 0) {
      remaining.set(key, left - 1);
      known++;
    } else fresh.push(item);
  }
  const gone = [...remaining.values()].reduce((n, v) => n + v, 0);
  return { fresh, known, gone };
}

export interface BaselineGate {
  /** Lines to print after the report. */
  text: string;
  /** Sites the gate fails on: the new ones, or none right after the baseline was written. */
  gated: number;
}

/**
 * Writes the baseline (file missing, or `update`), or compares the run with it; marks each gated
 * site `baseline: 'known' | 'new'` in `result` for the JSON and SARIF reports.
 */
/** `cwd`: what the new sites' paths are shown relative to (the process's directory by default). */
export function applyBaseline(result: MigrationResult, options: { file: string; update: boolean; display: string; cwd?: string }): BaselineGate {
  const sites = gatedSites(result);
  if (options.update || !fs.existsSync(options.file)) {
    const baseline = buildBaseline(result, options.file);
    fs.mkdirSync(path.dirname(options.file), { recursive: true });
    fs.writeFileSync(options.file, serialiseBaseline(baseline));
    for (const { site } of sites) site.baseline = 'known';
    return {
      text: `\nBaseline written to ${options.display}: ${sites.length} known site(s). From now on the gate fails only on sites not in it; commit the file.\n`,
      gated: 0,
    };
  }
  const comparison = compareWithBaseline(result, readBaseline(options.file, options.display), options.file);
  const fresh = new Set(comparison.fresh.map((x) => x.site));
  for (const { site } of sites) site.baseline = fresh.has(site) ? 'new' : 'known';
  const lines = [
    '',
    `Baseline ${options.display}: ${comparison.known} known site(s), ${comparison.fresh.length} new` +
      (comparison.gone > 0 ? `, ${comparison.gone} gone since it was written (shrink it with --update-baseline)` : '') +
      '.',
  ];
  if (comparison.fresh.length > 0) {
    lines.push(`New since the baseline (${comparison.fresh.length}), the gate fails on these:`);
    for (const { file, site } of comparison.fresh) {
      const where = `${path.relative(options.cwd ?? process.cwd(), file.path).split(path.sep).join('/')}:${site.line}:${site.column}`;
      lines.push(`  ${where}  ${site.method}${site.handler ? ` (${site.handler})` : ''}  ${site.status === 'migrated' ? 'migrate' : `flag: ${site.reason ?? 'no reason given'}`}`);
    }
  } else lines.push('No new legacy sites since the baseline.');
  return { text: lines.join('\n') + '\n', gated: comparison.fresh.length };
}
