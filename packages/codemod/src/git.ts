/** The safety checks before rewriting in place: uncommitted changes in a git work tree, or no git at all. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';

function git(args: string[], cwd: string): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

/** The work tree root holding `dir`, or undefined outside git (or without git installed). */
export function workTreeRoot(dir: string): string | undefined {
  const out = git(['rev-parse', '--show-toplevel'], dir);
  return out?.trim() || undefined;
}

export interface DirtyWorkTree {
  root: string;
  /** `git status --porcelain` lines, at most a few. */
  changes: string[];
  total: number;
}

/** The directory git should be asked about for a file or directory argument. */
function directoryOf(absolute: string): string {
  try {
    return fs.statSync(absolute).isDirectory() ? absolute : path.dirname(absolute);
  } catch {
    return path.dirname(absolute);
  }
}

/** The `paths` (as given) that lie in no git work tree. */
export function outsideWorkTrees(paths: readonly string[], cwd: string): string[] {
  return paths.filter((p) => workTreeRoot(directoryOf(path.resolve(cwd, p))) === undefined);
}

/** Work trees (holding any of `paths`) with uncommitted changes, tracked or untracked. */
export function dirtyWorkTrees(paths: readonly string[], cwd: string): DirtyWorkTree[] {
  const roots = new Set<string>();
  for (const p of paths) {
    const root = workTreeRoot(directoryOf(path.resolve(cwd, p)));
    if (root) roots.add(root);
  }
  const dirty: DirtyWorkTree[] = [];
  for (const root of roots) {
    const status = git(['status', '--porcelain'], root);
    if (status === undefined) continue;
    const lines = status.split('\n').filter((l) => l.trim() !== '');
    if (lines.length > 0) dirty.push({ root, changes: lines.slice(0, 10), total: lines.length });
  }
  return dirty;
}
