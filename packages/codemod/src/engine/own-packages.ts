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
import { ts } from 'ts-morph';
import { V2_PACKAGES } from '@mcp-mrtr/surface';
import pkg from '../../package.json' with { type: 'json' };

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

/** Whether the v2 server package resolves for a project at `projectDirectory`: its own, else the codemod's. */
export function serverPackageAvailable(serverPackage: string, projectDirectory: string): boolean {
  return packageResolvable(serverPackage, projectDirectory) || (OWN_V2_PACKAGES.includes(serverPackage) && packageResolvable(serverPackage, OWN_DIRECTORY));
}

/** Whether `node_modules/<name>` exists in `start` or one of its ancestors (Node's lookup). */
function packageResolvable(name: string, start: string): boolean {
  let dir = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(dir, 'node_modules', name, 'package.json'))) return true;
    const parent = path.dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
}
