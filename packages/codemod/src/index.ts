/**
 * @mcp-mrtr/codemod public API.
 *
 *   migrateProject(paths, options)  files/directories → MigrationResult (writes only with options.write)
 *   migrateSource(text, fileName)   one in-memory source → FileResult (+ files the rewrite would create)
 */
export { migrateProject, migrateSource, migrateInputs, type SourceInput } from './migrate.js';
export { LibraryFiles } from './engine/library-files.js';
export type {
  FileResult,
  FileStatus,
  MigrateOptions,
  MigrationResult,
  MigrationSummary,
  PackageJsonChange,
  SiteResult,
  SiteStatus,
} from './types.js';
