/**
 * One batch of generated cases through the real engine: write the legacy modules (several cases
 * per module, see `printModule`) into a temp project inside the repo (so `@modelcontextprotocol/*`
 * and `zod` resolve from the root node_modules), migrate a copy with
 * `migrateProject(..., { write: true })`, typecheck the migrated files in one program, then run
 * every migrated case against the legacy and the 2026-07-28 peers.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { migrateProject } from '../shared-library-files.js';
import type { FileResult, SiteResult } from '../../src/types.js';
import { initProjectRepo } from '../security/temp-project.js';
import { caseMarker, printModule, toolName, type GeneratedCase } from './generator.js';
import { runLegacy, runMigrated, type RunResult, type RunSpec } from './peers.js';
import { typecheck } from './typecheck.js';

export const CODEMOD_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const REPO_ROOT = resolve(CODEMOD_ROOT, '../..');
const EFFECTS_MODULE = join(REPO_ROOT, 'fixtures/support/effects.js');

export const STATE_KEY = 'property-test-request-state-key-0123456789abcdef';
export const CASES_PER_MODULE = Number(process.env.PROPERTY_CASES_PER_MODULE ?? 5);

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
  /** Milliseconds spent per stage. */
  timings: { migrate: number; typecheck: number; run: number };
  verdicts: CaseVerdict[];
  /** Per case: the legacy module source and the migrated module text holding it. */
  sources: string[];
  outputs: Array<string | undefined>;
}

const TSCONFIG = JSON.stringify(
  {
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] },
    include: ['**/*.ts'],
  },
  null,
  2,
);

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

/** 1-based line ranges [from, to) of each case block in a module text, by marker; undefined if a marker is gone. */
function caseRanges(text: string, ns: number[]): Map<number, [number, number]> | undefined {
  const lines = text.split(/\r?\n/);
  const starts = ns.map((n) => lines.findIndex((l) => l.trim() === caseMarker(n)) + 1);
  if (starts.some((s) => s === 0)) return undefined;
  const end = lines.findIndex((l) => /export function createServer/.test(l)) + 1 || lines.length + 1;
  return new Map(ns.map((n, i) => [n, [starts[i], i + 1 < ns.length ? starts[i + 1] : end]]));
}

function inRange(line: number, range: [number, number] | undefined): boolean {
  return range !== undefined && line >= range[0] && line < range[1];
}

function classify(sites: SiteResult[]): CaseVerdict | undefined {
  const flagged = sites.filter((s) => s.status === 'flagged');
  const migrated = sites.filter((s) => s.status === 'migrated');
  if (sites.length === 0) return { kind: 'failure', why: 'no site found for a handler with legacy requests' };
  if (flagged.some((s) => !s.reason)) return { kind: 'failure', why: 'flagged site without a reason', detail: flagged };
  if (flagged.length > 0 && migrated.length > 0) return { kind: 'failure', why: 'half-rewritten handler: some sites migrated, others flagged', detail: sites };
  if (flagged.length > 0) return { kind: 'flagged', reasons: flagged.map((s) => `${s.line}: ${s.reason}`) };
  return undefined;
}

