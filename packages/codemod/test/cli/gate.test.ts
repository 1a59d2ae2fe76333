/**
 * `mcp-mrtr check` as a PR gate a team can tune: the options it shares with `migrate`, and what it
 * says when nothing can be migrated automatically. Runs the BUILT CLI on throwaway projects.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FLAGGED, MIGRATABLE, assertBuilt, cleanupProjects, makeProject, runCli } from './helpers.js';

beforeAll(assertBuilt);
afterAll(cleanupProjects);

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

describe('check takes the options of migrate that apply', () => {
  it('--ignore leaves matching files out of the gate', () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/legacy/roots.ts': FLAGGED });
    const all = runCli(['check', 'src'], root);
    expect(all.status).toBe(1);
    expect(all.stdout).toContain('src/legacy/roots.ts:');
    const ignored = runCli(['check', 'src', '--ignore', 'src/legacy/**', '--json', '-'], root);
    expect(ignored.status).toBe(1);
    const json = JSON.parse(ignored.stdout);
    expect(json.files.map((f: { path: string }) => f.path)).toEqual(['src/server.ts']);
    expect(ignored.stderr).toContain('1 path matching --ignore');
    // the only legacy file ignored: the gate passes
    expect(runCli(['check', 'src/legacy', '--ignore', '**/roots.ts'], root).status).toBe(0);
  });

  it('--tsconfig is accepted, and a missing one is a usage error', () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'config/tsconfig.app.json': JSON.stringify({ compilerOptions: { strict: true } }) });
    const run = runCli(['check', 'src', '--tsconfig', 'config/tsconfig.app.json'], root);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/src\/server\.ts:7:\d+\s+elicitation\/create \(delete_file\)\s+migrate/);
    const missing = runCli(['check', 'src', '--tsconfig', 'nope.json'], root);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('mcp-mrtr: --tsconfig file not found: nope.json\n');
  });

  it('check --help lists them', () => {
    const help = runCli(['check', '--help'], process.cwd());
    for (const flag of ['--json', '--sarif', '--tsconfig', '--ignore']) expect(help.stdout).toContain(flag);
  });
});

describe('the closing line of check', () => {
  it('does not point at migrate when no site would be migrated', () => {
    const root = makeProject({ 'src/roots.ts': FLAGGED });
    const run = runCli(['check', 'src'], root);
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('Migrate with');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('No site here can be migrated automatically: each needs a change by hand (reasons above).');
  });

  it('still points at migrate when some would be', () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/roots.ts': FLAGGED });
    const run = runCli(['check', 'src'], root);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('Migrate with: mcp-mrtr migrate src');
  });
});
