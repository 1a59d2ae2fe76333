import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestSequencer, TestSpecification } from 'vitest/node';
import { configDefaults, defineConfig } from 'vitest/config';

// The suite runs the real compiler, real SDK servers and clients, and whole migrations: on a busy
// 2-core machine a test can take minutes. Timeouts catch hangs, not slowness.
//
// Workers: vitest's default is one fewer than the cores, so one on a 2-core CI machine, where a core
// then idles while a test waits on a child process (tsc, npm, a server, the CLI). Two or more
// overlap that waiting; the test files are independent (each writes only its own temporary
// directories, and none rebuilds the dist/ files the others load: test/repo/packed.test.ts holds that).

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/**
 * The longest files, longest first (measured on the loaded 2-core CI machine). A clean clone has no
 * durations from an earlier run, and vitest then starts the largest files first: fixtures.test.ts,
 * the longest by far, came 25th of 128, the pre-filter and property tests 39th and 44th, so the suite
 * ended with one worker on a long file and the other core idle. These start first; the other files
 * follow in vitest's own order (its recorded durations, else size).
 */
export const LONGEST_FILES = [
  'test/fixtures.test.ts',
  'test/repo/packed.test.ts',
  'test/cli/cli.test.ts',
  'test/false-positives/engine.test.ts',
  'test/cli/gate.test.ts',
  'test/reach.test.ts',
  'test/e2e/notes-server.test.ts',
  'test/rewrite/rewrite.test.ts',
  'test/migrate.test.ts',
  'test/prefilter.test.ts',
  'test/property/equivalence.test.ts',
];

/** vitest's own sequencer (loaded when the run sorts, not when a test imports this config), the longest files first. */
class LongestFirst implements TestSequencer {
  private base: Promise<TestSequencer>;

  constructor(ctx: ConstructorParameters<typeof import('vitest/node').BaseSequencer>[0]) {
    this.base = import('vitest/node').then(({ BaseSequencer }) => new BaseSequencer(ctx));
  }

  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await this.base).shard(files);
  }

  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await (await this.base).sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FILES.indexOf(path.relative(ROOT, spec.moduleId).split(path.sep).join('/'));
      return at === -1 ? LONGEST_FILES.length : at;
    };
    return sorted.map((spec, order) => ({ spec, order, rank: rank(spec) })).sort((a, b) => a.rank - b.rank || a.order - b.order).map(({ spec }) => spec);
  }
}

/**
 * Files that replace a module of the engine (`vi.mock`) run each in a fresh module graph: the
 * replacement must not reach the files after them.
 */
export const ISOLATED_FILES = ['test/tests-beside-walk.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 900_000,
    hookTimeout: 900_000,
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
    setupFiles: ['test/setup/file-boundary.ts'],
    projects: [
      // A worker keeps its modules from one file to the next: TypeScript, ts-morph and the SDKs are
      // loaded once a worker instead of once a file, and the parsed library files of
      // engine/library-files.ts serve every file the worker runs. Measured on test/rewrite and
      // test/run (36 files, 2 workers): 193 s of CPU isolated, 106 s shared.
      { extends: true, test: { name: 'shared', isolate: false, include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ISOLATED_FILES] } },
      { extends: true, test: { name: 'isolated', include: ISOLATED_FILES } },
    ],
  },
});
