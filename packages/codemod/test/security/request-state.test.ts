/**
 * Security of generated servers: a multi-round legacy server (test/security/legacy-wizard.ts) is
 * migrated by the real engine, served with `createMcpHandler`, and attacked with raw 2026-07-28
 * JSON-RPC POSTs. A fresh handler (a fresh "replica") serves every request, as in production.
 *
 * - tampered, expired and principal-rebound state: rejected by the codec's verify hook before the
 *   handler runs (JSON-RPC error, no side effect at all);
 * - state re-bound to another tool or replayed with other arguments: never honoured (error, or
 *   the flow starts over at its first question), no effect of a later phase runs;
 * - a missing or short MCP_REQUEST_STATE_KEY: start-up (module import, or under a test runner server
 *   construction) fails with a message naming the variable; under a test runner (vitest here)
 *   importing the migrated module does not (a unit test of a tool module that never starts a server
 *   needs no key). Outside one the import fails: test/e2e/notes-server.test.ts starts the built app.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { effectCounts, resetEffects } from '../../../../fixtures/support/effects.js';
import { callTool, tamper, type McpFetchHandler, type RpcResponse } from './raw-rpc.js';
import { copyProject, migrateInPlace, tempProject } from './temp-project.js';

const KEY_ENV = 'MCP_REQUEST_STATE_KEY';
const KEY = 'security-test-hmac-key-that-is-long-enough-0123456789';

let serverDir: string;
let createServer: () => unknown;

function replica(): McpFetchHandler {
  return createMcpHandler(() => createServer() as never);
}

const accept = (answer: string) => ({ action: 'accept', content: { answer } });

/** The single key a round asks for. */
function askedKey(r: RpcResponse): string {
  expect(r.error, JSON.stringify(r.error)).toBeUndefined();
  expect(r.result?.resultType).toBe('input_required');
  const keys = Object.keys(r.result?.inputRequests ?? {});
  expect(keys).toHaveLength(1);
  return keys[0];
}

function askedMessage(r: RpcResponse): string {
  return String(Object.values(r.result?.inputRequests ?? {})[0]?.params?.message);
}

interface Progress {
  round1: RpcResponse;
  key1: string;
  state1: string;
  round2: RpcResponse;
  key2: string;
  state2: string;
}

/** Runs the wizard up to its second question; `principal` is the authenticated client id. */
async function wizardToSecondQuestion(topic: string, principal?: string): Promise<Progress> {
  const round1 = await callTool(replica(), { name: 'wizard', arguments: { topic } }, principal);
  const key1 = askedKey(round1);
  const state1 = round1.result!.requestState!;
  expect(typeof state1).toBe('string');
  const round2 = await callTool(replica(), { name: 'wizard', arguments: { topic }, inputResponses: { [key1]: accept('one') }, requestState: state1 }, principal);
  const key2 = askedKey(round2);
  const state2 = round2.result!.requestState!;
  expect(typeof state2).toBe('string');
  expect(state2).not.toBe(state1);
  return { round1, key1, state1, round2, key2, state2 };
}

function expectRejectedBeforeHandler(r: RpcResponse): void {
  expect(r.result, JSON.stringify(r.result)).toBeUndefined();
  expect(r.error?.code).toBe(-32602);
  expect(effectCounts()).toEqual({});
}

/** Not honoured: an error, or the flow starts over at its first question; no later phase ran. */
function expectNotHonoured(r: RpcResponse, tool: 'wizard' | 'survey', firstQuestion: RegExp): void {
  if (r.error) expect(r.result).toBeUndefined();
  else {
    expect(r.result?.resultType).toBe('input_required');
    expect(askedMessage(r)).toMatch(firstQuestion);
  }
  const effects = effectCounts();
  expect(effects[`${tool}:middle`] ?? 0).toBe(0);
  expect(effects[`${tool}:end`] ?? 0).toBe(0);
}

