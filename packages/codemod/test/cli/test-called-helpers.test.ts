/**
 * A helper that asks the user, called by a tool and directly by the project's unit tests with a
 * fake server (`fixtures/test-mocks/helper-tests`). Migrated by the BUILT CLI: the helper is
 * rewritten for the tool, the tests' calls go through the driver written into the test file, which
 * answers the migrated helper's input requests with the tests' own fake; the project's tests then
 * run for real (vitest subprocess) and pass. A helper sending on a module-level server the test
 * wires cannot be driven: it stays as it is for its test, flagged with that reason, the tool calls
 * a migrated copy of it, and its test passes as before. The tool works on a 2026-07-28 client, and a deliberate bug in the migrated helper fails
 * the rewritten tests (they still test it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { repoRoot } from './helpers.js';
import { expectTestOutcomes, failingTests, migrateProject, projectForFile, runProjectTests, typecheckProject, withBug, type ReportSite } from './vitest-run.js';

const PROJECT = path.join(repoRoot, 'fixtures/test-mocks/helper-tests');

const COLOUR_TESTS = ['returns the colour the user picked', 'gives undefined when the user declines', 'uses the fallback without asking when the client cannot show forms'];

/** The tool on a 2026-07-28 client that declares form elicitation and picks green. */
const ERA_2026_TEST = `import { expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createServer, painted } from '../src/server.js';

it('paints after the pick on 2026-07-28', async () => {
  const handler = createMcpHandler(createServer);
  const pick = vi.fn().mockResolvedValue({ action: 'accept', content: { colour: 'green' } });
  const client = new Client({ name: 'test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', (request) => pick(request.params));
  await client.connect(new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), { fetch: (u, i) => handler.fetch(new Request(u, i)) }));
  const result = await client.callTool({ name: 'paint_wall', arguments: { wall: 'north' } });
  expect(result.content).toEqual([{ type: 'text', text: 'Painted the north wall green' }]);
  expect(painted).toEqual(['north:green']);
  expect(pick).toHaveBeenCalledTimes(1);
  expect(pick.mock.calls[0]![0]).toMatchObject({ message: 'Which colour for the north wall?' });
});
`;

const project = projectForFile(PROJECT, 'mcp-mrtr-helper-tests-');

describe('a request helper that tools and unit tests both call', () => {
  it('the legacy tests pass on the v1 server before the migration', () => {
    expectTestOutcomes(project.dir, [], 5, []);
  });

  it('migrate rewrites the helper for the tool, routes the tests through the driver, and says so per caller', async () => {
    const { report } = await migrateProject<{ files: { path: string; sites: ReportSite[] }[] }>(project.dir, 1); // the helper on the module-level server stays flagged
    const sitesOf = (name: string) => report.files.find((f) => f.path.endsWith(name))?.sites ?? [];

    const [colour] = sitesOf('src/colour.ts');
    expect(colour).toMatchObject({ line: 9, method: 'elicitation/create', status: 'migrated' });
    expect(colour!.callers).toEqual([
      {
        caller: 'the test `askColour` (colour.test.ts:10)',
        status: 'migrated',
        reason:
          "its calls of `askColour` (colour.test.ts:13, colour.test.ts:20, colour.test.ts:25) go through callHelperAnsweringInputRequests, added to the test file: it answers the rewritten helper's input requests with the test's own `elicitInput` and calls it again",
      },
      { caller: 'tools/call handler `paint_wall`', status: 'migrated' },
    ]);
    // the fake the driver answers with is not a mock left behind
    expect(sitesOf('test/colour.test.ts')).toEqual([]);
    const colourTest = fs.readFileSync(path.join(project.dir, 'test/colour.test.ts'), 'utf8');
    expect(colourTest).toContain(
      "expect(await callHelperAnsweringInputRequests(askColour, [server as unknown as McpServer, 'Which colour?', undefined], (args) => args[0].server, 'elicitInput')).toBe('red');",
    );
    expect(colourTest).not.toContain(TODO_MARKER);

    const [reason] = sitesOf('src/reason.ts');
    expect(reason).toMatchObject({ line: 13, status: 'flagged' });
    expect(reason!.reason).toBe(
      'the test `askReason` (reason.test.ts:5) calls the code of this request directly: rewriting it for the handlers would change what the test calls; migrated for tools/call handler `skip_step`, which now calls `askReasonForHandlers`, a copy of `askReason` rewritten for it',
    );
    // the tool calls the migrated copy; the helper its test calls still sends on the wired server
    // (with its parameters built by the function it shares with the copy)
    expect(fs.readFileSync(path.join(project.dir, 'src/server.ts'), 'utf8')).toContain('await askReasonForHandlers(step, ctx, ');
    expect(fs.readFileSync(path.join(project.dir, 'src/reason.ts'), 'utf8')).toContain('const answer = await wired.server.elicitInput(askReasonRequest(step));');
    expect(fs.readFileSync(path.join(project.dir, 'test/reason.test.ts'), 'utf8')).not.toContain('callHelperAnsweringInputRequests');
  });

  it("the project's tests pass against the migrated helpers, as many as before", () => {
    expectTestOutcomes(project.dir, [], 5, []);
  });

  it('the rewritten test files typecheck (tsc --strict) against the migrated server', () => {
    const run = typecheckProject(project.dir, ['src', 'test']);
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('a migrated helper that ignores the answer fails the rewritten tests', () => {
    withBug(path.join(project.dir, 'src/colour.ts'), /answer\.action === 'accept' \?/, "answer.action !== 'accept' ?", () => {
      expect(failingTests(runProjectTests(project.dir, ['test/colour.test.ts']))).toEqual([COLOUR_TESTS[1], COLOUR_TESTS[0]].sort());
    });
  });

  it('a migrated helper that never asks fails the rewritten tests', () => {
    withBug(path.join(project.dir, 'src/colour.ts'), /if \(answer === undefined\) \{/, 'if (false) {', () => {
      expect(failingTests(runProjectTests(project.dir, ['test/colour.test.ts']))).toEqual([COLOUR_TESTS[1], COLOUR_TESTS[0]].sort());
    });
  });

  it('the migrated tool asks a 2026-07-28 client and paints with its answer', () => {
    fs.writeFileSync(path.join(project.dir, 'test/era-2026.test.ts'), ERA_2026_TEST);
    expect(runProjectTests(project.dir, ['test/era-2026.test.ts'])).toEqual([{ title: 'paints after the pick on 2026-07-28', status: 'passed' }]);
  });
});
