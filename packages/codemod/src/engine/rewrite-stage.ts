/**
 * The rewrite stage as orchestration sees it (contract in model.ts).
 */
import type { Project } from 'ts-morph';
import type { Reach, RewriteOptions, RewriteOutcome } from './model.js';
import { rewriteHandlers } from './rewrite/index.js';

export type RewriteStage = (project: Project, reaches: Reach[], options: RewriteOptions) => RewriteOutcome | Promise<RewriteOutcome>;

export async function loadRewriteStage(): Promise<RewriteStage> {
  return rewriteHandlers;
}
