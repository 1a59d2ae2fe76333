/**
 * The generated state module seals requestState with AES-256-GCM. The legacy wizard
 * (test/security/legacy-wizard.ts) is migrated by the real engine and served with `createMcpHandler`;
 * raw 2026-07-28 JSON-RPC POSTs play the client. Each key configuration is a fresh copy of the
 * migrated project imported and started under its own environment (under a test runner the module
 * reads its keys once, when a server is built with its verify hook).
 *
 * - confidentiality: no payload value, field name or principal can be read from the token, in any
 *   base64url-decoded segment (control: the SDK's signed codec does show them to the same check);
 * - integrity: every single-bit change, of the token's bytes or of its characters, is refused;
 * - binding: a token opens only for the method and the principal it was minted for;
 * - rotation: a token minted under the previous key is accepted while that key is listed in
 *   MCP_REQUEST_STATE_KEY_PREVIOUS and refused once it is removed; new tokens use the current key;
 * - start-up fails on a short previous key.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMcpHandler, createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { effectCounts, resetEffects } from '../../../../fixtures/support/effects.js';
import { callTool, type McpFetchHandler, type RpcResponse } from './raw-rpc.js';
import { copyProject, migrateInPlace, tempProject } from './temp-project.js';

const KEY_ENV = 'MCP_REQUEST_STATE_KEY';
const PREVIOUS_ENV = 'MCP_REQUEST_STATE_KEY_PREVIOUS';
const OLD_KEY = 'sealed-state-test-old-key-0123456789-abcdefghij';
const NEW_KEY = 'sealed-state-test-new-key-9876543210-zyxwvutsrq';
const NEWEST_KEY = 'sealed-state-test-newest-key-5555555555-mnopqr';

/** Distinctive values the wizard has to carry from its first round to its second. */
const ANSWER = 'Zebra-Confidential-4471';
const PRINCIPAL = 'principal-alice-0042';

interface Codec {
  mint(payload: unknown, ctx: ServerContext): Promise<string>;
  verify(state: string, ctx: ServerContext): Promise<unknown>;
}

interface Deployment {
  createServer: () => unknown;
  codec: Codec;
}

let migratedDir: string;
const copies: string[] = [];
let copyCount = 0;

/** The migrated project under a given key configuration (a fresh copy, so its module reads the keys anew). */
async function deploy(current: string, previous?: string): Promise<Deployment> {
  const dir = copyProject(migratedDir, `sealed-${copyCount++}`);
  copies.push(dir);
  process.env[KEY_ENV] = current;
  if (previous === undefined) delete process.env[PREVIOUS_ENV];
  else process.env[PREVIOUS_ENV] = previous;
  const server = (await import(pathToFileURL(join(dir, 'server.ts')).href)) as { createServer: () => unknown };
  const state = (await import(pathToFileURL(join(dir, 'mcp-request-state.ts')).href)) as { requestStateCodec: Codec };
  // start-up: the keys of this configuration are read here, before the environment changes again
  server.createServer();
  return { createServer: server.createServer, codec: state.requestStateCodec };
}

function replica(d: Deployment): McpFetchHandler {
  return createMcpHandler(() => d.createServer() as never);
}

const accept = (answer: string) => ({ action: 'accept', content: { answer } });

function askedKey(r: RpcResponse): string {
  expect(r.error, JSON.stringify(r.error)).toBeUndefined();
  expect(r.result?.resultType).toBe('input_required');
  return Object.keys(r.result?.inputRequests ?? {})[0]!;
}

interface AtSecondQuestion {
  key1: string;
  state1: string;
  key2: string;
  /** Minted after the first answer: carries it. */
  state2: string;
}

async function toSecondQuestion(d: Deployment, principal?: string): Promise<AtSecondQuestion> {
  const round1 = await callTool(replica(d), { name: 'wizard', arguments: { topic: 'alpha' } }, principal);
  const key1 = askedKey(round1);
  const state1 = round1.result!.requestState!;
  const round2 = await callTool(replica(d), { name: 'wizard', arguments: { topic: 'alpha' }, inputResponses: { [key1]: accept(ANSWER) }, requestState: state1 }, principal);
  const key2 = askedKey(round2);
  return { key1, state1, key2, state2: round2.result!.requestState! };
}