export async function runBatch(name: string, cases: CaseInput[], options: { typecheck?: boolean } = {}): Promise<BatchReport> {
  process.env.MCP_REQUEST_STATE_KEY = STATE_KEY;
  const dir = join(CODEMOD_ROOT, '.tmp', name);
  rmSync(dir, { recursive: true, force: true });
  const legacyDir = join(dir, 'legacy');
  const migratedDir = join(dir, 'migrated');
  mkdirSync(legacyDir, { recursive: true });
  mkdirSync(migratedDir, { recursive: true });
  initProjectRepo(migratedDir);
  writeFileSync(join(migratedDir, 'tsconfig.json'), TSCONFIG);

  const modules: Array<{ legacy: string; migrated: string; ns: number[]; source: string }> = [];
  for (let start = 0; start < cases.length; start += CASES_PER_MODULE) {
    const ns = cases.slice(start, start + CASES_PER_MODULE).map((_, k) => start + k);
    const legacy = join(legacyDir, `module${modules.length}.ts`);
    const migrated = join(migratedDir, `module${modules.length}.ts`);
    const source = printModule(ns.map((n) => ({ n, handler: cases[n].handler })), importPath(legacy, EFFECTS_MODULE));
    writeFileSync(legacy, source);
    copyFileSync(legacy, migrated);
    modules.push({ legacy, migrated, ns, source });
  }
  const moduleOf = (n: number) => modules[Math.floor(n / CASES_PER_MODULE)];
  const sources = cases.map((_, n) => moduleOf(n).source);
  const outputs: Array<string | undefined> = cases.map(() => undefined);
  const verdicts: Array<CaseVerdict | undefined> = cases.map(() => undefined);

  const timings = { migrate: 0, typecheck: 0, run: 0 };
  let started = Date.now();
  let result;
  try {
    result = await migrateProject([migratedDir], { cwd: migratedDir, write: true, tsconfig: join(migratedDir, 'tsconfig.json') });
  } catch (error) {
    const why = `engine threw: ${(error as Error).stack ?? error}`;
    return { dir, timings, sources, outputs, verdicts: cases.map(() => ({ kind: 'failure', why })) };
  }
  timings.migrate = Date.now() - started;
  const byPath = new Map<string, FileResult>(result.files.map((f) => [resolve(f.path), f]));

  const toTypecheck: string[] = [];
  const outputRanges = new Map<string, Map<number, [number, number]> | undefined>();
  for (const m of modules) {
    const fr = byPath.get(m.migrated);
    const output = readFileSync(m.migrated, 'utf8');
    for (const n of m.ns) outputs[n] = output;
    if (!fr) {
      for (const n of m.ns) verdicts[n] = { kind: 'failure', why: 'engine reported nothing for a file with legacy requests' };
      continue;
    }
    if (fr.status === 'failed') {
      for (const n of m.ns) verdicts[n] = { kind: 'failure', why: `file failed: ${fr.error}` };
      continue;
    }
    const ranges = caseRanges(m.source, m.ns)!;
    const outRanges = caseRanges(output, m.ns);
    const outLines = output.split(/\r?\n/);
    for (const n of m.ns) {
      verdicts[n] = classify(fr.sites.filter((s) => inRange(s.line, ranges.get(n))));
      // A flagged handler carries an @mcp-mrtr-todo marker in the output, next to its code.
      const r = outRanges?.get(n);
      if (verdicts[n]?.kind === 'flagged' && r && !outLines.slice(r[0] - 1, r[1] - 1).some((l) => l.includes('@mcp-mrtr-todo'))) {
        verdicts[n] = { kind: 'failure', why: 'flagged handler without an @mcp-mrtr-todo marker in the output' };
      }
    }
    if (fr.status === 'changed') {
      toTypecheck.push(m.migrated);
      outputRanges.set(m.migrated, caseRanges(output, m.ns));
    } else {
      for (const n of m.ns) verdicts[n] ??= { kind: 'failure', why: `all sites of the handler migrated but file status is ${fr.status}` };
    }
  }
  for (const f of result.files) if (f.status === 'created' && /\.[cm]?ts$/.test(f.path)) toTypecheck.push(resolve(f.path));

  // The whole file must typecheck: migrated handlers, and flagged ones kept in v2 form next to them.
  started = Date.now();
  const diagnostics = options.typecheck === false ? new Map<string, string[]>() : typecheck(toTypecheck);
  timings.typecheck = Date.now() - started;
  const shared = diagnostics.get('<other>') ?? [];
  for (const m of modules) {
    const ranges = outputRanges.get(m.migrated);
    const diags = diagnostics.get(m.migrated) ?? [];
    for (const n of m.ns) {
      if (verdicts[n]?.kind === 'failure') continue;
      const own = [...shared, ...diags.filter((d) => !ranges || !/^\d+:/.test(d) || inRange(Number(d.split(':')[0]), ranges.get(n)) || ![...ranges.values()].some((r) => inRange(Number(d.split(':')[0]), r)))];
      if (own.length > 0) verdicts[n] = { kind: 'failure', why: `migrated output does not typecheck${verdicts[n]?.kind === 'flagged' ? ' (flagged handler kept in the file)' : ''}`, detail: own };
    }
  }

  started = Date.now();
  for (const m of modules) {
    const pending = m.ns.filter((n) => verdicts[n] === undefined);
    if (pending.length === 0) continue;
    const legacyMod = (await import(pathToFileURL(m.legacy).href)) as { createServer: () => unknown };
    let migratedMod: { createServer: () => unknown };
    try {
      migratedMod = (await import(pathToFileURL(m.migrated).href)) as { createServer: () => unknown };
    } catch (error) {
      for (const n of pending) verdicts[n] = { kind: 'failure', why: `migrated module fails to load: ${(error as Error).message}` };
      continue;
    }
    for (const n of pending) {
      const runs: Array<{ spec: RunSpec; legacy: RunResult; migrated: RunResult & { rounds: number } }> = [];
      let failed: CaseVerdict | undefined;
      for (const spec of cases[n].runs) {
        const legacy = await runLegacy(legacyMod.createServer, toolName(n), spec);
        const migrated = await runMigrated(migratedMod.createServer, toolName(n), spec);
        runs.push({ spec, legacy, migrated });
        if (!sameBehaviour(legacy, migrated)) {
          failed = { kind: 'failure', why: 'migrated behaviour differs from legacy', detail: { spec, legacy, migrated } };
          break;
        }
      }
      verdicts[n] = failed ?? { kind: 'migrated', runs };
    }
  }
  timings.run = Date.now() - started;
  return { dir, timings, sources, outputs, verdicts: verdicts as CaseVerdict[] };
}
