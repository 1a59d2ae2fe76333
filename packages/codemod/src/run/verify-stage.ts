/**
 * The verify stage over the run's state: a changed file that fails verification (run/verify.ts) is
 * restored with every file its handlers touch, and the decisions and hosting findings there are
 * flagged; with no request left migrated, the rewrite's support for them (server wiring, created
 * modules) goes too; the files connected to a use of a v1 API that v2 lacks stay on v1
 * (run/v1-hold-back.ts); a hosting rewrite that is a file's only change is held back when that
 * file's upgrade does not compile (run/serving-upgrade-errors.ts); then the upgrades the run does
 * not need go back to v1 (run/back-to-v1.ts), and the upgrade's own type errors are found (the
 * reads of a property only some members of a closed v2 union declare repaired where that compiles), with
 * what zod 4 rejects when the run raised a zod 3 project's zod (run/zod-api-errors.ts).
 */
import path from 'node:path';
import { buildLineMap } from '../engine/line-map.js';
import { ProjectFiles } from '../engine/project-files.js';
import { floorCauseApplies, zodFloorAdvice, zodFloorCause } from '../engine/zod-floor.js';
import { SERVING_ADVICE } from '../engine/serving/index.js';
import { revertUnneededUpgrades } from './back-to-v1.js';
import { holdBackServingOverUpgradeErrors } from './serving-upgrade-errors.js';
import { createProject } from './load.js';
import { restoreText } from './rewrite.js';
import { holdBackOnV1 } from './v1-hold-back.js';
import type { LoadedFile, RunState } from './state.js';
import { addZodApiErrors } from './zod-api-errors.js';
import { unservedRewriteSupport, upgradeTypeErrors, verifyChanges } from './verify.js';

export function verifyStage(state: RunState): void {
  const { project, loaded, fileByPath, preRewrite, reaches, typeChecked, serving, sites, decisionBySite } = state;
  // The language service's program (references queries of find and rewrite) describes the texts
  // before the rewrite and is never asked again before verify builds its own: drop it, and its
  // type checker, so that the two do not sit in memory together.
  if (typeChecked) project.getLanguageService().compilerObject.cleanupSemanticCache();
  const zodFloor = typeChecked && state.env.tsconfig ? floorCauseApplies(path.dirname(state.env.tsconfig)) : undefined;
  const verification = verifyChanges(project, loaded, preRewrite, state.createdFiles, reaches, typeChecked, zodFloor);
  for (const [filePath, reason] of verification.restored) {
    const file = fileByPath.get(filePath)!;
    restoreText(file, preRewrite.get(filePath)!);
    // the serving rewrite ran after the snapshot: it is undone with the rest of the file
    serving.set(
      filePath,
      (serving.get(filePath) ?? []).map((f) => (f.status === 'migrated' ? { ...f, status: 'flagged' as const, node: undefined, reason: `not rewritten: the file was restored (${reason})`, advice: f.advice ?? SERVING_ADVICE.stdio } : f)),
    );
    for (const site of sites) {
      if (site.sourceFile.getFilePath() !== filePath && !verification.component(filePath).has(site.sourceFile.getFilePath())) continue;
      const decision = decisionBySite.get(site);
      if (decision?.status === 'migrated' || decision?.callers?.some((c) => c.status === 'migrated')) {
        const callers = decision.callers?.map((c) => (c.status === 'migrated' ? { ...c, status: 'flagged' as const, reason: `rewrite not verified: ${reason}` } : c));
        const advice = zodFloor && reason.endsWith(zodFloorCause(zodFloor)) ? zodFloorAdvice(zodFloor) : 'migrate this handler by hand (see the MRTR notes); the automatic rewrite did not pass verification';
        decisionBySite.set(site, decision.status === 'migrated' ? { site, status: 'flagged', reason: `rewrite not verified: ${reason}`, advice, ...(callers ? { callers } : {}) } : { ...decision, ...keptHelperReason(decision.reason, reason), ...(callers ? { callers } : {}) });
      }
    }
  }
  state.createdFiles = state.createdFiles.filter((f) => !verification.droppedCreated.has(f));
  holdBackOnV1(state, verification.component, () => createProject(state.env.tsconfig, new ProjectFiles().host, state.selection.mcp, state.libraryFiles, state.zodRaised, state.dependencyResolutions));
  const orphaned = unservedRewriteSupport({ loaded, preRewrite, postRewrite: state.postRewrite, createdFiles: state.createdFiles, decisions: decisionBySite.values() });
  for (const file of orphaned.restore) restoreText(file, preRewrite.get(file.path)!);
  for (const created of orphaned.drop) {
    const sf = project.getSourceFile(created);
    if (sf) project.removeSourceFile(sf);
  }
  state.createdFiles = state.createdFiles.filter((f) => !orphaned.drop.has(f));
  holdBackServingOverUpgradeErrors(state);
  revertUnneededUpgrades({ loaded, preRewrite, serving, decisions: decisionBySite.values(), partOfLargerRun: !state.env.manifests, heldOnV1: new Set(state.heldOnV1.keys()) });
  if (typeChecked) {
    state.upgradeErrors = upgradeTypeErrors(loaded.filter((f) => f.upgraded && !f.failed), () => createProject(state.env.tsconfig, new ProjectFiles().host, state.selection.mcp, state.libraryFiles, state.zodRaised, state.dependencyResolutions), zodFloor, (file, line) => originalLine(state, file, line));
    placeUpgradeErrors(state);
  }
  addZodApiErrors(state);
}

/**
 * A helper kept for callers outside handlers said its handlers were migrated with their own copies
 * (`...; migrated for X, which now has its own copy of \`h\``): restored, the copies are gone too.
 */
function keptHelperReason(siteReason: string | undefined, restored: string): { reason?: string } {
  if (siteReason === undefined) return {};
  const copies = /; migrated for (.+), which now ha(?:s its|ve their) own copy of `[^`]+`$/.exec(siteReason);
  if (!copies) return { reason: siteReason };
  return { reason: `${siteReason.slice(0, copies.index)}; the copy for ${copies[1]} was not kept: rewrite not verified: ${restored}` };
}

/** A line of a file's text after the rewrite, in the user's file: as `placeUpgradeErrors` maps them. */
function originalLine({ preRewrite }: Pick<RunState, 'preRewrite'>, file: LoadedFile, line: number): number {
  const before = preRewrite.get(file.path);
  return file.lineMap.toOriginal(before === undefined ? line : buildLineMap(before, file.sourceFile.getFullText()).toOriginal(line));
}

/**
 * The upgrade errors' lines in the user's file. They are found in the text after the rewrite, and a
 * file's line map starts from its upgraded text, before the rewrite: a handler the rewrite grew
 * (the input_required branch) would move every error below it. Back through the rewrite's changes
 * first, then through the upgrade's.
 */
function placeUpgradeErrors({ upgradeErrors, fileByPath, preRewrite }: Pick<RunState, 'upgradeErrors' | 'fileByPath' | 'preRewrite'>): void {
  for (const [filePath, errors] of upgradeErrors) {
    const file = fileByPath.get(filePath);
    const before = preRewrite.get(filePath);
    if (!file || before === undefined) continue;
    const rewrite = buildLineMap(before, file.sourceFile.getFullText());
    for (const e of errors) e.originalLine = file.lineMap.toOriginal(rewrite.toOriginal(e.line));
  }
}
