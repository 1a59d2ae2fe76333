/**
 * One batch of generated cases through the real engine: write the legacy modules into a temp dir
 * inside the repo (so `@modelcontextprotocol/*` and `zod` resolve from the root node_modules),
 * migrate a copy with `migrateProject(..., { write: true })`, typecheck legacy and migrated files
 * in one program, then run every case against the legacy and the 2026-07-28 peers.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { migrateProject } from '../../src/index.js';
import type { FileResult } from '../../src/types.js';
import { initProjectRepo } from '../security/temp-project.js';
import { printCase, type GeneratedCase } from './generator.js';
import { runLegacy, runMigrated, type RunResult, type RunSpec } from './peers.js';
import { typecheck } from './typecheck.js';

export const CODEMOD_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const REPO_ROOT = resolve(CODEMOD_ROOT, '../..');
const EFFECTS_MODULE = join(REPO_ROOT, 'fixtures/support/effects.js');

export const STATE_KEY = 'property-test-request-state-key-0123456789abcdef';

export interface CaseInput {
  handler: GeneratedCase;
  runs: RunSpec[];
}

export type CaseVerdict =
  | { kind: 'migrated'; runs: Array<{ spec: RunSpec; legacy: RunResult; migrated: RunResult & { rounds: number } }> }
  | { kind: 'flagged'; reasons: string[] }
  | { kind: 'failure'; why: string; detail?: unknown };

export interface BatchReport {
  dir: string;
  verdicts: CaseVerdict[];
  sources: string[];
  outputs: Array<string | undefined>;
}

function tsconfigFor(): string {
  return JSON.stringify(
    {
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] },
      include: ['**/*.ts'],
    },
    null,
    2,
  );
}

function importPath(fromFile: string, target: string): string {
  const rel = relative(dirname(fromFile), target).replace(/\\/g, '/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Equal when both complete with the same text, or both fail (tool error or JSON-RPC error). */
export function sameBehaviour(a: RunResult, b: RunResult): boolean {
  const outcomeEqual = 'ok' in a.outcome ? 'ok' in b.outcome && a.outcome.ok === b.outcome.ok : 'error' in b.outcome;
  return outcomeEqual && JSON.stringify(sortKeys(a.effects)) === JSON.stringify(sortKeys(b.effects));
}

function sortKeys(o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).sort(([x], [y]) => x.localeCompare(y)));
}

