/**
 * Loading a run: inputs decoded (binary, non-UTF-8 or unreadable files fail on their own; BOM, CRLF,
 * shebang kept aside), the pre-filter (only candidate files, MCP files and their importers are
 * parsed now), ONE ts-morph project (the tsconfig gives types, else syntactic mode), and the
 * selected files parsed into it. Returns the run's initial state.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Project, ts, type FileSystemHost } from 'ts-morph';
import { TARGET_SERVER_PACKAGE } from '@mcp-mrtr/surface';
import { automaticTypes } from '../engine/automatic-types.js';
import { DependencyResolutions } from '../engine/dependency-resolutions.js';
import { passResolutionCache } from '../engine/resolution-cache.js';
import { LibraryFiles } from '../engine/library-files.js';
import { identityLineMap } from '../engine/line-map.js';
import { lentDependencyOf, resolveLentDependency, resolveOwnPackage, serverPackageAvailable } from '../engine/own-packages.js';
import { selectFiles } from '../engine/prefilter.js';
import { ProjectFiles } from '../engine/project-files.js';
import { scriptKindOf } from '../engine/script-kind.js';
import { sliceLargeSource } from '../engine/slice.js';
import { decodeSource, splitSource } from '../engine/source-text.js';
import { WorkspacePackages } from '../engine/workspace-packages.js';
import { lentZodResolution, type ZodFloor } from '../engine/zod-floor.js';
import type { FileResult, MigrateOptions } from '../types.js';
import type { DecodedInput, LoadedFile, RunEnv, RunState, SourceInput } from './state.js';
import { firstSyntaxError } from './verify.js';

export function loadRun(inputs: SourceInput[], options: MigrateOptions, env: RunEnv, mark: (stage: string) => void): RunState {
  const total = inputs.length;
  let done = 0;
  const results = new Map<string, FileResult>();
  const decoded = decodeInputs(inputs, results, env);
  mark('decode');
  // a monorepo's workspace packages are the project's own code, imported by package name
  const workspaces = WorkspacePackages.find(env.tsconfig ? path.dirname(env.tsconfig) : (options.cwd ?? (inputs[0] ? path.dirname(inputs[0].path) : process.cwd())));
  const selection = selectFiles(
    decoded.map((d) => ({ path: d.path, text: d.source.body })),
    { prefilter: options.prefilter !== false, bare: workspaces.packages.length > 0 ? (s) => workspaces.sourceOf(s) : undefined },
  );
  mark('prefilter');
  // Types only help when the v2 server package resolves: the code is v2 after the upgrade. A v1
  // project that has not installed it yet borrows the codemod's own copy (engine/own-packages.ts).
  const typeChecked = env.tsconfig !== undefined && fs.existsSync(env.tsconfig) && serverPackageAvailable(TARGET_SERVER_PACKAGE, path.dirname(env.tsconfig));
  const projectFiles = new ProjectFiles();
  const libraryFiles = env.libraryFiles ?? new LibraryFiles();
  const dependencyResolutions = new DependencyResolutions(libraryFiles.resolutions);
  const state: RunState = {
    options,
    env,
    progress: (file) => options.onProgress?.(++done, total, file),
    results,
    typeChecked,
    ctx: { typeChecked },
    // the project's own zod until the upgraded registrations show they need v2's (run/zod-raise.ts)
    project: createProject(typeChecked ? env.tsconfig : undefined, projectFiles.host, selection.mcp, libraryFiles, undefined, dependencyResolutions, workspaces),
    projectFiles,
    libraryFiles,
    dependencyResolutions,
    selection,
    loaded: [],
    fileByPath: new Map(),
    deferred: new Map(),
    projectType: 'unknown',
    sites: [],
    handlers: [],
    others: [],
    suppressionsByFile: new Map(),
    suppressedSites: new Map(),
    reaches: [],
    siteInfo: new Map(),
    preRewrite: new Map(),
    postRewrite: new Map(),
    decisionBySite: new Map(),
    createdFiles: [],
    serving: new Map(),
    upgradeErrors: new Map(),
    lateEdits: new Set(),
    beforeTestMocks: new Map(),
    heldOnV1: new Map(),
    sdkSharing: [],
    jestManifestSetups: new Map(),
  };
  for (const d of decoded) {
    // kept aside: loaded later if it turns out to import (transitively) a file that holds a site
    if (!selection.load.has(d.path)) state.deferred.set(d.path, d);
    else loadFile(state, d);
  }
  mark('load+parse');
  return state;
}

function decodeInputs(inputs: SourceInput[], results: Map<string, FileResult>, env: RunEnv): DecodedInput[] {
  const decoded: DecodedInput[] = [];
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
  return decoded;
}

/** Parses one decoded file into the run's project (or records its syntax error). */
export function loadFile(state: RunState, d: DecodedInput): LoadedFile | undefined {
  const sliced = sliceLargeSource(d.path, d.source.body);
  const sourceFile = state.projectFiles.addSourceFile(state.project, d.path, sliced?.body ?? d.source.body, scriptKindOf(d.path));
  const syntaxError = firstSyntaxError(sourceFile);
  if (syntaxError) {
    state.project.removeSourceFile(sourceFile);
    state.results.set(d.path, { path: d.path, status: 'failed', sites: [], original: d.original, output: d.original, error: `syntax error: ${syntaxError}` });
    state.progress(d.path);
    return undefined;
  }
  const file: LoadedFile = { path: d.path, original: d.original, source: d.source, sliced, sourceFile, upgraded: false, lineMap: identityLineMap(lineCount(d.source.shebang)), notes: [] };
  state.loaded.push(file);
  return file;
}

