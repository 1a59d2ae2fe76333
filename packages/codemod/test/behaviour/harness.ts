/**
 * Runs one scripted call against a server module with a REAL client of the right era:
 * - legacy v1 (`@modelcontextprotocol/sdk` Client over its InMemoryTransport), answering push requests;
 * - legacy v2 push style (`@modelcontextprotocol/client` on a 2025-era in-memory connection);
 * - migrated output through `createMcpHandler` and a `@modelcontextprotocol/client` pinned to
 *   2026-07-28, which fulfils `input_required` rounds with the same scripted handlers.
 * Each run reports the normalised result, the side-effect counts, the requests the client was
 * asked and the number of rounds the call took.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as V1InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CreateMessageRequestSchema as V1CreateMessageRequestSchema,
  ElicitRequestSchema as V1ElicitRequestSchema,
  ListRootsRequestSchema as V1ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, InMemoryTransport as V2InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { ALL_CAPABILITIES, samplingResult, type BehaviourCall, type CapabilityName, type Scenario } from './script.js';

export const MRTR_VERSION = '2026-07-28';

/**
 * `fixtures/support/effects.ts`, the counter the fixture cases call. Loaded at run time (the
 * fixtures live outside this package's tsconfig rootDir); it keeps its counts on globalThis, so
 * every importer shares them.
 */
interface EffectCounter {
  effectCounts(): Record<string, number>;
  resetEffects(): void;
}
const effectsModule = import(new URL('../../../../fixtures/support/effects.ts', import.meta.url).href) as Promise<EffectCounter>;

async function resetEffects(): Promise<void> {
  (await effectsModule).resetEffects();
}

async function effectCounts(): Promise<Record<string, number>> {
  return (await effectsModule).effectCounts();
}

export type Peer = 'legacy-v1' | 'legacy-v2' | 'mrtr-2026' | 'shim-2025';

export interface AskedRequest {
  method: string;
  /** What the user/LLM was asked, without transport-level detail. */
  summary: unknown;
}

export type CallOutcome = { result: unknown } | { error: { code?: number; message: string } };

export interface RunReport {
  peer: Peer;
  outcome: CallOutcome;
  effects: Record<string, number>;
  asked: AskedRequest[];
  /** Requests of the call's own method that reached the server (2026: initial + retries). */
  rounds: number;
  /** Script problems: answers missing for a request, or answers left unused. */
  scriptErrors: string[];
}

/** A server module following the fixtures convention: `export function createServer()`. */
export interface ServerModule {
  createServer: () => unknown;
  /**
   * `createMcpHandler` from the same module system as the server: a CommonJS module gets the
   * SDK's CJS build, whose McpServer the ESM build's handler does not recognise (dual package).
   */
  createMcpHandler: typeof createMcpHandler;
}

interface Connectable {
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}

/** TS and ESM JS go through vitest's transform; CommonJS (.cjs) is loaded by Node's own require. */
export async function loadServerModule(path: string): Promise<ServerModule> {
  const commonJs = path.endsWith('.cjs');
  const mod = (commonJs ? createRequire(import.meta.url)(path) : await import(pathToFileURL(path).href)) as {
    createServer?: () => unknown;
    default?: { createServer?: () => unknown };
  };
  const createServer = mod.createServer ?? mod.default?.createServer;
  if (typeof createServer !== 'function') throw new Error(`${path} does not export createServer()`);
  const handlerFactory = commonJs
    ? (createRequire(path)('@modelcontextprotocol/server') as { createMcpHandler: typeof createMcpHandler }).createMcpHandler
    : createMcpHandler;
  return { createServer, createMcpHandler: handlerFactory };
}

