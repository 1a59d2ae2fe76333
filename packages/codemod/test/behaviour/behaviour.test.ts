/**
 * For every fixture case with a `behaviour` section: the legacy input against a real legacy
 * client, the migrated output against a real client pinned to 2026-07-28 (through
 * `createMcpHandler`), and the migrated output against a v1 client on a 2025-era connection (the
 * SDK's legacy shim). Same scripted answers everywhere; results, side effects and the questions
 * asked must be equal.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  legacyPeerFor,
  loadServerModule,
  runMigratedWithV1Client,
  runWithMrtrClient,
  runWithV1Client,
  runWithV2LegacyClient,
  behaviourDifferences,
  type RunReport,
  type ServerModule,
} from './harness.js';
import { callLabel, casesMissingBehaviour, discoverBehaviourCases, type BehaviourCall, type Scenario } from './script.js';

// Migrated servers read their requestState keys from this variable (under vitest: when they are built).
process.env.MCP_REQUEST_STATE_KEY ??= randomBytes(48).toString('base64url');

const CASES_DIR = fileURLToPath(new URL('../../../../fixtures/cases', import.meta.url));
const cases = discoverBehaviourCases(CASES_DIR);

interface Row {
  case: string;
  call: string;
  scenario: string;
  legacyRequests: number;
  mrtrRounds: number;
}
const rows: Row[] = [];

const modules = new Map<string, Promise<ServerModule>>();
function load(path: string): Promise<ServerModule> {
  let mod = modules.get(path);
  if (!mod) modules.set(path, (mod = loadServerModule(path)));
  return mod;
}

describe('behaviour: legacy input vs migrated output against real clients', () => {
  it('discovers the fixture cases that have a behaviour section', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it('every fixture case whose output migrates something has a behaviour section', () => {
    expect(casesMissingBehaviour(CASES_DIR)).toEqual([]);
  });

  for (const c of cases) {
    describe(c.name, () => {
      const legacyPeer = legacyPeerFor(c.inputPath);
      const runLegacy = (mod: ServerModule, call: BehaviourCall, s: Scenario) =>
        legacyPeer === 'legacy-v1' ? runWithV1Client(mod, call, s) : runWithV2LegacyClient(mod, call, s);

      for (const call of c.spec.calls) {
        for (const scenario of call.scenarios) {
          const label = `${callLabel(call)} / ${scenario.name}`;
          const legacyRun = async (): Promise<RunReport> => {
            const legacy = await runLegacy(await load(c.inputPath), call, scenario);
            expect(legacy.scriptErrors, 'the script does not fit the legacy server').toEqual([]);
            return legacy;
          };
          const outputModule = async (): Promise<ServerModule> => {
            expect(existsSync(c.outputPath), `${c.outputPath} missing`).toBe(true);
            return load(c.outputPath);
          };

          it(`${label}: 2026-07-28 client through createMcpHandler`, async () => {
            const legacy = await legacyRun();
            const mrtr = await runWithMrtrClient(await outputModule(), call, scenario);
            expect(behaviourDifferences(mrtr, legacy)).toEqual([]);
            rows.push({ case: c.name, call: callLabel(call), scenario: scenario.name, legacyRequests: legacy.asked.length, mrtrRounds: mrtr.rounds });
          });

          it(`${label}: 2025 v1 client through the legacy shim`, async () => {
            const legacy = await legacyRun();
            const shim = await runMigratedWithV1Client(await outputModule(), call, scenario);
            expect(behaviourDifferences(shim, legacy)).toEqual([]);
          });
        }
      }
    });
  }

  afterAll(() => {
    if (rows.length === 0) return;
    const rounds = rows.reduce((n, r) => n + r.mrtrRounds, 0);
    const requests = rows.reduce((n, r) => n + r.legacyRequests, 0);
    console.log(`behaviour: ${rows.length} scenario(s) where the 2026-07-28 peer behaved like the legacy one (${requests} legacy requests, ${rounds} MRTR rounds; MCP_MRTR_BEHAVIOUR_TABLE=1 lists them)`);
    // one row per scenario: on request only, a passing run's log stays short
    if (process.env.MCP_MRTR_BEHAVIOUR_TABLE === '1') console.table(rows);
  });
});
