import v8 from 'node:v8';
import { expect } from 'vitest';

/** A value made once for each test file the worker runs, the previous file's let go (a worker runs its files one at a time). */
export function perTestFile<T>(make: () => T): () => T {
  let current: { testFile: string; value: T } | undefined;
  return () => {
    const testFile = expect.getState().testPath ?? '';
    if (current?.testFile !== testFile) current = { testFile, value: make() };
    return current.value;
  };
}

/**
 * A value the worker keeps for all its test files, made again (the old one let go with the file
 * that holds it) once the heap has passed an eighth of its limit: the engine leaves its importers
 * check out of a run when the live heap is over a quarter (run/importers-check.ts), and a cache
 * that grew with every project a worker ran (temporary installs parse their packages under paths
 * of their own) took a long-lived worker over it.
 */
export function perWorker<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => {
    if (value === undefined || process.memoryUsage().heapUsed > v8.getHeapStatistics().heap_size_limit / 8) value = make();
    return value;
  };
}
