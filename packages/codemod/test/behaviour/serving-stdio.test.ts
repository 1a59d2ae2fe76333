/**
 * The stdio serving rewrite, run for real: the `serving-stdio-*` fixture outputs (`serveStdio`) are
 * started as child processes and driven over their stdin/stdout by real clients, a v1 SDK client
 * (2025 era) and a `@modelcontextprotocol/client` pinned to 2026-07-28.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const CASES = fileURLToPath(new URL('../../../../fixtures/cases/', import.meta.url));
const REPO = path.resolve(CASES, '../..');
const OPTIONAL_PARAM = path.join(CASES, 'serving-stdio-factory-optional-param.output.mjs');

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  isError?: boolean;
}
const outcomeOf = (r: unknown) => {
  const result = r as ToolResult;
  const text = (result.content ?? []).map((c) => c.text).join('\n');
  return result.isError ? `error: ${text}` : text;
};

async function callOverStdio(era: '2025' | '2026-07-28', script: string, tool: string, args: Record<string, unknown>): Promise<string> {
  const params = { command: process.execPath, args: [script, '--stdio'], cwd: path.dirname(script), stderr: 'pipe' as const };
  if (era === '2025') {
    const client = new V1Client({ name: 'legacy-2025', version: '1.0.0' });
    await client.connect(new V1StdioTransport(params));
    try {
      return outcomeOf(await client.callTool({ name: tool, arguments: args }));
    } finally {
      await client.close();
    }
  }
  const client = new V2Client({ name: 'mrtr-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StdioClientTransport(params));
  try {
    return outcomeOf(await client.callTool({ name: tool, arguments: args }));
  } finally {
    await client.close();
  }
}

/** A copy of a fixture output with one text replaced, in a temp directory that sees the repository's packages. */
function variant(file: string, from: string, to: string): string {
  const text = fs.readFileSync(file, 'utf8');
  expect(text).toContain(from);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-stdio-'));
  temps.push(dir);
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const copy = path.join(dir, path.basename(file));
  fs.writeFileSync(copy, text.replace(from, to));
  return copy;
}

describe('stdio, a factory with an optional parameter → serveStdio(() => createServer())', () => {
  it('serves 2026-07-28 and 2025-era clients with the factory\'s default (the context is not passed as its argument)', async () => {
    expect(await callOverStdio('2026-07-28', OPTIONAL_PARAM, 'run', { command: 'ls' })).toBe('ran ls');
    expect(await callOverStdio('2025', OPTIONAL_PARAM, 'run', { command: 'ls' })).toBe('ran ls');
  });

  it('control: passing the factory itself hands serveStdio\'s context to it as the runner, and the tool breaks', async () => {
    const unwrapped = variant(OPTIONAL_PARAM, 'serveStdio(() => createServer());', 'serveStdio(createServer);');
    // the tool handler calls `active.run` on the context object serveStdio passed in
    expect(await callOverStdio('2026-07-28', unwrapped, 'run', { command: 'ls' })).toMatch(/^error: .*run is not a function/);
  });
});
