/**
 * Runs one generated tool call against a real client of each era, with answers chosen by the
 * request that asks (so the legacy push order and MRTR's per-round order get the same answer):
 * - legacy: v1 SDK `Client` over `InMemoryTransport`, answering push requests;
 * - migrated: v2 `Client` pinned to 2026-07-28 through `createMcpHandler`, fulfilling rounds.
 * Answers: elicitation by message (`qN`) and occurrence, sampling by prompt (`pN`) and occurrence,
 * roots in the order asked. Capabilities the run does not declare get no handler at all.
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as V1InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { effectCounts, resetEffects } from '../../../../fixtures/support/effects.js';

export type Capability = 'elicitation' | 'sampling' | 'roots';

export type ElicitAnswer = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

export interface RunSpec {
  args: { flag: boolean; mode: number };
  capabilities: Capability[];
  /** Indexed by ((site - 1) * 4 + occurrence) % length. */
  elicit: ElicitAnswer[];
  sample: Array<{ model: string; text: string }>;
  roots: Array<Array<{ uri: string; name?: string }>>;
}

const ALL: Capability[] = ['elicitation', 'sampling', 'roots'];

export const runSpecArbitrary: fc.Arbitrary<RunSpec> = makeRunSpecArbitrary({ invalidContent: true });

/** `invalidContent`: also answer with accepted content that does not match the requested schema. */
export function makeRunSpecArbitrary(options: { invalidContent: boolean }): fc.Arbitrary<RunSpec> {
  return fc.record({
  args: fc.record({ flag: fc.boolean(), mode: fc.integer({ min: 0, max: 2 }) }),
  capabilities: fc.oneof(
    { arbitrary: fc.constant(ALL), weight: 3 },
    { arbitrary: fc.subarray(ALL), weight: 1 },
  ),
  elicit: fc.array(
    fc.oneof(
      { arbitrary: fc.constantFrom('ann', 'bob').map((name) => ({ action: 'accept' as const, content: { name } })), weight: 4 },
      { arbitrary: fc.constant({ action: 'decline' as const }), weight: 2 },
      { arbitrary: fc.constant({ action: 'cancel' as const }), weight: 2 },
      // does not match requestedSchema: v1's elicitInput rejects it, raw sendRequest does not
      { arbitrary: fc.constant({ action: 'accept' as const, content: { name: 42 } }), weight: options.invalidContent ? 1 : 0 },
    ),
    { minLength: 16, maxLength: 16 },
  ),
  sample: fc.array(fc.record({ model: fc.constantFrom('model-a', 'model-b'), text: fc.constantFrom('yes', 'no') }), { minLength: 16, maxLength: 16 }),
  roots: fc.array(
    fc.array(fc.constantFrom('file:///a', 'file:///b', 'file:///c').map((uri) => ({ uri })), { maxLength: 3 }),
    { minLength: 16, maxLength: 16 },
  ),
  });
}

export type Outcome = { ok: string } | { error: string };

export interface RunResult {
  /** `ok`: the tool's text; `error`: a tool error result or a JSON-RPC error (message kept for diagnosis). */
  outcome: Outcome;
  effects: Record<string, number>;
  asked: string[];
  /** The answers handed out, in order, per kind (the behaviour-fixture script format). */
  given: { elicitation: unknown[]; sampling: unknown[]; roots: unknown[] };
}

class Answers {
  readonly asked: string[] = [];
  readonly given: RunResult['given'] = { elicitation: [], sampling: [], roots: [] };
  private readonly seen = new Map<string, number>();
  private rootsIndex = 0;

  constructor(private readonly spec: RunSpec) {}

  private occurrence(key: string): number {
    const n = this.seen.get(key) ?? 0;
    this.seen.set(key, n + 1);
    return n;
  }

  elicit(params: { message?: string }): ElicitAnswer {
    const message = String(params.message);
    this.asked.push(`elicit:${message}`);
    const site = Number(message.replace(/^q/, '')) || 0;
    const answer = this.spec.elicit[((site - 1) * 4 + this.occurrence(message)) % this.spec.elicit.length];
    this.given.elicitation.push(answer);
    return structuredClone(answer);
  }

