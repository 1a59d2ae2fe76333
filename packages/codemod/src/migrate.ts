/**
 * Entry points of a migration run: `migrateProject` (files under paths: the CLI, the API),
 * `migrateSource` (one in-memory source: jscodeshift, editors) and `migrateInputs`, which loads the
 * run (src/run/load.ts: decode, pre-filter, one ts-morph project) and then runs the stages of
 * src/run/stages.ts in order over its state (src/run/state.ts): upgrade, find, reach, rewrite,
 * serving, verify, markers, file results, test mocks, importers check, package.json and summary.
 */
import fs from 'node:fs';
import path from 'node:path';
import { discoverFiles, type Discovery } from './discover.js';
import { testFilesOfRun } from './tests-beside.js';
import type { FileResult, MigrateOptions, MigrationResult } from './types.js';
import { loadRun } from './run/load.js';
import { STAGES } from './run/stages.js';
import type { RunEnv, SourceInput } from './run/state.js';

export type { RunEnv, SourceInput, Stage } from './run/state.js';

/** `shared.libraryFiles`: parsed declaration files shared with other runs of the caller (engine/library-files.ts). */
export async function migrateProject(paths: string[], options: MigrateOptions = {}, discovered?: Discovery, shared: Pick<RunEnv, 'libraryFiles'> = {}): Promise<MigrationResult> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const discovery = discovered ?? discoverFiles(paths, { cwd, ignore: options.ignore });
  const tsconfig = options.tsconfig ? path.resolve(cwd, options.tsconfig) : findTsconfig(cwd, discovery.files);
  // A project's tests outside its tsconfig (`tests/` beside `"include": ["src"]`) call the migrated
  // code directly: files of the run, so the rewrite sees their calls of a request helper (and drives
  // them) and the test-mock stage their mocks, instead of only finding them broken afterwards. Only
  // those that import a file holding a request are parsed (the pre-filter keeps the others aside).
  const tests = tsconfig && fs.existsSync(tsconfig) ? testFilesOfRun(tsconfig, paths, discovery.files, { cwd, ignore: options.ignore }) : { beside: undefined, outside: [] };
  const inputs: SourceInput[] = [...discovery.files, ...tests.outside].map((file) => {
    try {
      return { path: file, bytes: fs.readFileSync(file) };
    } catch (error) {
      return { path: file, readError: `unreadable: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
    }
  });
  // unit tests that mock a request the run migrated are read again when the run left them out of its project
  let result = await migrateInputs(inputs, { ...options, cwd }, { tsconfig, manifests: true, consumeInputs: true, testMocks: { read: readText }, libraryFiles: shared.libraryFiles, testsBeside: tests.beside });
  if (options.write) {
    const { applyResult } = await import('./fs/atomic-write.js');
    result = applyResult(result).result;
  }
  return result;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Migrates one in-memory source (jscodeshift, editors, tests). Syntactic mode unless
 * `options.tsconfig` is given; files the rewrite would create (the codec module) are returned in
 * `created`. `run.oneFileOfMany`: the source is one file of a migration run one file at a time
 * (jscodeshift), and gets that migration's test-mock stage: a mock of any legacy request is
 * reported, since the request it fakes may be migrated in a file this run never sees.
 */
export async function migrateSource(text: string, fileName: string, options: MigrateOptions = {}, run: { oneFileOfMany?: boolean } = {}): Promise<FileResult & { created: FileResult[] }> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const file = path.resolve(cwd, fileName);
  const testMocks = run.oneFileOfMany ? { read: (p: string) => (p === file ? text : undefined), anyRequestMigrated: true } : undefined;
  const result = await migrateInputs([{ path: file, text }], { ...options, cwd }, { tsconfig: options.tsconfig ? path.resolve(cwd, options.tsconfig) : undefined, manifests: false, testMocks });
  const own = result.files.find((f) => f.path === file)!;
  return { ...own, created: result.files.filter((f) => f.status === 'created') };
}

export async function migrateInputs(inputs: SourceInput[], options: MigrateOptions, env: RunEnv = { manifests: false }): Promise<MigrationResult> {
  const timings = stageTimer();
  const state = loadRun(inputs, options, env, timings.mark);
  for (const stage of env.stages ?? STAGES) {
    await stage.run(state);
    timings.mark(stage.name);
  }
  timings.done(state.loaded.length, inputs.length);
  if (!state.result) throw new Error('the run ended without a result (its last stage builds it)');
  return state.result;
}

function findTsconfig(cwd: string, files: string[]): string | undefined {
  const start = files.length > 0 ? path.dirname(files[0]!) : cwd;
  let dir = start;
  for (;;) {
    const candidate = path.join(dir, 'tsconfig.json');
    if (fs.existsSync(candidate)) return candidate;
    if (fs.existsSync(path.join(dir, '.git')) || fs.existsSync(path.join(dir, 'package.json'))) {
      // stop at the package / repository root (checked after the tsconfig of this directory)
      return undefined;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * `MCP_MRTR_TIMINGS=1` prints how long each stage took (stderr). `MCP_MRTR_TIMINGS=heap` with
 * `node --expose-gc` also collects garbage after each stage and prints the live heap (slower).
 */
function stageTimer() {
  const enabled = process.env.MCP_MRTR_TIMINGS === '1' || process.env.MCP_MRTR_TIMINGS === 'heap';
  const gc = process.env.MCP_MRTR_TIMINGS === 'heap' ? (globalThis as { gc?: () => void }).gc : undefined;
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let last = performance.now();
  let lastCpu = cpuMs();
  const marks: string[] = [];
  return {
    mark(stage: string) {
      if (!enabled) return;
      const now = performance.now();
      const cpu = cpuMs();
      let heap = '';
      if (gc) {
        gc();
        const memory = process.memoryUsage();
        heap = `, live heap ${Math.round(memory.heapUsed / 2 ** 20)} MiB + buffers ${Math.round(memory.arrayBuffers / 2 ** 20)} MiB`;
      }
      marks.push(`${stage} ${Math.round(now - last)}ms (cpu ${Math.round(cpu - lastCpu)}ms${heap})`);
      last = performance.now();
      lastCpu = cpuMs();
    },
    done(loaded: number, total: number) {
      if (enabled) process.stderr.write(`mcp-mrtr timings (${loaded}/${total} files loaded): ${marks.join(', ')}\n`);
    },
  };
}
