/**
 * The result stage, which builds a run's `MigrationResult`: every site with its status and
 * reason per file, the output texts, created files, package.json changes and the summary.
 */
import { buildLineMap } from '../engine/line-map.js';
import { importsV1Sdk, planPackageJsonChanges } from '../engine/package-json.js';
import { unsliceSource } from '../engine/slice.js';
import { joinSource } from '../engine/source-text.js';
import type { FileResult, MigrationSummary, PackageJsonChange, SiteResult } from '../types.js';
import type { LoadedFile, RunState } from './state.js';
import { TYPE_ERROR_ADVICE, typeErrorReason } from './verify.js';
import { heldBackSite } from './v1-hold-back.js';
import { withJestManifestSetups } from './test-state-key.js';

/**
 * Every loaded file's result (its sites with the serving findings and upgrade type errors, output,
 * status), and the created files', into `results`.
 */
export function fileResultsStage({ project, loaded, sites, siteInfo, decisionBySite, serving, upgradeErrors, suppressionsByFile, preRewrite, createdFiles, results, heldOnV1, options }: Pick<RunState, 'project' | 'loaded' | 'sites' | 'siteInfo' | 'decisionBySite' | 'serving' | 'upgradeErrors' | 'suppressionsByFile' | 'preRewrite' | 'createdFiles' | 'results'> & Partial<Pick<RunState, 'heldOnV1' | 'options'>>): void {
  const cwd = options?.cwd ?? process.cwd();
  const sitesByFile = new Map<string, SiteResult[]>();
  for (const site of sites) {
    const info = siteInfo.get(site)!;
    const decision = decisionBySite.get(site)!;
    const list = sitesByFile.get(info.file.path) ?? [];
    list.push({
      line: info.line,
      column: info.column,
      method: site.method,
      kind: site.kind,
      status: decision.status,
      ...(decision.reason ? { reason: decision.reason } : {}),
      ...(decision.advice ? { advice: decision.advice } : {}),
      ...(info.handler ? { handler: info.handler } : {}),
      snippet: info.snippet,
      ...(decision.callers && decision.callers.length > 1 ? { callers: decision.callers.map((c) => ({ caller: c.caller, status: c.status, ...(c.reason ? { reason: c.reason } : {}) })) } : {}),
      ...(info.scope ? { scope: info.scope } : {}),
      ...(decision.undeclaredCaught ? { undeclaredCaught: true as const } : {}),
    });
    sitesByFile.set(info.file.path, list);
  }
  for (const file of loaded) {
    const servingSites = (serving.get(file.path) ?? []).map((f) => ({
      line: file.lineMap.toOriginal(buildLineMap(preRewrite.get(file.path)!, f.text).toOriginal(f.line)),
      column: f.column,
      method: f.method,
      ...(f.kind ? { kind: f.kind } : {}),
      status: f.status,
      reason: f.reason,
      ...(f.advice ? { advice: f.advice } : {}),
      ...(f.snippet ? { snippet: f.snippet } : {}),
    }));
    const typeErrorSites = (upgradeErrors.get(file.path) ?? []).map((e): SiteResult => ({
      line: e.originalLine ?? file.lineMap.toOriginal(e.line),
      column: e.column,
      method: 'type-error',
      status: 'flagged',
      reason: typeErrorReason(e),
      advice: e.advice ?? TYPE_ERROR_ADVICE,
      snippet: e.snippet,
    }));
    const held = heldOnV1 ? heldBackSite(file, heldOnV1, cwd) : undefined;
    const siteResults = [...(sitesByFile.get(file.path) ?? []), ...servingSites, ...typeErrorSites, ...(held ? [held] : [])].sort((a, b) => a.line - b.line || a.column - b.column);
    const activeSites = siteResults.filter((s) => s.status !== 'suppressed');
    const unreasoned = (suppressionsByFile.get(file.path) ?? []).filter((c) => c.reason === undefined).map((c) => ({ line: file.lineMap.toOriginal(c.line), column: c.column }));
    let body = file.sourceFile.getFullText();
    if (file.sliced) {
      const whole = unsliceSource(body, file.sliced);
      if (whole === undefined) {
        file.failed = 'internal error: the elided part of this large file could not be restored; left unchanged';
        body = file.source.body;
      } else body = whole;
    }
    const output = body === file.source.body ? file.original : joinSource(file.source, body);
    let status: FileResult['status'];
    if (file.failed) status = 'failed';
    else if (activeSites.length > 0 && activeSites.every((s) => s.status === 'flagged' && !('callers' in s && s.callers?.some((c) => c.status === 'migrated')))) status = 'flagged';
    else if (output !== file.original) status = 'changed';
    else status = activeSites.some((s) => s.status === 'flagged') ? 'flagged' : 'unchanged';
    results.set(file.path, {
      path: file.path,
      status,
      sites: siteResults,
      original: file.original,
      output: file.failed ? file.original : output,
      ...(file.failed ? { error: file.failed } : {}),
      ...(!file.failed && file.notes.length > 0 ? { notes: [...file.notes] } : {}),
      ...officialNotesOf(file),
      ...(unreasoned.length > 0 ? { suppressionsWithoutReason: unreasoned } : {}),
    });
  }
  for (const created of createdFiles) {
    const sf = project.getSourceFile(created);
    if (!sf) continue;
    results.set(created, { path: created, status: 'created', sites: [], output: sf.getFullText() });
  }

}

