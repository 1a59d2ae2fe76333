import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SKIPPED_DIRECTORIES } from '../../src/discover.js';

/**
 * Where a corpus file lands in the copy: directory names that discovery never enters on purpose
 * (`build/`, `dist/`, ...) get a suffix, so the copied code is really analysed.
 */
export function copiedPath(rel: string): string {
  return rel
    .split('/')
    .map((seg, i, all) => (i < all.length - 1 && Object.hasOwn(SKIPPED_DIRECTORIES, seg) ? `${seg}-src` : seg))
    .join('/');
}

/** Copies `files` (relative to `base`) into a fresh temp dir outside the repo (no tsconfig above it). */
export function copyToTemp(prefix: string, base: string, files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), `mrtr-${prefix}-`));
  for (const rel of files) {
    const target = join(dir, copiedPath(rel));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(base, rel), target);
  }
  return dir;
}

/** Path → bytes of every file under `dir`, for byte-identity checks. */
export function snapshotTree(dir: string, base = dir, out = new Map<string, Buffer>()): Map<string, Buffer> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) snapshotTree(full, base, out);
    else if (entry.isFile()) out.set(full.slice(base.length + 1), readFileSync(full));
  }
  return out;
}

export function removeTree(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
