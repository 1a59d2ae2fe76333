/**
 * The machine-readable report (`--json <file>`), documented by `schema/report.schema.json`:
 *   { schemaVersion, command, dryRun,
 *     summary: { sitesFound, sitesMigrated, sitesFlagged, filesChanged, filesFailed },
 *     files: [ { path, status, sites: [ { line, method, status, reason? } ] } ] }
 * plus optional detail (column, kind, advice, handler, file error, package.json changes).
 * Paths are relative to the working directory, with forward slashes. In a run that writes nothing
 * (`check`, `migrate --dry-run`) statuses say what a migration would do: `would-migrate`,
 * `would-change`, `would-create`. A site under a reasoned `// mcp-mrtr-ignore: <reason>` comment
 * has status `suppressed` and the comment's reason; it is counted in `summary.sitesSuppressed`, not
 * in `sitesFound`.
 */
import type { FileStatus, MigrationResult, MigrationSummary, SiteResult, SiteStatus } from '../types.js';
import { displayPath } from './paths.js';

/** Bumped when a field changes meaning or goes away (additions keep it). */
export const JSON_REPORT_SCHEMA_VERSION = 1;

export type JsonSiteStatus = SiteStatus | 'would-migrate';
export type JsonFileStatus = FileStatus | 'would-change' | 'would-create';

const SITE_STATUS_UNWRITTEN: Partial<Record<SiteStatus, JsonSiteStatus>> = { migrated: 'would-migrate' };
const FILE_STATUS_UNWRITTEN: Partial<Record<FileStatus, JsonFileStatus>> = { changed: 'would-change', created: 'would-create' };

export interface JsonSite {
  line: number;
  column: number;
  method: SiteResult['method'];
  kind?: SiteResult['kind'];
  status: JsonSiteStatus;
  reason?: string;
  advice?: string;
  handler?: string;
  callers?: SiteResult['callers'];
  /** With `check --baseline`: in the baseline, or new since. */
  baseline?: 'known' | 'new';
}

export interface JsonFile {
  path: string;
  status: JsonFileStatus;
  error?: string;
  /** What a person should check in this file: the official v1-to-v2 upgrade's diagnostics and this tool's own repairs and notes. */
  notes?: string[];
  /** Those of `notes` that the official v1-to-v2 codemod wrote. */
  officialNotes?: string[];
  /** `mcp-mrtr-ignore` directives without a reason (they suppress nothing). */
  suppressionsWithoutReason?: Array<{ line: number; column: number }>;
  /** Written outside the paths the run was given: why. */
  outsidePaths?: string;
  sites: JsonSite[];
}

export interface JsonReport {
  schemaVersion: typeof JSON_REPORT_SCHEMA_VERSION;
  summary: MigrationSummary;
  files: JsonFile[];
  packageJson: Array<{ path: string; removed: Record<string, string>; added: Record<string, string>; notes?: string[] }>;
  /** `migrate` (rewritten or dry run) or `check`. */
  command: 'migrate' | 'check';
  dryRun: boolean;
}

export interface JsonReportOptions {
  cwd: string;
  command: 'migrate' | 'check';
  dryRun?: boolean;
}

/** Every file that has something to say: sites, a change, a failure, a creation. */
export function reportedFiles(result: MigrationResult) {
  return result.files.filter((f) => f.sites.length > 0 || (f.status !== 'unchanged' && f.status !== 'skipped'));
}

export function toJsonReport(result: MigrationResult, options: JsonReportOptions): JsonReport {
  const written = options.command === 'migrate' && !options.dryRun;
  const siteStatus = (status: SiteStatus): JsonSiteStatus => (written ? status : (SITE_STATUS_UNWRITTEN[status] ?? status));
  const fileStatus = (status: FileStatus): JsonFileStatus => (written ? status : (FILE_STATUS_UNWRITTEN[status] ?? status));
  return {
    schemaVersion: JSON_REPORT_SCHEMA_VERSION,
    command: options.command,
    dryRun: options.command === 'check' || (options.dryRun ?? false),
    summary: { ...result.summary },
    files: reportedFiles(result).map((file) => ({
      path: displayPath(file.path, options.cwd),
      status: fileStatus(file.status),
      ...(file.error ? { error: file.error } : {}),
      ...(file.notes ? { notes: file.notes } : {}),
      ...(file.officialNotes ? { officialNotes: file.officialNotes } : {}),
      ...(file.suppressionsWithoutReason ? { suppressionsWithoutReason: file.suppressionsWithoutReason } : {}),
      ...(file.outsidePaths ? { outsidePaths: file.outsidePaths } : {}),
      sites: file.sites.map((site) => ({
        line: site.line,
        column: site.column,
        method: site.method,
        ...(site.kind ? { kind: site.kind } : {}),
        status: siteStatus(site.status),
        ...(site.reason ? { reason: site.reason } : {}),
        ...(site.advice ? { advice: site.advice } : {}),
        ...(site.handler ? { handler: site.handler } : {}),
        ...(site.callers ? { callers: site.callers } : {}),
        ...(site.baseline ? { baseline: site.baseline } : {}),
      })),
    })),
    packageJson: result.packageJsonChanges.map((change) => ({
      path: displayPath(change.path, options.cwd),
      removed: change.removed,
      added: change.added,
      ...(change.notes ? { notes: change.notes } : {}),
    })),
  };
}