beforeAll(async () => {
  serverDir = tempProject('security', { 'server.ts': readFileSync(new URL('./legacy-wizard.ts', import.meta.url), 'utf8') });
  const result = await migrateInPlace(serverDir);
  const file = result.files.find((f) => f.path.endsWith('server.ts'));
  expect(file?.status, JSON.stringify(file?.sites)).toBe('changed');
  expect(file!.sites.length).toBe(4);
  expect(file!.sites.every((s) => s.status === 'migrated'), JSON.stringify(file!.sites)).toBe(true);
  process.env[KEY_ENV] = KEY;
  ({ createServer } = (await import(pathToFileURL(join(serverDir, 'server.ts')).href)) as { createServer: () => unknown });
});

afterEach(() => {
  vi.useRealTimers();
  process.env[KEY_ENV] = KEY;
});

const copies: string[] = [];
afterAll(() => {
  for (const dir of [serverDir, ...copies]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('migrated multi-round server: requestState', () => {
  it('control: the honest flow completes across fresh replicas, each effect once', async () => {
    resetEffects();
    const p = await wizardToSecondQuestion('alpha');
    const done = await callTool(replica(), { name: 'wizard', arguments: { topic: 'alpha' }, inputResponses: { [p.key2]: accept('two') }, requestState: p.state2 });
    expect(done.error).toBeUndefined();
    expect(done.result?.resultType ?? 'complete').toBe('complete');
    expect(JSON.stringify(done.result?.content)).toContain('alpha: one then accept:two');
    expect(effectCounts()).toEqual({ 'wizard:start': 1, 'wizard:middle': 1, 'wizard:end': 1 });
  });

  it('a tampered requestState (one byte flipped) is rejected before the handler runs', async () => {
    const p = await wizardToSecondQuestion('alpha');
    for (const [state, key] of [
      [p.state1, p.key1],
      [p.state2, p.key2],
    ]) {
      resetEffects();
      const r = await callTool(replica(), { name: 'wizard', arguments: { topic: 'alpha' }, inputResponses: { [key]: accept('x') }, requestState: tamper(state) });
      expectRejectedBeforeHandler(r);
    }
    for (const forged of ['', 'v1.e30.AAAA', JSON.stringify({ phase: 2 }), Buffer.from('{"p":{"phase":2}}').toString('base64url')]) {
      resetEffects();
      const r = await callTool(replica(), { name: 'wizard', arguments: { topic: 'alpha' }, inputResponses: { [p.key2]: accept('x') }, requestState: forged });
      if (forged === '') expectNotHonoured(r, 'wizard', /First answer/);
      else expectRejectedBeforeHandler(r);
    }
  });

  it('an expired requestState is rejected before the handler runs (TTL from the generated codec)', async () => {
    const codecSource = readFileSync(join(serverDir, 'mcp-request-state.ts'), 'utf8');
    const ttl = Number(/const TTL_SECONDS = (\d+);/.exec(codecSource)?.[1]);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3600);
    const p = await wizardToSecondQuestion('alpha');
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now + (ttl - 30) * 1000);
    resetEffects();
    const stillValid = await callTool(replica(), { name: 'wizard', arguments: { topic: 'alpha' }, inputResponses: { [p.key2]: accept('two') }, requestState: p.state2 });
    expect(stillValid.error, 'state must still be valid shortly before its TTL').toBeUndefined();
    vi.setSystemTime(now + (ttl + 30) * 1000);
    resetEffects();
    const expired = await callTool(replica(), { name: 'wizard', arguments: { topic: 'alpha' }, inputResponses: { [p.key2]: accept('two') }, requestState: p.state2 });
    expectRejectedBeforeHandler(expired);
  });

  it('a requestState minted for one principal is rejected for another', async () => {
    const p = await wizardToSecondQuestion('alpha', 'alice');
    resetEffects();
    const mallory = await callTool(replica(), { name: 'wizard', arguments: { topic: 'alpha' }, inputResponses: { [p.key2]: accept('two') }, requestState: p.state2 }, 'mallory');
    expectRejectedBeforeHandler(mallory);
    resetEffects();
    const anonymous = await callTool(replica(), { name: 'wizard', arguments: { topic: 'alpha' }, inputResponses: { [p.key2]: accept('two') }, requestState: p.state2 });
    expectRejectedBeforeHandler(anonymous);
    resetEffects();
    const alice = await callTool(replica(), { name: 'wizard', arguments: { topic: 'alpha' }, inputResponses: { [p.key2]: accept('two') }, requestState: p.state2 }, 'alice');
    expect(alice.error).toBeUndefined();
    expect(effectCounts()).toEqual({ 'wizard:end': 1 });
  });

  it('a requestState re-bound to another tool is not honoured', async () => {
    const p = await wizardToSecondQuestion('alpha');
    const surveyRound1 = await callTool(replica(), { name: 'survey', arguments: { topic: 'alpha' } });
    const surveyKey = askedKey(surveyRound1);
    for (const state of [p.state1, p.state2]) {
      resetEffects();
      const r = await callTool(replica(), {
        name: 'survey',
        arguments: { topic: 'alpha' },
        inputResponses: { [surveyKey]: accept('x'), [p.key1]: accept('x'), [p.key2]: accept('x') },
        requestState: state,
      });
      expectNotHonoured(r, 'survey', /Survey 1/);
      expect(Object.keys(effectCounts()).filter((k) => k.startsWith('wizard:'))).toEqual([]);
    }
  });

  it('a requestState replayed with different arguments is not honoured', async () => {
    const p = await wizardToSecondQuestion('alpha');
    resetEffects();
    const atSecond = await callTool(replica(), { name: 'wizard', arguments: { topic: 'omega' }, inputResponses: { [p.key2]: accept('two') }, requestState: p.state2 });
    expectNotHonoured(atSecond, 'wizard', /First answer about omega/);
    expect(JSON.stringify(atSecond.result ?? {})).not.toContain('alpha');
    resetEffects();
    const atFirst = await callTool(replica(), { name: 'wizard', arguments: { topic: 'omega' }, inputResponses: { [p.key1]: accept('one') }, requestState: p.state1 });
    expectNotHonoured(atFirst, 'wizard', /First answer about omega/);
  });
});

describe('migrated server start-up without a proper key', () => {
  async function startUp(copyName: string, key: string | undefined): Promise<unknown> {
    const dir = copyProject(serverDir, copyName);
    copies.push(dir);
    if (key === undefined) delete process.env[KEY_ENV];
    else process.env[KEY_ENV] = key;
    try {
      const mod = (await import(pathToFileURL(join(dir, 'server.ts')).href)) as { createServer: () => unknown };
      mod.createServer();
      return undefined;
    } catch (error) {
      return error;
    } finally {
      process.env[KEY_ENV] = KEY;
    }
  }

  it('a missing MCP_REQUEST_STATE_KEY fails at start-up with a clear message', async () => {
    const error = await startUp('security-nokey', undefined);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/MCP_REQUEST_STATE_KEY/);
  });

  it('a short MCP_REQUEST_STATE_KEY (< 32 bytes) fails at start-up with a clear message', async () => {
    const error = await startUp('security-shortkey', 'x'.repeat(31));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/MCP_REQUEST_STATE_KEY/);
    expect((error as Error).message).toMatch(/32/);
  });

  it('under a test runner, without a key, the migrated module imports (a unit test that builds no server needs none) and building its server fails', async () => {
    const dir = copyProject(serverDir, 'security-import-nokey');
    copies.push(dir);
    delete process.env[KEY_ENV];
    try {
      const mod = (await import(pathToFileURL(join(dir, 'server.ts')).href)) as { createServer: () => unknown };
      expect(typeof mod.createServer).toBe('function');
      expect(() => mod.createServer()).toThrow(/MCP_REQUEST_STATE_KEY/);
    } finally {
      process.env[KEY_ENV] = KEY;
    }
  });

  it('control: a 32-byte key starts', async () => {
    expect(await startUp('security-okkey', 'k'.repeat(32))).toBeUndefined();
  });
});
