/**
 * The stages of a migration run, in order, each a named function over the run's state
 * (src/run/state.ts). `migrateInputs` (src/migrate.ts) loads the run (src/run/load.ts) and runs
 * them one after the other; a test can swap the list through `RunEnv.stages`.
 */
import { ts, type Node, type SourceFile } from 'ts-morph';
import { V1_TRANSPORT_NAMES } from '@mcp-mrtr/surface';
import { findRegistrations, findSites } from '../engine/find/index.js';
import { buildLineMap, originalLineAfter } from '../engine/line-map.js';
import { withOriginalLines } from '../engine/report-lines.js';
import type { Site } from '../engine/model.js';
import { aliasImporterGraph, importConnected, siteImporters } from '../engine/prefilter.js';
import { nearestPackageDir, readManifest, unbounded } from '../engine/package-dir.js';
import { computeReaches, lineOf } from '../engine/reach/index.js';
import { scopeName } from '../engine/scope-name.js';
import { applyServingRewrites, guardFinding, sessionCapabilityReads, type ServingFinding } from '../engine/serving/index.js';
import { findSuppressionComments, suppressionOf } from '../engine/suppressions.js';
import { detectProjectType, isV1Source, upgradeV1Source } from '../engine/upgrade.js';
import { requiresV1Sdk } from '../engine/v1-commonjs.js';
import { v1OnlyApiUses } from '../engine/v1-only-api.js';
import { looksLikeTestFile } from '../engine/test-mocks/find.js';
import { sdkSharingEdges } from '../engine/sdk-sharing.js';
import { importedFiles } from '../engine/upgrade-scope.js';
import { lineCount, loadFile } from './load.js';
import { addRunMarkers } from './markers.js';
import { fileResultsStage, summaryStage } from './result.js';
import { rewriteStage } from './rewrite.js';
import type { LoadedFile, RunState, Stage } from './state.js';
import { importersCheckStage } from './importers-check.js';
import { contextOnlyNames, testMocksStage } from './test-mocks.js';
import { testStateKeyStage } from './test-state-key.js';
import { verifyStage } from './verify-stage.js';
import { raiseZodWhereRegistrationsNeedIt } from './zod-raise.js';

export const STAGES: readonly Stage[] = [
  { name: 'upgrade', run: upgradeStage },
  { name: 'find', run: findStage },
  { name: 'reach', run: reachStage },
  { name: 'rewrite', run: rewriteStage },
  { name: 'serving', run: servingStage },
  { name: 'verify', run: verifyStage },
  { name: 'markers', run: addRunMarkers },
  { name: 'file results', run: fileResultsStage },
  { name: 'test mocks', run: testMocksStage },
  { name: 'importers check', run: importersCheckStage },
  { name: 'test state key', run: testStateKeyStage },
  { name: 'package.json and summary', run: summaryStage },
];

/** Whether the upgraded registrations need zod raised (run/zod-raise.ts); then v1 files through the official @modelcontextprotocol/codemod transforms. */
export function upgradeStage(state: RunState): void {
  const { options, env } = state;
  const manifest = options.upgradeV1 !== false && env.manifests ? readManifest(nearestPackageDir(options.cwd ?? process.cwd(), unbounded)) : undefined;
  state.projectType = detectProjectType(manifest, state.loaded.map((f) => f.source.body));
  raiseZodWhereRegistrationsNeedIt(state);
  upgradeFiles(state, state.loaded);
}

function upgradeFiles(state: RunState, files: LoadedFile[]): void {
  if (state.options.upgradeV1 === false) return;
  // v1 CommonJS: the official codemod does not upgrade require(); the file is left as it was (see v1-commonjs.ts)
  const upgradable = files.filter((f) => isV1Source(f.source.body) && !requiresV1Sdk(f.source.body));
  for (const file of upgradable) {
    const v1Only = v1OnlyApiUses(file.sourceFile);
    if (v1Only.length > 0) file.v1OnlyUses = v1Only;
  }
  if (state.loaded.some((f) => f.v1OnlyUses)) recordSdkSharing(state, [...files, ...loadSetAsideSharers(state)]);
  for (const file of upgradable) {
    const outcome = upgradeV1Source(file.sourceFile, state.projectType);
    file.notes.push(...(file.upgradeNotes = outcome.notes));
    if (outcome.officialNotes.length > 0) file.officialNotes = outcome.officialNotes;
    if (outcome.error) file.notes.push(outcome.error);
    if (outcome.changed) {
      file.upgraded = true;
      file.lineMap = buildLineMap(file.sliced?.body ?? file.source.body, file.sourceFile.getFullText(), lineCount(file.source.shebang));
    }
  }
}

