/**
 * The v2 packages the migration writes imports for, resolved from the codemod's own installation
 * when the migrated project has not installed them yet.
 *
 * A v1 project's first run is the usual case: it has `@modelcontextprotocol/sdk`, and v2 arrives
 * only with the `npm install` after the run. Without a fallback, the v2 imports that the upgrade and
 * the rewrite write resolve to nothing: analysis sees `any` where a zod string or a plain interface
 * is, and verify cannot see type errors in the rewritten code. The project's own copy always wins
 * (resolution asks the project first); only the v2 packages the codemod depends on fall back, so the
 * v1 SDK and every other dependency still come from the project alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { ts } from 'ts-morph';
import { V2_PACKAGES } from '@mcp-mrtr/surface';
import pkg from '../../package.json' with { type: 'json' };
import { readManifest } from './package-dir.js';

/** The v2 packages among the codemod's own dependencies (the ones it can lend a project). */
export const OWN_V2_PACKAGES: readonly string[] = V2_PACKAGES.filter((name) => name in pkg.dependencies);

/**
 * Resolution of the fallback starts in this module's directory (`src/engine` or the bundle's
 * `dist`): Node's lookup then walks up to the codemod's own node_modules, wherever it is installed
 * (a project's devDependency, the npx cache, a global install, this repository). The jscodeshift
 * entry is a CommonJS bundle, where `import.meta.url` is empty and `__dirname` is the bundle's.
 */
const OWN_DIRECTORY = typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));
const OWN_CONTAINING_FILE = path.join(OWN_DIRECTORY, '__mcp_mrtr_own_packages__.ts');

/** Whether `specifier` names one of the packages the codemod carries (`@modelcontextprotocol/server/stdio` too). */
export function isOwnPackageSpecifier(specifier: string): boolean {
  return OWN_V2_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/**
 * `specifier` resolved from the codemod's own dependencies, with the project's compiler options
 * (so it resolves exactly as it will once the project installs the package), or undefined when it
 * is not a carried package or does not resolve there either.
 */
export function resolveOwnPackage(specifier: string, options: ts.CompilerOptions, host: ts.ModuleResolutionHost): ts.ResolvedModuleFull | undefined {
  if (!isOwnPackageSpecifier(specifier)) return undefined;
  return ts.resolveModuleName(specifier, OWN_CONTAINING_FILE, options, host).resolvedModule;
}

/**
 * A dependency of a lent package (zod, imported by `@modelcontextprotocol/server`'s declarations),
 * resolved as the project's `npm install` of that package will resolve it: to the project's own
 * copy when its version satisfies the range the lent package declares (npm dedupes onto it), else
 * to the codemod's (npm would nest a copy). Without this, the lent server's zod is the codemod's
 * while the project's schemas are built with the project's zod: two distinct zod types, so every
 * raw shape passed to `registerTool`/`registerPrompt` misses the overloads, errors the installed
 * project never has. Undefined when `containingFile` is not inside a lent package, or when the
 * codemod's own copy is the one npm would use.
 */
export function resolveLentDependency(
  specifier: string,
  containingFile: string,
  options: ts.CompilerOptions,
  host: ts.ModuleResolutionHost,
  projectDirectory: string,
): ts.ResolvedModuleFull | undefined {
  const name = packageNameOf(specifier);
  if (!name || isOwnPackageSpecifier(specifier)) return undefined;
  const lender = lentPackageContaining(containingFile);
  const range = lender?.ranges[name];
  if (range === undefined) return undefined;
  const projects = ts.resolveModuleName(specifier, path.join(projectDirectory, '__mcp_mrtr_project__.ts'), options, host).resolvedModule;
  const version = projects?.packageId?.version;
  return projects && version !== undefined && semver.satisfies(version, range) ? projects : undefined;
}

/** Whether resolveLentDependency can answer `specifier` from `containingFile` (a dependency of a lent package), from the project's own installation. */
export function lentDependencyOf(specifier: string, containingFile: string): boolean {
  const name = packageNameOf(specifier);
  return name !== undefined && !isOwnPackageSpecifier(specifier) && lentPackageContaining(containingFile)?.ranges[name] !== undefined;
}

interface LentPackage {
  /** The package directory as found and as its real path, each with a trailing separator. */
  roots: string[];
  /** Declared dependency and peer-dependency ranges, by package name. */
  ranges: Record<string, string>;
}

let lentPackages: LentPackage[] | undefined;

/** The lent package holding `file` (TypeScript names resolved files by their real paths). */
function lentPackageContaining(file: string): LentPackage | undefined {
  lentPackages ??= OWN_V2_PACKAGES.flatMap((name) => {
    const dir = packageDirectory(name, OWN_DIRECTORY);
    if (!dir) return [];
    const manifest = readManifest(dir);
    return manifest ? [{ roots: [...new Set([dir, fs.realpathSync(dir)].map((d) => `${standard(d)}/`))], ranges: { ...manifest.peerDependencies, ...manifest.dependencies } }] : [];
  });
  const spelled = standard(file);
  return lentPackages.find((p) => p.roots.some((root) => spelled.startsWith(root)));
}

/** `zod` of `zod/v4`, `@scope/pkg` of `@scope/pkg/sub`; undefined for relative and absolute specifiers. */
function packageNameOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || /^[A-Za-z]:/.test(specifier) || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? (parts.length >= 2 ? `${parts[0]}/${parts[1]}` : undefined) : parts[0];
}

