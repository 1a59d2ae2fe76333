/**
 * What a migration run holds between its stages.
 */
import type { SourceFile } from 'ts-morph';
import type { LineMap } from '../engine/line-map.js';
import type { SlicedSource } from '../engine/slice.js';
import type { DecodedSource } from '../engine/source-text.js';

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
  /** Put back to its v1 text after verify (run/back-to-v1.ts): its flagged sites are found again by line. */
  backToV1?: boolean;
  lineMap: LineMap;
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
