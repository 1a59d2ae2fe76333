/**
 * Runs before every test file. Most files share their worker's modules with the files before them
 * (`isolate: false` in vitest.config.ts), so what one file changes of the process must not reach
 * the next: the environment (several files set MCP_REQUEST_STATE_KEY, some with `??=` at the top
 * of the file) is put back as it was before the file, and the clock is real again.
 */
import { afterAll, vi } from 'vitest';

const env = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
  vi.useRealTimers();
  vi.restoreAllMocks();
});
