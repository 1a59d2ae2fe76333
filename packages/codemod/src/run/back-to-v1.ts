/**
 * After verify: files whose v1-to-v2 upgrade the run does not need go back to their v1 text
 * (engine/upgrade-scope.ts decides which), and the markers of flagged sites find their statements
 * in whichever text a file ends with.
 */
import { isLegacyMethod } from '@mcp-mrtr/surface';
import { findSites, type FindContext } from '../engine/find/index.js';
import { buildLineMap, identityLineMap } from '../engine/line-map.js';
import type { MarkerRequest } from '../engine/markers.js';
import type { Site, SiteDecision } from '../engine/model.js';
import type { ServingFinding } from '../engine/serving/index.js';
import { scanTestMocks } from '../engine/test-mocks/index.js';
import { nodeOnLine, unneededUpgrades } from '../engine/upgrade-scope.js';
import type { LoadedFile } from './state.js';

export interface BackToV1Input {
  loaded: LoadedFile[];
  /** Each file's text before the rewrite (after the upgrade); a reverted file's entry becomes its v1 text. */
  preRewrite: Map<string, string>;
  /** Serving findings by file; those of a reverted file are moved onto its v1 text. */
  serving: Map<string, ServingFinding[]>;
  decisions: Iterable<SiteDecision>;
  /** One file of a larger run (migrateSource, no manifests): a test's mocks of any request may be of migrated ones. */
  partOfLargerRun?: boolean;
  /** Files held on v1 (run/v1-hold-back.ts): their import components need no upgrade. */
  heldOnV1?: ReadonlySet<string>;
}

/** Puts the unneeded upgrades back to v1 (`backToV1` set on each). */
export function revertUnneededUpgrades({ loaded, preRewrite, serving, decisions, partOfLargerRun, heldOnV1 }: BackToV1Input): void {
  const migratedKinds = partOfLargerRun
    ? undefined
    : new Set([...decisions].filter((d) => d.status === 'migrated' || d.callers?.some((c) => c.status === 'migrated')).map((d) => d.site.method).filter(isLegacyMethod));
  const undone = unneededUpgrades(
    loaded.map((f) => ({
      path: f.path,
      sourceFile: f.sourceFile,
      v1Text: f.sliced?.body ?? f.source.body,
      upgraded: f.upgraded,
      // a test whose mocks the test-mock stage rewrites needs v2 too (its Client answers the rounds)
      changedByRun: !f.failed && (f.sourceFile.getFullText() !== preRewrite.get(f.path) || scanTestMocks(f.path, f.source.body, { rewrite: false, migrated: migratedKinds }).sites.length > 0),
    })),
    heldOnV1,
  );
  for (const file of loaded) {
    if (!undone.has(file.path)) continue;
    const shebangLines = shebangLineCount(file);
    const v1Text = file.sliced?.body ?? file.source.body;
    // the serving stage's findings were made on the rewritten text (f.text): through the upgraded
    // text (before the rewrite) to their lines in the v1 text, as the file results map them
    const findings = (serving.get(file.path) ?? []).map((f) => ({ f, line: file.lineMap.toOriginal(buildLineMap(preRewrite.get(file.path)!, f.text).toOriginal(f.line)) - shebangLines }));
    file.sourceFile.replaceWithText(v1Text);
    preRewrite.set(file.path, v1Text);
    file.upgraded = false;
    file.lineMap = identityLineMap(shebangLines);
    const upgradeNotes = new Set(file.upgradeNotes);
    file.notes = file.notes.filter((n) => !upgradeNotes.has(n));
    if (findings.length > 0) serving.set(file.path, findings.map(({ f, line }) => ({ ...f, line, text: v1Text, ...(f.node ? { node: nodeOnLine(file.sourceFile, line, f.column) } : {}) })));
    file.backToV1 = true;
  }
}

/**
 * Nodes of flagged sites in the current text: the original nodes, or the same sites found again; in
 * a file put back to v1, the statement at the site's original line and column.
 */
export function locateFlagged(file: LoadedFile, flagged: SiteDecision[], ctx: FindContext, originalAt: (site: Site) => { line: number; column: number }): MarkerRequest[] {
  if (flagged.length === 0) return [];
  const ordered = [...flagged].sort((a, b) => a.site.line - b.site.line || a.site.column - b.site.column);
  const reasonOf = (d: SiteDecision) => ({ reason: d.reason ?? 'not migrated', advice: d.advice });
  if (file.backToV1) {
    const shebangLines = shebangLineCount(file);
    return ordered.map((d) => ({ node: nodeOnLine(file.sourceFile, originalAt(d.site).line - shebangLines, originalAt(d.site).column), ...reasonOf(d) }));
  }
  if (ordered.every((d) => !d.site.node.wasForgotten() && d.site.node.getSourceFile() === file.sourceFile)) {
    return ordered.map((d) => ({ node: d.site.node, ...reasonOf(d) }));
  }
  const found = findSites(file.sourceFile, ctx);
  const requests: MarkerRequest[] = [];
  let cursor = 0;
  for (const decision of ordered) {
    const index = found.findIndex((s, i) => i >= cursor && s.method === decision.site.method);
    if (index < 0) continue;
    requests.push({ node: found[index]!.node, ...reasonOf(decision) });
    cursor = index + 1;
  }
  return requests;
}

function shebangLineCount(file: LoadedFile): number {
  return file.source.shebang.split('\n').length - 1;
}