/**
 * The files the pre-filter kept aside that share an import component with a loaded file, loaded
 * now, in a run where a file uses a v1-only API. The hold-back's sharing graph and its import
 * components are read among loaded files, and a file that names no MCP package can still pass an
 * SDK object on (`export { server } from './jobs.js'`, an untyped JavaScript module): left out, it
 * cut the chain between a held file and a file the run moved to v2, which then kept v2 code for a
 * v1 server (test/v1-hold-back-set-aside.test.ts). The held group grows from the users across such
 * imports and across handler joins (reach), which are not known yet: so the components of every
 * loaded file, not only the users'. Runs without a v1-only use never pay for it, and files in no
 * component with a loaded file stay aside.
 */
function loadSetAsideSharers(state: RunState): LoadedFile[] {
  const { selection, deferred } = state;
  if (!selection.importers || deferred.size === 0) return [];
  const connected = importConnected(state.loaded.map((f) => f.path), withAliasImports(state, selection.importers));
  return [...connected].filter((p) => deferred.has(p)).sort().flatMap((p) => {
    const d = deferred.get(p)!;
    deferred.delete(p);
    return loadFile(state, d) ?? [];
  });
}

/**
 * The pre-filter's import graph with the imports through the tsconfig's `paths` aliases added,
 * resolved by the compiler: a set-aside file imported and importing only by alias is still on the
 * chain (test/v1-hold-back-set-aside.test.ts).
 */
function withAliasImports(state: RunState, importers: Map<string, string[]>): Map<string, string[]> {
  const options = state.project.getCompilerOptions();
  const patterns = Object.keys(options.paths ?? {});
  if (patterns.length === 0) return importers;
  const inputs = [...state.loaded.map((f) => ({ path: f.path, text: f.source.body })), ...[...state.deferred.values()].map((d) => ({ path: d.path, text: d.source.body }))];
  const resolve = (specifier: string, file: string) => ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule?.resolvedFileName;
  const merged = new Map([...importers].map(([target, list]) => [target, [...list]]));
  for (const [target, list] of aliasImporterGraph(inputs, new Set(inputs.map((i) => i.path)), patterns, resolve)) merged.set(target, [...(merged.get(target) ?? []), ...list]);
  return merged;
}

/**
 * The imports that carry SDK objects between `files` and the other loaded files, read before
 * `files` are upgraded (the hold-back keeps the files sharing them with a v1-only API's user on v1).
 * A later batch (files loaded by the find stage) adds its own imports and the imports of it.
 */
function recordSdkSharing(state: RunState, files: LoadedFile[]): void {
  const batch = new Set(files.map((f) => f.path));
  const known = new Set(state.loaded.map((f) => f.path));
  const firstBatch = state.loaded.every((f) => batch.has(f.path));
  const importers = firstBatch ? batch : new Set(state.loaded.filter((f) => batch.has(f.path) || importsAny(f, batch, known)).map((f) => f.path));
  const byPath = new Map(state.loaded.map((f) => [f.path, f]));
  const edges = sdkSharingEdges(state.loaded.map((f) => ({ path: f.path, sourceFile: f.sourceFile, text: f.sliced?.body ?? f.source.body })), known, importers);
  for (const edge of edges) {
    if (!firstBatch && !batch.has(edge.importer) && !batch.has(edge.exporter)) continue;
    state.sdkSharing.push({ ...edge, line: byPath.get(edge.importer)!.lineMap.toOriginal(edge.line) });
  }
}

function importsAny(file: LoadedFile, targets: Set<string>, known: Set<string>): boolean {
  return importedFiles({ path: file.path, sourceFile: file.sourceFile, v1Text: file.sliced?.body ?? file.source.body }, known).some((t) => targets.has(t));
}

/**
 * Sites and registrations of every loaded file; files the pre-filter kept aside that import a
 * site's file are loaded (and upgraded) and searched too; then the `mcp-mrtr-ignore` suppressions.
 */
