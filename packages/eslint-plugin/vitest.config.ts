import { defineConfig } from 'vitest/config';

// The suite runs the real compiler, real SDK servers and clients, and whole migrations: on a busy
// 2-core machine a test can take minutes. Timeouts catch hangs, not slowness.
export default defineConfig({
  test: {
    testTimeout: 900_000,
    hookTimeout: 900_000,
    // A worker keeps its modules from one file to the next (no test file mocks a module, sets the
    // environment or fakes the clock): typescript-eslint, TypeScript and ESLint load once a worker
    // instead of once a file. Measured on this suite: 114 s of CPU isolated, 76 s shared.
    isolate: false,
  },
});