  sample(params: { messages?: Array<{ content?: { text?: string } }> }): Record<string, unknown> {
    const prompt = String(params.messages?.[0]?.content?.text);
    this.asked.push(`sample:${prompt}`);
    const site = Number(prompt.replace(/^p/, '')) || 0;
    const a = this.spec.sample[((site - 1) * 4 + this.occurrence(prompt)) % this.spec.sample.length];
    this.given.sampling.push({ text: a.text, model: a.model });
    return { role: 'assistant', model: a.model, content: { type: 'text', text: a.text }, stopReason: 'endTurn' };
  }

  listRoots(): Record<string, unknown> {
    this.asked.push('roots');
    const roots = this.spec.roots[this.rootsIndex++ % this.spec.roots.length];
    this.given.roots.push({ roots });
    return { roots: structuredClone(roots) };
  }
}

function toolOutcome(result: unknown): Outcome {
  const r = result as { content?: Array<{ type: string; text?: string }>; isError?: boolean };
  const text = (r.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
  return r.isError ? { error: text } : { ok: text };
}

async function settle(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return toolOutcome(await run());
  } catch (error) {
    return { error: String((error as Error).message ?? error) };
  }
}

interface Connectable {
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}

function declared(spec: RunSpec): Record<string, object> {
  return Object.fromEntries(spec.capabilities.map((c) => [c, {}]));
}

export async function runLegacy(createServer: () => unknown, tool: string, spec: RunSpec): Promise<RunResult> {
  const answers = new Answers(spec);
  const client = new V1Client({ name: 'prop-legacy', version: '1.0.0' }, { capabilities: declared(spec) });
  if (spec.capabilities.includes('elicitation')) client.setRequestHandler(ElicitRequestSchema, async (req) => answers.elicit(req.params) as never);
  if (spec.capabilities.includes('sampling')) client.setRequestHandler(CreateMessageRequestSchema, async (req) => answers.sample(req.params as never) as never);
  if (spec.capabilities.includes('roots')) client.setRequestHandler(ListRootsRequestSchema, async () => answers.listRoots() as never);
  const server = createServer() as Connectable;
  const [clientTransport, serverTransport] = V1InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  try {
    resetEffects();
    const outcome = await settle(() => client.callTool({ name: tool, arguments: spec.args }));
    return { outcome, effects: effectCounts(), asked: answers.asked, given: answers.given };
  } finally {
    await client.close();
    await server.close();
  }
}

export async function runMigrated(createServer: () => unknown, tool: string, spec: RunSpec): Promise<RunResult & { rounds: number }> {
  const answers = new Answers(spec);
  const handler = createMcpHandler(() => createServer() as never);
  let rounds = 0;
  const transport = new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), {
    fetch: async (url, init) => {
      const request = new Request(url, init);
      if (request.method === 'POST') {
        const body = (await request.clone().json()) as { method?: string };
        if (body.method === 'tools/call') rounds++;
      }
      return handler.fetch(request);
    },
  });
  const client = new V2Client(
    { name: 'prop-mrtr', version: '1.0.0' },
    { capabilities: declared(spec), versionNegotiation: { mode: { pin: '2026-07-28' } }, inputRequired: { maxRounds: 64 } },
  );
  if (spec.capabilities.includes('elicitation')) client.setRequestHandler('elicitation/create', async (req) => answers.elicit(req.params as never) as never);
  if (spec.capabilities.includes('sampling')) client.setRequestHandler('sampling/createMessage', async (req) => answers.sample(req.params as never) as never);
  if (spec.capabilities.includes('roots')) client.setRequestHandler('roots/list', async () => answers.listRoots() as never);
  await client.connect(transport);
  try {
    resetEffects();
    const outcome = await settle(() => client.callTool({ name: tool, arguments: spec.args }));
    return { outcome, effects: effectCounts(), asked: answers.asked, given: answers.given, rounds };
  } finally {
    await client.close();
    await handler.close();
  }
}
