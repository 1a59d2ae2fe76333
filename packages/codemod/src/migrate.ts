/**
 * Orchestration of a migration run. Stages, in order:
 *
 *   1. discovery           files under the given paths (discover.ts: .gitignore, build output, symlinks)
 *   2. decode              binary / non-UTF-8 / unreadable files fail on their own; BOM, CRLF, shebang noted
 *   3. pre-filter          only candidate files (surface tokens), MCP files and their importers are loaded
 *   4. project             ONE ts-morph project; tsconfig (given or nearest) gives types, else syntactic mode
 *   5. upgrade             v1 files through the official @modelcontextprotocol/codemod transforms
 *   6. find + reach        sites, handlers, which handlers/contexts reach which site; `mcp-mrtr-ignore` suppressions
 *   7. rewrite             rewriteHandlers(project, reaches, options) (engine/rewrite)
 *   8. serving             stdio / Streamable HTTP hosting to serveStdio / createMcpHandler, or flagged
 *   9. verify              re-parse changed files, typecheck them when types exist; restore on failure (run/verify.ts)
 *  10. markers             `@mcp-mrtr-todo` above every flagged site
 *  11. report              every site with status and reason, package.json changes
 */
import fs from 'node:fs';
import path from 'node:path';
import { Project, ts, type FileSystemHost, type Node } from 'ts-morph';
import { DEFAULT_STATE_KEY_ENV, TARGET_SERVER_PACKAGE } from '@mcp-mrtr/surface';
import { discoverFiles, type Discovery } from './discover.js';
import { findRegistrations, findSites, type FindContext } from './engine/find/index.js';
import { buildLineMap, identityLineMap, originalLineAfter } from './engine/line-map.js';
import type { Handler, Site } from './engine/model.js';
import { selectFiles, siteImporters } from './engine/prefilter.js';
import { computeReaches, lineOf } from './engine/reach/index.js';
import { loadRewriteStage, type RewriteStage } from './engine/rewrite-stage.js';
import { applyServingRewrites, guardFinding, SERVING_ADVICE, sessionCapabilityReads, type ServingFinding } from './engine/serving/index.js';
import { sliceLargeSource } from './engine/slice.js';
import { decodeSource, splitSource, type DecodedSource } from './engine/source-text.js';
import { detectProjectType, isV1Source, upgradeV1Source } from './engine/upgrade.js';
import { requiresV1Sdk } from './engine/v1-commonjs.js';
import type { FileResult, MigrateOptions, MigrationResult } from './types.js';
import { scriptKindOf } from './engine/script-kind.js';
import { ProjectFiles } from './engine/project-files.js';
import { addTestMockSites } from './engine/test-mocks/index.js';
import { resolveLentDependency, resolveOwnPackage, serverPackageAvailable } from './engine/own-packages.js';
import { scopeName } from './engine/scope-name.js';
import { findSuppressionComments, suppressionOf, type SuppressionComment } from './engine/suppressions.js';
import type { LoadedFile, SiteInfo } from './run/state.js';
import { restoreText, runRewrite } from './run/rewrite.js';
import { addRunMarkers } from './run/markers.js';
import { revertUnneededUpgrades } from './run/back-to-v1.js';
import { runResult } from './run/result.js';
import { firstSyntaxError, unservedRewriteSupport, upgradeTypeErrors, verifyChanges, type TypeError } from './run/verify.js';

export interface SourceInput {
  path: string;
  /** Raw bytes (files read from disk) or text (in-memory sources). */
  bytes?: Uint8Array;
  text?: string;
  /** Set when the file could not be read. */
  readError?: string;
}

/**
 * Migrates the files under `paths`. Writes nothing unless `options.write`. `discovered`: the result
 * of `discoverFiles` for the same paths, cwd and ignore list, when the caller has it already.
 */
