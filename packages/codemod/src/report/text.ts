/**
 * The summary a person reads at the end of a run: what was found, what was done, what is left
 * (with file:line and why), which files and package.json entries changed, how to format them, and
 * the command that finds every `@mcp-mrtr-todo` marker.
 */
import path from 'node:path';
import { DEFAULT_STATE_KEY_ENV, MIN_STATE_KEY_BYTES, SUPPRESSION_DIRECTIVE, TODO_MARKER } from '@mcp-mrtr/surface';
import type { FileResult, MigrationResult, SiteResult } from '../types.js';
import type { SkippedEntry, SkipKind } from '../discover.js';
import { needsWrite } from '../fs/atomic-write.js';
import { displayPath } from './paths.js';
import { STATE_MODULE_BASENAME, TEST_SETUP_BASENAME, previousKeyEnv } from '../engine/generated-names.js';

export type FormatterOutcome =
  | { kind: 'ran'; tool: string; files: number }
  | { kind: 'failed'; tool: string; message: string; command: string }
  | { kind: 'hint'; command: string }
  | { kind: 'none' };

export interface TextReportOptions {
  cwd: string;
  command: 'migrate' | 'check';
  dryRun?: boolean;
  /** The paths the run was given, for the follow-up commands. */
  paths: string[];
  formatter?: FormatterOutcome;
  /** What discovery left out, summarised on one line. */
  skipped?: SkippedEntry[];
  /** Use ANSI colours. */
  color?: boolean;
  /** Environment variable the generated requestState codec reads its key from. */
  stateKeyEnv?: string;
}

const KIND_LABEL: Record<string, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
  serving: 'serving',
  'session-state': 'session state',
  'test-mock': 'test mocks',
  'type-error': 'type errors',
  'v1-only-api': 'held on the v1 SDK',
};

function label(site: SiteResult): string {
  return KIND_LABEL[site.method] ?? site.kind ?? site.method;
}

/** One line per caller when several handlers (or contexts) reach the site. */
function callerLines(site: SiteResult): string[] {
  return (site.callers ?? []).map((x) => `      for ${x.caller}: ${x.status === 'migrated' ? 'migrated' : `flagged (${x.reason ?? 'no reason given'})`}`);
}

