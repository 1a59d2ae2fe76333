/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against a
 * server module: serves its `createServer` with `createMcpHandler` on a loopback port, runs each
 * scenario in its own `conformance server --scenario` process and reads the per-check results
 * (checks.json). A scenario passes only when every check is SUCCESS: three MRTR scenarios report
 * their problems as WARNING and still exit 0, so the exit code alone proves nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
import { CHILD_PROCESS_TIMEOUT_MS } from '../child-timeouts.js';

export const CONFORMANCE_VERSION = '0.2.0-alpha.11';
export const MRTR_REVISION = '2026-07-28';
export const MRTR_SCENARIO_PREFIX = 'input-required-result-';

const require = createRequire(import.meta.url);
const conformancePackageJson = require.resolve('@modelcontextprotocol/conformance/package.json');
const CONFORMANCE_BIN = join(conformancePackageJson, '..', 'dist', 'index.js');
/** Node 20 lacks fs.globSync, which the suite imports: see fixtures/conformance/node20-globsync.mjs. */
const GLOBSYNC_PRELOAD = fileURLToPath(new URL('../../../../fixtures/conformance/node20-globsync.mjs', import.meta.url));

export type CheckStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';

export interface Check {
  id: string;
  name: string;
  status: CheckStatus;
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  passed: boolean;
  exitCode: number | null;
  checks: Check[];
  /** FAILURE and WARNING checks, and anything that kept the scenario from reporting. */
  problems: string[];
  ms: number;
}

export function installedConformanceVersion(): string {
  return (JSON.parse(readFileSync(conformancePackageJson, 'utf8')) as { version: string }).version;
}

function runConformance(args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', GLOBSYNC_PRELOAD, CONFORMANCE_BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The suite's own list of server scenarios required by 2026-07-28, filtered to the MRTR ones. */
export async function listMrtrScenarios(): Promise<string[]> {
  const { code, stdout, stderr } = await runConformance(['list', '--server', '--requirements', MRTR_REVISION], 30_000);
  if (code !== 0) throw new Error(`conformance list failed (${code}): ${stderr || stdout}`);
  const serverSection = stdout.split(/Client scenarios/)[0] ?? '';
  return [...serverSection.matchAll(/^\s+-\s+(\S+)\s*$/gm)].map((m) => m[1]!).filter((s) => s.startsWith(MRTR_SCENARIO_PREFIX));
}

/** Verdict of one scenario from its checks: every check SUCCESS (INFO ignored), at least one. */
export function judgeChecks(checks: Check[]): { passed: boolean; problems: string[] } {
  const problems = checks
    .filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
    .map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? c.name}`);
  const successes = checks.filter((c) => c.status === 'SUCCESS').length;
  if (successes === 0 && problems.length === 0) problems.push('no check reported SUCCESS');
  return { passed: problems.length === 0, problems };
}

function findChecksFile(dir: string): string | undefined {
  for (const entry of readdirSync(dir, { recursive: true }).map(String)) {
    if (entry.endsWith('checks.json')) return join(dir, entry);
  }
  return undefined;
}

export async function runScenario(url: string, scenario: string, timeoutMs = CHILD_PROCESS_TIMEOUT_MS): Promise<ScenarioResult> {
  const started = Date.now();
  const outDir = mkdtempSync(join(tmpdir(), 'mcp-mrtr-conformance-'));
  try {
    const { code, stdout, stderr } = await runConformance(['server', '--url', url, '--scenario', scenario, '-o', outDir], timeoutMs);
    const file = findChecksFile(outDir);
    if (!file) {
      return { scenario, passed: false, exitCode: code, checks: [], problems: [`no checks.json (exit ${code}): ${(stderr || stdout).slice(-800)}`], ms: Date.now() - started };
    }
    const checks = JSON.parse(readFileSync(file, 'utf8')) as Check[];
    const verdict = judgeChecks(checks);
    if (code !== 0) verdict.problems.push(`conformance exited with ${code}`);
    return { scenario, passed: verdict.passed && code === 0, exitCode: code, checks, problems: verdict.problems, ms: Date.now() - started };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Runs scenarios a few at a time (each is its own Node process). */
export async function runScenarios(url: string, scenarios: string[], concurrency = 4): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = new Array(scenarios.length);
  let next = 0;
  const worker = async () => {
    while (next < scenarios.length) {
      const i = next++;
      results[i] = await runScenario(url, scenarios[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, scenarios.length) }, worker));
  return results;
}

export interface LoopbackServer {
  url: string;
  close(): Promise<void>;
}

/** `createMcpHandler(factory)` behind a plain node:http server on 127.0.0.1, random port. */
export async function serveOnLoopback(factory: () => McpServer): Promise<LoopbackServer> {
  const handler = createMcpHandler(() => factory());
  const http = createHttpServer((req, res) => {
    void forward(req, res, handler.fetch).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function forward(req: IncomingMessage, res: ServerResponse, fetch: (request: Request) => Promise<Response>): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks),
  });
  const response = await fetch(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) {
    for await (const chunk of response.body) res.write(chunk);
  }
  res.end();
}

export function formatScenarioTable(results: ScenarioResult[]): string {
  const width = Math.max(...results.map((r) => r.scenario.length), 'scenario'.length);
  const lines = [`${'scenario'.padEnd(width)}  result  checks (ok/fail/warn)  ms`];
  for (const r of results) {
    const count = (s: CheckStatus) => r.checks.filter((c) => c.status === s).length;
    lines.push(
      `${r.scenario.padEnd(width)}  ${(r.passed ? 'PASS' : 'FAIL').padEnd(6)}  ${`${count('SUCCESS')}/${count('FAILURE')}/${count('WARNING')}`.padEnd(21)}  ${r.ms}`,
    );
    for (const p of r.problems) lines.push(`    ${p}`);
  }
  const passed = results.filter((r) => r.passed).length;
  lines.push(`${passed}/${results.length} scenarios passed`);
  return lines.join('\n');
}
