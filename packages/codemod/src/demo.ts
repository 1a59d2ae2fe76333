/**
 * `npm run demo`: the whole workflow on the bundled v1 demo server (fixtures/demo).
 *
 *  1. copy it to a fresh directory inside the repository (`.tmp/demo-*`, gitignored, so the
 *     migrated code resolves `@modelcontextprotocol/server` from the repository's node_modules);
 *  2. commit it to a throwaway git repository there and run the built `mcp-mrtr migrate` on it as a
 *     subprocess; print the diff and the report;
 *  3. compile the migrated TypeScript, import its `createServer`, serve it through `createMcpHandler`
 *     and drive it with a real `@modelcontextprotocol/client` pinned to protocol 2026-07-28, in
 *     process, printing every round of the conversation.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createTwoFilesPatch } from 'diff';
import { ts } from 'ts-morph';
import { DEFAULT_STATE_KEY_ENV } from '@mcp-mrtr/surface';

type ClientModule = typeof import('@modelcontextprotocol/client');
type ServerModule = typeof import('@modelcontextprotocol/server');

const here = path.dirname(fileURLToPath(import.meta.url));
const packageRoot = path.resolve(here, '..');
const repoRoot = path.resolve(packageRoot, '..', '..');
const fixture = path.join(repoRoot, 'fixtures', 'demo');
const cli = path.join(packageRoot, 'dist', 'cli.js');

const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const paint = (code: string) => (s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
const bold = paint('1');
const dim = paint('2');
const cyan = paint('36');
const green = paint('32');
const yellow = paint('33');
const red = paint('31');

function say(line = ''): void {
  process.stdout.write(line + '\n');
}
function heading(title: string): void {
  say();
  say(bold(`━━ ${title} ${'━'.repeat(Math.max(0, 74 - title.length))}`));
}

function listFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === '.git' || entry.name === '.demo-build') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full, base));
    else if (entry.isFile()) out.push(path.relative(base, full));
  }
  return out.sort();
}

function snapshot(dir: string): Map<string, string> {
  return new Map(listFiles(dir).map((rel) => [rel, fs.readFileSync(path.join(dir, rel), 'utf8')]));
}

function colourDiff(patch: string): string {
  return patch
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return bold(line);
      if (line.startsWith('+')) return green(line);
      if (line.startsWith('-')) return red(line);
      if (line.startsWith('@@')) return cyan(line);
      return line;
    })
    .join('\n');
}

function gitCommitAll(dir: string): boolean {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=mcp-mrtr demo', '-c', 'user.email=demo@localhost', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  try {
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'v1 server');
    return true;
  } catch {
    return false;
  }
}

function makeWorkDir(): string {
  const base = path.join(repoRoot, '.tmp');
  fs.mkdirSync(base, { recursive: true });
  const dir = fs.mkdtempSync(path.join(base, 'demo-'));
  fs.cpSync(fixture, dir, { recursive: true, filter: (src) => !/[/\\](node_modules|dist)$/.test(src) });
  return dir;
}

/** Compiles the migrated sources to ESM JavaScript next to them (the demo runs on Node 20, no TS loader). */
function compile(dir: string): string {
  const out = path.join(dir, '.demo-build');
  for (const rel of listFiles(path.join(dir, 'src'))) {
    if (!/\.(ts|mts|js|mjs)$/.test(rel) || rel.endsWith('.d.ts')) continue;
    const source = fs.readFileSync(path.join(dir, 'src', rel), 'utf8');
    const { outputText, diagnostics } = ts.transpileModule(source, {
      fileName: rel,
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    });
    if (diagnostics?.length) throw new Error(`${rel}: ${ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, '\n')}`);
    const target = path.join(out, rel.replace(/\.(ts|mts)$/, '.js'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, outputText);
  }
  fs.writeFileSync(path.join(out, 'package.json'), '{ "type": "module" }\n');
  return out;
}

function short(value: unknown, max = 110): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const flat = (text ?? 'undefined').replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Reads a JSON-RPC response body, plain JSON or a server-sent event stream. */
async function readMessages(response: Response): Promise<unknown[]> {
  const text = await response.text();
  if (!text.trim()) return [];
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => {
        try {
          return JSON.parse(l.slice(5));
        } catch {
          return undefined;
        }
      })
      .filter((m) => m !== undefined);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [];
  }
}

