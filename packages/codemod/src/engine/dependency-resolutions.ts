import { ts } from 'ts-morph';
import { createResolutionCache } from './resolution-cache.js';

/**
 * Resolutions of imports made inside dependencies handed from one run to the next, by compiler
 * settings, importing file and specifier (`LibraryFiles.resolutions`: a caller running many
 * migrations in one process, the fixture suite one run per case, shares them as it shares the parsed
 * declaration files). Only answers that hold for any project are kept: a module found under a
 * `node_modules` folder, from a file whose resolution does not ask the project (the dependencies of a
 * package the codemod lends, engine/own-packages.ts, resolve to the project's own copy when it fits).
 * A caller sharing them does not change installed packages between its runs; a run's temporary
 * project with packages of its own has its own paths, so its own keys.
 */
export type SharedResolutions = Map<string, ts.ResolvedModuleFull>;

/**
 * A run's resolutions of imports made inside dependencies (files under node_modules), by importing
 * file and specifier. Every program a project builds after an edit resolves each declaration file's
 * imports again, and a run builds several projects: a fixture case's run made about 4,300 lookups of
 * under 350 distinct ones, each reading and parsing package.json files afresh. Their answers do not
 * change during a run: its projects' compiler options are the tsconfig's, set before the first
 * program, and a run writes project files only, never under node_modules.
 */
export class DependencyResolutions {
  private readonly resolved = new Map<string, ts.ResolvedModuleFull | undefined>();
  /** The run's resolution settings (the same for each of its projects, as said above). */
  private settingsKey: string | undefined;

  private cache: ts.ModuleResolutionCache | undefined;

  constructor(private readonly shared?: SharedResolutions) {}

  /** TypeScript's own cache for the run's programs (package.json files read once a run: engine/resolution-cache.ts). */
  resolutionCache(projectDirectory: string, options: ts.CompilerOptions): ts.ModuleResolutionCache {
    this.cache ??= createResolutionCache(projectDirectory, options);
    return this.cache;
  }

  /** `asksProject`: the answer may depend on the project (not handed to other runs). */
  get(containingFile: string, specifier: string, options: ts.CompilerOptions, asksProject: boolean, resolve: () => ts.ResolvedModuleFull | undefined): ts.ResolvedModuleFull | undefined {
    const key = `${containingFile}\0${specifier}`;
    if (this.resolved.has(key)) return this.resolved.get(key);
    const sharedKey = this.shared && !asksProject ? `${(this.settingsKey ??= resolutionSettingsKey(options))}\0${key}` : undefined;
    let resolved = sharedKey === undefined ? undefined : this.shared!.get(sharedKey);
    if (!resolved) {
      resolved = resolve();
      if (sharedKey !== undefined && resolved && resolved.resolvedFileName.replace(/\\/g, '/').includes('/node_modules/')) this.shared!.set(sharedKey, resolved);
    }
    this.resolved.set(key, resolved);
    return resolved;
  }
}

/** The compiler settings module resolution reads (TypeScript's own list, and those it leaves out that still change an answer). */
const RESOLUTION_SETTINGS = ['allowJs', 'allowArbitraryExtensions', 'allowImportingTsExtensions', 'preserveSymlinks', 'noDtsResolution', 'traceResolution'];
function resolutionSettingsKey(options: ts.CompilerOptions): string {
  const declared = (ts as unknown as { moduleResolutionOptionDeclarations?: Array<{ name: string }> }).moduleResolutionOptionDeclarations;
  // without TypeScript's list (another release): every setting but the config file's own path
  const names = declared ? [...declared.map((d) => d.name), ...RESOLUTION_SETTINGS] : Object.keys(options).filter((name) => name !== 'configFilePath');
  return JSON.stringify(names.sort().map((name) => [name, options[name] ?? null]));
}