/**
 * The run's ts-morph project: typed through `tsconfig` (resolution as the comments below say), else
 * syntactic; its declaration files come from (and go to) `libraryFiles`. With `lentZod` (the run
 * raises the project's zod, run/zod-raise.ts) the project's imports of zod resolve to the v2
 * server's zod; without it to the project's own. `dependencyResolutions`: the run's, shared by its
 * projects (their compiler options are the tsconfig's, the same for each).
 */
export function createProject(
  tsconfig: string | undefined,
  fileSystem: FileSystemHost,
  mcpFiles: ReadonlySet<string>,
  libraryFiles: LibraryFiles,
  lentZod: ZodFloor | undefined,
  dependencyResolutions: DependencyResolutions = new DependencyResolutions(),
  workspaces: WorkspacePackages = tsconfig ? WorkspacePackages.find(path.dirname(tsconfig)) : new WorkspacePackages(undefined, []),
): Project {
  if (tsconfig) {
    // Types come from dependencies and from every project file the MCP files (handlers, sites)
    // import, transitively, by TypeScript's own resolution: a value returned by `lookup()` from
    // `./store.js` must keep its type, or a handler carrying it across a round is flagged as
    // unprovable. Files loaded only as importers of an MCP file (for the call graph) resolve to
    // the project's files alone: following their imports too pulled most of a repository into the
    // program (10,000-file bench tree: 3.2 GB, find stage 4 s -> 30 s).
    const fullResolution = new Set([...mcpFiles].map(standardPath));
    const projectDirectory = path.dirname(tsconfig);
    let project: Project | undefined = undefined;
    passResolutionCache();
    project = new Project({
      tsConfigFilePath: tsconfig,
      fileSystem,
      skipAddingFilesFromTsConfig: true,
      skipFileDependencyResolution: true,
      compilerOptions: { allowJs: true, noEmit: true, skipLibCheck: true },
      resolutionHost: (host, getOptions) => ({
        getModuleResolutionCache: () => dependencyResolutions.resolutionCache(projectDirectory, getOptions()),
        resolveModuleNames(moduleNames: string[], containingFile: string) {
          const options = getOptions();
          const full = fullResolution.has(standardPath(containingFile));
          const inDependency = containingFile.includes('/node_modules/');
          return moduleNames.map((name) => {
            // A workspace package of the monorepo is the project's own source (not its built
            // declarations): every loaded file sees its entry, whose own imports then resolve to
            // loaded files only (unless an MCP file imported it), so no package is pulled in whole.
            const workspace = inDependency ? undefined : workspaces.resolve(name);
            if (workspace) {
              if (full) fullResolution.add(standardPath(workspace.resolvedFileName));
              return workspace;
            }
            // the project's own packages first; the v2 packages it has not installed yet from the
            // codemod's, and their dependencies as the project's install will resolve them
            // a project's zod the run raises: its own schemas are built with the server's zod, as
            // after package.json's bump (zod-floor.ts)
            const resolve = () =>
              (inDependency ? undefined : lentZodResolution(name, lentZod, options, host, projectDirectory)) ??
              resolveLentDependency(name, containingFile, options, host, projectDirectory) ??
              ts.resolveModuleName(name, containingFile, options, host).resolvedModule ??
              resolveOwnPackage(name, options, host);
            const resolved = inDependency ? dependencyResolutions.get(containingFile, name, options, lentDependencyOf(name, containingFile), resolve) : resolve();
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
    const types = automaticTypes(project.getCompilerOptions(), projectDirectory);
    if (types) project.compilerOptions.set({ types });
    libraryFiles.share(project);
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

export function lineCount(text: string): number {
  let n = 0;
  for (const ch of text) if (ch === '\n') n++;
  return n;
}
