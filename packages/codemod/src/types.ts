/**
 * Public result types of the migration engine. The CLI, the jscodeshift entry, the reports
 * (text, JSON, SARIF) and the benchmarks consume only these.
 */
import type { LegacyMethod, RequestKind } from '@mcp-mrtr/surface';

/** `suppressed`: covered by a reasoned `// mcp-mrtr-ignore: <reason>` comment, left as it is and unmarked. */
export type SiteStatus = 'migrated' | 'flagged' | 'suppressed';

export interface SiteResult {
  /** 1-based line of the legacy call in the ORIGINAL file. */
  line: number;
  /** 1-based column of the legacy call in the ORIGINAL file. */
  column: number;
  /**
   * Wire method of the legacy request, e.g. `elicitation/create`; `serving` for transport rewrites;
   * `type-error` for a compiler error the v1-to-v2 upgrade leaves that no repair covers;
   * `v1-only-api` for a use of a v1 API that v2 lacks, which keeps its files on v1.
   */
  method: LegacyMethod | 'serving' | 'session-state' | 'test-mock' | 'type-error' | 'v1-only-api';
  kind?: RequestKind;
  status: SiteStatus;
  /** Why the site was flagged (always set when flagged), the suppression's reason, or a note on how it was migrated. */
  reason?: string;
  /** Advice for a person: what to do instead. */
  advice?: string;
  /** Name of the enclosing handler (tool/prompt/resource name) when known. */
  handler?: string;
  /** Source text of the call, abbreviated. */
  snippet?: string;
  /**
   * When several handlers (or a handler and a non-handler context) reach the site: one entry per
   * caller, with what became of the site for it (a helper kept for a timer is flagged there and
   * migrated for the tool that now has its own copy).
   */
  callers?: Array<{ caller: string; status: SiteStatus; reason?: string }>;
  /** With `check --baseline`: whether the site was in the baseline or is new since. */
  baseline?: 'known' | 'new';
  /** Enclosing named functions and registration callbacks, outermost first (`createServer > registerTool(delete_file)`). */
  scope?: string;
  /**
   * Not in the reports: a migrated sampling or roots request that, asked of a 2025-era client which
   * did not declare the capability, fails where the legacy request failed, into a catch that does
   * not read the error. The test-mock stage drives a test's failing mock of it as such a client.
   */
  undeclaredCaught?: true;
}

export type FileStatus =
  /** rewritten completely */
  | 'changed'
  /** no legacy site, nothing changed */
  | 'unchanged'
  /** legacy sites found, none could be migrated: only `@mcp-mrtr-todo` markers were added (or would be) */
  | 'flagged'
  /** could not be read/parsed/rewritten: left byte-identical */
  | 'failed'
  /** skipped on purpose (declaration file, ignored, binary) */
  | 'skipped'
  /** a new file the migration adds (e.g. the requestState codec module) */
  | 'created';

export interface FileResult {
  /** Absolute path. */
  path: string;
  status: FileStatus;
  sites: SiteResult[];
  /** Original text as read (undefined when unreadable). */
  original?: string;
  /** New text; equals `original` when nothing changed. */
  output?: string;
  /** Clear per-file error for `failed` / reason for `skipped`. */
  error?: string;
  /**
   * What a person should check in this file (`<line>: <message>`): the official v1-to-v2 upgrade's
   * diagnostics and this tool's own repairs and notes (of its upgrade repairs, rewrite, test mocks, checks).
   */
  notes?: string[];
  /** Those of `notes` that the official v1-to-v2 codemod wrote (its diagnostics); the rest are this tool's. */
  officialNotes?: string[];
  /** `mcp-mrtr-ignore` directives without a reason (they suppress nothing), 1-based in the original text. */
  suppressionsWithoutReason?: Array<{ line: number; column: number }>;
  /**
   * Set on a file outside the paths the run was given that it writes anyway: why (the project's
   * tsconfig holds it and the migration broke its types; the repair changes types only).
   */
  outsidePaths?: string;
}

export interface PackageJsonChange {
  path: string;
  removed: Record<string, string>;
  added: Record<string, string>;
  /** Why something expected did not happen (the v1 SDK kept because files outside the run import it). */
  notes?: string[];
  original: string;
  output: string;
}

export interface MigrationSummary {
  /** Sites still to attend to: migrated + flagged (suppressed ones are counted apart). */
  sitesFound: number;
  sitesMigrated: number;
  sitesFlagged: number;
  filesChanged: number;
  filesFailed: number;
  /** Sites left alone under a reasoned `mcp-mrtr-ignore` comment. */
  sitesSuppressed?: number;
  /** `mcp-mrtr-ignore` directives without a reason. */
  suppressionsWithoutReason?: number;
}

export interface MigrationResult {
  summary: MigrationSummary;
  files: FileResult[];
  packageJsonChanges: PackageJsonChange[];
}

export interface MigrateOptions {
  /** Write changes to disk (default false: the caller decides what to do with `output`). */
  write?: boolean;
  /** tsconfig to load for type information; otherwise the nearest one, else syntactic mode. */
  tsconfig?: string;
  /** Environment variable the generated codec reads its HMAC key from. */
  stateKeyEnv?: string;
  /** Globs (relative to cwd) to ignore in discovery. */
  ignore?: string[];
  /** Also run the official v1-to-v2 codemod on v1 files (default true). */
  upgradeV1?: boolean;
  /** Progress callback (files processed / total). */
  onProgress?: (done: number, total: number, path: string) => void;
  /** Working directory for relative paths (default process.cwd()). */
  cwd?: string;
  /**
   * Text pre-filter (default true): only files containing a `CANDIDATE_TOKENS` token are parsed for
   * sites. `false` analyses every file; the pre-filter test compares both and they must agree.
   */
  prefilter?: boolean;
}
