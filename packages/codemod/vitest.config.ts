import { defineConfig } from 'vitest/config';

// The suite runs the real compiler, real SDK servers and clients, and whole migrations: on a busy
// 2-core machine a test can take minutes. Timeouts catch hangs, not slowness.
export default defineConfig({
  test: {
    testTimeout: 900_000,
    hookTimeout: 900_000,
  },
});
