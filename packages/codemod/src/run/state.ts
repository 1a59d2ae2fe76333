/**
 * What a migration run holds between its stages (src/run/stages.ts runs them in order over one
 * `RunState`; src/run/load.ts builds it).
 */
import type { Project, SourceFile } from 'ts-morph';
import type { FindContext, OtherRegistration } from '../engine/find/index.js';
import type { DependencyResolutions } from '../engine/dependency-resolutions.js';
import type { LibraryFiles } from '../engine/library-files.js';
import type { LineMap } from '../engine/line-map.js';
import type { Handler, Reach, Site, SiteDecision } from '../engine/model.js';
import type { PrefilterResult } from '../engine/prefilter.js';
import type { ProjectFiles } from '../engine/project-files.js';
import type { RewriteStage } from '../engine/rewrite-stage.js';
import type { ServingFinding } from '../engine/serving/index.js';
import type { SlicedSource } from '../engine/slice.js';
import type { DecodedSource } from '../engine/source-text.js';
import type { SuppressionComment } from '../engine/suppressions.js';
import type { SdkSharingEdge } from '../engine/sdk-sharing.js';
import type { ProjectType } from '../engine/upgrade.js';
import type { V1OnlyUse } from '../engine/v1-only-api.js';
import type { ZodFloor } from '../engine/zod-floor.js';
import type { FileResult, MigrateOptions, MigrationResult } from '../types.js';
import type { TypeError } from './type-error.js';

export interface SourceInput {
  path: string;
  /** Raw bytes (files read from disk) or text (in-memory sources). */
  bytes?: Uint8Array;
  text?: string;
  /** Set when the file could not be read. */
  readError?: string;
}

/** An input whose text decoded: loaded into the project now, or kept aside (`RunState.deferred`). */
export interface DecodedInput {
  path: string;
  original: string;
  source: DecodedSource;
}

/** One file parsed into the run's project. */
export interface LoadedFile {
  path: string;
  original: string;
  source: DecodedSource;
  /** Set for large files whose MCP-free statements were elided (engine/slice.ts). */
  sliced?: SlicedSource;
  sourceFile: SourceFile;
  upgraded: boolean;
  /** The upgrade's own notes (dropped with the upgrade when the file goes back to v1). */
  upgradeNotes?: string[];
  /** Those of the upgrade's notes that are the official codemod's diagnostics (the report credits them to it). */
  officialNotes?: string[];
  /** Put back to its v1 text after verify (run/back-to-v1.ts): its flagged sites are found again by line. */
  backToV1?: boolean;
  lineMap: LineMap;
  /** Uses of a v1 API that v2 has in no form (engine/v1-only-api.ts), found in its v1 text before the upgrade. */
  v1OnlyUses?: V1OnlyUse[];
  notes: string[];
  failed?: string;
}

/** Where a site is reported: the original file's line and column, its handler and scope. */
export interface SiteInfo {
  handler?: string;
  snippet: string;
  scope: string;
  line: number;
  column: number;
  file: LoadedFile;
}

/** One step of a run: reads and updates the run's state. */
export interface Stage {
  name: string;
  run(state: RunState): void | Promise<void>;
}

/** How a run is set up beyond the user's options (entry points and tests). */
export interface RunEnv {
  tsconfig?: string;
  /** Look up package.json files for dependency changes. */
  manifests: boolean;
  /** Replaces the rewrite stage (tests of orchestration and verification). */
  rewrite?: RewriteStage;
  /** Replaces the list of stages run after loading (tests: a stage that records what it sees). */
  stages?: readonly Stage[];
  /** The inputs belong to this run: their bytes are dropped once decoded (lower peak memory). */
  consumeInputs?: boolean;
  /**
   * Unit tests that mock a request the run migrated are rewritten or flagged (the test-mock stage).
   * `read` gives the text of a file the run did not load (read again from disk).
   */
  testMocks?: {
    read(file: string): string | undefined;
    /**
     * The run is one file of a larger migration (jscodeshift, one file at a time): the requests a
     * mock fakes may be migrated in files this run never sees, so a mock of any of them is reported.
     */
    anyRequestMigrated?: boolean;
  };
  /** Parsed declaration files shared with other runs (default: the run's own, shared by its projects). */
  libraryFiles?: LibraryFiles;
  /**
   * The test files beside the tsconfig (tests-beside.ts), when the caller has listed them: the
   * rewrite and the importers check read them here instead of walking the folder again.
   */
  testsBeside?: readonly string[];
}

