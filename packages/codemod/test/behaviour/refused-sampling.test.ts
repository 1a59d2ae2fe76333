/**
 * What a client that declares sampling and then refuses a sampling request gets, before and after
 * a migration, on real clients. The flag of `engine/rewrite/fail-open.ts` ("an MRTR answer cannot
 * be an error (on 2025-era connections the failed request would fail the whole call)") and the note
 * on a migrated request inside a caller's try ("a client that fails to answer now fails the call
 * instead of reaching the surrounding catch") both rest on this: a refusal is an error, never an
 * answer, so no migrated form reaches a catch that falls back from it. If the SDK ever gives a
 * refusal a way back into the handler, these expectations fail and both texts need revisiting.
 *
 * The pair is `behaviour-switch-case-one-round` (a sampling helper called inside a fail-open try of
 * the handler, migrated with the note); its behaviour section covers accepted answers and a missing
 * capability, which keep their meaning. The refusal: the script has no sampling answer to give, so
 * the client's sampling handler throws, as a client whose user rejects the request does.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadServerModule, runMigratedWithV1Client, runWithMrtrClient, runWithV1Client } from './harness.js';
import type { BehaviourCall, Scenario } from './script.js';

process.env.MCP_REQUEST_STATE_KEY ??= randomBytes(48).toString('base64url');

const CASE = fileURLToPath(new URL('../../../../fixtures/cases/behaviour-switch-case-one-round', import.meta.url));
const call: BehaviourCall = { type: 'tool', name: 'note', arguments: { op: 'save', text: 'call the plumber' }, scenarios: [] };
const refused: Scenario = { name: 'refused', capabilities: ['sampling'], answers: { sampling: [] } };
const NO_ANSWER = 'script has no sampling answer left (request #1)';

describe('a sampling request the client refuses (declared capability, handler throws)', () => {
  it('legacy: the refusal reaches the fail-open catch, which stores the note as is', async () => {
    const legacy = await runWithV1Client(await loadServerModule(`${CASE}.input.ts`), call, refused);
    expect(legacy.outcome).toEqual({ result: { content: [{ type: 'text', text: 'stored as is: call the plumber' }], isError: false } });
    expect(legacy.effects).toEqual({ fallback: 1 });
    expect(legacy.scriptErrors).toEqual([NO_ANSWER]);
  });

  it("migrated, 2025 client through the SDK's legacy shim: the call fails with the shim's error result, the catch never runs", async () => {
    const shim = await runMigratedWithV1Client(await loadServerModule(`${CASE}.output.ts`), call, refused);
    const result = (shim.outcome as { result: { content: Array<{ text: string }>; isError: boolean } }).result;
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^Fulfilling input required by 'tools\/call' failed: /);
    expect(shim.effects).toEqual({});
  });

  it('migrated, 2026-07-28 client: the client rejects the call itself, no retry reaches the server', async () => {
    const mrtr = await runWithMrtrClient(await loadServerModule(`${CASE}.output.ts`), call, refused);
    expect(mrtr.outcome).toMatchObject({ error: { message: expect.stringContaining('no sampling answer left') } });
    expect(mrtr.rounds).toBe(1);
    expect(mrtr.effects).toEqual({});
  });
});
