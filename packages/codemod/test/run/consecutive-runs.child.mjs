// Child process of consecutive-runs.test.ts: runs the built engine on each project directory given,
// one after the other in one job, and prints, as JSON, each run's file results and the live heap
// after it. Run with --expose-gc (the collection before each reading) and V8's optimising compilers
// off: optimised code may hold objects of the run it was compiled in (one run's program, kept until
// that code is dropped), which is V8's and bounded, and would hide or fake the engine's own retention.
// With --garbage first (and no --expose-gc), the process first makes and drops garbage over a
// quarter of its heap limit, as an earlier run of an API caller leaves it, and runs once.
import v8 from 'node:v8';
import { migrateProject } from '../../dist/index.js';

const args = process.argv.slice(2);
const garbage = args[0] === '--garbage';
if (garbage) {
  const quarter = v8.getHeapStatistics().heap_size_limit / 4;
  // reachable while made (no collection can take it), then dropped
  let held = [];
  while (process.memoryUsage().heapUsed < quarter + 64 * 2 ** 20) held.push(new Array(2 ** 20).fill(held.length + 0.5));
  held = undefined;
}
const runs = [];
for (const dir of garbage ? args.slice(1) : args) {
  const result = await migrateProject(['src'], { cwd: dir });
  globalThis.gc?.();
  runs.push({ dir, files: result.files, heapUsed: process.memoryUsage().heapUsed });
}
process.stdout.write(JSON.stringify(runs));