/** v1 SDK code imports `@modelcontextprotocol/sdk`; everything else is v2. */
export function legacyPeerFor(inputPath: string): Peer {
  return /['"]@modelcontextprotocol\/sdk[/'"]/.test(readFileSync(inputPath, 'utf8')) ? 'legacy-v1' : 'legacy-v2';
}

/** Hands out the scripted answers in order, one queue per kind, and records what was asked. */
export class ScriptedClient {
  readonly asked: AskedRequest[] = [];
  readonly errors: string[] = [];
  private readonly queues: { elicitation: unknown[]; sampling: unknown[]; roots: unknown[] };

  constructor(readonly scenario: Scenario) {
    const a = scenario.answers ?? {};
    this.queues = {
      elicitation: [...(a.elicitation ?? [])],
      sampling: (a.sampling ?? []).map(samplingResult),
      roots: [...(a.roots ?? [])],
    };
  }

  get capabilities(): CapabilityName[] {
    return this.scenario.capabilities ?? [...ALL_CAPABILITIES];
  }

  declared(): Record<string, object> {
    return Object.fromEntries(this.capabilities.map((c) => [c, {}]));
  }

  elicit(params: Record<string, unknown>): Record<string, unknown> {
    this.asked.push({ method: 'elicitation/create', summary: { message: params.message, mode: params.mode ?? 'form', url: params.url } });
    return this.take('elicitation', { action: 'cancel' });
  }

  sample(params: Record<string, unknown>): Record<string, unknown> {
    this.asked.push({ method: 'sampling/createMessage', summary: { messages: params.messages, systemPrompt: params.systemPrompt, maxTokens: params.maxTokens } });
    return this.take('sampling', undefined);
  }

  listRoots(): Record<string, unknown> {
    this.asked.push({ method: 'roots/list', summary: {} });
    return this.take('roots', undefined);
  }

  finish(): string[] {
    for (const [kind, queue] of Object.entries(this.queues)) {
      if (queue.length > 0) this.errors.push(`${queue.length} scripted ${kind} answer(s) never asked for`);
    }
    return this.errors;
  }

  private take(kind: CapabilityName, fallback: Record<string, unknown> | undefined): Record<string, unknown> {
    const next = this.queues[kind].shift();
    if (next !== undefined) return structuredClone(next) as Record<string, unknown>;
    this.errors.push(`script has no ${kind} answer left (request #${this.asked.length})`);
    if (fallback) return fallback;
    throw new Error(`behaviour script: no ${kind} answer left`);
  }
}

/** Legacy v1 input: v1 SDK client in memory, push requests answered by the script. */
export async function runWithV1Client(mod: ServerModule, call: BehaviourCall, scenario: Scenario, peer: Peer = 'legacy-v1'): Promise<RunReport> {
  const script = new ScriptedClient(scenario);
  const client = new V1Client({ name: 'behaviour-legacy-v1', version: '1.0.0' }, { capabilities: script.declared() });
  if (script.capabilities.includes('elicitation')) client.setRequestHandler(V1ElicitRequestSchema, async (req) => script.elicit(req.params) as never);
  if (script.capabilities.includes('sampling')) client.setRequestHandler(V1CreateMessageRequestSchema, async (req) => script.sample(req.params) as never);
  if (script.capabilities.includes('roots')) client.setRequestHandler(V1ListRootsRequestSchema, async () => script.listRoots() as never);

  return runInMemory(mod, client, V1InMemoryTransport.createLinkedPair(), call, script, peer);
}

/** Legacy v2 push-style input: v2 client on a 2025-era (initialize) connection. */
export async function runWithV2LegacyClient(mod: ServerModule, call: BehaviourCall, scenario: Scenario): Promise<RunReport> {
  const script = new ScriptedClient(scenario);
  const client = new V2Client({ name: 'behaviour-legacy-v2', version: '1.0.0' }, { capabilities: script.declared() });
  registerV2Handlers(client, script);
  return runInMemory(mod, client, V2InMemoryTransport.createLinkedPair(), call, script, 'legacy-v2');
}

interface InMemoryTransport {
  send(message: object, options?: unknown): Promise<void>;
}

/** Connects the server to `client` over a linked in-memory pair, counts the call's rounds, runs the call once. */
async function runInMemory(
  mod: ServerModule,
  client: AnyClient & { connect(transport: never): Promise<void>; close(): Promise<void> },
  [clientTransport, serverTransport]: [InMemoryTransport, InMemoryTransport],
  call: BehaviourCall,
  script: ScriptedClient,
  peer: Peer,
): Promise<RunReport> {
  const server = mod.createServer() as Connectable;
  let rounds = 0;
  const send = clientTransport.send.bind(clientTransport);
  clientTransport.send = async (message, options) => {
    if ('method' in message && message.method === methodOf(call)) rounds++;
    return send(message, options);
  };
  await server.connect(serverTransport);
  await client.connect(clientTransport as never);
  try {
    await resetEffects();
    const outcome = await settle(() => invoke(client, call));
    return { peer, outcome, effects: await effectCounts(), asked: script.asked, rounds, scriptErrors: script.finish() };
  } finally {
    await client.close();
    await server.close();
  }
}

/** Migrated output: `createMcpHandler(createServer)` and a client pinned to 2026-07-28, in process. */
export async function runWithMrtrClient(mod: ServerModule, call: BehaviourCall, scenario: Scenario): Promise<RunReport> {
  const script = new ScriptedClient(scenario);
  const serverErrors: string[] = [];
  const handler = mod.createMcpHandler(() => mod.createServer() as never, { onerror: (e) => serverErrors.push(e.stack ?? String(e)) });
  let rounds = 0;
  const transport = new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), {
    fetch: async (url, init) => {
      const request = new Request(url, init);
      if (request.method === 'POST') {
        const body = (await request.clone().json()) as { method?: string } | { method?: string }[];
        for (const message of Array.isArray(body) ? body : [body]) if (message.method === methodOf(call)) rounds++;
      }
      return handler.fetch(request);
    },
  });
  const client = new V2Client(
    { name: 'behaviour-mrtr', version: '1.0.0' },
    { capabilities: script.declared(), versionNegotiation: { mode: { pin: MRTR_VERSION } } },
  );
  registerV2Handlers(client, script);
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`2026-07-28 client could not connect: ${String(error)}\nserver errors:\n${serverErrors.join('\n') || '(none reported)'}`);
  }
  try {
    await resetEffects();
    const outcome = await settle(() => invoke(client, call));
    return { peer: 'mrtr-2026', outcome, effects: await effectCounts(), asked: script.asked, rounds, scriptErrors: script.finish() };
  } finally {
    await client.close();
    await handler.close();
  }
}

