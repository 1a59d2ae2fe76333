/**
 * A v1 server whose tests sit outside its tsconfig (`fixtures/test-mocks/tests-outside`: `"include":
 * ["src"]`, vitest running `tests/`), migrated by the BUILT CLI on `src` alone. The tests beside the
 * tsconfig are files of the run: the unit test calling the sampling helper with a fake server goes
 * through the driver written into it, and the vitest config gets the setup file giving the test runs
 * a random MCP_REQUEST_STATE_KEY, so the test creating the migrated server starts it. The project's
 * own tests then run for real (vitest subprocess, no key in their environment) and pass, as many as
 * before (a test calling the private tools/call handler with an empty context included: it gets the
 * v2 seam's first-round context); the stdio hosting is still rewritten (the driver's read of its fake's capabilities is not a
 * session check the hosting serves).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { repoRoot } from './helpers.js';
import { expectTestOutcomes, failingTests, migrateProject, projectForFile, runProjectTests, withBug, type ReportSite } from './vitest-run.js';

const PROJECT = path.join(repoRoot, 'fixtures/test-mocks/tests-outside');
const KEY = 'MCP_REQUEST_STATE_KEY';
const NO_KEY = { [KEY]: undefined };
const SETUP = 'mcp-request-state-key.test-setup.ts';

/** Records the key the tests see, to tell a generated one from one the environment gave. */
const KEY_PROBE = `import { expect, it } from 'vitest';
import fs from 'node:fs';

it('records the key', () => {
  fs.writeFileSync(process.env.KEY_PROBE_OUT!, process.env.${KEY} ?? '');
  expect(true).toBe(true);
});
`;

const project = projectForFile(PROJECT, 'mcp-mrtr-tests-outside-');

describe('tests outside the tsconfig, with a vitest config', () => {
  it('the legacy tests pass on the v1 server before the migration', () => {
    expectTestOutcomes(project.dir, [], 5, [], NO_KEY);
  });

  it('migrate src drives the test calls of the helper and adds the key setup to the vitest config', async () => {
    const { run, report } = await migrateProject<{ files: { path: string; status: string; sites: ReportSite[] }[] }>(project.dir, 0, 'src');
    const sitesOf = (name: string) => report.files.find((f) => f.path.endsWith(name))?.sites ?? [];
    const [summary] = sitesOf('src/summary.ts');
    expect(summary).toMatchObject({ line: 5, method: 'sampling/createMessage', status: 'migrated' });
    expect(summary!.callers?.map((c) => [c.caller, c.status])).toEqual([
      ['the test `summarise` (summary.test.ts:9)', 'migrated'],
      ['tools/call handler `save_note`', 'migrated'],
    ]);
    expect(sitesOf('src/index.ts').map((s) => [s.method, s.status])).toEqual([['serving', 'migrated']]);
    expect(report.files.filter((f) => f.path.includes(`${path.sep}tests${path.sep}`)).flatMap((f) => f.sites)).toEqual([]);

    const unit = fs.readFileSync(path.join(project.dir, 'tests/summary.test.ts'), 'utf8');
    expect(unit).toContain("await callHelperAnsweringInputRequests(summarise, [server as unknown as Server, 'lists'], (args) => args[0], 'createMessage')");
    expect(unit).not.toContain(TODO_MARKER);
    expect(fs.readFileSync(path.join(project.dir, 'vitest.config.ts'), 'utf8')).toContain(`  test: {\n    setupFiles: ['./${SETUP}'],\n    include: ['tests/**/*.test.ts'],\n  },`);
    // the private tools/call handler's empty context: the v2 seam's first round
    expect(fs.readFileSync(path.join(project.dir, 'tests/handlers.test.ts'), 'utf8')).toContain("arguments: {} } }, { mcpReq: { requestState: () => undefined, signal: new AbortController().signal } });");
    const setup = fs.readFileSync(path.join(project.dir, SETUP), 'utf8');
    expect(setup).toContain(`process.env.${KEY} ||= randomBytes(32).toString('base64url');`);
    expect(run.stdout).toContain(`the project's vitest tests get a random one per run from ${SETUP} (added to test.setupFiles) when their environment has none`);
  });

  it("the project's tests pass after the migration with no key in their environment, as many as before", () => {
    expectTestOutcomes(project.dir, [], 5, [], NO_KEY);
  });

  it('the test creating the server fails without the setup file (the key is what it needed)', () => {
    withBug(path.join(project.dir, 'vitest.config.ts'), /setupFiles: \[[^\]]*\],/, '', () => {
      const outcomes = runProjectTests(project.dir, ['tests/server.test.ts'], NO_KEY);
      expect(failingTests(outcomes)).toEqual(['lists the tool of a fresh server']);
      expect(outcomes[0]!.failureMessages!.join('\n')).toContain(`${KEY} must be set to a random secret of at least 32 bytes`);
    });
  });

  it('a key set in the environment is kept; without one each run gets its own random key', () => {
    fs.writeFileSync(path.join(project.dir, 'tests/key-probe.test.ts'), KEY_PROBE);
    const probe = path.join(project.dir, 'key.out');
    const keyOf = (key: string | undefined) => {
      expect(runProjectTests(project.dir, ['tests/key-probe.test.ts'], { [KEY]: key, KEY_PROBE_OUT: probe })).toEqual([{ title: 'records the key', status: 'passed' }]);
      return fs.readFileSync(probe, 'utf8');
    };
    const given = 'a-key-of-the-environment-of-at-least-32-bytes';
    expect(keyOf(given)).toBe(given);
    const first = keyOf(undefined);
    const second = keyOf(undefined);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    fs.rmSync(path.join(project.dir, 'tests/key-probe.test.ts'));
  });

  it('a migrated helper that ignores the answer fails the rewritten unit test', () => {
    withBug(path.join(project.dir, 'src/summary.ts'), /response\.content\.type === 'text'/, "response.content.type !== 'text'", () => {
      expect(failingTests(runProjectTests(project.dir, ['tests/summary.test.ts'], NO_KEY))).toEqual(['returns the model summary']);
    });
  });
});
