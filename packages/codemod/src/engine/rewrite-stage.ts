/**
 * The rewrite stage as orchestration sees it (contract in model.ts).
 */
import type { Project } from 'ts-morph';
import type { Reach, RewriteOptions, RewriteOutcome } from './model.js';
import { rewriteHandlers } from './rewrite/index.js';

export type RewriteStage = (project: Project, reaches: Reach[], options: RewriteOptions) => RewriteOutcome | Promise<RewriteOutcome>;

export const REWRITE_UNAVAILABLE = 'rewrite stage unavailable';

/** A stage that migrates nothing (tests of orchestration, `check`-style dry analysis). */
export function flagAll(_project: Project, reaches: Reach[]): RewriteOutcome {
  return { decisions: reaches.map((r) => ({ site: r.site, status: 'flagged', reason: REWRITE_UNAVAILABLE })), createdFiles: [] };
}

export async function loadRewriteStage(): Promise<RewriteStage> {
  return rewriteHandlers;
}