interface RpcMessage {
  method?: string;
  params?: { name?: string; arguments?: unknown; inputResponses?: Record<string, unknown>; requestState?: string };
  result?: {
    resultType?: string;
    inputRequests?: Record<string, { method: string; params?: { message?: string } }>;
    requestState?: string;
    content?: Array<{ type: string; text?: string }>;
    messages?: Array<{ content: { text?: string } }>;
    isError?: boolean;
  };
  error?: { code: number; message: string };
}

const MRTR_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** A fetch that hands requests to the in-process handler and prints every MRTR round. */
function tracingFetch(handler: { fetch: (r: Request) => Promise<Response> }) {
  let round = 0;
  return async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(url as string | URL, init);
    const body = init?.body && typeof init.body === 'string' ? (JSON.parse(init.body) as RpcMessage) : undefined;
    const traced = body?.method !== undefined && MRTR_METHODS.has(body.method);
    if (traced) {
      round = body.params?.inputResponses || body.params?.requestState ? round + 1 : 1;
      say(`  ${cyan(`round ${round}`)} → ${body.method} ${bold(body.params?.name ?? '')} ${dim(short(body.params?.arguments ?? {}, 60))}`);
      if (body.params?.inputResponses) {
        for (const [key, value] of Object.entries(body.params.inputResponses)) say(`           inputResponses.${key} = ${short(value, 80)}`);
      }
      if (body.params?.requestState) say(`           requestState: ${body.params.requestState.length} chars, echoed byte for byte`);
    }
    const response = await handler.fetch(request);
    if (!traced) return response;
    for (const message of (await readMessages(response.clone())) as RpcMessage[]) {
      if (message.error) say(`          ← ${red(`error ${message.error.code}: ${message.error.message}`)}`);
      const result = message.result;
      if (!result) continue;
      if (result.resultType === 'input_required') {
        const keys = Object.keys(result.inputRequests ?? {});
        say(`          ← ${yellow('input_required')} keys [${keys.join(', ')}]${result.requestState ? `, requestState ${result.requestState.length} chars (sealed)` : ''}`);
        for (const [key, req] of Object.entries(result.inputRequests ?? {})) {
          say(`            ${key}: ${req.method}${req.params?.message ? ` "${short(req.params.message, 70)}"` : ''}`);
        }
      } else if (result.content) {
        say(`          ← ${result.isError ? red('error result') : green('result')}: ${short(result.content.map((c) => c.text ?? c.type).join(' '), 90)}`);
      } else if (result.messages) {
        say(`          ← ${green('prompt')}: ${short(result.messages.map((m) => m.content.text ?? '').join(' '), 90)}`);
      }
    }
    return response;
  };
}

interface Step {
  title: string;
  run: (client: InstanceType<ClientModule['Client']>) => Promise<unknown>;
}

