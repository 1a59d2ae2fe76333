/**
 * The package a file belongs to: the folder of the nearest package.json at or above it, found by
 * one walk whose bound the caller names. A package.json beyond the bound belongs to another
 * project (a temp project made inside another repository, a monorepo root above the folder the
 * user ran in) and is not the user's to change.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * The folder of the nearest package.json at or above `dir`, or undefined when the walk passes the
 * folder `isTop` accepts (whose own package.json still counts) or the file system root first.
 * `cache`, kept for one `isTop`, remembers the answer of every folder walked.
 */
export function nearestPackageDir(dir: string, isTop: (dir: string) => boolean, cache?: Map<string, string | undefined>): string | undefined {
  const walked: string[] = [];
  let found: string | undefined;
  for (let d = dir; ; d = path.dirname(d)) {
    if (cache?.has(d)) {
      found = cache.get(d);
      break;
    }
    walked.push(d);
    if (fs.existsSync(path.join(d, 'package.json'))) {
      found = d;
      break;
    }
    if (isTop(d) || path.dirname(d) === d) break;
  }
  for (const d of walked) cache?.set(d, found);
  return found;
}

/** The bound of a repository: its root, the folder holding `.git`. */
export function isRepositoryRoot(dir: string): boolean {
  return fs.existsSync(path.join(dir, '.git'));
}

/** The package of `dir` within the run's `root`: never above it, and none for a folder outside it. */
export function packageDirWithin(dir: string, root: string): string | undefined {
  const relative = path.relative(root, dir);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return nearestPackageDir(dir, (d) => d === root);
}
