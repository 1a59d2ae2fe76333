/**
 * A project's unit tests that call a registered handler directly with a hand-built v1 `extra`
 * (`{ _meta: { progressToken }, requestId, sendNotification: vi.fn() }`) still pass after the
 * migration. The v1-to-v2 upgrade moves the handler's reads (`extra._meta` → `ctx.mcpReq._meta`,
 * `extra.sendNotification` → `ctx.mcpReq.notify`); the fakes (`fixtures/test-mocks/context-fakes`:
 * an inline one, one bound to a variable the test reads back, one returned by a helper, one in a
 * test that imports no SDK module) are moved with them. The project is migrated by the BUILT CLI and its tests run for real with vitest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers.js';
import { expectTestOutcomes, failingTests, migrateProject, projectForFile, runProjectTests } from './vitest-run.js';

const PROJECT = path.join(repoRoot, 'fixtures/test-mocks/context-fakes');

const project = projectForFile(PROJECT, 'mcp-mrtr-context-fakes-');

describe('fake v1 handler contexts in unit tests, migrated with the server', () => {
  it('the tests pass on the v1 server before the migration', () => {
    expectTestOutcomes(project.dir, [], 4, []);
  });

  it('migrate reshapes the fakes to the v2 context and the tests pass against the upgraded handler', async () => {
    const { report } = await migrateProject<{ files: { path: string; status: string; notes?: string[]; sites: { method: string; status: string }[] }[] }>(project.dir, 0);
    const server = report.files.find((f) => f.path.endsWith('src/server.ts'))!;
    expect(server.sites.map((s) => `${s.method} ${s.status}`)).toEqual(['elicitation/create migrated']);
    const testFile = report.files.find((f) => f.path.endsWith('test/run-job.test.ts'))!;
    expect(testFile.notes?.filter((n) => n.includes('handler-context fake'))).toEqual([
      '16: a v1 handler-context fake, reshaped to the v2 ServerContext the upgraded handlers read (_meta → mcpReq._meta, requestId → mcpReq.id, sendNotification → mcpReq.notify)',
      '30: a v1 handler-context fake, reshaped to the v2 ServerContext the upgraded handlers read (_meta → mcpReq._meta, requestId → mcpReq.id, sendNotification → mcpReq.notify)',
      '37: a v1 handler-context fake, reshaped to the v2 ServerContext the upgraded handlers read (_meta → mcpReq._meta, requestId → mcpReq.id, sendNotification → mcpReq.notify)',
    ]);
    const migrated = fs.readFileSync(path.join(project.dir, 'test/run-job.test.ts'), 'utf8');
    expect(migrated).toContain(
      "{ mcpReq: { _meta: { progressToken: 't1' }, id: 'r1', notify }, sessionId: 's1' }",
    );
    expect(migrated).toContain(['  return {', '    mcpReq: {', "      _meta: { progressToken: token },", "      id: 'r3',", '      notify: vi.fn(),', '    },', '  };'].join('\n'));
    expect(migrated).toContain('expect(extra.mcpReq.notify).not.toHaveBeenCalled()');
    expect(migrated).toContain('expect(extra.mcpReq.notify).toHaveBeenCalledTimes(1)');
    expect(migrated).not.toContain('sendNotification');
    // the handler itself now reads the v2 context
    expect(fs.readFileSync(path.join(project.dir, 'src/server.ts'), 'utf8')).toContain('ctx.mcpReq._meta?.progressToken');

    // a test that imports no SDK module (not upgraded itself) calls the upgraded handler too
    const plain = report.files.find((f) => f.path.endsWith('test/plain.test.ts'))!;
    expect(plain.status).toBe('changed');
    expect(plain.notes).toEqual(['11: a v1 handler-context fake, reshaped to the v2 ServerContext the upgraded handlers read (_meta → mcpReq._meta, requestId → mcpReq.id, sendNotification → mcpReq.notify)']);
    expect(fs.readFileSync(path.join(project.dir, 'test/plain.test.ts'), 'utf8')).toBe(
      fs.readFileSync(path.join(PROJECT, 'test/plain.test.ts'), 'utf8').replace("{ _meta: {}, requestId: 'r4', sendNotification: vi.fn() }", "{ mcpReq: { _meta: {}, id: 'r4', notify: vi.fn() } }"),
    );

    expectTestOutcomes(project.dir, [], 4, []);
  });

  it('the reshaped fakes are what makes them pass: the v1 fakes fail on the upgraded handler', () => {
    const file = path.join(project.dir, 'test/run-job.test.ts');
    const migrated = fs.readFileSync(file, 'utf8');
    const original = fs.readFileSync(path.join(PROJECT, 'test/run-job.test.ts'), 'utf8');
    // the upgraded test with its fakes as they were: only the SDK import differs from the original
    const v1Fakes = original.replace(/^import type \{ McpServer \} from .*$/m, migrated.match(/^import type \{ McpServer \} from .*$/m)![0]);
    const plainFile = path.join(project.dir, 'test/plain.test.ts');
    const plainMigrated = fs.readFileSync(plainFile, 'utf8');
    fs.writeFileSync(file, v1Fakes);
    fs.copyFileSync(path.join(PROJECT, 'test/plain.test.ts'), plainFile);
    try {
      const outcomes = runProjectTests(project.dir, []);
      expect(failingTests(outcomes)).toEqual(['reports nothing without a token', 'reports progress to the progress token', 'runs a job from a test that imports no SDK module', 'takes its fake from a helper']);
      expect(outcomes.find((o) => o.status !== 'passed')!.failureMessages!.join('\n')).toMatch(/Cannot read properties of undefined \(reading '_meta'\)/);
    } finally {
      fs.writeFileSync(file, migrated);
      fs.writeFileSync(plainFile, plainMigrated);
    }
  });
});
