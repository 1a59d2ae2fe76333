import os from 'node:os';
import { defineConfig } from 'vitest/config';

// The suite runs the real compiler, real SDK servers and clients, and whole migrations: on a busy
// 2-core machine a test can take minutes. Timeouts catch hangs, not slowness.
//
// Workers: vitest's default is one fewer than the cores, so one on a 2-core CI machine, where a core
// then idles while a test waits on a child process (tsc, npm, a server, the CLI). Two or more
// overlap that waiting; the test files are independent (each writes only its own temporary
// directories, and none rebuilds the dist/ files the others load: test/repo/packed.test.ts holds that).
export default defineConfig({
  test: {
    testTimeout: 900_000,
    hookTimeout: 900_000,
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
