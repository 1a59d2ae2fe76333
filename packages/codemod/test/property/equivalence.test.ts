/**
 * Property: for every generated legacy handler, the engine either migrates it so that a
 * 2026-07-28 client sees the same result and the same side-effect counts as a legacy client
 * (same scripted answers, including decline, cancel, invalid content and missing capabilities),
 * or flags it with a reason. Never silently wrong, never a half-rewritten handler, never output
 * that fails to typecheck against the real v2 types.
 *
 * PROPERTY_RUNS (default 120) sets the number of generated handlers, PROPERTY_SEED fixes the seed
 * (under CI the default seed is fixed, so the gate is reproducible; elsewhere it is random).
 * On failure fast-check replays the failing case, shrinks it and prints seed, path and the
 * counterexample; the shrunk case is also written as a fixture candidate under
 * .tmp/property-counterexamples/ (input + case.json with a behaviour script).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseArbitrary, printCase, toolName } from './generator.js';
import { runSpecArbitrary, type RunResult, type RunSpec } from './peers.js';
import { CODEMOD_ROOT, runBatch, type CaseInput, type CaseVerdict } from './pipeline.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 120);
// CI gates on a fixed, reproducible set; local runs explore a new seed each time.
const CI_SEED = 20261129;
const SEED =
  process.env.PROPERTY_SEED !== undefined
    ? Number(process.env.PROPERTY_SEED)
    : process.env.CI
      ? CI_SEED
      : Math.floor(Math.random() * 2 ** 31);

const caseInput: fc.Arbitrary<CaseInput> = fc
  .tuple(caseArbitrary, fc.array(runSpecArbitrary, { minLength: 3, maxLength: 3 }))
  .map(([handler, runs]) => ({ handler, runs }));

function describeVerdict(v: CaseVerdict): string {
  if (v.kind !== 'failure') return v.kind;
  const d = v.detail as { spec?: RunSpec; legacy?: RunResult; migrated?: RunResult } | undefined;
  if (d?.spec && d.legacy && d.migrated) {
    const side = (r: RunResult) => JSON.stringify({ outcome: r.outcome, effects: r.effects, asked: r.asked, given: r.given });
    return [v.why, `args ${JSON.stringify(d.spec.args)}, capabilities ${JSON.stringify(d.spec.capabilities)}`, `legacy:   ${side(d.legacy)}`, `migrated: ${side(d.migrated)}`].join('\n');
  }
  return `${v.why}\n${JSON.stringify(v.detail, null, 2)?.slice(0, 4000) ?? ''}`;
}

function scenarioOf(spec: RunSpec, given: { elicitation: unknown[]; sampling: unknown[]; roots: unknown[] }, name: string) {
  return { name, capabilities: spec.capabilities, answers: given };
}

/** Turns a shrunk counterexample into a fixture candidate (input + case.json with a behaviour script). */
async function writeCounterexample(input: CaseInput, verdict: CaseVerdict): Promise<string> {
  const dir = join(CODEMOD_ROOT, '.tmp/property-counterexamples');
  mkdirSync(dir, { recursive: true });
  const name = `prop-${SEED}`;
  writeFileSync(join(dir, `${name}.input.ts`), printCase(input.handler, '../support/effects.js'));
  const runs = verdict.kind === 'failure' && verdict.detail && typeof verdict.detail === 'object' && 'legacy' in verdict.detail ? [verdict.detail as { spec: RunSpec; legacy: { given: never } }] : [];
  writeFileSync(
    join(dir, `${name}.case.json`),
    JSON.stringify(
      {
        description: `property-test counterexample (seed ${SEED}): ${verdict.kind === 'failure' ? verdict.why : verdict.kind}`,
        ...(runs.length
          ? { behaviour: { calls: [{ type: 'tool', name: toolName(0), arguments: runs[0].spec.args, scenarios: [scenarioOf(runs[0].spec, runs[0].legacy.given, 'counterexample')] }] } }
          : {}),
      },
      null,
      2,
    ) + '\n',
  );
  return join(dir, name);
}