function byKind(sites: SiteResult[]): string {
  const counts = new Map<string, number>();
  for (const site of sites) counts.set(label(site), (counts.get(label(site)) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k} ${n}`).join(', ');
}

function quote(arg: string): string {
  return /^[\w./@:+=-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function todoSearchCommand(paths: string[]): string {
  // Source files only, so reports that quote the marker (JSON, SARIF) are not listed.
  return `grep -rn --exclude-dir=node_modules --include='*.[jt]s' --include='*.[jt]sx' --include='*.[cm][jt]s' '${TODO_MARKER}' ${paths.map(quote).join(' ')}`;
}

export function formatTextReport(result: MigrationResult, options: TextReportOptions): string {
  const c = colours(options.color ?? false);
  const rel = (p: string) => displayPath(p, options.cwd);
  const out: string[] = [];
  const listed = result.files.flatMap((f) => f.sites.map((site) => ({ file: f, site })));
  // suppressed sites are listed apart and counted in neither the header nor the verdict
  const all = listed.filter((x) => x.site.status !== 'suppressed');
  const suppressed = listed.filter((x) => x.site.status === 'suppressed');
  const unreasoned = result.files.flatMap((f) => (f.suppressionsWithoutReason ?? []).map((at) => ({ file: f, at })));
  const migrated = all.filter((x) => x.site.status === 'migrated');
  const flagged = all.filter((x) => x.site.status === 'flagged');
  const check = options.command === 'check';
  const would = check || options.dryRun;
  const { summary } = result;

  out.push(
    c.bold(
      `mcp-mrtr ${options.command}${options.dryRun ? ' (dry run: nothing written)' : ''}: ` +
        `${summary.sitesFound} legacy site${summary.sitesFound === 1 ? '' : 's'} in ${new Set(all.map((x) => x.file.path)).size} file(s)`,
    ),
  );
  if (all.length > 0) {
    out.push(`  ${would ? 'would migrate' : 'migrated'}  ${String(summary.sitesMigrated).padStart(4)}${migrated.length ? `   (${byKind(migrated.map((x) => x.site))})` : ''}`);
    out.push(`  ${would ? 'would flag   ' : 'flagged '}  ${String(summary.sitesFlagged).padStart(4)}${flagged.length ? `   (${byKind(flagged.map((x) => x.site))})` : ''}`);
  }

  if (check && all.length > 0) out.push('', c.bold('Legacy sites and what `mcp-mrtr migrate` would do:'), ...all.flatMap(({ file, site }) => checkSiteLines(rel(file.path), site, c)));

  if (suppressed.length > 0) {
    out.push('', c.bold(`Suppressed with ${SUPPRESSION_DIRECTIVE} (${suppressed.length}), ${check ? 'not counted' : 'left as they are, unmarked'}:`));
    for (const { file, site } of suppressed) out.push(`  ${rel(file.path)}:${site.line}:${site.column}  ${site.method}${site.handler ? ` (${site.handler})` : ''}  ${c.dim(site.reason ?? '')}`);
  }
  if (unreasoned.length > 0) {
    out.push('', c.bold(c.yellow(`${SUPPRESSION_DIRECTIVE} comments without a reason (${unreasoned.length}), which suppress nothing:`)));
    for (const { file, at } of unreasoned) out.push(`  ${c.yellow(`${rel(file.path)}:${at.line}:${at.column}`)}  write it as // ${SUPPRESSION_DIRECTIVE}: <why this request stays>`);
  }

  const flaggedCode = flagged.filter((x) => x.site.method !== 'test-mock');
  const testMocks = flagged.filter((x) => x.site.method === 'test-mock');
  if (!check && flaggedCode.length > 0) {
    out.push('', c.bold(`Not migrated (${flaggedCode.length}), each ${would ? 'would be ' : ''}marked with ${TODO_MARKER}:`));
    for (const { file, site } of flaggedCode) {
      out.push(`  ${c.yellow(`${rel(file.path)}:${site.line}`)}  ${site.method}${site.handler ? ` (${site.handler})` : ''}: ${site.reason ?? 'no reason given'}`);
      if (site.advice) out.push(`      ${c.dim(site.advice)}`);
      out.push(...callerLines(site));
    }
  }
  const noted = migrated.filter((x) => migratedNotes(x.site).length > 0);
  if (!check && noted.length > 0) {
    out.push('', c.bold(`${would ? 'Would migrate' : 'Migrated'}, with notes to read (${noted.length}):`));
    for (const { file, site } of noted) out.push(`  ${c.yellow(`${rel(file.path)}:${site.line}`)}  ${site.method}${site.handler ? ` (${site.handler})` : ''}: ${migratedNotes(site).join('; ')}`);
  }
  if (!check && testMocks.length > 0) {
    out.push('', c.bold(`Unit tests that mock legacy requests (${testMocks.length}), each ${would ? 'would be ' : ''}marked with ${TODO_MARKER}:`));
    for (const { file, site } of testMocks) out.push(`  ${c.yellow(`${rel(file.path)}:${site.line}`)}  ${site.method}: ${site.reason ?? 'no reason given'}`);
    const advice = testMocks.find((x) => x.site.advice)?.site.advice;
    if (advice) out.push(`  ${c.dim(`What to do: ${advice}`)}`);
  }

  if (!check) {
    // credited to whoever wrote them: the official codemod's diagnostics, then this tool's own repairs and notes
    const notes = result.files.map((f) => ({ f, ...notesByOrigin(f) }));
    const official = notes.filter((n) => n.official.length > 0);
    if (official.length > 0) {
      out.push('', c.bold(`The official v1-to-v2 upgrade asks you to check (${official.reduce((n, x) => n + x.official.length, 0)}):`));
      for (const { f, official: list } of official) for (const note of list) out.push(`  ${c.yellow(`${rel(f.path)}:${note}`)}`);
    }
    const own = notes.filter((n) => n.own.length > 0);
    if (own.length > 0) {
      out.push('', c.bold(`mcp-mrtr's own repairs and notes to check (${own.reduce((n, x) => n + x.own.length, 0)}):`));
      for (const { f, own: list } of own) for (const note of list) out.push(`  ${c.yellow(`${rel(f.path)}:${note}`)}`);
    }
  }

  const failed = result.files.filter((f) => f.status === 'failed');
  if (failed.length > 0) {
    out.push('', c.bold(c.red(`Files that failed (${failed.length}), left unchanged:`)));
    for (const f of failed) out.push(`  ${c.red(rel(f.path))}: ${f.error ?? 'unknown error'}`);
  }

  if (!check) {
    // counted like summary.filesChanged: existing files rewritten; created files listed apart
    const changed = result.files.filter((f) => needsWrite(f) && f.status !== 'created');
    const created = result.files.filter((f) => needsWrite(f) && f.status === 'created');
    if (changed.length > 0) {
      out.push('', c.bold(`Files ${would ? 'that would change' : 'changed'} (${changed.length}):`));
      for (const f of changed) out.push(`  ${rel(f.path)}${f.outsidePaths ? c.dim(`  (outside the given paths: ${f.outsidePaths})`) : ''}`);
    }
    if (created.length > 0) {
      out.push('', c.bold(`Files ${would ? 'that would be created' : 'created'} (${created.length}):`));
      for (const f of created) out.push(`  ${rel(f.path)}`);
    }
    const pkgChanges = result.packageJsonChanges.filter((p) => p.output !== p.original);
    if (pkgChanges.length > 0) {
      out.push('', c.bold(`package.json ${would ? 'changes that would be made' : 'changes'}:`));
      for (const p of pkgChanges) {
        out.push(`  ${rel(p.path)}:`);
        for (const [name, version] of Object.entries(p.removed)) out.push(`    ${c.red(`- ${name}@${version}`)}`);
        for (const [name, version] of Object.entries(p.added)) out.push(`    ${c.green(`+ ${name}@${version}`)}`);
      }
      if (!would) out.push(`  ${c.dim('run your package manager (npm install) to update the lock file')}`);
    }
    for (const p of result.packageJsonChanges) for (const note of p.notes ?? []) out.push('', c.yellow(`${rel(p.path)}: ${note}`));
    const codecs = result.files.filter((file) => file.status === 'created' && path.basename(file.path).startsWith(`${STATE_MODULE_BASENAME}.`));
    if (codecs.length > 0) {
      const env = options.stateKeyEnv ?? DEFAULT_STATE_KEY_ENV;
      out.push('', c.bold(`Secret for multi-round handlers (${codecs.map((file) => rel(file.path)).join(', ')} ${would ? 'would be created' : 'created'}):`));
      out.push(`  set ${env} to a random secret of at least ${MIN_STATE_KEY_BYTES} bytes wherever the server runs, tests included`);
      out.push(`  (e.g. ${env}=$(openssl rand -base64 48)); the server refuses to start without it, and every instance behind one endpoint needs the same value`);
      out.push(`  to rotate it, move the old value to ${previousKeyEnv(env)} (still accepted, comma-separated) and set a new ${env}`);
      // the test-environment stage (run/test-state-key.ts): the project's vitest or jest runs get their own random key
      for (const setup of result.files.filter((file) => file.status === 'created' && path.basename(file.path).startsWith(`${TEST_SETUP_BASENAME}.`))) {
        // only jest's setup file is CommonJS (engine/test-state-key.ts setupFileName)
        const [runner, option] = setup.path.endsWith('.cjs') ? ['jest', 'setupFiles'] : ['vitest', 'test.setupFiles'];
        out.push(`  the project's ${runner} tests get a random one per run from ${rel(setup.path)} (added to ${option}) when their environment has none`);
      }
    }
    const f = options.formatter;
    if (f && f.kind !== 'none') {
      out.push('');
      if (f.kind === 'ran') out.push(`Formatted ${f.files} changed file(s) with ${f.tool} (configured in this project).`);
      else if (f.kind === 'failed') out.push(c.yellow(`${f.tool} failed on the changed files (${f.message}); run it yourself: ${f.command}`));
      else out.push(`Run your formatter on the changed files, e.g.: ${f.command}`);
    }
  }

  const skippedLine = summariseSkipped(options.skipped ?? []);
  if (skippedLine) out.push('', c.dim(`Not looked at: ${skippedLine}.`));

  if (all.length === 0 && failed.length === 0) out.push('', 'Nothing to migrate.');

  out.push('');
  if (check) {
    if (all.length === 0 && suppressed.length > 0) out.push(`No legacy server-to-client request left to attend to (${suppressed.length} suppressed).`);
    else if (all.length === 0) out.push('No legacy server-to-client requests found.');
    // `migrate` would only add markers here: pointing at it would promise a rewrite that does not come
    // (a flagged site can still be migrated for some of its callers: a helper copied for them)
    else if (summary.sitesMigrated === 0 && !all.some((x) => x.site.callers?.some((caller) => caller.status === 'migrated'))) out.push('No site here can be migrated automatically: each needs a change by hand (reasons above).');
    else out.push(`Migrate with: mcp-mrtr migrate ${options.paths.map(quote).join(' ')}`);
  } else {
    out.push(`Find every site left to do: ${todoSearchCommand(options.paths)}`);
  }
  return out.join('\n') + '\n';
}