export async function runBatch(name: string, cases: CaseInput[]): Promise<BatchReport> {
  process.env.MCP_REQUEST_STATE_KEY = STATE_KEY;
  const dir = join(CODEMOD_ROOT, '.tmp', name);
  rmSync(dir, { recursive: true, force: true });
  const legacyDir = join(dir, 'legacy');
  const migratedDir = join(dir, 'migrated');
  mkdirSync(legacyDir, { recursive: true });
  mkdirSync(migratedDir, { recursive: true });
  initProjectRepo(migratedDir);
  writeFileSync(join(migratedDir, 'tsconfig.json'), tsconfigFor());

  const sources: string[] = [];
  const legacyFiles: string[] = [];
  const migratedFiles: string[] = [];
  cases.forEach((c, i) => {
    const legacy = join(legacyDir, `case${i}.ts`);
    const migrated = join(migratedDir, `case${i}.ts`);
    const source = printCase(c.handler, importPath(legacy, EFFECTS_MODULE));
    sources.push(source);
    writeFileSync(legacy, source);
    copyFileSync(legacy, migrated);
    legacyFiles.push(legacy);
    migratedFiles.push(migrated);
  });

  const verdicts: Array<CaseVerdict | undefined> = cases.map(() => undefined);
  const outputs: Array<string | undefined> = cases.map(() => undefined);
  let result;
  try {
    result = await migrateProject([migratedDir], { cwd: migratedDir, write: true, tsconfig: join(migratedDir, 'tsconfig.json') });
  } catch (error) {
    const why = `engine threw: ${(error as Error).stack ?? error}`;
    return { dir, sources, outputs, verdicts: cases.map(() => ({ kind: 'failure', why })) };
  }
  const byPath = new Map<string, FileResult>(result.files.map((f) => [resolve(f.path), f]));

  const toTypecheck: string[] = [...legacyFiles];
  migratedFiles.forEach((file, i) => {
    const fr = byPath.get(file);
    if (!fr) return void (verdicts[i] = { kind: 'failure', why: 'engine reported nothing for a file with legacy requests' });
    outputs[i] = readFileSync(file, 'utf8');
    const flagged = fr.sites.filter((s) => s.status === 'flagged');
    const migrated = fr.sites.filter((s) => s.status === 'migrated');
    if (fr.status === 'failed') return void (verdicts[i] = { kind: 'failure', why: `file failed: ${fr.error}` });
    if (fr.sites.length === 0) return void (verdicts[i] = { kind: 'failure', why: `no site found (status ${fr.status})` });
    if (flagged.some((s) => !s.reason)) return void (verdicts[i] = { kind: 'failure', why: 'flagged site without a reason', detail: flagged });
    if (flagged.length > 0 && migrated.length > 0) {
      return void (verdicts[i] = { kind: 'failure', why: 'half-rewritten handler: some sites migrated, others flagged', detail: fr.sites });
    }
    if (flagged.length > 0) return void (verdicts[i] = { kind: 'flagged', reasons: flagged.map((s) => `${s.line}: ${s.reason}`) });
    if (fr.status !== 'changed') return void (verdicts[i] = { kind: 'failure', why: `all sites migrated but file status is ${fr.status}` });
    toTypecheck.push(file);
  });
  for (const f of result.files) if (f.status === 'created' && /\.[cm]?ts$/.test(f.path)) toTypecheck.push(resolve(f.path));

  const diagnostics = typecheck(toTypecheck);
  legacyFiles.forEach((file, i) => {
    const d = diagnostics.get(file) ?? [];
    if (d.length > 0) throw new Error(`generator bug: legacy case ${i} does not typecheck against the v1 SDK:\n${d.join('\n')}\n${sources[i]}`);
  });
  const other = diagnostics.get('<other>') ?? [];
  migratedFiles.forEach((file, i) => {
    if (verdicts[i]) return;
    const d = [...(diagnostics.get(file) ?? []), ...other];
    if (d.length > 0) verdicts[i] = { kind: 'failure', why: 'migrated output does not typecheck', detail: d };
  });

  for (let i = 0; i < cases.length; i++) {
    if (verdicts[i]) continue;
    const legacyMod = (await import(pathToFileURL(legacyFiles[i]).href)) as { createServer: () => unknown };
    let migratedMod: { createServer: () => unknown };
    try {
      migratedMod = (await import(pathToFileURL(migratedFiles[i]).href)) as { createServer: () => unknown };
    } catch (error) {
      verdicts[i] = { kind: 'failure', why: `migrated module fails to load: ${(error as Error).message}` };
      continue;
    }
    const runs: Array<{ spec: RunSpec; legacy: RunResult; migrated: RunResult & { rounds: number } }> = [];
    let failed: CaseVerdict | undefined;
    for (const spec of cases[i].runs) {
      const legacy = await runLegacy(legacyMod.createServer, spec);
      const migrated = await runMigrated(migratedMod.createServer, spec);
      runs.push({ spec, legacy, migrated });
      if (!sameBehaviour(legacy, migrated)) {
        failed = { kind: 'failure', why: 'migrated behaviour differs from legacy', detail: { spec, legacy, migrated } };
        break;
      }
    }
    verdicts[i] = failed ?? { kind: 'migrated', runs };
  }
  return { dir, sources, outputs, verdicts: verdicts as CaseVerdict[] };
}

/** Files in the batch dir other than the inputs, for debugging. */
export function listBatch(dir: string): string[] {
  return readdirSync(dir, { recursive: true }) as string[];
}
