/**
 * The package a file belongs to: the folder of the nearest package.json at or above it, found by
 * one walk whose bound the caller names. A package.json beyond the bound belongs to another
 * project (a temp project made inside another repository, a monorepo root above the folder the
 * user ran in) and is not the user's to change.
 */
import fs from 'node:fs';
import path from 'node:path';

/** What a walk reads: the real disk by default; a ts-morph project's file system (in-memory in unit tests) fits. */
export interface WalkFiles {
  fileExistsSync(file: string): boolean;
  directoryExistsSync(dir: string): boolean;
  readFileSync(file: string, encoding?: string): string;
}

export const DISK: WalkFiles = { fileExistsSync: fs.existsSync, directoryExistsSync: fs.existsSync, readFileSync: (file) => fs.readFileSync(file, 'utf8') };

/**
 * The nearest folder at or above `dir` that `matches` accepts, or undefined when the walk passes
 * the folder `isTop` accepts (which is itself still tried) or the file system root first.
 */
export function nearestDirWhere(dir: string, matches: (dir: string) => boolean, isTop: (dir: string) => boolean): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (matches(d)) return d;
    if (isTop(d) || path.dirname(d) === d) return undefined;
  }
}

/**
 * The folder of the nearest package.json at or above `dir`, or undefined when the walk passes the
 * folder `isTop` accepts (whose own package.json still counts) or the file system root first.
 * `cache`, kept for one `isTop`, remembers the answer of every folder walked.
 */
export function nearestPackageDir(dir: string, isTop: (dir: string) => boolean, cache?: Map<string, string | undefined>, files: WalkFiles = DISK): string | undefined {
  const walked: string[] = [];
  let cached = false;
  const found = nearestDirWhere(
    dir,
    (d) => {
      if (cache?.has(d)) return (cached = true);
      walked.push(d);
      return files.fileExistsSync(path.join(d, 'package.json'));
    },
    isTop,
  );
  const answer = cached ? cache!.get(found!) : found;
  for (const d of walked) cache?.set(d, answer);
  return answer;
}

/** The bound of a repository: its root, the folder holding `.git` (a folder, or a file in a linked work tree). */
export function isRepositoryRoot(dir: string, files: WalkFiles = DISK): boolean {
  const git = path.join(dir, '.git');
  return files.directoryExistsSync(git) || files.fileExistsSync(git);
}

/** No bound: the walk goes on to the file system root. */
export function unbounded(): boolean {
  return false;
}

/** The package of `dir` within the run's `root`: never above it, and none for a folder outside it. */
export function packageDirWithin(dir: string, root: string): string | undefined {
  const relative = path.relative(root, dir);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return nearestPackageDir(dir, (d) => d === root);
}

/** The fields of a package.json the engine reads. */
export interface Manifest {
  version?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  prettier?: unknown;
  [field: string]: unknown;
}

/** The package.json of a package directory; undefined when there is none or it does not parse. */
export function readManifest(dir: string | undefined, files: WalkFiles = DISK): Manifest | undefined {
  if (!dir) return undefined;
  try {
    const value: unknown = JSON.parse(files.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    return typeof value === 'object' && value !== null ? (value as Manifest) : undefined;
  } catch {
    return undefined;
  }
}