/** The run's `MigrationResult`: the files in path order, package.json changes, the summary. */
export function summaryStage(state: Pick<RunState, 'results' | 'fileByPath' | 'env' | 'result'> & Partial<Pick<RunState, 'zodRaised' | 'jestManifestSetups'>>): void {
  const { results, fileByPath } = state;
  const files = [...results.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const packageJsonChanges: PackageJsonChange[] = state.env.manifests
    ? withJestManifestSetups(
        planPackageJsonChanges(
          [
            ...files.filter((f) => f.output !== undefined && fileByPath.has(f.path)).map((f) => ({ path: f.path, text: f.output! })),
            // files the run reports on without being its own (importers of migrated files it typechecked,
            // outside the paths given): still loading the v1 SDK, they keep it declared
            ...files.filter((f) => !fileByPath.has(f.path) && importsV1Sdk(f.output ?? f.original ?? '')).map((f) => ({ path: f.path, text: f.output ?? f.original! })),
          ],
          new Set(files.map((f) => f.path)),
          state.zodRaised,
        ),
        state.jestManifestSetups,
      )
    : [];
  state.result = { summary: summarize(files), files, packageJsonChanges };
}

/** The counts of a result's files (the one place they are computed). */
export function summarize(files: FileResult[]): MigrationSummary {
  const allSites = files.flatMap((f) => f.sites).filter((s) => s.status !== 'suppressed');
  return {
    sitesFound: allSites.length,
    sitesMigrated: allSites.filter((s) => s.status === 'migrated').length,
    sitesFlagged: allSites.filter((s) => s.status === 'flagged').length,
    filesChanged: files.filter((f) => (f.status === 'changed' || f.status === 'flagged') && f.output !== undefined && f.output !== f.original).length,
    filesFailed: files.filter((f) => f.status === 'failed').length,
    sitesSuppressed: files.reduce((n, f) => n + f.sites.filter((s) => s.status === 'suppressed').length, 0),
    suppressionsWithoutReason: files.reduce((n, f) => n + (f.suppressionsWithoutReason?.length ?? 0), 0),
  };
}

/** The official codemod's notes the file still carries (a file put back to v1 dropped its upgrade's notes): always a part of its `notes`. */
function officialNotesOf(file: LoadedFile): Pick<FileResult, 'officialNotes'> {
  const kept = file.failed ? [] : (file.officialNotes ?? []).filter((n) => file.notes.includes(n));
  return kept.length > 0 ? { officialNotes: kept } : {};
}
