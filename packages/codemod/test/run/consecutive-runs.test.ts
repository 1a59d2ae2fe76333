/**
 * Runs one after the other in one process: the second gives what it gives alone. A caller of the
 * API awaiting migrations in a loop, the jscodeshift worker, a test file with several runs: a run
 * never yields to the event loop, so the runs of such a caller share one job, and anything a run
 * holds past its end is still there for the next. reused-diagnostics.ts held every program a run
 * made (a new one at each edit, with its checker and source files) through a `WeakRef`, whose
 * target ECMAScript keeps until the job ends: each run left about 115 MiB behind, and the importers
 * check, left out when the heap is already a quarter full, was left out of the runs after the
 * seventh (files outside the run's paths no longer reported). And that check read the heap with
 * its garbage: a process whose earlier work left a quarter of the heap limit of garbage had its next
 * run's check left out too; over the line it now collects the garbage and reads again.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MigrationResult } from '../../src/types.js';
import { CHILD_PROCESS_TIMEOUT_MS } from '../child-timeouts.js';
import { TEST_DIR } from '../find-helpers.js';
import { IMPORTERS_SERVER } from '../importers-server.js';

const CHILD = path.join(TEST_DIR, 'run/consecutive-runs.child.mjs');

const REPO = path.resolve(TEST_DIR, '../../..');
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] }, include: ['src', 'test'] };

// importers-check.test.ts's project: a tool module the upgrade changes, and a unit test outside the
// run's paths whose typed read of the result no longer typechecks (reported by the importers check)
const FILES: Record<string, string> = {
  'src/format.ts': `import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function summary(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}
`,
  'src/server.ts': IMPORTERS_SERVER,
  'test/format.test.ts': `import { summary } from '../src/format.js';

const result = summary('abc');
export const token: string | number | undefined = result._meta?.progressToken;
`,
};

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-consecutive-'));
  dirs.push(dir);
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'importers', type: 'module' }));
  for (const [rel, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** File results with the run's directory taken out of them, to compare runs of different copies. */
function comparable(files: MigrationResult['files'], dir: string): unknown {
  return JSON.parse(JSON.stringify(files).split(dir).join('<dir>'));
}

/** Each run's file results (its directory taken out) and the live heap after it, from runs in one job of a child process. */
function runInOneJob(dirs: string[]): { files: unknown; heapUsed: number }[] {
  const child = spawnSync(process.execPath, ['--expose-gc', '--no-opt', '--no-maglev', CHILD, ...dirs], { encoding: 'utf8', timeout: CHILD_PROCESS_TIMEOUT_MS });
  expect(child.status, child.stderr).toBe(0);
  const runs = JSON.parse(child.stdout) as { dir: string; files: MigrationResult['files']; heapUsed: number }[];
  return runs.map((run) => ({ files: comparable(run.files, run.dir), heapUsed: run.heapUsed }));
}

describe('migrations one after the other in one process', () => {
  it('a run holds nothing of its own past its end (its programs neither), and the later runs report as the first', () => {
    const dirs = [project(), project(), project()];
    const runs = runInOneJob(dirs);
    for (const [at, run] of runs.entries()) {
      const outside = (run.files as { path: string; status: string }[]).find((f) => f.path === '<dir>/test/format.test.ts');
      expect(outside?.status, `run ${at + 1}`).toBe('flagged');
    }
    expect(runs[1]!.files).toEqual(runs[0]!.files);
    expect(runs[2]!.files).toEqual(runs[0]!.files);
    // each run left about 115 MiB of programs behind; what a run's module-level caches keep is a few
    const MiB = 2 ** 20;
    const heaps = runs.map((run) => Math.round(run.heapUsed / MiB));
    expect(heaps[2]! - heaps[0]!, `live heap after each run (MiB): ${heaps.join(', ')}`).toBeLessThan(40);
  });

  it('garbage of the process over a quarter of the heap limit does not leave the importers check out', () => {
    // in a process of its own: a test worker's heap holds what its earlier test files keep
    const dir = project();
    const child = spawnSync(process.execPath, [CHILD, '--garbage', dir], { encoding: 'utf8', timeout: CHILD_PROCESS_TIMEOUT_MS });
    expect(child.status, child.stderr).toBe(0);
    const [run] = JSON.parse(child.stdout) as { files: MigrationResult['files'] }[];
    const outside = run!.files.find((f) => f.path === path.join(dir, 'test/format.test.ts'));
    expect(outside?.status, JSON.stringify(run!.files.map((f) => [f.path, f.status, f.notes]))).toBe('flagged');
  });
});
