/** The safety check before rewriting in place: uncommitted changes in a git work tree. */
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

/** Work trees (holding any of `paths`) with uncommitted changes, tracked or untracked. */
export function dirtyWorkTrees(paths: readonly string[], cwd: string): DirtyWorkTree[] {
  const roots = new Set<string>();
  for (const p of paths) {
    const absolute = path.resolve(cwd, p);
    let dir = absolute;
    try {
      if (!fs.statSync(absolute).isDirectory()) dir = path.dirname(absolute);
    } catch {
      dir = path.dirname(absolute);
    }
    const root = workTreeRoot(dir);
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
