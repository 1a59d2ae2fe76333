/**
 * How long a child process a plugin test starts (a build, the ESLint CLI, tsc) may run before it is
 * killed: a hang, not a slow machine. A synchronous spawn blocks the worker, so vitest's own test
 * timeout cannot end it. The codemod's tests use the same value (packages/codemod/test/child-timeouts.ts);
 * packages/codemod/test/repo/timeouts.test.ts checks both and the literal timeouts of this package's tests.
 */
export const CHILD_PROCESS_TIMEOUT_MS = 600_000;
