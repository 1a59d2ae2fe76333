/**
 * TypeScript test files beside a tsconfig that it does not include: a project's tests often sit
 * outside its `include` (`"include": ["src"]`, tests in `tests/` run by vitest or jest, which
 * transpile them on their own), and they are the files that call a migrated function directly.
 * Found with discovery's own rules (`.gitignore`, build output and `node_modules` left out,
 * symlinks not followed, unreadable folders skipped).
 */
import path from 'node:path';
import { ts } from 'ts-morph';
import { discoverFiles, type DiscoverOptions } from './discover.js';

const TYPESCRIPT_TEST_FILE = /\.(test|spec)\.[cm]?tsx?$/;

export interface BesideOptions extends Pick<DiscoverOptions, 'cwd' | 'ignore'> {
  /**
   * The files (or only the test files) of a walk already made of the tsconfig's folder alone, with
   * the same `cwd` and `ignore` (the run's own discovery when it was given that folder, or the
   * tests an earlier call found): the same walk, not made again.
   */
  walked?: readonly string[];
}

/**
 * Test files under the tsconfig's folder, whether the tsconfig includes them or not; `options.ignore`
 * globs are relative to `options.cwd`, as the run's own.
 */
export function testFilesBeside(tsconfig: string, options: BesideOptions = {}): string[] {
  const dir = path.dirname(path.resolve(tsconfig));
  const files = options.walked ?? discoverFiles([dir], { cwd: options.cwd ?? dir, ignore: options.ignore }).files;
  return files.filter((f) => TYPESCRIPT_TEST_FILE.test(path.basename(f)));
}

/**
 * For a run on `paths` whose discovery found `discovered` (with `options`): the test files beside
 * the tsconfig, and those of them that neither it nor the run holds. Run on the tsconfig's own
 * folder (`mcp-mrtr migrate .`), that discovery is the walk finding the tests makes, and a second
 * walk of the same tree would cost as much again.
 */
export function testFilesOfRun(tsconfig: string, paths: readonly string[], discovered: readonly string[], options: Required<Pick<DiscoverOptions, 'cwd'>> & Pick<DiscoverOptions, 'ignore'>): { beside: string[]; outside: string[] } {
  const sameWalk = paths.length === 1 && path.resolve(options.cwd, paths[0]!) === path.dirname(path.resolve(tsconfig));
  const beside = testFilesBeside(tsconfig, { ...options, ...(sameWalk ? { walked: discovered } : {}) });
  return { beside, outside: testFilesOutside(tsconfig, discovered, { walked: beside }) };
}

/** The test files beside the tsconfig that neither it nor `known` (the run's own files) holds. */
export function testFilesOutside(tsconfig: string, known: Iterable<string>, options: BesideOptions = {}): string[] {
  const held = new Set([...projectFileNames(tsconfig), ...known]);
  return testFilesBeside(tsconfig, options).filter((f) => !held.has(f));
}

/**
 * The test files beside the tsconfig that the run does not hold although the tsconfig includes
 * them (no `include`, or `"include": ["src", "tests"]`, run on `src`): the rewrite reads them only
 * for their calls of a tool it would give a context parameter (rewrite/outside-tests.ts), since a
 * run never writes a file of its tsconfig outside the paths it was given.
 */
export function testFilesHeldOutsideRun(tsconfig: string, known: Iterable<string>, options: BesideOptions = {}): string[] {
  const held = new Set(projectFileNames(tsconfig));
  const run = new Set(known);
  return testFilesBeside(tsconfig, options).filter((f) => held.has(f) && !run.has(f));
}

/** The files of the tsconfig (none for a solution-style one with only references). */
export function projectFileNames(tsconfig: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  return (parsed?.fileNames ?? []).map((f) => path.resolve(f));
}
