/**
 * Produces the server the conformance suite runs against: fixtures/conformance/server.ts migrated
 * by the codemod engine (default), or the hand migration next to it
 * (`MRTR_CONFORMANCE_TARGET=expected`, a control for the suite set-up). The engine runs on a copy in
 * packages/codemod/.tmp/ (inside the repo, so the migrated file resolves the SDK packages) through
 * `migrateSource` (discovery would skip the git-ignored .tmp directory). A flagged or unmigrated
 * site is reported in `problems` (the test fails on it) but the output is still served, so the
 * scenario table shows what the partial migration does.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileResult } from '../../src/types.js';

export const LEGACY_SERVER = fileURLToPath(new URL('../../../../fixtures/conformance/server.ts', import.meta.url));
export const EXPECTED_MIGRATION = fileURLToPath(new URL('../../../../fixtures/conformance/server.expected-migration.ts', import.meta.url));
export const NAIVE_MIGRATION = fileURLToPath(new URL('../../../../fixtures/conformance/server.naive-migration.ts', import.meta.url));
const WORK_ROOT = fileURLToPath(new URL('../../.tmp/conformance/', import.meta.url));

export type Target = 'engine' | 'expected';

export function conformanceTarget(): Target {
  return process.env.MRTR_CONFORMANCE_TARGET === 'expected' ? 'expected' : 'engine';
}

export interface MigratedServer {
  target: Target;
  /** Module exporting createServer() to serve. */
  path: string;
  /** Engine result for server.ts (engine target only). */
  result?: SourceResult;
  /** Why the engine's output is not a full migration (flagged sites etc.); empty when it is. */
  problems: string[];
}

type SourceResult = FileResult & { created: FileResult[] };
interface EngineEntry {
  migrateSource?: (text: string, fileName: string, options?: Record<string, unknown>) => Promise<SourceResult>;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: true,
    types: ['node'],
  },
  include: ['*.ts'],
};

/** Why the engine's result does not count as a full migration (empty = it does). */
export function migrationProblems(result: FileResult): string[] {
  const problems: string[] = [];
  if (result.status !== 'changed') problems.push(`file status is '${result.status}'${result.error ? `: ${result.error}` : ''}`);
  for (const site of result.sites) {
    if (site.status !== 'migrated') {
      problems.push(`server.ts:${site.line}:${site.column} ${site.method} in ${site.handler ?? '?'} flagged: ${site.reason ?? '(no reason)'}`);
    }
  }
  if (!result.sites.some((s) => s.status === 'migrated')) problems.push('no site migrated');
  return problems;
}

export async function migratedConformanceServer(target: Target = conformanceTarget()): Promise<MigratedServer> {
  if (target === 'expected') return { target, path: EXPECTED_MIGRATION, problems: [] };

  const entryPath = '../../src/index.js';
  let engine: EngineEntry;
  try {
    engine = (await import(/* @vite-ignore */ entryPath)) as EngineEntry;
  } catch (error) {
    throw new Error(`codemod engine entry packages/codemod/src/index.ts could not be loaded: ${String(error)}`);
  }
  if (typeof engine.migrateSource !== 'function') throw new Error('packages/codemod/src/index.ts does not export migrateSource()');

  // Only the latest run is kept (for inspection after a failure).
  rmSync(WORK_ROOT, { recursive: true, force: true });
  const dir = join(WORK_ROOT, `run-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'server.ts');
  const tsconfig = join(dir, 'tsconfig.json');
  writeFileSync(tsconfig, JSON.stringify(TSCONFIG, null, 2));

  const result = await engine.migrateSource(readFileSync(LEGACY_SERVER, 'utf8'), file, { cwd: dir, tsconfig });
  const problems = migrationProblems(result);
  if (result.output === undefined || result.output === result.original) {
    throw new Error(`the codemod produced no migration of fixtures/conformance/server.ts:\n  ${problems.join('\n  ')}`);
  }
  for (const f of [result, ...result.created]) {
    if (f.output === undefined) throw new Error(`the engine gave no output for ${f.path}`);
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.output);
  }
  return { target, path: file, result, problems };
}
