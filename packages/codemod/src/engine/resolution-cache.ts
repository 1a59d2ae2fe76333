/**
 * A run's module resolution cache, handed to TypeScript through the compiler hosts of its ts-morph
 * projects. A project with its own `resolveModuleNames` (every typed project of the engine, run/load.ts)
 * gives TypeScript no cache, and TypeScript then reads and parses package.json files afresh for
 * every program: the module format of each declaration file (the nearest package.json's `type`) and
 * every `@types` package's resolution. Every edit makes a new program, so a fixture case's run read
 * the same few hundred package.json files once per program. With the cache they are read once per
 * run: a run never writes a package.json while it runs (package.json changes are a result, written
 * after it).
 *
 * ts-morph (pinned) builds its hosts in `@ts-morph/common`'s `createHosts`, which copies only the
 * resolution methods it knows from a project's `resolutionHost`; `createHosts` is wrapped here to
 * also pass `getModuleResolutionCache`, and only for a `resolutionHost` that has one (projects the
 * engine did not create are left as they are). Without that shape (another ts-morph) the wrapper is
 * not installed and TypeScript reads as before: slower, never wrong.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ts } from 'ts-morph';

interface Hosts {
  languageServiceHost: { getModuleResolutionCache?: () => ts.ModuleResolutionCache };
  compilerHost: { getModuleResolutionCache?: () => ts.ModuleResolutionCache };
}

interface HostsModule {
  createHosts(options: { resolutionHost?: { getModuleResolutionCache?: () => ts.ModuleResolutionCache } }): Hosts;
}

let installed: boolean | undefined;

/** Makes ts-morph pass a `resolutionHost`'s `getModuleResolutionCache` on to TypeScript. Returns whether it could. */
export function passResolutionCache(): boolean {
  installed ??= install();
  return installed;
}

function install(): boolean {
  try {
    const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
    const fromHere = createRequire(here);
    const fromTsMorph = createRequire(fromHere.resolve('ts-morph'));
    const common = fromTsMorph('@ts-morph/common') as Partial<HostsModule>;
    const createHosts = common.createHosts;
    if (typeof createHosts !== 'function') return false;
    common.createHosts = (options) => {
      const hosts = createHosts(options);
      const cache = options.resolutionHost?.getModuleResolutionCache;
      if (cache) {
        hosts.languageServiceHost.getModuleResolutionCache = cache;
        hosts.compilerHost.getModuleResolutionCache = cache;
      }
      return hosts;
    };
    return true;
  } catch {
    return false;
  }
}

/** A cache for a run's projects (their compiler options are the tsconfig's, the same for each). */
export function createResolutionCache(projectDirectory: string, options: ts.CompilerOptions): ts.ModuleResolutionCache {
  return ts.createModuleResolutionCache(projectDirectory, (file) => file, options);
}