/**
 * Migrated output served the 2025 way (`server.connect(transport)`) to a v1 SDK client: the v2
 * SDK's legacy shim must turn each `input_required` round into real push requests.
 */
export async function runMigratedWithV1Client(mod: ServerModule, call: BehaviourCall, scenario: Scenario): Promise<RunReport> {
  return runWithV1Client(mod, call, scenario, 'shim-2025');
}

function registerV2Handlers(client: V2Client, script: ScriptedClient): void {
  if (script.capabilities.includes('elicitation')) client.setRequestHandler('elicitation/create', async (req) => script.elicit(req.params) as never);
  if (script.capabilities.includes('sampling')) client.setRequestHandler('sampling/createMessage', async (req) => script.sample(req.params) as never);
  if (script.capabilities.includes('roots')) client.setRequestHandler('roots/list', async () => script.listRoots() as never);
}

interface AnyClient {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
}

function methodOf(call: BehaviourCall): string {
  return call.type === 'tool' ? 'tools/call' : call.type === 'prompt' ? 'prompts/get' : 'resources/read';
}

async function invoke(client: AnyClient, call: BehaviourCall): Promise<unknown> {
  switch (call.type) {
    case 'tool':
      return normaliseToolResult(await client.callTool({ name: call.name!, arguments: call.arguments ?? {} }));
    case 'prompt':
      return normalisePromptResult(await client.getPrompt({ name: call.name!, arguments: call.arguments as Record<string, string> | undefined }));
    case 'resource':
      return normaliseResourceResult(await client.readResource({ uri: call.uri! }));
  }
}

async function settle(run: () => Promise<unknown>): Promise<CallOutcome> {
  try {
    return { result: await run() };
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    // The v1 client prefixes "MCP error <code>: " to the server's message, the v2 client does not:
    // client-library formatting, not server behaviour (the code is compared on its own).
    const message = String(e.message ?? error).replace(/^MCP error -?\d+: /, '');
    return { error: { code: typeof e.code === 'number' ? e.code : undefined, message } };
  }
}

/** Only the fields a caller of the tool sees; `isError` absent and false mean the same. */
function normaliseToolResult(result: unknown): unknown {
  const r = result as { content?: unknown; isError?: boolean; structuredContent?: unknown };
  return { content: r.content, isError: r.isError === true, ...(r.structuredContent === undefined ? {} : { structuredContent: r.structuredContent }) };
}

function normalisePromptResult(result: unknown): unknown {
  const r = result as { description?: string; messages?: unknown };
  return { description: r.description, messages: r.messages };
}

function normaliseResourceResult(result: unknown): unknown {
  const r = result as { contents?: unknown };
  return { contents: r.contents };
}

/** Independent requests may be asked in another order within a round: compare as a multiset. */
function canonicalAsked(asked: AskedRequest[]): string[] {
  return asked.map((a) => JSON.stringify(a)).sort();
}

/**
 * What differs between a run of the migrated server and the legacy run of the same script: the
 * result (content, isError / messages / contents, or the JSON-RPC error), side-effect counts, the
 * requests the client was asked, and script problems. Empty when the behaviour is the same.
 */
export function behaviourDifferences(actual: RunReport, legacy: RunReport): string[] {
  const diffs: string[] = [];
  const show = (v: unknown) => JSON.stringify(v);
  if (actual.scriptErrors.length > 0) diffs.push(`${actual.peer}: script problems: ${actual.scriptErrors.join('; ')}`);
  if (show(actual.outcome) !== show(legacy.outcome)) {
    diffs.push(`${actual.peer}: outcome ${show(actual.outcome)} != legacy ${show(legacy.outcome)}`);
  }
  const effectNames = [...new Set([...Object.keys(actual.effects), ...Object.keys(legacy.effects)])].sort();
  for (const name of effectNames) {
    if (actual.effects[name] !== legacy.effects[name]) {
      diffs.push(`${actual.peer}: effect '${name}' ran ${actual.effects[name] ?? 0}x, legacy ${legacy.effects[name] ?? 0}x`);
    }
  }
  if (show(canonicalAsked(actual.asked)) !== show(canonicalAsked(legacy.asked))) {
    diffs.push(`${actual.peer}: client asked ${show(actual.asked)} != legacy ${show(legacy.asked)}`);
  }
  return diffs;
}