describe('property: generated legacy handlers migrate equivalently or are flagged', () => {
  it(`${RUNS} generated handlers (seed ${SEED})`, async () => {
    console.log(`property seed ${SEED} (PROPERTY_SEED=${SEED} PROPERTY_RUNS=${RUNS} to replay)`);
    const inputs = fc.sample(caseInput, { seed: SEED, numRuns: RUNS });
    const t0 = Date.now();
    const report = await runBatch(`property-${SEED}`, inputs);
    const counts = { migrated: 0, flagged: 0, failure: 0, runs: 0, rounds: 0 };
    for (const v of report.verdicts) {
      counts[v.kind]++;
      if (v.kind === 'migrated') {
        counts.runs += v.runs.length;
        counts.rounds += v.runs.reduce((a, r) => a + r.migrated.rounds, 0);
      }
    }
    console.log(`property: ${inputs.length} cases in ${Date.now() - t0} ms (migrate ${report.timings.migrate}, typecheck ${report.timings.typecheck}, run ${report.timings.run}): ${counts.migrated} migrated (${counts.runs} scripted runs, ${counts.rounds} tools/call rounds), ${counts.flagged} flagged, ${counts.failure} failed`);
    const flaggedReasons = new Map<string, number>();
    const normalise = (r: string) => r.replace(/^\d+: /, '').replace(/line \d+/g, 'line N').replace(/\bc\d+_helper/g, 'helper').replace(/`(effect|out\.push)\('[^']*'\)`/g, '`$1(...)`');
    for (const v of report.verdicts) if (v.kind === 'flagged') for (const r of v.reasons) flaggedReasons.set(normalise(r), (flaggedReasons.get(normalise(r)) ?? 0) + 1);
    if (flaggedReasons.size) console.log('flag reasons:', Object.fromEntries(flaggedReasons));

    const firstFailure = report.verdicts.findIndex((v) => v.kind === 'failure');
    if (firstFailure === -1) {
      rmSync(report.dir, { recursive: true, force: true });
      return;
    }

    // Replay the failing case through fast-check (same seed, its path) so it shrinks it.
    // Shrinking keeps to the same kind of failure, and skips the typecheck unless that is the failure.
    const original = report.verdicts[firstFailure] as Extract<CaseVerdict, { kind: 'failure' }>;
    const typecheckNeeded = original.why.includes('typecheck');
    let shrunk: { input: CaseInput; verdict: CaseVerdict } | undefined;
    let attempt = 0;
    const details = await fc.check(
      fc.asyncProperty(caseInput, async (input) => {
        const single = await runBatch(`property-${SEED}-shrink-${attempt++ % 4}`, [input], { typecheck: typecheckNeeded });
        const verdict = single.verdicts[0];
        const same = verdict.kind === 'failure' && verdict.why === original.why;
        if (same) shrunk = { input, verdict };
        return !same;
      }),
      { seed: SEED, path: String(firstFailure), numRuns: RUNS, interruptAfterTimeLimit: 90_000, markInterruptAsFailure: true },
    );
    const where = shrunk ? await writeCounterexample(shrunk.input, shrunk.verdict) : '(not reproduced alone)';
    const message = [
      `case ${firstFailure} of seed ${SEED}: ${describeVerdict(report.verdicts[firstFailure])}`,
      `legacy module (tool ${toolName(firstFailure)}):\n${report.sources[firstFailure]}`,
      `migrated output:\n${report.outputs[firstFailure] ?? '(none)'}`,
      `shrunk (fast-check seed ${details.seed}, path ${details.counterexamplePath}): fixture candidate ${where}`,
      shrunk ? `${printCase(shrunk.input.handler, '../support/effects.js')}\n${describeVerdict(shrunk.verdict)}` : '',
    ].join('\n\n');
    expect.fail(message);
  });
});