const SKIP_LABELS: Partial<Record<SkipKind, [string, string]>> = {
  gitignored: ['path ignored by .gitignore', 'paths ignored by .gitignore'],
  ignored: ['path matching --ignore', 'paths matching --ignore'],
  symlink: ['symbolic link (not followed)', 'symbolic links (not followed)'],
  declaration: ['declaration file', 'declaration files'],
  unreadable: ['unreadable directory', 'unreadable directories'],
  unsupported: ['file that is not JS/TS source', 'files that are not JS/TS source'],
};

/** `2 paths ignored by .gitignore, 1 symbolic link (not followed)`; node_modules and build output go unmentioned. */
/** One site under `check`: where, what migrate would do (with the advice or the notes), and its callers. */
function checkSiteLines(file: string, site: SiteResult, c: ReturnType<typeof colours>): string[] {
  const verdict = site.status === 'migrated' ? c.green('migrate') : c.yellow(`flag: ${site.reason ?? 'no reason given'}`);
  const lines = [`  ${file}:${site.line}:${site.column}  ${site.method}${site.handler ? ` (${site.handler})` : ''}  ${verdict}`];
  if (site.status === 'flagged' && site.advice) lines.push(`      ${c.dim(site.advice)}`);
  if (site.status === 'migrated') for (const note of migratedNotes(site)) lines.push(`      ${c.dim(`note: ${note}`)}`);
  return [...lines, ...callerLines(site)];
}