export function findStage(state: RunState): void {
  findIn(state, state.loaded);
  // Files the pre-filter left out that import a site's file through any chain of imports (helper
  // files without any MCP name): loaded now so their handlers reach the site, as without pre-filter.
  const { selection, deferred, sites } = state;
  if (selection.importers && sites.length > 0) {
    const followed = new Set<string>();
    for (;;) {
      const siteFiles = new Set(sites.map((s) => s.sourceFile.getFilePath() as string));
      const next = [...siteImporters([...siteFiles].filter((f) => !followed.has(f)), selection.importers, new Set(state.loaded.map((f) => f.path)))].filter((p) => deferred.has(p));
      for (const f of siteFiles) followed.add(f);
      if (next.length === 0) break;
      const added = next.sort().flatMap((p) => {
        const d = deferred.get(p)!;
        deferred.delete(p);
        return loadFile(state, d) ?? [];
      });
      upgradeFiles(state, added);
      findIn(state, added);
    }
  }
  for (const d of deferred.values()) {
    state.results.set(d.path, { path: d.path, status: 'unchanged', sites: [] });
    state.progress(d.path);
  }
  // Texts of files that stay out of the project are no longer needed: release them before the
  // rewrite and the verify program, where memory peaks.
  deferred.clear();
  state.fileByPath = new Map(state.loaded.map((f) => [f.path, f]));
  // Suppressed sites are neither rewritten nor marked; the comments are read once all files are loaded.
  for (const file of state.loaded) {
    const comments = findSuppressionComments(file.sourceFile);
    if (comments.length > 0) state.suppressionsByFile.set(file.path, comments);
  }
  for (const site of sites) {
    const comments = state.suppressionsByFile.get(site.sourceFile.getFilePath());
    const suppression = comments && suppressionOf(site.node, comments);
    if (suppression) state.suppressedSites.set(site, suppression);
  }
}

function findIn(state: RunState, files: LoadedFile[]): void {
  for (const file of files) {
    try {
      state.sites.push(...findSites(file.sourceFile, state.ctx));
      const regs = findRegistrations(file.sourceFile, state.ctx);
      state.handlers.push(...regs.handlers);
      state.others.push(...regs.others);
    } catch (error) {
      file.failed = `analysis failed: ${(error as Error).message}`;
    }
    state.progress(file.path);
  }
}

/** Which handlers or non-handler contexts reach each site, and where each site is reported. */
export function reachStage(state: RunState): void {
  const { sites, fileByPath } = state;
  const originalLine = (node: Node): number => {
    const line = lineOf(node);
    return fileByPath.get(node.getSourceFile().getFilePath())?.lineMap.toOriginal(line) ?? line;
  };
  state.contextOnlyHandlers = contextOnlyNames(state.handlers);
  state.reaches = computeReaches({ sites, handlers: state.handlers, others: state.others, sourceFiles: state.loaded.map((f) => f.sourceFile), originalLine });
  const reachBySite = new Map(state.reaches.map((r) => [r.site, r]));
  const linesOf = fileLines();
  for (const site of sites) {
    const file = fileByPath.get(site.sourceFile.getFilePath())!;
    const reach = reachBySite.get(site)!;
    state.siteInfo.set(site, {
      file,
      handler: reach.handlers[0]?.handler.name,
      snippet: snippetOf(site),
      scope: scopeName(site.node),
      line: file.lineMap.toOriginal(site.line),
      column: originalColumn(file, site, linesOf),
    });
  }
}

