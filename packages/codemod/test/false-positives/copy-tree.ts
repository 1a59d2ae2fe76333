import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Copies `files` (relative to `base`) into a fresh temp dir outside the repo (no tsconfig above it). */
export function copyToTemp(prefix: string, base: string, files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), `mrtr-${prefix}-`));
  for (const rel of files) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    copyFileSync(join(base, rel), join(dir, rel));
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