function finish(d: Deployment, at: AtSecondQuestion, principal?: string): Promise<RpcResponse> {
  return callTool(replica(d), { name: 'wizard', arguments: { topic: 'alpha' }, inputResponses: { [at.key2]: accept('two') }, requestState: at.state2 }, principal);
}

function expectCompleted(r: RpcResponse): void {
  expect(r.error, JSON.stringify(r.error)).toBeUndefined();
  expect(r.result?.resultType ?? 'complete').toBe('complete');
  expect(JSON.stringify(r.result?.content)).toContain(`alpha: ${ANSWER} then accept:two`);
}

function expectRejectedBeforeHandler(r: RpcResponse): void {
  expect(r.result, JSON.stringify(r.result)).toBeUndefined();
  expect(r.error?.code).toBe(-32602);
  expect(effectCounts()).toEqual({});
}

/** The request context as the codec sees it: the method and the authenticated client. */
function contextOf(method: string, clientId?: string): ServerContext {
  return { mcpReq: { method }, ...(clientId ? { http: { authInfo: { token: 't', clientId, scopes: [] } } } : {}) } as unknown as ServerContext;
}

/** Every readable value in a token: the token itself and each `.`-separated segment, base64url-decoded. */
function readableViews(token: string): string[] {
  const segments = token.split('.');
  return [token, ...segments.map((s) => Buffer.from(s, 'base64url').toString('latin1')), ...segments.map((s) => Buffer.from(s, 'base64url').toString('utf8'))];
}

/** Secrets (and every 6-character piece of them) that show in some view of `token`. */
function visible(token: string, secrets: string[]): string[] {
  const views = readableViews(token);
  const pieces = secrets.flatMap((s) => [s, ...Array.from({ length: Math.max(0, s.length - 5) }, (_, i) => s.slice(i, i + 6))]);
  return [...new Set(pieces.filter((p) => views.some((v) => v.includes(p))))];
}

function flipBit(bytes: Buffer, bit: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[bit >> 3]! ^= 1 << (bit & 7);
  return copy;
}

async function rejects(codec: Codec, state: string, ctx: ServerContext): Promise<boolean> {
  try {
    await codec.verify(state, ctx);
    return false;
  } catch {
    return true;
  }
}

let current: Deployment;

beforeAll(async () => {
  migratedDir = tempProject('sealed-state', { 'server.ts': readFileSync(new URL('./legacy-wizard.ts', import.meta.url), 'utf8') });
  const result = await migrateInPlace(migratedDir);
  expect(result.files.find((f) => f.path.endsWith('server.ts'))?.status).toBe('changed');
  current = await deploy(OLD_KEY);
});

afterEach(() => {
  process.env[KEY_ENV] = OLD_KEY;
  delete process.env[PREVIOUS_ENV];
});

