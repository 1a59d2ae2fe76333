/**
 * The markers stage: an `@mcp-mrtr-todo` comment above every site not migrated (and every serving
 * flag and upgrade type error), then the comments the rewrite or serving dropped put back.
 */
import { addMarkers, type MarkerRequest } from '../engine/markers.js';
import { restoreComments } from '../engine/comments.js';
import { scriptKindOf } from '../engine/script-kind.js';
import { abbreviateComment } from '../engine/upgrade.js';
import type { RunState } from './state.js';
import { locateFlagged } from './back-to-v1.js';
import { firstSyntaxError, TYPE_ERROR_ADVICE, typeErrorReason } from './verify.js';
import { nodeOnLine } from '../engine/upgrade-scope.js';
import { heldBackSite } from './v1-hold-back.js';
import { buildLineMap } from '../engine/line-map.js';
import type { ServingFinding } from '../engine/serving/index.js';
import type { Node } from 'ts-morph';
import type { LoadedFile } from './state.js';

export function addRunMarkers({ loaded, sites, siteInfo, decisionBySite, serving, upgradeErrors, ctx, preRewrite, heldOnV1, options }: Pick<RunState, 'loaded' | 'sites' | 'siteInfo' | 'decisionBySite' | 'serving' | 'upgradeErrors' | 'ctx' | 'preRewrite'> & Partial<Pick<RunState, 'heldOnV1' | 'options'>>): void {
  const cwd = options?.cwd ?? process.cwd();
  for (const file of loaded) {
    if (file.failed) continue;
    const flagged = sites
      .filter((s) => s.sourceFile.getFilePath() === file.path || siteInfo.get(s)?.file === file)
      .map((s) => decisionBySite.get(s)!)
      .filter((d) => d.status === 'flagged');
    const servingFlags = (serving.get(file.path) ?? []).filter((f) => f.status === 'flagged');
    const typeErrors = upgradeErrors.get(file.path) ?? [];
    const held = heldOnV1 ? heldBackSite(file, heldOnV1, cwd) : undefined;
    // the uses were found in the file's v1 text, which it has again when held back
    const heldNode = held && file.sourceFile.getFullText() === (file.sliced?.body ?? file.source.body) ? nodeOnLine(file.sourceFile, file.v1OnlyUses![0]!.line, held.column) : undefined;
    if (flagged.length === 0 && servingFlags.length === 0 && typeErrors.length === 0 && !heldNode) continue;
    const before = file.sourceFile.getFullText();
    const requests: MarkerRequest[] = [
      ...locateFlagged(file, flagged, ctx, (s) => siteInfo.get(s)!),
      ...servingFlags.flatMap((f) => {
        const node = servingNode(file, f);
        return node ? [{ node, reason: f.reason, advice: f.advice }] : [];
      }),
      ...typeErrors.map((e) => ({ node: file.sourceFile.getDescendantAtPos(e.start) ?? file.sourceFile, reason: typeErrorReason(e), advice: e.advice ?? TYPE_ERROR_ADVICE })),
      ...(heldNode ? [{ node: heldNode, reason: held!.reason!, advice: held!.advice }] : []),
    ];
    addMarkers(file.sourceFile, requests);
    if (firstSyntaxError(file.sourceFile)) file.sourceFile.replaceWithText(before);
  }

  // comments the rewrite or the serving stage dropped go back where they were (the upgrade's own
  // were put back in the upgrade stage, against the original text); after the markers, whose
  // serving flags hold nodes of the current text. Only comments are added, so verify still holds.
  for (const file of loaded) {
    const before = preRewrite.get(file.path)!;
    const after = file.sourceFile.getFullText();
    if (file.failed || after === before) continue;
    const kept = restoreComments(before, after, scriptKindOf(file.path));
    if (kept.text !== after) file.sourceFile.replaceWithText(kept.text);
    for (const comment of kept.lost) file.notes.push(`a comment the rewrite dropped could not be put back: ${abbreviateComment(comment)}`);
  }

}

/**
 * A serving flag's node, or, when a later stage replaced the file's text (which forgets its nodes:
 * an upgrade repair, verify putting a file back), the node at the flag's line and column in the
 * text as it is now (its line followed from the text the flag was made in). The report names the
 * site as marked, so the marker must not be dropped with the node.
 */
function servingNode(file: LoadedFile, flag: ServingFinding): Node | undefined {
  if (!flag.node) return undefined;
  if (!flag.node.wasForgotten()) return flag.node;
  const line = buildLineMap(file.sourceFile.getFullText(), flag.text).toOriginal(flag.line);
  return nodeOnLine(file.sourceFile, line, flag.column);
}