/** stdio / Streamable HTTP hosting to serveStdio / createMcpHandler (per-session state), or flagged. */
export function servingStage(state: RunState): void {
  const { loaded, serving } = state;
  // capability checks that read the session: with them, switching the hosting would silently turn
  // their features off for 2026-07-28 clients (capability-guards.ts). A test's reads are not served
  // by the hosting: they ask a fake or a server the test connects itself (the driver written into a
  // test file reads its fake's getClientCapabilities()).
  // they name their lines in the user's file: the rewrite may have changed the file they are in
  const sessionReads = withOriginalLines(originalLineAfter(state.fileByPath, state.preRewrite), () =>
    loaded.filter((f) => !f.failed && !looksLikeTestFile(f.path, f.source.body)).flatMap((f) => sessionCapabilityReads(f.sourceFile, state.options.cwd ?? process.cwd())),
  );
  const sitesOf = sitesAsTheyStand(state);
  const originalLines = originalLineAfter(state.fileByPath, state.preRewrite);
  const reported = new Set<Node>();
  const add = (filePath: string, findings: ServingFinding[]) => {
    if (findings.length > 0) serving.set(filePath, [...(serving.get(filePath) ?? []), ...findings.map((f) => asWritten(f, state.fileByPath.get(filePath)?.original))]);
  };
  for (const file of loaded) {
    if (file.failed) continue;
    try {
      // reasons naming a line of another served file cite the user's line (the rewrite may have changed that file)
      const findings = withOriginalLines(originalLines, () => applyServingRewrites(file.sourceFile, state.ctx, sessionReads, sitesOf));
      // a request reference the find stage does not follow is reported in its own file, once for every hosting serving it
      const references = findings.filter((f) => f.method !== 'serving' && f.method !== 'session-state');
      add(file.path, findings.filter((f) => !references.includes(f)));
      for (const reference of references) {
        if (!reference.node || reported.has(reference.node)) continue;
        reported.add(reference.node);
        add(reference.node.getSourceFile().getFilePath() as string, [reference]);
      }
    } catch (error) {
      file.notes.push(`serving analysis failed: ${(error as Error).message}`);
    }
  }
  const statelessHosting = [...serving.values()].some((list) => list.some((f) => f.method === 'serving')) || loaded.some((f) => /\b(serveStdio|createMcpHandler)\(/.test(f.sourceFile.getFullText()));
  if (statelessHosting) {
    for (const read of sessionReads) {
      const filePath = read.node.getSourceFile().getFilePath() as string;
      serving.set(filePath, [...(serving.get(filePath) ?? []), guardFinding(read)]);
    }
  }
}

/**
 * The legacy request sites of a file as its text is now: the find stage's while the file has the
 * text that stage searched and their nodes stand, found again once the rewrite or the serving
 * stage changed it (or it is a project file the run did not load).
 */
function sitesAsTheyStand(state: RunState): (file: SourceFile) => readonly Site[] {
  const found = new Map<string, Site[]>();
  for (const site of state.sites) {
    const filePath = site.sourceFile.getFilePath() as string;
    found.set(filePath, [...(found.get(filePath) ?? []), site]);
  }
  return (file) => {
    const filePath = file.getFilePath() as string;
    const searched = state.preRewrite.get(state.fileByPath.get(filePath)?.path ?? '');
    const sites = found.get(filePath) ?? [];
    if (searched !== undefined && file.getFullText() === searched && sites.every((s) => !s.node.wasForgotten())) return sites;
    return findSites(file, state.ctx);
  };
}

function snippetOf(site: Site): string {
  const text = site.node.getText().replace(/\s+/g, ' ');
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

interface FileLines {
  original: string[];
  current: string[];
}

/** Each file's original and current lines, split once for all its sites (the texts do not change while sites are placed). */
function fileLines(): (file: LoadedFile) => FileLines {
  const byFile = new Map<LoadedFile, FileLines>();
  return (file) => {
    let lines = byFile.get(file);
    if (!lines) byFile.set(file, (lines = { original: (file.sliced?.body ?? file.source.body).split(/\r?\n/), current: file.sourceFile.getFullText().split(/\r?\n/) }));
    return lines;
  };
}

/** Column of the site in the original text: same offset from the line's indentation. */
function originalColumn(file: LoadedFile, site: Site, linesOf: (file: LoadedFile) => FileLines): number {
  if (!file.upgraded) return site.column;
  const { original: originalLines, current: currentLines } = linesOf(file);
  const originalLine = originalLines[file.lineMap.toOriginal(site.line) - lineCount(file.source.shebang) - 1] ?? '';
  const currentLine = currentLines[site.line - 1] ?? '';
  const siteText = site.node.getText();
  const token = /[A-Za-z_$][\w$]*/.exec(siteText)?.[0];
  if (token) {
    const at = originalLine.indexOf(token);
    if (at >= 0) return at + 1;
  }
  const indent = (s: string) => /^\s*/.exec(s)![0].length;
  return Math.max(1, site.column - indent(currentLine) + indent(originalLine));
}

/**
 * A serving finding that names a transport class by the name the upgrade gave it
 * (`NodeStreamableHTTPServerTransport ...`) names it as the user's file does, when that file had the
 * v1 name and not the v2 one: the report describes the code the user ran the codemod on.
 */
function asWritten(finding: ServingFinding, original: string | undefined): ServingFinding {
  if (original === undefined) return finding;
  for (const [v2, v1] of Object.entries(V1_TRANSPORT_NAMES)) {
    if (finding.reason.startsWith(`${v2} `) && !original.includes(v2) && original.includes(v1)) return { ...finding, reason: `${v1}${finding.reason.slice(v2.length)}` };
  }
  return finding;
}