async function converse(buildDir: string): Promise<number> {
  const serverModule = (await import(pathToFileURL(path.join(buildDir, 'server.js')).href)) as { createServer: () => unknown };
  // Imported by name at run time (not bundled): the same module instances the migrated server imports.
  const clientSpec = '@modelcontextprotocol/client';
  const serverSpec = '@modelcontextprotocol/server';
  const { Client, StreamableHTTPClientTransport } = (await import(clientSpec)) as ClientModule;
  const { createMcpHandler } = (await import(serverSpec)) as ServerModule;

  const handler = createMcpHandler(serverModule.createServer as Parameters<ServerModule['createMcpHandler']>[0]);
  const client = new Client(
    { name: 'demo-client', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  const answer = (reply: unknown) => {
    say(`           ${dim('client answers:')} ${short(reply, 90)}`);
    return reply;
  };
  client.setRequestHandler('elicitation/create', async (req) => {
    const message = (req.params as { message: string }).message;
    if (message.startsWith('New project')) return answer({ action: 'accept', content: { name: 'atlas', language: 'typescript' } }) as never;
    if (message.startsWith('Which template')) return answer({ action: 'accept', content: { template: 'web-app' } }) as never;
    if (message.startsWith('What should')) return answer({ action: 'accept', content: { focus: 'security' } }) as never;
    if (message.startsWith('Deploy')) return answer({ action: 'decline' }) as never;
    return answer({ action: 'accept', content: { confirm: true } }) as never;
  });
  client.setRequestHandler('sampling/createMessage', async () =>
    answer({ model: 'demo-llm', role: 'assistant', content: { type: 'text', text: 'MRTR moves server questions into tool results.' } }) as never,
  );
  client.setRequestHandler('roots/list', async () => answer({ roots: [{ uri: 'file:///home/ada/atlas', name: 'atlas' }] }) as never);

  await client.connect(new StreamableHTTPClientTransport(new URL('http://demo.local/mcp'), { fetch: tracingFetch(handler) }));
  say(`  connected: protocol ${bold(String(client.getNegotiatedProtocolVersion?.() ?? '2026-07-28'))}, in process (createMcpHandler), no sockets`);

  const steps: Step[] = [
    { title: 'delete_file: shared confirmation helper', run: (c) => c.callTool({ name: 'delete_file', arguments: { path: 'notes/old.md' } }) },
    { title: 'deploy: same helper, the user declines', run: (c) => c.callTool({ name: 'deploy', arguments: { service: 'api', env: 'production' } }) },
    { title: 'create_project: two-step wizard, state carried in requestState', run: (c) => c.callTool({ name: 'create_project', arguments: {} }) },
    { title: 'summarize: sampling', run: (c) => c.callTool({ name: 'summarize', arguments: { text: 'A long design document about multi round-trip requests…' } }) },
    { title: 'list_workspace: roots', run: (c) => c.callTool({ name: 'list_workspace', arguments: {} }) },
    { title: 'code_review prompt: a prompt that asks', run: (c) => c.getPrompt({ name: 'code_review', arguments: { code: 'eval(input)' } }) },
  ];
  let failures = 0;
  for (const step of steps) {
    say();
    say(bold(`▸ ${step.title}`));
    try {
      await step.run(client);
    } catch (error) {
      failures += 1;
      say(`  ${red(`✗ ${(error as Error).message}`)}`);
    }
  }
  await client.close();
  return failures;
}

async function main(): Promise<number> {
  if (!fs.existsSync(cli)) {
    process.stderr.write(`mcp-mrtr demo: ${cli} is missing; build first (npm run demo builds)\n`);
    return 2;
  }
  const dir = makeWorkDir();
  const rel = path.relative(process.cwd(), dir) || dir;
  heading('1. The v1 demo server');
  say(`Copied fixtures/demo to ${bold(rel)}: ${listFiles(dir).join(', ')}`);
  const committed = gitCommitAll(dir);
  say(committed ? 'Committed it to a throwaway git repository there (migrate refuses to run on uncommitted changes).' : dim('git unavailable: migrating with --force'));

  const before = snapshot(dir);
  heading('2. mcp-mrtr migrate .');
  const args = [cli, 'migrate', '.', '--json', '.mcp-mrtr-report.json', ...(committed ? [] : ['--force'])];
  say(dim(`$ mcp-mrtr ${args.slice(1).join(' ')}`));
  const run = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: color ? '1' : '0' } });
  const after = snapshot(dir);
  const patches: string[] = [];
  for (const [file, text] of after) {
    if (file === '.mcp-mrtr-report.json') continue;
    const old = before.get(file);
    if (old === text) continue;
    patches.push(createTwoFilesPatch(old === undefined ? '/dev/null' : `a/${file}`, `b/${file}`, old ?? '', text, undefined, undefined, { context: 3 }).replace(/^={3,}\n/m, ''));
  }
  say();
  say(bold('The diff:'));
  say(colourDiff(patches.join('')));
  say(bold('The report:'));
  process.stdout.write(run.stdout);
  if (run.stderr.trim()) process.stdout.write(dim(run.stderr));
  say(dim(`(exit code ${run.status}: ${run.status === 0 ? 'everything migrated' : run.status === 1 ? 'done, some sites flagged for a person' : 'refused or crashed'})`));
  if (run.status === 2 || run.status === null) return 2;

  heading('3. The migrated server against a real 2026-07-28 client');
  if (!process.env[DEFAULT_STATE_KEY_ENV]) {
    process.env[DEFAULT_STATE_KEY_ENV] = crypto.randomBytes(32).toString('base64url');
    say(dim(`${DEFAULT_STATE_KEY_ENV} set to a random demo key for this run (production: a shared secret of at least 32 bytes).`));
  }
  let buildDir: string;
  try {
    buildDir = compile(dir);
  } catch (error) {
    say(red(`could not compile the migrated server: ${(error as Error).message}`));
    return 1;
  }
  const failures = await converse(buildDir);
  heading('Done');
  say(`Migrated project: ${bold(rel)} (inspect it, or delete it: it is gitignored).`);
  say(failures === 0 ? green('Every tool and the prompt completed over MRTR rounds.') : yellow(`${failures} step(s) failed (see above).`));
  return failures === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mcp-mrtr demo crashed: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 2;
  },
);
