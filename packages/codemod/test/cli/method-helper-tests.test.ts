/**
 * Request helpers that are methods of a class holding the server in a field, called by tools and
 * directly by the project's unit tests on an instance built with a fake server
 * (`fixtures/test-mocks/method-helper-tests`): one field set from the constructor's options, one by
 * a setter the test calls. Migrated by the BUILT CLI: each method is rewritten for its tool, the
 * tests' calls go through the driver written into the test file, which calls the method bound to
 * the test's instance and answers its input requests with the fake that instance's field holds; the
 * project's tests then run for real (vitest subprocess) and pass, as many as before. The tools work
 * on a 2026-07-28 client, and a deliberate bug in a migrated method fails the rewritten tests (they
 * still test it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { repoRoot } from './helpers.js';
import { expectTestOutcomes, failingTests, migrateProject, projectForFile, runProjectTests, typecheckProject, withBug, type ReportSite } from './vitest-run.js';

const PROJECT = path.join(repoRoot, 'fixtures/test-mocks/method-helper-tests');

const SEAT_TESTS = ['books nothing when the traveller declines', 'books the seat the traveller picked', 'offers only the seats of the row'];

/** Both tools on a 2026-07-28 client that declares form elicitation. */
const ERA_2026_TEST = `import { expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { bookings, createServer } from '../src/server.js';

it('books and orders after the answers on 2026-07-28', async () => {
  const handler = createMcpHandler(createServer);
  const answer = vi.fn().mockImplementation((params: { message: string }) => (params.message.startsWith('Which seat') ? { action: 'accept', content: { seat: 'D' } } : { action: 'accept', content: { meal: 'vegetarian' } }));
  const client = new Client({ name: 'test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', (request) => answer(request.params));
  await client.connect(new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), { fetch: (u, i) => handler.fetch(new Request(u, i)) }));
  expect((await client.callTool({ name: 'book_seat', arguments: { row: '7' } })).content).toEqual([{ type: 'text', text: 'Booked seat 7D' }]);
  expect((await client.callTool({ name: 'order_meal', arguments: { flight: 'LX318' } })).content).toEqual([{ type: 'text', text: 'Ordered a vegetarian meal on LX318' }]);
  expect(bookings).toEqual(['7D']);
  expect(answer).toHaveBeenCalledTimes(2);
});
`;

const project = projectForFile(PROJECT, 'mcp-mrtr-method-helper-tests-');

describe('request methods of a class holding the server, called by tools and by unit tests on an instance', () => {
  it('the legacy tests pass on the v1 server before the migration', () => {
    expectTestOutcomes(project.dir, [], 5, []);
  });

  it('migrate rewrites each method for its tool and routes the tests through the driver, bound to their instance', async () => {
    const { report } = await migrateProject<{ files: { path: string; sites: ReportSite[] }[] }>(project.dir, 0);
    const sitesOf = (name: string) => report.files.find((f) => f.path.endsWith(name))?.sites ?? [];

    const [seat] = sitesOf('src/seats.ts');
    expect(seat).toMatchObject({ line: 16, method: 'elicitation/create', status: 'migrated' });
    expect(seat!.callers).toEqual([
      {
        caller: 'the test `SeatPicker` (seats.test.ts:5)',
        status: 'migrated',
        reason:
          "its calls of `pickSeat` (seats.test.ts:16, seats.test.ts:23, seats.test.ts:29) go through callHelperAnsweringInputRequests, added to the test file: it answers the rewritten helper's input requests with the test's own `elicitInput` and calls it again",
      },
      { caller: 'tools/call handler `book_seat`', status: 'migrated' },
    ]);
    const [meal] = sitesOf('src/meals.ts');
    expect(meal).toMatchObject({ line: 14, method: 'elicitation/create', status: 'migrated' });
    // the fakes the driver answers with are not mocks left behind
    expect(sitesOf('test/seats.test.ts')).toEqual([]);
    expect(sitesOf('test/meals.test.ts')).toEqual([]);

    const seatsTest = fs.readFileSync(path.join(project.dir, 'test/seats.test.ts'), 'utf8');
    expect(seatsTest).toContain("expect(await callHelperAnsweringInputRequests(picker.pickSeat.bind(picker), ['12'], () => picker['server'], 'elicitInput')).toBe('12B');");
    expect(seatsTest).not.toContain(TODO_MARKER);
    const mealsTest = fs.readFileSync(path.join(project.dir, 'test/meals.test.ts'), 'utf8');
    expect(mealsTest).toContain("expect(await callHelperAnsweringInputRequests(desk.chooseMeal.bind(desk), ['LX318'], () => desk['server'], 'elicitInput')).toBe('vegan');");
    // one method for the tool and the tests: no copy beside a kept legacy one
    const seats = fs.readFileSync(path.join(project.dir, 'src/seats.ts'), 'utf8');
    expect(seats.match(/async pickSeat\(/g)).toHaveLength(1);
    expect(seats).not.toContain('elicitInput(');
  });

  it("the project's tests pass against the migrated methods, as many as before", () => {
    expectTestOutcomes(project.dir, [], 5, []);
  });

  it('the rewritten test files typecheck (tsc --strict) against the migrated server', () => {
    const run = typecheckProject(project.dir, ['src', 'test']);
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('a migrated method that ignores the answer fails the rewritten tests', () => {
    withBug(path.join(project.dir, 'src/seats.ts'), /answer\.action === 'accept' \?/, "answer.action !== 'accept' ?", () => {
      expect(failingTests(runProjectTests(project.dir, ['test/seats.test.ts']))).toEqual([SEAT_TESTS[0], SEAT_TESTS[1]]);
    });
  });

  it('a migrated method that never asks fails the rewritten tests', () => {
    withBug(path.join(project.dir, 'src/meals.ts'), /if \(answer === undefined\) \{/, 'if (false) {', () => {
      expect(failingTests(runProjectTests(project.dir, ['test/meals.test.ts']))).toEqual(['orders the meal the traveller chose']);
    });
  });

  it('the migrated tools ask a 2026-07-28 client and act on its answers', () => {
    fs.writeFileSync(path.join(project.dir, 'test/era-2026.test.ts'), ERA_2026_TEST);
    expect(runProjectTests(project.dir, ['test/era-2026.test.ts'])).toEqual([{ title: 'books and orders after the answers on 2026-07-28', status: 'passed' }]);
  });
});
