/**
 * The behaviour harness must be able to fail: deliberately wrong migrations of the harness's own
 * fixture cases are run against the same real clients and each known mistake must show up as a
 * difference. Also pins down the SDK behaviour the codemod relies on: the legacy
 * shim serves an input_required handler to a 2025-era client by sending real push requests.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  behaviourDifferences,
  loadServerModule,
  runMigratedWithV1Client,
  runWithMrtrClient,
  runWithV1Client,
  type ServerModule,
} from './harness.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { casesMissingBehaviour, parseBehaviourSpec, type BehaviourCall, type Scenario } from './script.js';

process.env.MCP_REQUEST_STATE_KEY ??= randomBytes(48).toString('base64url');

const fixture = (name: string) => fileURLToPath(new URL(`../../../../fixtures/cases/${name}`, import.meta.url));
const wrong = (name: string) => fileURLToPath(new URL(`./wrong/${name}`, import.meta.url));

const deleteFile: BehaviourCall = { type: 'tool', name: 'delete_file', arguments: { path: '/tmp/a' }, scenarios: [] };
const summarize: BehaviourCall = { type: 'tool', name: 'summarize_note', arguments: { text: 'first\nsecond' }, scenarios: [] };
const decline: Scenario = { name: 'decline', capabilities: ['elicitation'], answers: { elicitation: [{ action: 'decline' }] } };
const accept: Scenario = { name: 'accept', capabilities: ['elicitation'], answers: { elicitation: [{ action: 'accept', content: { confirm: true } }] } };
const sampling: Scenario = { name: 'sampling', answers: { sampling: [{ text: 'short' }] } };

let elicitInput: ServerModule;
let elicitOutput: ServerModule;
let samplingInput: ServerModule;
let samplingOutput: ServerModule;

beforeAll(async () => {
  elicitInput = await loadServerModule(fixture('behaviour-elicit-basic.input.ts'));
  elicitOutput = await loadServerModule(fixture('behaviour-elicit-basic.output.ts'));
  samplingInput = await loadServerModule(fixture('behaviour-sampling-capability.input.ts'));
  samplingOutput = await loadServerModule(fixture('behaviour-sampling-capability.output.ts'));
});

describe('behaviour harness detects wrong migrations', () => {
  it('an effect before the request that re-runs on every round', async () => {
    const legacy = await runWithV1Client(samplingInput, summarize, sampling);
    const bad = await runWithMrtrClient(await loadServerModule(wrong('effect-every-round.mjs')), summarize, sampling);
    expect(bad.rounds).toBe(2);
    expect(behaviourDifferences(bad, legacy)).toEqual([`mrtr-2026: effect 'load-note' ran 2x, legacy 1x`]);
  });

  it('a decline treated as a confirmation, and a reworded question', async () => {
    const legacy = await runWithV1Client(elicitInput, deleteFile, decline);
    const bad = await runWithMrtrClient(await loadServerModule(wrong('deletes-on-decline.mjs')), deleteFile, decline);
    const diffs = behaviourDifferences(bad, legacy);
    expect(diffs.some((d) => d.startsWith('mrtr-2026: outcome'))).toBe(true);
    expect(diffs).toContain(`mrtr-2026: effect 'delete' ran 1x, legacy 0x`);
    expect(diffs.some((d) => d.startsWith('mrtr-2026: client asked'))).toBe(true);
  });

  it('a capability check that reads only the 2026-07-28 envelope breaks 2025-era clients', async () => {
    const envelopeOnly = await loadServerModule(wrong('envelope-capability.mjs'));
    const legacy = await runWithV1Client(samplingInput, summarize, sampling);
    // fine for a 2026-07-28 client...
    expect(behaviourDifferences(await runWithMrtrClient(envelopeOnly, summarize, sampling), legacy)).toEqual([]);
    // ...but over a 2025 connection the envelope is absent, so the tool never samples
    const shim = await runMigratedWithV1Client(envelopeOnly, summarize, sampling);
    expect(shim.asked).toEqual([]);
    expect(behaviourDifferences(shim, legacy).length).toBeGreaterThan(0);
  });

  it('a script that does not fit is reported, not silently absorbed', async () => {
    const tooMany: Scenario = { name: 'too-many', capabilities: ['elicitation'], answers: { elicitation: [{ action: 'decline' }, { action: 'cancel' }] } };
    const run = await runWithV1Client(elicitInput, deleteFile, tooMany);
    expect(run.scriptErrors).toEqual(['1 scripted elicitation answer(s) never asked for']);
    const tooFew: Scenario = { name: 'too-few', capabilities: ['elicitation'] };
    expect((await runWithMrtrClient(elicitOutput, deleteFile, tooFew)).scriptErrors[0]).toMatch(/no elicitation answer left/);
  });
});

describe('behaviour scripts', () => {
  it('a migrated case without a behaviour section is reported; unmigrated ones are not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'behaviour-cases-'));
    try {
      writeFileSync(join(dir, 'a.output.ts'), 'return inputRequired({ inputRequests })');
      writeFileSync(join(dir, 'a.case.json'), '{ "description": "no behaviour" }');
      writeFileSync(join(dir, 'b.output.ts'), 'return inputRequired({ inputRequests })');
      writeFileSync(join(dir, 'b.case.json'), JSON.stringify({ behaviour: { calls: [] } }));
      writeFileSync(join(dir, 'c.output.js'), '// @mcp-mrtr-todo(flagged: has no MRTR form, see inputRequired(...)) nothing migrated');
      expect(casesMissingBehaviour(dir)).toEqual(['a']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects malformed scripts with the place of the mistake', () => {
    expect(() => parseBehaviourSpec({ calls: [] }, 'x.case.json')).toThrow(/x.case.json: behaviour needs a non-empty "calls"/);
    expect(() => parseBehaviourSpec({ calls: [{ type: 'tool', scenarios: [{ name: 's' }] }] }, 'x')).toThrow(/calls\[0\] needs "name"/);
    expect(() => parseBehaviourSpec({ calls: [{ type: 'tool', name: 't', scenarios: [{ name: 's', capabilities: ['tasks'] }] }] }, 'x')).toThrow(/unknown capability "tasks"/);
    expect(() => parseBehaviourSpec({ calls: [{ type: 'tool', name: 't', scenarios: [{ name: 's' }, { name: 's' }] }] }, 'x')).toThrow(/unique/);
  });
});

describe('SDK behaviour the migration relies on', () => {
  it('a 2026-07-28 client fulfils input_required rounds: the call is sent again with the answers', async () => {
    const run = await runWithMrtrClient(elicitOutput, deleteFile, accept);
    expect(run.rounds).toBe(2);
    expect(run.asked.map((a) => a.method)).toEqual(['elicitation/create']);
    expect(run.outcome).toEqual({ result: { content: [{ type: 'text', text: 'Deleted /tmp/a' }], isError: false } });
  });

  it('the legacy shim serves a migrated handler to a v1 SDK client with real push requests, one tools/call', async () => {
    const run = await runMigratedWithV1Client(elicitOutput, deleteFile, accept);
    expect(run.rounds).toBe(1);
    expect(run.asked).toEqual([{ method: 'elicitation/create', summary: { message: 'Delete /tmp/a?', mode: 'form' } }]);
    expect(run.outcome).toEqual({ result: { content: [{ type: 'text', text: 'Deleted /tmp/a' }], isError: false } });
    expect(run.effects).toEqual({ delete: 1 });
  });

  it('the shim carries sealed requestState between its internal rounds (effect before the request runs once)', async () => {
    const run = await runMigratedWithV1Client(samplingOutput, summarize, sampling);
    expect(run.asked.map((a) => a.method)).toEqual(['sampling/createMessage']);
    expect(run.effects).toEqual({ 'load-note': 1, summarised: 1 });
  });
});
