/**
 * The machine-readable report (`--json <file>`):
 *   { summary: { sitesFound, sitesMigrated, sitesFlagged, filesChanged, filesFailed },
 *     files: [ { path, status, sites: [ { line, method, status, reason? } ] } ] }
 * plus optional detail (column, kind, advice, handler, file error, package.json changes).
 * Paths are relative to the working directory, with forward slashes.
 */
import type { FileStatus, MigrationResult, MigrationSummary, SiteResult, SiteStatus } from '../types.js';
import { displayPath } from './paths.js';

export interface JsonSite {
  line: number;
  column: number;
  method: SiteResult['method'];
  kind?: SiteResult['kind'];
  status: SiteStatus;
  reason?: string;
  advice?: string;
  handler?: string;
}

export interface JsonFile {
  path: string;
  status: FileStatus;
  error?: string;
  /** What the official v1-to-v2 upgrade asks a person to check. */
  notes?: string[];
  sites: JsonSite[];
}

export interface JsonReport {
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
  return {
    command: options.command,
    dryRun: options.dryRun ?? false,
    summary: { ...result.summary },
    files: reportedFiles(result).map((file) => ({
      path: displayPath(file.path, options.cwd),
      status: file.status,
      ...(file.error ? { error: file.error } : {}),
      ...(file.notes ? { notes: file.notes } : {}),
      sites: file.sites.map((site) => ({
        line: site.line,
        column: site.column,
        method: site.method,
        ...(site.kind ? { kind: site.kind } : {}),
        status: site.status,
        ...(site.reason ? { reason: site.reason } : {}),
        ...(site.advice ? { advice: site.advice } : {}),
        ...(site.handler ? { handler: site.handler } : {}),
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
