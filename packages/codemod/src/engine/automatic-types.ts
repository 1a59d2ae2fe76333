/**
 * The `@types` packages a project's own tsc loads without being told. Before TypeScript 6, a
 * tsconfig without `types` loaded every package under the `node_modules/@types` folders visible
 * from it (or under its `typeRoots`); TypeScript 6, the one ts-morph bundles, loads none unless
 * `types` lists `"*"`. So a file using `process` or Node's `AbortController` that the project's own
 * tsc 5 compiles got TS2591/TS2304 in the engine's programs: the importers check could take them for
 * errors of a test-mock rewrite and undo it (test/automatic-types.test.ts).
 */
import type { ts } from 'ts-morph';
import { installedVersion } from './own-packages.js';

/** The `types` the engine's programs need to see what the project's tsc sees, or undefined to keep the tsconfig's. */
export function automaticTypes(options: ts.CompilerOptions, projectDirectory: string): string[] | undefined {
  if (options.types !== undefined) return undefined;
  const major = projectTypeScriptMajor(projectDirectory);
  // no TypeScript installed: the tsc the project was written for is not known; every release
  // before 6 (all the v1 SDK era) loaded them
  if (major !== undefined && major >= 6) return undefined;
  return ['*'];
}

/** The major version of the TypeScript the project's directory resolves, if any. */
function projectTypeScriptMajor(projectDirectory: string): number | undefined {
  const major = Number.parseInt(installedVersion('typescript', projectDirectory) ?? '', 10);
  return Number.isNaN(major) ? undefined : major;
}
