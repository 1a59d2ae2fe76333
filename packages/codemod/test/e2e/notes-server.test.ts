/**
 * End to end: the whole product on a company-shaped v1 project (`fixtures/e2e/notes-server`: tools and
 * prompts registered from several modules, a confirmation helper shared by two tools, a wizard with an
 * effect between its questions, sampling behind a capability check, roots, a roots listener in a
 * notification handler, stdio and stateful Express hosting, vitest tests spying on the legacy calls).
 *
 * One `migrate` by the BUILT CLI on a committed copy, then what a user would check: the JSON report,
 * package.json, the codec module, `tsc` with the project's own strict tsconfig (which also builds the
 * JS that is then run), the project's own migrated vitest tests run for real, the built HTTP and stdio
 * entries served to a 2026-07-28 client and to v1 SDK clients, a second run and `check`, and ESLint
 * with the plugin's recommended config.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { assertBuilt, cliPath, commitAll, git, repoRoot, snapshot } from '../cli/helpers.js';
import { vitestRunArgs } from '../cli/vitest-run.js';
import { CHILD_PROCESS_TIMEOUT_MS } from '../child-timeouts.js';

const FIXTURE = path.join(repoRoot, 'fixtures/e2e/notes-server');
const TSC = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
const ESLINT = path.join(repoRoot, 'node_modules/eslint/bin/eslint.js');
const STATE_KEY = randomBytes(48).toString('base64url');
const execFileAsync = promisify(execFile);

interface ReportSite {
  line: number;
  method: string;
  status: string;
  reason?: string;
  handler?: string;
}
interface Report {
  summary: { sitesFound: number; sitesMigrated: number; sitesFlagged: number; filesChanged: number; filesFailed: number };
  files: { path: string; status: string; sites: ReportSite[] }[];
  packageJson?: { path: string; removed: Record<string, string>; added: Record<string, string> }[];
}

let dir: string;
let firstRun: { status: number; stdout: string; stderr: string };
let report: Report;
const children: ChildProcess[] = [];
const tempDirs: string[] = [];

/** Environment for processes run in the project: no vitest state of this run leaks into them. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'));
  return { ...env, NO_COLOR: '1', ...extra };
}

/** 1-based line of the `nth` line containing `needle` in the ORIGINAL fixture file. */
function lineOf(rel: string, needle: string, nth = 1): number {
  const lines = fs.readFileSync(path.join(FIXTURE, rel), 'utf8').split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) if (lines[i]!.includes(needle) && ++seen === nth) return i + 1;
  throw new Error(`${rel}: no line ${nth} containing ${needle}`);
}

function linesOf(rel: string, needle: string): number[] {
  return fs
    .readFileSync(path.join(FIXTURE, rel), 'utf8')
    .split('\n')
    .flatMap((line, i) => (line.includes(needle) ? [i + 1] : []));
}

/** Lines of the statements that spy on a legacy call (a chained `vi\n.spyOn(...)` starts a line above). */
function spyStatements(): number[] {
  const lines = fs.readFileSync(path.join(FIXTURE, 'test/tools.test.ts'), 'utf8').split('\n');
  return linesOf('test/tools.test.ts', 'spyOn(').map((line) => (lines[line - 1]!.trim().startsWith('.spyOn(') ? line - 1 : line));
}

