/**
 * The rewrite stage's glue: the reaches the rewrite may take (not v1 CommonJS, not held back by a
 * suppression), the rewrite itself, and one decision per site (a vague or missing one gets the
 * reason its reach gives).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Node } from 'ts-morph';
import { DEFAULT_STATE_KEY_ENV, NON_HANDLER_ADVICE } from '@mcp-mrtr/surface';
import { originalLineAfter } from '../engine/line-map.js';
import type { Reach, RewriteOptions, Site, SiteDecision } from '../engine/model.js';
import { loadRewriteStage, type RewriteStage } from '../engine/rewrite-stage.js';
import type { SuppressionComment } from '../engine/suppressions.js';
import { requiresV1Sdk, touchesV1CommonJs, V1_COMMONJS_ADVICE, V1_COMMONJS_REASON } from '../engine/v1-commonjs.js';
import { testFilesHeldOutsideRun } from '../tests-beside.js';
import type { LoadedFile, RunState } from './state.js';

/** Snapshots every loaded file's text (`preRewrite`), then rewrites the handlers the sites' reaches allow. */
export async function rewriteStage(state: RunState): Promise<void> {
  const { loaded, fileByPath, options } = state;
  state.preRewrite = new Map(loaded.map((f) => [f.path, f.sourceFile.getFullText()]));
  const rewrite = state.env.rewrite ?? (await loadRewriteStage());
  const outcome = await runRewrite(state, rewrite, {
    stateKeyEnv: options.stateKeyEnv ?? DEFAULT_STATE_KEY_ENV,
    typeChecked: state.typeChecked,
    originalLine: originalLineAfter(fileByPath, state.preRewrite),
    testsOutsideRun: once(() => testsHeldOutside(state)),
  });
  state.decisionBySite = outcome.decisionBySite;
  state.createdFiles = outcome.createdFiles;
  // the rewrite's own changes, before the serving stage adds its
  state.postRewrite = new Map(loaded.map((f) => [f.path, f.sourceFile.getFullText()]));
}

/** The tsconfig's test files that are not inputs of the run (tests-beside.ts). */
function testsHeldOutside({ env, options, fileByPath, deferred, results }: RunState): string[] {
  if (!env.tsconfig || !fs.existsSync(env.tsconfig)) return [];
  const known = [...fileByPath.keys(), ...deferred.keys(), ...results.keys()];
  return testFilesHeldOutsideRun(env.tsconfig, known, { cwd: options.cwd, ignore: options.ignore, walked: env.testsBeside });
}

function once<T>(compute: () => T): () => T {
  let value: { of: T } | undefined;
  return () => (value ??= { of: compute() }).of;
}

export async function runRewrite(
  { project, loaded, fileByPath, reaches, suppressedSites, preRewrite }: Pick<RunState, 'project' | 'loaded' | 'fileByPath' | 'reaches' | 'suppressedSites' | 'preRewrite'>,
  rewrite: RewriteStage,
  options: RewriteOptions,
): Promise<{ decisionBySite: Map<Site, SiteDecision>; createdFiles: string[] }> {
  const v1CommonJsFiles = new Set(loaded.filter((f) => requiresV1Sdk(f.source.body)).map((f) => f.sourceFile.getFilePath() as string));
  let decisions: SiteDecision[] = [];
  let createdFiles: string[] = [];
  const v1CommonJsReaches = reaches.filter((r) => touchesV1CommonJs(r, v1CommonJsFiles));
  const heldBack = heldBackBySuppression(reaches, suppressedSites, fileByPath);
  try {
    const excluded = new Set([...v1CommonJsReaches, ...heldBack.keys()]);
    const rewritable = reaches.filter((r) => !excluded.has(r) && !suppressedSites.has(r.site));
    const outcome = await rewrite(project, rewritable, options);
    decisions = [
      ...outcome.decisions,
      ...v1CommonJsReaches.map((r): SiteDecision => ({ site: r.site, status: 'flagged', reason: V1_COMMONJS_REASON, advice: V1_COMMONJS_ADVICE })),
      ...[...heldBack.values()],
    ];
    createdFiles = outcome.createdFiles;
  } catch (error) {
    for (const file of loaded) restoreText(file, preRewrite.get(file.path)!);
    decisions = reaches.map((r) => ({ site: r.site, status: 'flagged', reason: `rewrite failed: ${(error as Error).message}` }));
  }
  const decisionBySite = new Map<Site, SiteDecision>();
  for (const decision of decisions) decisionBySite.set(decision.site, decision);
  for (const reach of reaches) {
    const decision = decisionBySite.get(reach.site);
    const vague = !decision || (decision.status === 'flagged' && !decision.reason);
    if (vague) decisionBySite.set(reach.site, fallbackDecision(reach, decision));
  }
  for (const [site, suppression] of suppressedSites) decisionBySite.set(site, { site, status: 'suppressed', reason: suppression.reason });
  return { decisionBySite, createdFiles };
}

/**
 * Sites that share a handler (or a helper on the way to one) with a suppressed site: a handler is
 * rewritten whole or not at all, and rewriting it around a request that stays would re-run that
 * request on every round. They are flagged, saying which suppression holds them back.
 */
function heldBackBySuppression(reaches: Reach[], suppressed: Map<Site, SuppressionComment>, fileByPath: Map<string, LoadedFile>): Map<Reach, SiteDecision> {
  const held = new Map<Reach, SiteDecision>();
  if (suppressed.size === 0) return held;
  const byHandler = new Map<Node, Site>();
  for (const reach of reaches) {
    if (!suppressed.has(reach.site)) continue;
    for (const { handler } of reach.handlers) if (!byHandler.has(handler.fn)) byHandler.set(handler.fn, reach.site);
  }
  for (const reach of reaches) {
    if (suppressed.has(reach.site)) continue;
    const holder = reach.handlers.map(({ handler }) => byHandler.get(handler.fn)).find((s) => s !== undefined);
    if (!holder) continue;
    const file = fileByPath.get(holder.sourceFile.getFilePath());
    const line = file ? file.lineMap.toOriginal(holder.line) : holder.line;
    const where = holder.sourceFile === reach.site.sourceFile ? `line ${line}` : `${path.basename(holder.sourceFile.getFilePath())}:${line}`;
    held.set(reach, {
      site: reach.site,
      status: 'flagged',
      reason: `its handler also holds a request suppressed with mcp-mrtr-ignore (${where}), and a handler is migrated whole or not at all`,
      advice: 'migrate this handler by hand, or suppress this request too',
    });
  }
  return held;
}

function fallbackDecision(reach: Reach, existing: SiteDecision | undefined): SiteDecision {
  const context = reach.nonHandlerContexts[0];
  if (context) {
    return { site: reach.site, status: 'flagged', reason: `${context.context}: ${context.description}`, advice: existing?.advice ?? NON_HANDLER_ADVICE[context.context] };
  }
  return { site: reach.site, status: 'flagged', reason: existing?.reason ?? 'not migrated by the rewrite stage', ...(existing?.advice ? { advice: existing.advice } : {}) };
}

export function restoreText(file: LoadedFile, text: string): void {
  if (file.sourceFile.getFullText() !== text) file.sourceFile.replaceWithText(text);
}
