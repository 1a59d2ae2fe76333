/** Runs the BUILT CLI on throwaway project directories: its `main` in this process (runCli), or the binary as a subprocess (runBin). */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHILD_PROCESS_TIMEOUT_MS } from '../child-timeouts.js';
import { perTestFile, perWorker } from '../per-test-file.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const packageRoot = path.resolve(here, '..', '..');
export const repoRoot = path.resolve(packageRoot, '..', '..');
export const cliPath = path.join(packageRoot, 'dist', 'cli.js');

export function assertBuilt(): void {
  if (!fs.existsSync(cliPath)) throw new Error(`${cliPath} is missing: build first (npx turbo run build --filter=@mcp-mrtr/codemod)`);
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the BUILT binary (`dist/cli.js`) in a child process: for what only the binary does (its exit
 * status, start-up, argument parsing from a real argv). Each spawn loads the compiler and parses the
 * library files again (a small typed run: about 2.5 s of CPU).
 */
export function runBin(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): CliRun {
  const run = spawnSync(process.execPath, [cliPath, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    timeout: CHILD_PROCESS_TIMEOUT_MS,
  });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

type BuiltCli = typeof import('../../src/cli/main.js');
type BuiltApi = typeof import('../../src/index.js');
type BuiltLibraryFiles = InstanceType<BuiltApi['LibraryFiles']>;
let built: Promise<[BuiltCli, BuiltApi]> | undefined;
/** The running test file's `LibraryFiles` of the built engine, set once the build is loaded. */
let libraryFiles: (() => BuiltLibraryFiles) | undefined;

/**
 * Runs the BUILT CLI's `main` (`dist/cli-main.js`, what the binary runs) in this process, in `cwd`,
 * with what it prints captured as a pipe would take it (no terminal: no colour, no progress line).
 * The worker's compiler is already loaded and warm, and the library files one run parsed serve the
 * next runs, as shared-library-files.ts does for the API (each test file gets its own resolutions):
 * the demo's migration costs about 1.5 s of CPU so, 8.7 s as a spawn.
 */
export async function runCli(args: string[], cwd: string): Promise<CliRun> {
  assertBuilt();
  const [{ main }, { LibraryFiles }] = await (built ??= Promise.all([
    import(pathToFileURL(path.join(packageRoot, 'dist', 'cli-main.js')).href) as Promise<BuiltCli>,
    import(pathToFileURL(path.join(packageRoot, 'dist', 'index.js')).href) as Promise<BuiltApi>,
  ]));
  if (!libraryFiles) {
    const parsed = perWorker(() => new LibraryFiles());
    libraryFiles = perTestFile(() => new LibraryFiles(parsed()));
  }
  let stdout = '';
  let stderr = '';
  const status = await main(args, {
    cwd,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { ...process.env, NO_COLOR: '1' },
    shared: { libraryFiles: libraryFiles() },
  });
  return { status, stdout, stderr };
}

/**
 * A CLI run (or any set-up) that several tests of a file read, made by the first of them that asks
 * for it, so that each test still runs alone (-t): a run of the engine costs a second or more of CPU
 * even in a warm worker.
 */
export function sharedRun<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

const created: string[] = [];

export function makeProject(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mrtr-cli-'));
  created.push(root);
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return root;
}

export function cleanupProjects(): void {
  for (const dir of created.splice(0)) {
    try {
      fs.chmodSync(dir, 0o755);
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort
    }
  }
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@localhost', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function commitAll(cwd: string): void {
  git(cwd, 'init', '-q');
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-qm', 'initial');
}

export function read(root: string, rel: string): string {
  return fs.readFileSync(path.join(root, rel), 'utf8');
}

/** Every file's text under `root` (no .git), to prove a run wrote nothing. */
export function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) walk(full);
      else out[path.relative(root, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return out;
}

/* ---- Sources ---- */

/** A v2 server whose one tool elicits: fully migratable (write-once form). */
export const MIGRATABLE = `import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'files', version: '1.0.0' });
  server.registerTool('delete_file', { inputSchema: z.object({ path: z.string() }) }, async ({ path }, ctx) => {
    const confirmation = await ctx.mcpReq.elicitInput({
      message: \`Delete \${path}?\`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    if (confirmation.action !== 'accept') return { content: [{ type: 'text', text: 'kept' }] };
    return { content: [{ type: 'text', text: 'deleted' }] };
  });
  return server;
}
`;

/** A roots request in a notification handler: has no MRTR form, always flagged. */
export const FLAGGED = `import { McpServer } from '@modelcontextprotocol/server';

export let roots: string[] = [];

export function watchRoots(server: McpServer): void {
  server.server.setNotificationHandler('notifications/roots/list_changed', async () => {
    const result = await server.server.listRoots();
    roots = result.roots.map((r) => r.uri);
  });
}
`;

/** Two dependent questions with a value computed before them: needs requestState and the codec. */
export const TWO_STEP = `import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'travel', version: '1.0.0' });
  server.registerTool('book_trip', { inputSchema: z.object({ destination: z.string() }) }, async ({ destination }: { destination: string }, ctx) => {
    const quote: number = 120 + destination.length;
    console.log('quoted', quote);
    const dates = await ctx.mcpReq.elicitInput({
      message: \`When do you want to go to \${destination}?\`,
      requestedSchema: { type: 'object', properties: { start: { type: 'string' } }, required: ['start'] },
    });
    if (dates.action !== 'accept') return { content: [{ type: 'text', text: 'no trip' }] };
    const start: string = String(dates.content?.start);
    const confirmation = await ctx.mcpReq.elicitInput({
      message: \`Book \${destination} from \${start} for \${quote} EUR?\`,
      requestedSchema: { type: 'object', properties: { book: { type: 'boolean' } }, required: ['book'] },
    });
    if (confirmation.action === 'accept' && confirmation.content?.book === true) return { content: [{ type: 'text', text: \`Booked \${start}\` }] };
    return { content: [{ type: 'text', text: 'not booked' }] };
  });
  return server;
}
`;

export const PLAIN = `export function add(a: number, b: number): number {
  return a + b;
}
`;

export const BROKEN = `export function broken( {
  return 1 +;
}
`;

export const TEST_WITH_MOCK = `import { expect, it, vi } from 'vitest';
import { createServer } from '../src/server.js';

it('deletes', async () => {
  const server = createServer();
  const spy = vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'accept', content: { confirm: true } });
  expect(spy).toBeDefined();
});
`;