export async function migrateProject(paths: string[], options: MigrateOptions = {}, discovered?: Discovery): Promise<MigrationResult> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const discovery = discovered ?? discoverFiles(paths, { cwd, ignore: options.ignore });
  const inputs: SourceInput[] = discovery.files.map((file) => {
    try {
      return { path: file, bytes: fs.readFileSync(file) };
    } catch (error) {
      return { path: file, readError: `unreadable: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
    }
  });
  const tsconfig = options.tsconfig ? path.resolve(cwd, options.tsconfig) : findTsconfig(cwd, discovery.files);
  let result = await migrateInputs(inputs, { ...options, cwd }, { tsconfig, manifests: true, consumeInputs: true });
  // Unit tests that mock a request the run migrated (the test files may lie outside the run's paths)
  result = addTestMockSites(result, discovery.files, readText);
  if (options.write) {
    const { applyResult } = await import('./fs/atomic-write.js');
    result = applyResult(result).result;
  }
  return result;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Migrates one in-memory source (jscodeshift, editors, tests). Syntactic mode unless
 * `options.tsconfig` is given; files the rewrite would create (the codec module) are returned in
 * `created`.
 */
export async function migrateSource(text: string, fileName: string, options: MigrateOptions = {}): Promise<FileResult & { created: FileResult[] }> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const file = path.resolve(cwd, fileName);
  const result = await migrateInputs([{ path: file, text }], { ...options, cwd }, { tsconfig: options.tsconfig ? path.resolve(cwd, options.tsconfig) : undefined, manifests: false });
  const own = result.files.find((f) => f.path === file)!;
  return { ...own, created: result.files.filter((f) => f.status === 'created') };
}

export interface RunEnv {
  tsconfig?: string;
  /** Look up package.json files for dependency changes. */
  manifests: boolean;
  /** Replaces the rewrite stage (tests of orchestration and verification). */
  rewrite?: RewriteStage;
  /** The inputs belong to this run: their bytes are dropped once decoded (lower peak memory). */
  consumeInputs?: boolean;
}

export async function migrateInputs(inputs: SourceInput[], options: MigrateOptions, env: RunEnv = { manifests: false }): Promise<MigrationResult> {
  const timings = stageTimer();
  const total = inputs.length;
  let done = 0;
  const progress = (file: string) => options.onProgress?.(++done, total, file);
  const results = new Map<string, FileResult>();

  // 2. decode
  const decoded: Array<{ path: string; original: string; source: DecodedSource }> = [];
  for (const input of inputs) {
    if (input.readError) {
      results.set(input.path, { path: input.path, status: 'failed', sites: [], error: input.readError });
      continue;
    }
    if (input.text !== undefined) {
      decoded.push({ path: input.path, original: input.text, source: splitSource(input.text) });
      continue;
    }
    const outcome = decodeSource(input.bytes!);
    // the bytes are not needed once decoded: with thousands of files they are a large share of the peak
    if (env.consumeInputs) input.bytes = undefined;
    if (!outcome.ok) {
      results.set(input.path, { path: input.path, status: 'failed', sites: [], error: outcome.error });
      continue;
    }
    // strict UTF-8 decoding succeeded, so this is exactly the bytes' UTF-8 reading (BOM included)
    decoded.push({ path: input.path, original: outcome.text, source: outcome.source });
  }

  timings.mark('decode');
  // 3. pre-filter
  const selection = selectFiles(
    decoded.map((d) => ({ path: d.path, text: d.source.body })),
    { prefilter: options.prefilter !== false },
  );

  timings.mark('prefilter');
  // 4. project
  // Types only help when the v2 server package resolves: the code is v2 after the upgrade. A v1
  // project that has not installed it yet borrows the codemod's own copy (engine/own-packages.ts).
  const typeChecked = env.tsconfig !== undefined && fs.existsSync(env.tsconfig) && serverPackageAvailable(TARGET_SERVER_PACKAGE, path.dirname(env.tsconfig));
  const projectFiles = new ProjectFiles();
  const project = createProject(typeChecked ? env.tsconfig : undefined, projectFiles.host, selection.mcp);
  const ctx: FindContext = { typeChecked };
  const loaded: LoadedFile[] = [];
  const deferred = new Map<string, (typeof decoded)[number]>();
  /** Parses one decoded file into the project (or records its syntax error). */
  const load = (d: (typeof decoded)[number]): LoadedFile | undefined => {
    const sliced = sliceLargeSource(d.path, d.source.body);
    const sourceFile = projectFiles.addSourceFile(project, d.path, sliced?.body ?? d.source.body, scriptKindOf(d.path));
    const syntaxError = firstSyntaxError(sourceFile);
    if (syntaxError) {
      project.removeSourceFile(sourceFile);
      results.set(d.path, { path: d.path, status: 'failed', sites: [], original: d.original, output: d.original, error: `syntax error: ${syntaxError}` });
      progress(d.path);
      return undefined;
    }
    const file: LoadedFile = { path: d.path, original: d.original, source: d.source, sliced, sourceFile, upgraded: false, lineMap: identityLineMap(lineCount(d.source.shebang)), notes: [] };
    loaded.push(file);
    return file;
  };
  for (const d of decoded) {
    if (!selection.load.has(d.path)) {
      // kept aside: loaded later if it turns out to import (transitively) a file that holds a site
      deferred.set(d.path, d);
      continue;
    }
    load(d);
  }

  timings.mark('load+parse');
  // 5. v1 -> v2 upgrade
  const manifest = options.upgradeV1 !== false && env.manifests ? readNearestManifest(options.cwd ?? process.cwd()) : undefined;
  const projectType = detectProjectType(manifest, loaded.map((f) => f.source.body));
  const upgrade = (files: LoadedFile[]) => {
    if (options.upgradeV1 === false) return;
    for (const file of files) {
      if (!isV1Source(file.source.body)) continue;
      // v1 CommonJS: the official codemod does not upgrade require(); the file is left as it was (see v1-commonjs.ts)
      if (requiresV1Sdk(file.source.body)) continue;
      const outcome = upgradeV1Source(file.sourceFile, projectType);
      file.notes.push(...(file.upgradeNotes = outcome.notes));
      if (outcome.error) file.notes.push(outcome.error);
      if (outcome.changed) {
        file.upgraded = true;
        file.lineMap = buildLineMap(file.sliced?.body ?? file.source.body, file.sourceFile.getFullText(), lineCount(file.source.shebang));
      }
    }
  };
  upgrade(loaded);

  timings.mark('upgrade');
  // 6. find + reach
  const sites: Site[] = [];
  const handlers: Handler[] = [];
  const others: ReturnType<typeof findRegistrations>['others'] = [];
  const find = (files: LoadedFile[]) => {
    for (const file of files) {
      try {
        sites.push(...findSites(file.sourceFile, ctx));
        const regs = findRegistrations(file.sourceFile, ctx);
        handlers.push(...regs.handlers);
        others.push(...regs.others);
      } catch (error) {
        file.failed = `analysis failed: ${(error as Error).message}`;
      }
      progress(file.path);
    }
  };
  find(loaded);
  // Files the pre-filter left out that import a site's file through any chain of imports (helper
  // files without any MCP name): loaded now so their handlers reach the site, as without pre-filter.
  if (selection.importers && sites.length > 0) {
    const followed = new Set<string>();
    for (;;) {
      const siteFiles = new Set(sites.map((s) => s.sourceFile.getFilePath() as string));
      const next = [...siteImporters([...siteFiles].filter((f) => !followed.has(f)), selection.importers, new Set(loaded.map((f) => f.path)))].filter((p) => deferred.has(p));
      for (const f of siteFiles) followed.add(f);
      if (next.length === 0) break;
      const added = next.sort().flatMap((p) => {
        const d = deferred.get(p)!;
        deferred.delete(p);
        return load(d) ?? [];
      });
      upgrade(added);
      find(added);
    }
  }
  for (const d of deferred.values()) {
    results.set(d.path, { path: d.path, status: 'unchanged', sites: [] });
    progress(d.path);
  }
  // Texts of files that stay out of the project are no longer needed: release them before the
  // rewrite and the verify program, where memory peaks.
  deferred.clear();
  decoded.length = 0;
  // Suppressed sites are neither rewritten nor marked; the comments are read once all files are loaded.
  const suppressionsByFile = new Map<string, SuppressionComment[]>();
  for (const file of loaded) {
    const comments = findSuppressionComments(file.sourceFile);
    if (comments.length > 0) suppressionsByFile.set(file.path, comments);
  }
  const suppressedSites = new Map<Site, SuppressionComment>();
  for (const site of sites) {
    const comments = suppressionsByFile.get(site.sourceFile.getFilePath());
    const suppression = comments && suppressionOf(site.node, comments);
    if (suppression) suppressedSites.set(site, suppression);
  }
  timings.mark('find');
  const fileByPath = new Map(loaded.map((f) => [f.path, f]));
  const originalLine = (node: Node): number => {
    const line = lineOf(node);
    return fileByPath.get(node.getSourceFile().getFilePath())?.lineMap.toOriginal(line) ?? line;
  };
  const reaches = computeReaches({ sites, handlers, others, sourceFiles: loaded.map((f) => f.sourceFile), originalLine });
  const reachBySite = new Map(reaches.map((r) => [r.site, r]));
  const siteInfo = new Map<Site, SiteInfo>();
  for (const site of sites) {
    const file = fileByPath.get(site.sourceFile.getFilePath())!;
    const reach = reachBySite.get(site)!;
    siteInfo.set(site, {
      file,
      handler: reach.handlers[0]?.handler.name,
      snippet: snippetOf(site),
      scope: scopeName(site.node),
      line: file.lineMap.toOriginal(site.line),
      column: originalColumn(file, site),
    });
  }

  timings.mark('reach');
  // 7. rewrite
  const preRewrite = new Map(loaded.map((f) => [f.path, f.sourceFile.getFullText()]));
  const rewrite = env.rewrite ?? (await loadRewriteStage());
  const { decisionBySite, createdFiles: rewriteCreated } = await runRewrite({ project, loaded, fileByPath, reaches, suppressedSites, rewrite, preRewrite, options: { stateKeyEnv: options.stateKeyEnv ?? DEFAULT_STATE_KEY_ENV, typeChecked, originalLine: originalLineAfter(fileByPath, preRewrite) } });
  let createdFiles = rewriteCreated;
  // the rewrite's own changes, before the serving stage adds its
  const postRewrite = new Map(loaded.map((f) => [f.path, f.sourceFile.getFullText()]));

  timings.mark('rewrite');
  // 8. serving (transport hosting → serveStdio / createMcpHandler, per-session state)
  const serving = new Map<string, ServingFinding[]>();
  // capability checks that read the session: with them, switching the hosting would silently turn
  // their features off for 2026-07-28 clients (capability-guards.ts)
  const sessionReads = loaded.filter((f) => !f.failed).flatMap((f) => sessionCapabilityReads(f.sourceFile, options.cwd ?? process.cwd()));
  for (const file of loaded) {
    if (file.failed) continue;
    try {
      const findings = applyServingRewrites(file.sourceFile, ctx, sessionReads);
      if (findings.length > 0) serving.set(file.path, findings);
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

  timings.mark('serving');
  // 9. verify
  // The language service's program (references queries of find and rewrite) describes the texts
  // before the rewrite and is never asked again before verify builds its own: drop it, and its
  // type checker, so that the two do not sit in memory together.
  if (typeChecked) project.getLanguageService().compilerObject.cleanupSemanticCache();
  const verification = verifyChanges(project, loaded, preRewrite, createdFiles, reaches, typeChecked);
  for (const [filePath, reason] of verification.restored) {
    const file = fileByPath.get(filePath)!;
    restoreText(project, file, preRewrite.get(filePath)!);
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
        decisionBySite.set(site, decision.status === 'migrated' ? { site, status: 'flagged', reason: `rewrite not verified: ${reason}`, advice: 'migrate this handler by hand (see the MRTR notes); the automatic rewrite did not pass verification', ...(callers ? { callers } : {}) } : { ...decision, ...(callers ? { callers } : {}) });
      }
    }
  }
  createdFiles = createdFiles.filter((f) => !verification.droppedCreated.has(f));
  const orphaned = unservedRewriteSupport({ loaded, preRewrite, postRewrite, createdFiles, decisions: decisionBySite.values() });
  for (const file of orphaned.restore) restoreText(project, file, preRewrite.get(file.path)!);
  for (const created of orphaned.drop) {
    const sf = project.getSourceFile(created);
    if (sf) project.removeSourceFile(sf);
  }
  createdFiles = createdFiles.filter((f) => !orphaned.drop.has(f));
  revertUnneededUpgrades({ loaded, preRewrite, serving, decisions: decisionBySite.values(), partOfLargerRun: !env.manifests });
  const upgradeErrors = typeChecked ? upgradeTypeErrors(loaded.filter((f) => f.upgraded && !f.failed), () => createProject(env.tsconfig, new ProjectFiles().host, selection.mcp)) : new Map<string, TypeError[]>();

  timings.mark('verify');
  // 10. markers
  addRunMarkers({ loaded, sites, siteInfo, decisionBySite, serving, upgradeErrors, ctx, preRewrite });

  timings.mark('markers');
  // 11. report
  const result = runResult({ project, loaded, fileByPath, sites, siteInfo, decisionBySite, serving, upgradeErrors, suppressionsByFile, preRewrite, createdFiles, results, manifests: env.manifests });
  timings.mark('report');
  timings.done(loaded.length, total);
  return result;
}


function createProject(tsconfig: string | undefined, fileSystem: FileSystemHost, mcpFiles: ReadonlySet<string>): Project {
  if (tsconfig) {
    // Types come from dependencies and from every project file the MCP files (handlers, sites)
    // import, transitively, by TypeScript's own resolution: a value returned by `lookup()` from
    // `./store.js` must keep its type, or a handler carrying it across a round is flagged as
    // unprovable. Files loaded only as importers of an MCP file (for the call graph) resolve to
    // the project's files alone: following their imports too pulled most of a repository into the
    // program (10,000-file bench tree: 3.2 GB, find stage 4 s -> 30 s).
    const fullResolution = new Set([...mcpFiles].map(standardPath));
    let project: Project | undefined = undefined;
    project = new Project({
      tsConfigFilePath: tsconfig,
      fileSystem,
      skipAddingFilesFromTsConfig: true,
      skipFileDependencyResolution: true,
      compilerOptions: { allowJs: true, noEmit: true, skipLibCheck: true },
      resolutionHost: (host, getOptions) => ({
        resolveModuleNames(moduleNames: string[], containingFile: string) {
          const options = getOptions();
          const full = fullResolution.has(standardPath(containingFile));
          return moduleNames.map((name) => {
            // the project's own packages first; the v2 packages it has not installed yet from the
            // codemod's, and their dependencies as the project's install will resolve them
            const resolved =
              resolveLentDependency(name, containingFile, options, host, path.dirname(tsconfig)) ??
              ts.resolveModuleName(name, containingFile, options, host).resolvedModule ??
              resolveOwnPackage(name, options, host);
            if (!resolved) return undefined;
            const file = resolved.resolvedFileName;
            if (resolved.isExternalLibraryImport || file.endsWith('.d.ts') || /\.d\.[cm]ts$/.test(file) || file.includes('/node_modules/')) return resolved;
            if (project?.getSourceFile(file)) return resolved;
            if (!full) return undefined;
            // a project file reached from an MCP file: its own imports resolve in full too
            fullResolution.add(standardPath(file));
            return resolved;
          });
        },
      }),
    });
    return project;
  }
  // Syntactic mode: no lib, no module resolution into node_modules; symbols across the loaded
  // project files still resolve.
  return new Project({
    fileSystem,
    skipAddingFilesFromTsConfig: true,
    compilerOptions: { allowJs: true, noEmit: true, noLib: true, noResolve: true, types: [], target: ts.ScriptTarget.ES2022, jsx: ts.JsxEmit.Preserve },
  });
}


function standardPath(file: string): string {
  return path.resolve(file).replace(/\\/g, '/');
}


function lineCount(text: string): number {
  let n = 0;
  for (const ch of text) if (ch === '\n') n++;
  return n;
}

function snippetOf(site: Site): string {
  const text = site.node.getText().replace(/\s+/g, ' ');
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Column of the site in the original text: same offset from the line's indentation. */
function originalColumn(file: LoadedFile, site: Site): number {
  if (!file.upgraded) return site.column;
  const originalLines = (file.sliced?.body ?? file.source.body).split(/\r?\n/);
  const currentLines = file.sourceFile.getFullText().split(/\r?\n/);
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

function findTsconfig(cwd: string, files: string[]): string | undefined {
  const start = files.length > 0 ? path.dirname(files[0]!) : cwd;
  let dir = start;
  for (;;) {
    const candidate = path.join(dir, 'tsconfig.json');
    if (fs.existsSync(candidate)) return candidate;
    if (fs.existsSync(path.join(dir, '.git')) || fs.existsSync(path.join(dir, 'package.json'))) {
      // stop at the package / repository root (checked after the tsconfig of this directory)
      return undefined;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function readNearestManifest(start: string): Record<string, unknown> | undefined {
  let dir = path.resolve(start);
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      try {
        return JSON.parse(fs.readFileSync(candidate, 'utf8')) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * `MCP_MRTR_TIMINGS=1` prints how long each stage took (stderr). `MCP_MRTR_TIMINGS=heap` with
 * `node --expose-gc` also collects garbage after each stage and prints the live heap (slower).
 */
function stageTimer() {
  const enabled = process.env.MCP_MRTR_TIMINGS === '1' || process.env.MCP_MRTR_TIMINGS === 'heap';
  const gc = process.env.MCP_MRTR_TIMINGS === 'heap' ? (globalThis as { gc?: () => void }).gc : undefined;
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let last = performance.now();
  let lastCpu = cpuMs();
  const marks: string[] = [];
  return {
    mark(stage: string) {
      if (!enabled) return;
      const now = performance.now();
      const cpu = cpuMs();
      let heap = '';
      if (gc) {
        gc();
        const memory = process.memoryUsage();
        heap = `, live heap ${Math.round(memory.heapUsed / 2 ** 20)} MiB + buffers ${Math.round(memory.arrayBuffers / 2 ** 20)} MiB`;
      }
      marks.push(`${stage} ${Math.round(now - last)}ms (cpu ${Math.round(cpu - lastCpu)}ms${heap})`);
      last = performance.now();
      lastCpu = cpuMs();
    },
    done(loaded: number, total: number) {
      if (enabled) process.stderr.write(`mcp-mrtr timings (${loaded}/${total} files loaded): ${marks.join(', ')}\n`);
    },
  };
}
