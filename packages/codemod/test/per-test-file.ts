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