const readOut = (rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8');

interface TestOutcome {
  title: string;
  status: string;
  failureMessages: string[];
}

/** Runs the project's own vitest tests in a subprocess; each test's outcome. */
async function runProjectTests(root: string): Promise<{ status: number; outcomes: TestOutcome[] }> {
  const out = path.join(os.tmpdir(), `mcp-mrtr-e2e-vitest-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const args = vitestRunArgs(root, out, ['test/tools.test.ts']);
  const status = await execFileAsync(process.execPath, args, { cwd: root, env: childEnv({ MCP_REQUEST_STATE_KEY: STATE_KEY }), timeout: CHILD_PROCESS_TIMEOUT_MS }).then(
    () => 0,
    (error: { code?: number; stdout?: string; stderr?: string }) => {
      if (!fs.existsSync(out)) throw new Error(`vitest wrote no report (exit ${error.code}):\n${error.stdout}\n${error.stderr}`);
      return error.code ?? -1;
    },
  );
  const result = JSON.parse(fs.readFileSync(out, 'utf8')) as { testResults: { assertionResults: TestOutcome[] }[] };
  fs.rmSync(out);
  return { status, outcomes: result.testResults.flatMap((f) => f.assertionResults) };
}

const failures = (outcomes: TestOutcome[]) => outcomes.filter((o) => o.status !== 'passed').map((o) => `${o.title}: ${o.failureMessages.join('\n')}`);

let testsBefore: { status: number; outcomes: TestOutcome[] };

/** A copy of the fixture project with the repository's node_modules reachable. */
function copyProject(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-e2e-'));
  tempDirs.push(root);
  fs.cpSync(FIXTURE, root, { recursive: true });
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules\ndist\n');
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return root;
}

beforeAll(async () => {
  assertBuilt();
  dir = copyProject();
  commitAll(dir);
  // the v1 project's own tests, on a second copy while the migration runs
  const testsRun = runProjectTests(copyProject());
  const migration = execFileAsync(process.execPath, [cliPath, 'migrate', '.', '--json', 'report.json'], { cwd: dir, env: childEnv(), timeout: 600_000 }).then(
    ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ status: error.code ?? -1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
  [testsBefore, firstRun] = await Promise.all([testsRun, migration]);
  report = JSON.parse(readOut('report.json')) as Report;
}, 900_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill();
  for (const root of tempDirs) fs.rmSync(root, { recursive: true, force: true });
});

/* ---- Clients: one scripted user, answering the same on every era ---- */

const ROOTS = [
  { uri: 'file:///home/ada/src', name: 'src' },
  { uri: 'file:///home/ada/acme', name: 'notes' },
];
const SAMPLED = { model: 'claude-test', role: 'assistant', content: { type: 'text', text: 'Migration first, then groceries.' } };

function elicitationAnswer(message: string): Record<string, unknown> {
  if (message.startsWith('Name the new notebook')) return { action: 'accept', content: { title: 'Q3 Planning', visibility: 'team' } };
  if (message.startsWith('Pick a layout')) return { action: 'accept', content: { layout: 'runbook' } };
  if (message.startsWith('How should the review sound')) return { action: 'accept', content: { tone: 'direct' } };
  if (message.startsWith('Delete ')) return { action: 'decline' };
  throw new Error(`unexpected question: ${message}`);
}

interface Conversation {
  /** questions asked, in order, by kind */
  asked: string[];
  call(name: string, args: Record<string, unknown>): Promise<string>;
  prompt(name: string, args: Record<string, string>): Promise<string>;
  close(): Promise<void>;
}

const textOf = (r: unknown) => ((r as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');
const promptText = (p: { description?: string; messages: Array<{ content: unknown }> }) =>
  `${p.description}|${p.messages.map((m) => (m.content as { text?: string }).text).join('\n')}`;

type Capabilities = { elicitation?: Record<string, never>; sampling?: Record<string, never>; roots?: Record<string, never> };
const ALL_CAPABILITIES: Capabilities = { elicitation: {}, sampling: {}, roots: {} };

async function v1Conversation(transport: Parameters<V1Client['connect']>[0], capabilities = ALL_CAPABILITIES): Promise<Conversation> {
  const asked: string[] = [];
  const client = new V1Client({ name: 'legacy-2025', version: '1.0.0' }, { capabilities });
  if (capabilities.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(`elicit: ${req.params.message}`);
      return elicitationAnswer(req.params.message) as never;
    });
  }
  if (capabilities.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      asked.push('sample');
      return SAMPLED as never;
    });
  }
  if (capabilities.roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked.push('roots');
      return { roots: ROOTS };
    });
  }
  await client.connect(transport);
  return {
    asked,
    call: async (name, args) => textOf(await client.callTool({ name, arguments: args })),
    prompt: async (name, args) => promptText(await client.getPrompt({ name, arguments: args })),
    close: () => client.close(),
  };
}

async function mrtrConversation(transport: Parameters<V2Client['connect']>[0], capabilities = ALL_CAPABILITIES): Promise<Conversation> {
  const asked: string[] = [];
  const client = new V2Client(
    { name: 'mrtr-2026', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async (req) => {
      const message = String((req.params as { message?: string }).message);
      asked.push(`elicit: ${message}`);
      return elicitationAnswer(message) as never;
    });
  }
  if (capabilities.sampling) {
    client.setRequestHandler('sampling/createMessage', async () => {
      asked.push('sample');
      return SAMPLED as never;
    });
  }
  if (capabilities.roots) {
    client.setRequestHandler('roots/list', async () => {
      asked.push('roots');
      return { roots: ROOTS };
    });
  }
  await client.connect(transport);
  return {
    asked,
    call: async (name, args) => textOf(await client.callTool({ name, arguments: args })),
    prompt: async (name, args) => promptText(await client.getPrompt({ name, arguments: args })),
    close: () => client.close(),
  };
}

const EXPECTED_QUESTIONS = [
  'elicit: Name the new notebook and choose who can see it',
  'elicit: Pick a layout for "Q3 Planning"',
  'elicit: Delete "Groceries" from inbox. This cannot be undone. Continue?',
  'sample',
  'roots',
  'elicit: How should the review sound?',
];

/** The same user session on any era; `rounds` counts POSTs per call when the transport is counted. */
async function runScript(c: Conversation, posts?: () => number) {
  const rounds: Record<string, number> = {};
  const results: Record<string, string> = {};
  const step = async (label: string, run: () => Promise<string>) => {
    const before = posts?.() ?? 0;
    results[label] = await run();
    if (posts) rounds[label] = posts() - before;
  };
  await step('create_notebook', () => c.call('create_notebook', { owner: 'ada' }));
  await step('delete_note', () => c.call('delete_note', { notebook: 'inbox', id: 'n2' }));
  await step('summarize_notebook', () => c.call('summarize_notebook', { slug: 'inbox' }));
  await step('import_notes', () => c.call('import_notes', { folder: 'meetings' }));
  await step('review_note', () => c.prompt('review_note', { notebook: 'inbox', id: 'n1' }));
  await step('recent_activity', () => c.call('recent_activity', {}));
  return { results, rounds, asked: c.asked };
}

const SAME_ON_EVERY_ERA = {
  delete_note: 'Kept "Groceries".',
  summarize_notebook: 'Migration first, then groceries. (by claude-test)',
  import_notes: 'Importing /home/ada/acme/meetings/*.md from notes',
  review_note: 'Review of Standup|Be direct and specific.\n\nShip the MRTR migration. Ask Bob about the HMAC key rotation.',
};

/** Starts a built entry of the migrated project; resolves with the line it printed that matches `ready`. */
function startEntry(entry: string, ready: RegExp, env: Record<string, string>): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, [path.join(dir, entry)], { cwd: dir, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${entry} did not start:\n${out}`)), CHILD_PROCESS_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code}:\n${out}`));
    });
  });
}

describe('e2e: a multi-file v1 notes server, migrated by the built CLI', () => {
  it('migrate exits 1 (one site left to attend to) and reports every site where it is', () => {
    expect(firstRun.stderr).toBe('');
    expect(firstRun.status, firstRun.stdout).toBe(1);
    const sites = report.files.flatMap((f) => f.sites.map((s) => ({ file: f.path, line: s.line, method: s.method, status: s.status })));
    const elicit = 'elicitation/create';
    expect(sites).toEqual([
      { file: 'src/hooks.ts', line: lineOf('src/hooks.ts', 'server.server.listRoots()'), method: 'roots/list', status: 'flagged' },
      { file: 'src/http.ts', line: lineOf('src/http.ts', 'transport = new StreamableHTTPServerTransport('), method: 'serving', status: 'migrated' },
      { file: 'src/prompts.ts', line: lineOf('src/prompts.ts', 'server.server.elicitInput('), method: elicit, status: 'migrated' },
      { file: 'src/stdio.ts', line: lineOf('src/stdio.ts', 'await server.connect(transport)'), method: 'serving', status: 'migrated' },
      { file: 'src/tools/confirm.ts', line: lineOf('src/tools/confirm.ts', 'server.server.elicitInput('), method: elicit, status: 'migrated' },
      { file: 'src/tools/notebooks.ts', line: lineOf('src/tools/notebooks.ts', 'server.server.elicitInput(', 1), method: elicit, status: 'migrated' },
      { file: 'src/tools/notebooks.ts', line: lineOf('src/tools/notebooks.ts', 'server.server.elicitInput(', 2), method: elicit, status: 'migrated' },
      { file: 'src/tools/summary.ts', line: lineOf('src/tools/summary.ts', 'server.server.createMessage('), method: 'sampling/createMessage', status: 'migrated' },
      { file: 'src/tools/workspace.ts', line: lineOf('src/tools/workspace.ts', 'server.server.listRoots()'), method: 'roots/list', status: 'migrated' },
      ...spyStatements().map((line) => ({ file: 'test/tools.test.ts', line, method: 'test-mock', status: 'migrated' })),
    ]);
    expect(linesOf('test/tools.test.ts', 'spyOn(')).toHaveLength(7);
    expect(report.summary).toEqual({ sitesFound: 16, sitesMigrated: 15, sitesFlagged: 1, filesChanged: 11, filesFailed: 0, sitesSuppressed: 0, suppressionsWithoutReason: 0 });
    // filesChanged counts rewritten files; the codec and capabilities modules are listed as created
    expect(report.files.filter((f) => f.status === 'created').map((f) => f.path).sort()).toEqual(['src/mcp-client-capabilities.ts', 'src/mcp-input-responses.ts', 'src/mcp-request-state.ts']);

    const hook = report.files.find((f) => f.path === 'src/hooks.ts')!.sites[0]!;
    expect(hook.reason).toMatch(/notification handler for notifications\/roots\/list_changed .*no MRTR form/);
    expect(report.files.find((f) => f.path === 'src/http.ts')!.sites[0]!.reason).toMatch(/routed first to createMcpHandler\(createServer\).*session wiring is kept for 2025-era clients/);
    expect(report.files.find((f) => f.path === 'src/stdio.ts')!.sites[0]!.reason).toContain('serveStdio(createServer)');
    expect(firstRun.stdout).toMatch(/src\/hooks\.ts:\d+\s+roots\/list: notification handler/);
    expect(firstRun.stdout).toContain('Files changed (11):');
    expect(firstRun.stdout).toContain("Files created (3):\n  src/mcp-client-capabilities.ts\n  src/mcp-input-responses.ts\n  src/mcp-request-state.ts\n");
    expect(firstRun.stdout).toMatch(/Secret for multi-round handlers \(src\/mcp-request-state\.ts created\)/);
  });

  it('the migrated sources: no v1 SDK left, one marker (above the hook), stdio and stateful HTTP serving rewritten', () => {
    const files = Object.entries(snapshot(dir)).filter(([rel]) => /^(src|test)\/.*\.ts$/.test(rel));
    expect(files.length).toBe(15);
    for (const [rel, text] of files) expect(text, rel).not.toContain('@modelcontextprotocol/sdk');
    const markers = files.flatMap(([rel, text]) => text.split('\n').flatMap((line, i) => (line.includes(TODO_MARKER) ? [{ rel, next: text.split('\n')[i + 1]!.trim() }] : [])));
    expect(markers).toEqual([{ rel: 'src/hooks.ts', next: 'const { roots } = await server.server.listRoots();' }]);

    const stdio = readOut('src/stdio.ts');
    expect(stdio).toContain("import { serveStdio } from '@modelcontextprotocol/server/stdio';");
    expect(stdio).toContain('serveStdio(createServer);');
    expect(stdio).not.toContain('.connect(');
    const http = readOut('src/http.ts');
    // how it is written is the serving stage's business (fixtures/cases/serving-http-*); that it serves is tested below
    expect(http).toMatch(/toNodeHandler\(createMcpHandler\(createServer\b/);
    expect(http).toContain('isLegacyRequest(');
    expect(http).toContain('app.use(express.json());');
    expect(http).toContain('new NodeStreamableHTTPServerTransport({');

    // the shared helper asks through ctx for both tools that use it
    expect(readOut('src/tools/confirm.ts')).toContain('inputRequired(');
    expect(readOut('src/tools/confirm.ts')).toMatch(/export async function confirmDestructive\(server: McpServer, action: string, ctx: \w+, replyKey: string\)/);
    expect(readOut('src/tools/notes.ts')).toMatch(/confirmDestructive\(server, [^\n]*, ctx, '\w+'\)/);
    expect(readOut('src/tools/notebooks.ts')).toMatch(/confirmDestructive\(server, `Archive \$\{notebook\.title\} and its \$\{notebook\.notes\.length\} notes`, ctx, '\w+'\)/);
    const test = readOut('test/tools.test.ts');
    expect(test).not.toContain('spyOn(');
    expect(test).toContain("client.setRequestHandler('sampling/createMessage', (request) => sample(request.params));");
  });

  it('package.json: the v1 SDK out, server, node (for the Express hosting) and client (for the tests) in, the rest kept', () => {
    const manifest = JSON.parse(readOut('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const original = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'package.json'), 'utf8')) as typeof manifest;
    const all = { ...manifest.dependencies, ...manifest.devDependencies };
    expect(all['@modelcontextprotocol/sdk']).toBeUndefined();
    expect(manifest.dependencies['@modelcontextprotocol/server']).toMatch(/^\^2\.\d+\.\d+$/);
    expect(manifest.dependencies['@modelcontextprotocol/node']).toMatch(/^\^2\.\d+\.\d+$/);
    expect(all['@modelcontextprotocol/client']).toMatch(/^\^2\.\d+\.\d+$/);
    expect(manifest.dependencies.express).toBe(original.dependencies.express);
    expect(manifest.dependencies.zod).toBe(original.dependencies.zod);
    // only the tests import the client: it is a dev dependency; the other dev dependencies are untouched
    expect(manifest.devDependencies['@modelcontextprotocol/client']).toMatch(/^\^2\.\d+\.\d+$/);
    expect(Object.fromEntries(Object.entries(manifest.devDependencies).filter(([name]) => name !== '@modelcontextprotocol/client'))).toEqual(original.devDependencies);
    expect(report.packageJson).toEqual([
      {
        path: 'package.json',
        removed: { '@modelcontextprotocol/sdk': '^1.32.0' },
        added: { '@modelcontextprotocol/client': all['@modelcontextprotocol/client'], '@modelcontextprotocol/node': manifest.dependencies['@modelcontextprotocol/node'], '@modelcontextprotocol/server': manifest.dependencies['@modelcontextprotocol/server'] },
      },
    ]);
  });

  it('one codec module, keyed from MCP_REQUEST_STATE_KEY, wired into the factory', () => {
    const codec = readOut('src/mcp-request-state.ts');
    expect(codec).toContain('process.env.MCP_REQUEST_STATE_KEY');
    expect(codec).toContain('process.env.MCP_REQUEST_STATE_KEY_PREVIOUS');
    expect(codec).toContain("createCipheriv('aes-256-gcm'");
    expect(Object.keys(snapshot(dir)).filter((rel) => rel.endsWith('mcp-request-state.ts'))).toEqual(['src/mcp-request-state.ts']);
    const server = readOut('src/server.ts');
    expect(server).toContain("import { requestStateCodec } from './mcp-request-state.js';");
    expect(server).toContain('requestState: { verify: requestStateCodec.verify },');
  });

  it('typechecks with the real compiler and the project own strict tsconfig (and builds dist/)', () => {
    const run = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8', timeout: CHILD_PROCESS_TIMEOUT_MS });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'dist/src/http.js'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'dist/src/stdio.js'))).toBe(true);
  });

  it("the project's own vitest tests pass on v1 before, and migrated after, when run for real", async () => {
    expect(failures(testsBefore.outcomes)).toEqual([]);
    expect(testsBefore.outcomes).toHaveLength(9);
    const after = await runProjectTests(dir);
    expect(failures(after.outcomes)).toEqual([]);
    expect(after.outcomes.map((o) => o.title)).toEqual(testsBefore.outcomes.map((o) => o.title));
    expect(after.status).toBe(0);
  });

  it('the built HTTP app refuses to start without the requestState key', () => {
    const run = spawnSync(process.execPath, [path.join(dir, 'dist/src/http.js')], { cwd: dir, encoding: 'utf8', env: childEnv({ PORT: '0', MCP_REQUEST_STATE_KEY: '' }), timeout: CHILD_PROCESS_TIMEOUT_MS });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('MCP_REQUEST_STATE_KEY must be set');
  });

  it('the built HTTP app serves a 2026-07-28 client through the MRTR rounds and a v1 client through its session, with the same answers', async () => {
    const { match } = await startEntry('dist/src/http.js', /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/, { PORT: '0', MCP_REQUEST_STATE_KEY: STATE_KEY });
    const url = new URL(match[1]!);

    let posts = 0;
    const counting = async (u: string | URL, init?: RequestInit) => {
      if ((init?.method ?? 'GET') === 'POST') posts++;
      return fetch(u, init);
    };
    const modern = await mrtrConversation(new StreamableHTTPClientTransport(url, { fetch: counting }));
    const era2026 = await runScript(modern, () => posts).finally(() => modern.close());

    const legacy = await v1Conversation(new V1HttpTransport(url));
    const era2025 = await runScript(legacy).finally(() => legacy.close());

    // the wizard: asks, asks again with the effect done, completes: three rounds, the slug reserved once
    expect(era2026.rounds).toEqual({ create_notebook: 3, delete_note: 2, summarize_notebook: 2, import_notes: 2, review_note: 2, recent_activity: 1 });
    expect(era2026.asked).toEqual(EXPECTED_QUESTIONS);
    expect(era2025.asked).toEqual(EXPECTED_QUESTIONS);
    expect(era2026.results.create_notebook).toBe('Created q3-planning (team, runbook layout).');
    expect(era2025.results.create_notebook).toBe('Created q3-planning-2 (team, runbook layout).');
    for (const [label, text] of Object.entries(SAME_ON_EVERY_ERA)) {
      expect(era2026.results[label], label).toBe(text);
      expect(era2025.results[label], label).toBe(text);
    }
    expect(era2026.results.recent_activity).toBe(['reserved q3-planning for ada', 'created q3-planning'].join('\n'));
    expect(era2025.results.recent_activity).toBe(['reserved q3-planning for ada', 'created q3-planning', 'reserved q3-planning-2 for ada', 'created q3-planning-2'].join('\n'));

    // the capability check, per request: a client that cannot sample gets the first lines, in one round, on both eras
    const firstLines = 'Standup: Ship the MRTR migration\nGroceries: Coffee, oat milk, bread.';
    const noSampling = await mrtrConversation(new StreamableHTTPClientTransport(url, { fetch: counting }), { elicitation: {} });
    const postsBefore = posts;
    try {
      expect(await noSampling.call('summarize_notebook', { slug: 'inbox' })).toBe(firstLines);
      expect(posts - postsBefore).toBe(1);
    } finally {
      await noSampling.close();
    }
    const legacyNoSampling = await v1Conversation(new V1HttpTransport(url), { elicitation: {} });
    try {
      expect(await legacyNoSampling.call('summarize_notebook', { slug: 'inbox' })).toBe(firstLines);
    } finally {
      await legacyNoSampling.close();
    }
    expect([...noSampling.asked, ...legacyNoSampling.asked]).toEqual([]);
  });

  it('the built stdio entry serves a 2026-07-28 client and a 2025-era v1 client', async () => {
    const env = Object.fromEntries(Object.entries(childEnv({ MCP_REQUEST_STATE_KEY: STATE_KEY })).filter((e): e is [string, string] => e[1] !== undefined));
    const params = { command: process.execPath, args: [path.join(dir, 'dist/src/stdio.js')], cwd: dir, env, stderr: 'ignore' as const };
    const modern = await mrtrConversation(new StdioClientTransport(params));
    const era2026 = await runScript(modern).finally(() => modern.close());
    const legacy = await v1Conversation(new V1StdioTransport(params));
    const era2025 = await runScript(legacy).finally(() => legacy.close());
    for (const era of [era2026, era2025]) {
      expect(era.asked).toEqual(EXPECTED_QUESTIONS);
      expect(era.results.create_notebook).toBe('Created q3-planning (team, runbook layout).');
      expect(era.results.recent_activity).toBe('reserved q3-planning for ada\ncreated q3-planning');
      for (const [label, text] of Object.entries(SAME_ON_EVERY_ERA)) expect(era.results[label], label).toBe(text);
    }
  });

  it('a second migrate changes nothing, and check exits 1 only because of the flagged hook', async () => {
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'migrated');
    const before = snapshot(dir);
    const cli = (...args: string[]) =>
      execFileAsync(process.execPath, [cliPath, ...args], { cwd: dir, env: childEnv(), timeout: CHILD_PROCESS_TIMEOUT_MS }).then(
        () => 0,
        (error: { code?: number }) => error.code ?? -1,
      );
    const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-e2e-reports-'));
    try {
      const [second, check] = await Promise.all([cli('migrate', '.', '--json', path.join(reports, 'second.json')), cli('check', '.', '--json', path.join(reports, 'check.json'))]);
      expect(snapshot(dir)).toEqual(before);
      expect(git(dir, 'status', '--porcelain')).toBe('');
      const again = JSON.parse(fs.readFileSync(path.join(reports, 'second.json'), 'utf8')) as Report;
      expect(again.summary).toEqual({ sitesFound: 1, sitesMigrated: 0, sitesFlagged: 1, filesChanged: 0, filesFailed: 0, sitesSuppressed: 0, suppressionsWithoutReason: 0 });
      expect(second).toBe(1);

      expect(check).toBe(1);
      const checked = JSON.parse(fs.readFileSync(path.join(reports, 'check.json'), 'utf8')) as Report;
      const legacySites = checked.files.flatMap((f) => f.sites.map((s) => ({ file: f.path, method: s.method, status: s.status })));
      expect(legacySites).toEqual([{ file: 'src/hooks.ts', method: 'roots/list', status: 'flagged' }]);
    } finally {
      fs.rmSync(reports, { recursive: true, force: true });
    }
  });

  it('ESLint with @mcp-mrtr/eslint-plugin recommended reports only the line under the marker', () => {
    fs.writeFileSync(
      path.join(dir, 'eslint.config.js'),
      `import tseslint from 'typescript-eslint';
import mcpMrtr from '@mcp-mrtr/eslint-plugin';

export default [{ ignores: ['dist/**'] }, { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, mcpMrtr.configs.recommended];
`,
    );
    const run = spawnSync(process.execPath, [ESLINT, '.', '--format', 'json'], { cwd: dir, encoding: 'utf8', env: childEnv(), timeout: CHILD_PROCESS_TIMEOUT_MS });
    const results = JSON.parse(run.stdout) as { filePath: string; messages: { line: number; ruleId: string | null; message: string }[] }[];
    expect(results.map((r) => path.relative(dir, r.filePath)).filter((rel) => rel.startsWith('src/'))).toHaveLength(14);
    const findings = results.flatMap((r) => r.messages.map((m) => ({ file: path.relative(dir, r.filePath), line: m.line, ruleId: m.ruleId, message: m.message })));
    const underMarker = (f: (typeof findings)[number]) => readOut(f.file).split('\n')[f.line - 2]?.includes(TODO_MARKER) === true;
    expect(findings.filter((f) => !underMarker(f))).toEqual([]);
    expect(findings.map((f) => `${f.file}:${f.ruleId}`)).toEqual(['src/hooks.ts:@mcp-mrtr/no-server-initiated-requests']);
  });
});