afterAll(() => {
  for (const dir of [migratedDir, ...copies]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('generated requestState: confidentiality', () => {
  it('the first answer is carried in the state, yet no byte of it (nor the principal, method or field names) can be read from the token', async () => {
    resetEffects();
    const at = await toSecondQuestion(current, PRINCIPAL);
    // Each round ran on a fresh replica: the answer reached the last round only through state2.
    expectCompleted(await finish(current, at, PRINCIPAL));
    const secrets = [ANSWER, PRINCIPAL, 'tools/call', 'wizard', '"phase"', 'accept', 'content'];
    expect(visible(at.state2, secrets)).toEqual([]);
    expect(visible(at.state1, secrets)).toEqual([]);
    expect(at.state2).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('control: the same check reads the answer out of the SDK signed codec token', async () => {
    const signed = createRequestStateCodec({ key: OLD_KEY, bind: (ctx) => ctx.mcpReq.method });
    const token = await signed.mint({ phase: 2, first: accept(ANSWER) }, contextOf('tools/call'));
    expect(visible(token, [ANSWER])).toContain(ANSWER);
  });

  it('two tokens of the same payload differ (a fresh nonce each time)', async () => {
    const ctx = contextOf('tools/call', PRINCIPAL);
    const a = await current.codec.mint({ phase: 1, answer: ANSWER }, ctx);
    const b = await current.codec.mint({ phase: 1, answer: ANSWER }, ctx);
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64url').subarray(1, 13).equals(Buffer.from(b, 'base64url').subarray(1, 13))).toBe(false);
    expect(await current.codec.verify(a, ctx)).toEqual({ phase: 1, answer: ANSWER });
    expect(await current.codec.verify(b, ctx)).toEqual({ phase: 1, answer: ANSWER });
  });
});

describe('generated requestState: integrity and binding', () => {
  it('every single-bit change of the token bytes, and of its characters, is refused', async () => {
    const ctx = contextOf('tools/call', PRINCIPAL);
    const token = await current.codec.mint({ phase: 2, first: accept(ANSWER) }, ctx);
    expect(await current.codec.verify(token, ctx)).toEqual({ phase: 2, first: accept(ANSWER) });
    const bytes = Buffer.from(token, 'base64url');
    const accepted: string[] = [];
    for (let bit = 0; bit < bytes.length * 8; bit++) {
      if (!(await rejects(current.codec, flipBit(bytes, bit).toString('base64url'), ctx))) accepted.push(`byte bit ${bit}`);
    }
    for (let i = 0; i < token.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const changed = token.slice(0, i) + String.fromCharCode(token.charCodeAt(i) ^ (1 << bit)) + token.slice(i + 1);
        if (!(await rejects(current.codec, changed, ctx))) accepted.push(`char ${i} bit ${bit}`);
      }
    }
    expect(accepted).toEqual([]);
    for (const cut of [token.slice(0, -1), token.slice(1), token + 'A', `${token}.${token}`, '']) expect(await rejects(current.codec, cut, ctx)).toBe(true);
  });

  it('through the server: a bit flipped in the format byte, nonce, ciphertext or tag gets a JSON-RPC error before the handler', async () => {
    const at = await toSecondQuestion(current);
    const bytes = Buffer.from(at.state2, 'base64url');
    for (const bit of [0, 8 * 5, 8 * 20, bytes.length * 8 - 1]) {
      resetEffects();
      const r = await callTool(replica(current), { name: 'wizard', arguments: { topic: 'alpha' }, inputResponses: { [at.key2]: accept('two') }, requestState: flipBit(bytes, bit).toString('base64url') });
      expectRejectedBeforeHandler(r);
    }
  });

  it('a token opens only for the method and principal it was minted for', async () => {
    const token = await current.codec.mint({ phase: 1 }, contextOf('tools/call', 'alice'));
    expect(await current.codec.verify(token, contextOf('tools/call', 'alice'))).toEqual({ phase: 1 });
    for (const other of [contextOf('prompts/get', 'alice'), contextOf('resources/read', 'alice'), contextOf('tools/call', 'mallory'), contextOf('tools/call')]) {
      expect(await rejects(current.codec, token, other)).toBe(true);
    }
    const anonymous = await current.codec.mint({ phase: 1 }, contextOf('tools/call'));
    expect(await rejects(current.codec, anonymous, contextOf('tools/call', 'alice'))).toBe(true);
  });
});

describe('generated requestState: key rotation', () => {
  it('a round in flight under the old key completes after the switch while the old key is previous, and is refused once it is removed', async () => {
    const before = await toSecondQuestion(current, PRINCIPAL);
    const rotated = await deploy(NEW_KEY, OLD_KEY);
    resetEffects();
    expectCompleted(await finish(rotated, before, PRINCIPAL));
    expect(effectCounts()).toEqual({ 'wizard:end': 1 });

    // New state is minted with the new key: the old deployment cannot open it.
    const after = await toSecondQuestion(rotated, PRINCIPAL);
    resetEffects();
    expectRejectedBeforeHandler(await finish(current, after, PRINCIPAL));

    const retired = await deploy(NEW_KEY);
    resetEffects();
    expectRejectedBeforeHandler(await finish(retired, before, PRINCIPAL));
    resetEffects();
    expectCompleted(await finish(retired, after, PRINCIPAL));
  });

  it('several previous keys, comma-separated, are all accepted', async () => {
    const underOld = await toSecondQuestion(current);
    const underNew = await toSecondQuestion(await deploy(NEW_KEY));
    const newest = await deploy(NEWEST_KEY, `${NEW_KEY},${OLD_KEY}`);
    expectCompleted(await finish(newest, underOld));
    expectCompleted(await finish(newest, underNew));
  });

  it('start-up fails on a previous key shorter than 32 bytes, naming the variable', async () => {
    const error = await deploy(NEW_KEY, `${OLD_KEY},${'x'.repeat(31)}`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/MCP_REQUEST_STATE_KEY_PREVIOUS/);
    expect((error as Error).message).toMatch(/32/);
  });
});