function standard(file: string): string {
  return path.resolve(file).replace(/\\/g, '/');
}

/** Whether the v2 server package resolves for a project at `projectDirectory`: its own, else the codemod's. */
export function serverPackageAvailable(serverPackage: string, projectDirectory: string): boolean {
  return packageResolvable(serverPackage, projectDirectory) || (OWN_V2_PACKAGES.includes(serverPackage) && packageResolvable(serverPackage, OWN_DIRECTORY));
}

/**
 * The range the v2 server package the project will run on declares for `dependency` (its own
 * installed copy, else the codemod's), and the version of `dependency` the project has installed.
 */
export function serverDependencyVersions(serverPackage: string, dependency: string, projectDirectory: string): { range?: string; installed?: string } {
  const server = packageDirectory(serverPackage, projectDirectory) ?? (OWN_V2_PACKAGES.includes(serverPackage) ? packageDirectory(serverPackage, OWN_DIRECTORY) : undefined);
  const declared = readManifest(server);
  return { range: declared?.dependencies?.[dependency] ?? declared?.peerDependencies?.[dependency], installed: installedVersion(dependency, projectDirectory) };
}

/** The version of package `name` a project at `projectDirectory` has installed (Node's lookup), if any. */
export function installedVersion(name: string, projectDirectory: string): string | undefined {
  return readManifest(packageDirectory(name, projectDirectory))?.version;
}

/**
 * `specifier` resolved as the v2 server package the project will run on resolves it (its own
 * installed copy, else the codemod's): the copy of a shared dependency (zod) the project gets once
 * its package.json takes the server's range. Undefined when the server or the dependency is not found.
 */
export function resolveAsServerDependency(specifier: string, serverPackage: string, options: ts.CompilerOptions, host: ts.ModuleResolutionHost, projectDirectory: string): ts.ResolvedModuleFull | undefined {
  const server = packageDirectory(serverPackage, projectDirectory) ?? (OWN_V2_PACKAGES.includes(serverPackage) ? packageDirectory(serverPackage, OWN_DIRECTORY) : undefined);
  if (!server) return undefined;
  // from the package's real path, as Node resolves a symlinked package's own imports
  return ts.resolveModuleName(specifier, path.join(fs.realpathSync(server), '__mcp_mrtr_server__.ts'), options, host).resolvedModule;
}

/** Whether `node_modules/<name>` exists in `start` or one of its ancestors (Node's lookup). */
function packageResolvable(name: string, start: string): boolean {
  return packageDirectory(name, start) !== undefined;
}

/** The directory of `node_modules/<name>` found from `start` up (Node's lookup). */
function packageDirectory(name: string, start: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