/** A file the run keeps on v1 (run/v1-hold-back.ts). */
export interface HeldOnV1 {
  /** Why its request sites were not migrated. */
  reason: string;
  /** The file using the v1-only API that it stays on v1 with (itself, for that file). */
  user: string;
}

export interface RunState {
  options: MigrateOptions;
  env: RunEnv;
  /** Counts a file as done for `options.onProgress`. */
  progress(file: string): void;
  /** Every input's result: those decided early (failed, left out) at once, the rest by the file-results stage. */
  results: Map<string, FileResult>;
  /** Types resolve (a tsconfig and the v2 server package): the find and verify stages use the checker. */
  typeChecked: boolean;
  ctx: FindContext;
  /** The one project of the run (built again before the upgrade when the run raises zod: run/zod-raise.ts). */
  project: Project;
  /**
   * Set when the run raises the project's zod to v2's range (run/zod-raise.ts): its imports of zod
   * resolve to the server's zod from then on, and package.json's zod is bumped.
   */
  zodRaised?: ZodFloor;
  projectFiles: ProjectFiles;
  libraryFiles: LibraryFiles;
  /** Imports inside dependencies as resolved by the run's projects (load.ts). */
  dependencyResolutions: DependencyResolutions;
  selection: PrefilterResult;
  loaded: LoadedFile[];
  /** The loaded files by path (complete once the find stage has loaded the importers it follows). */
  fileByPath: Map<string, LoadedFile>;
  /** Decoded files the pre-filter kept aside: loaded if they import a file with a site. */
  deferred: Map<string, DecodedInput>;
  projectType: ProjectType;
  sites: Site[];
  handlers: Handler[];
  /** The registered names whose handler takes only its context (no input schema), read before the rewrite changes the registrations (run/test-mocks.ts). */
  contextOnlyHandlers?: ReadonlySet<string>;
  others: OtherRegistration[];
  suppressionsByFile: Map<string, SuppressionComment[]>;
  suppressedSites: Map<Site, SuppressionComment>;
  reaches: Reach[];
  siteInfo: Map<Site, SiteInfo>;
  /** Each loaded file's text before the rewrite (after the upgrade). */
  preRewrite: Map<string, string>;
  /** Each loaded file's text after the rewrite, before the serving stage adds its changes. */
  postRewrite: Map<string, string>;
  decisionBySite: Map<Site, SiteDecision>;
  createdFiles: string[];
  /** Hosting findings by file (serving stage). */
  serving: Map<string, ServingFinding[]>;
  /** Type errors the v1-to-v2 upgrade added, by file (verify stage). */
  upgradeErrors: Map<string, TypeError[]>;
  /** Files whose output the test-mock stage changed (after verify): the importers check typechecks them. */
  lateEdits: Set<string>;
  /** The results of those files before the test-mock stage (a rewrite that does not typecheck goes back to it). */
  beforeTestMocks: Map<string, FileResult>;
  /**
   * Files kept on the v1 SDK because they use a v1 API that v2 lacks or share SDK objects with a file
   * that does (run/v1-hold-back.ts), each with the reason its request sites were not migrated and
   * the file using the API.
   */
  heldOnV1: Map<string, HeldOnV1>;
  /**
   * The imports between loaded files that carry an SDK object or type (engine/sdk-sharing.ts), read
   * on the files' v1 texts before their upgrade when some file uses a v1 API that v2 lacks.
   */
  sdkSharing: SdkSharingEdge[];
  /**
   * package.json files whose "jest" config gets the test setup file (test-state-key stage), with
   * the file's path: the package.json stage applies it to the manifest it writes.
   */
  jestManifestSetups: Map<string, string>;
  /** Set by the last stage. */
  result?: MigrationResult;
}
