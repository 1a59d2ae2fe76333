/**
 * The run is a loop over its stages: the list's order is the order they run in, each sees what the
 * earlier ones left in the run's state, and a stage swapped in through the run environment runs in
 * its place.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { migrateInputs } from '../../src/migrate.js';
import { STAGES } from '../../src/run/stages.js';
import type { RunState, Stage } from '../../src/run/state.js';
import { ROOT, V1_TOOL } from './helpers.js';

const input = () => [{ path: path.join(ROOT, 'src/server.ts'), text: `${V1_TOOL}\nsetInterval(async () => { await globalServer.server.listRoots(); }, 1000);\ndeclare const globalServer: any;\n` }];

/** What a stage found in the run's state when it ran. */
interface Seen {
  stage: string;
  sites: number;
  reaches: number;
  decisions: number;
  upgraded: number;
  result: boolean;
}

function recorder(seen: Seen[], stage: Stage): Stage {
  return {
    name: stage.name,
    async run(state: RunState) {
      seen.push({ stage: stage.name, sites: state.sites.length, reaches: state.reaches.length, decisions: state.decisionBySite.size, upgraded: state.loaded.filter((f) => f.upgraded).length, result: state.result !== undefined });
      await stage.run(state);
    },
  };
}

describe('the stages of a run', () => {
  it('are, in order: upgrade, find, reach, rewrite, serving, verify, markers, file results, test mocks, importers check, test state key, package.json and summary', () => {
    expect(STAGES.map((s) => s.name)).toEqual(['upgrade', 'find', 'reach', 'rewrite', 'serving', 'verify', 'markers', 'file results', 'test mocks', 'importers check', 'test state key', 'package.json and summary']);
  });

  it('run in list order, each on the state the earlier ones left', async () => {
    const seen: Seen[] = [];
    const result = await migrateInputs(input(), { cwd: ROOT }, { manifests: false, stages: STAGES.map((s) => recorder(seen, s)) });
    expect(seen.map((s) => s.stage)).toEqual(STAGES.map((s) => s.name));
    const at = (name: string) => seen.find((s) => s.stage === name)!;
    // upgrade sees nothing found yet; find sees the upgraded file; reach sees the sites; rewrite the reaches
    expect(at('upgrade')).toMatchObject({ sites: 0, upgraded: 0 });
    expect(at('find')).toMatchObject({ sites: 0, upgraded: 1 });
    expect(at('reach')).toMatchObject({ sites: 2, reaches: 0 });
    expect(at('rewrite')).toMatchObject({ reaches: 2, decisions: 0 });
    expect(at('serving')).toMatchObject({ decisions: 2 });
    expect(at('package.json and summary')).toMatchObject({ result: false });
    expect(result.summary).toMatchObject({ sitesFound: 2, sitesMigrated: 1, sitesFlagged: 1 });
  });

  it('run the list the run environment gives: without the markers stage no marker is written', async () => {
    const withMarkers = await migrateInputs(input(), { cwd: ROOT }, { manifests: false });
    const without = await migrateInputs(input(), { cwd: ROOT }, { manifests: false, stages: STAGES.filter((s) => s.name !== 'markers') });
    const server = (result: typeof without) => result.files.find((f) => f.path === input()[0]!.path)!;
    expect(server(withMarkers).output).toContain(TODO_MARKER);
    expect(server(without).output).not.toContain(TODO_MARKER);
    // the same decisions: only the markers stage writes markers
    expect(server(without).sites.map((s) => s.status)).toEqual(['migrated', 'flagged']);
    expect(server(withMarkers).sites.map((s) => s.status)).toEqual(['migrated', 'flagged']);
  });

  it('end with the stage that builds the result: a list without it fails loudly', async () => {
    await expect(migrateInputs(input(), { cwd: ROOT }, { manifests: false, stages: STAGES.slice(0, -1) })).rejects.toThrow(/without a result/);
  });
});
