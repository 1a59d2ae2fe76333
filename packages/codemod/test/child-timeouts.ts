/**
 * Timeouts of what a test starts outside its own process, sized for a loaded 2-core machine (checked
 * by test/repo/timeouts.test.ts). A synchronous spawn blocks the worker, so vitest's own test timeout
 * cannot end it: the spawn's timeout is what catches a hang there.
 */

/** How long a child process a test starts may run before it is killed: a hang, not a slow machine. */
export const CHILD_PROCESS_TIMEOUT_MS = 600_000;

/**
 * The test and hook timeout of a project's own vitest run started by a test. vitest's default (5 s a
 * test) failed a migrated project's test doing real client round trips under load.
 */
export const NESTED_TEST_TIMEOUT_MS = 120_000;
