// Child process of consecutive-runs.test.ts: runs the built engine on each project directory given,
// one after the other in one job, and prints, as JSON, each run's file results and the live heap
// after it. Run with --expose-gc (the collection before each reading) and V8's optimising compilers
// off: optimised code may hold objects of the run it was compiled in (one run's program, kept until
// that code is dropped), which is V8's and bounded, and would hide or fake the engine's own retention.
import { migrateProject } from '../../dist/index.js';

const runs = [];
for (const dir of process.argv.slice(2)) {
  const result = await migrateProject(['src'], { cwd: dir });
  globalThis.gc();
  runs.push({ dir, files: result.files, heapUsed: process.memoryUsage().heapUsed });
}
process.stdout.write(JSON.stringify(runs));
