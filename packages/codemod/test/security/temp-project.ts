/** A throw-away project inside the repo (so `@modelcontextprotocol/*` resolve), migrated by the real engine. */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateProject } from '../shared-library-files.js';
import type { MigrationResult } from '../../src/types.js';

export const CODEMOD_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] },
  include: ['**/*.ts'],
};

/**
 * A git repository of its own, as a user's project would be: the repo's `.gitignore` lists
 * `.tmp/`, and discovery honours the `.gitignore` files from the git root down.
 */
export function initProjectRepo(dir: string): void {
  execFileSync('git', ['init', '-q', dir]);
}

/** `packages/codemod/.tmp/<name>/` (depth matches `test/<dir>/`, so relative imports of fixtures/support keep working). */
export function tempProject(name: string, files: Record<string, string>): string {
  const dir = join(CODEMOD_ROOT, '.tmp', `${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  initProjectRepo(dir);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(dir, rel), text);
  return dir;
}

export async function migrateInPlace(dir: string): Promise<MigrationResult> {
  return migrateProject([dir], { cwd: dir, write: true, tsconfig: join(dir, 'tsconfig.json') });
}

export function copyProject(from: string, name: string): string {
  const dir = join(CODEMOD_ROOT, '.tmp', `${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(from, dir, { recursive: true });
  return dir;
}