/** The notes of a migrated site's reason (`...; note: ...`): what the migration changes for the code's users. */
function migratedNotes(site: SiteResult): string[] {
  return (site.reason ?? '').split('; note: ').slice(1);
}

/** A file's notes split by who wrote them: the official v1-to-v2 codemod (`officialNotes`) or this tool. */
function notesByOrigin(file: FileResult): { official: string[]; own: string[] } {
  const byOfficial = new Set(file.officialNotes);
  const notes = file.notes ?? [];
  return { official: notes.filter((n) => byOfficial.has(n)), own: notes.filter((n) => !byOfficial.has(n)) };
}

export function summariseSkipped(skipped: SkippedEntry[]): string {
  const counts = new Map<SkipKind, number>();
  for (const entry of skipped) counts.set(entry.kind, (counts.get(entry.kind) ?? 0) + 1);
  const parts: string[] = [];
  for (const [kind, [one, many]] of Object.entries(SKIP_LABELS) as Array<[SkipKind, [string, string]]>) {
    const n = counts.get(kind);
    if (n) parts.push(`${n} ${n === 1 ? one : many}`);
  }
  return parts.join(', ');
}

function colours(on: boolean) {
  const wrap = (code: string) => (s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);
  return { bold: wrap('1'), red: wrap('31'), green: wrap('32'), yellow: wrap('33'), dim: wrap('2') };
}
