/**
 * `mcp-mrtr check` as a PR gate a team can tune: the options it shares with `migrate`, and what it
 * says when nothing can be migrated automatically. Runs the BUILT CLI on throwaway projects.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAGGED, MIGRATABLE, assertBuilt, cleanupProjects, makeProject, read, runCli, sharedRun } from './helpers.js';
import { validateJsonReport, validateSarif } from './schemas.js';

beforeAll(assertBuilt);
afterAll(cleanupProjects);

/** A migratable server and, under src/legacy, a flagged hook, checked whole: the --ignore test and the closing line's read it. */
const checkedWithLegacy = sharedRun(async () => {
  const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/legacy/roots.ts': FLAGGED });
  return { root, run: await runCli(['check', 'src'], root) };
});

describe('check takes the options of migrate that apply', () => {
  it('--ignore leaves matching files out of the gate', async () => {
    const { root, run: all } = await checkedWithLegacy();
    expect(all.status).toBe(1);
    expect(all.stdout).toContain('src/legacy/roots.ts:');
    const ignored = await runCli(['check', 'src', '--ignore', 'src/legacy/**', '--json', '-'], root);
    expect(ignored.status).toBe(1);
    const json = JSON.parse(ignored.stdout);
    // the migrated file and the capabilities helper its migration would create
    expect(json.files.map((f: { path: string }) => f.path).sort()).toEqual(['src/mcp-client-capabilities.ts', 'src/mcp-input-responses.ts', 'src/server.ts']);
    expect(ignored.stderr).toContain('1 path matching --ignore');
    // the only legacy file ignored: the gate passes
    expect((await runCli(['check', 'src/legacy', '--ignore', '**/roots.ts'], root)).status).toBe(0);
  });

  it('--tsconfig is accepted, and a missing one is a usage error', async () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'config/tsconfig.app.json': JSON.stringify({ compilerOptions: { strict: true } }) });
    const run = await runCli(['check', 'src', '--tsconfig', 'config/tsconfig.app.json'], root);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/src\/server\.ts:7:\d+\s+elicitation\/create \(delete_file\)\s+migrate/);
    const missing = await runCli(['check', 'src', '--tsconfig', 'nope.json'], root);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('mcp-mrtr: --tsconfig file not found: nope.json\n');
  });

  it('check --help lists them', async () => {
    const help = await runCli(['check', '--help'], process.cwd());
    for (const flag of ['--json', '--sarif', '--tsconfig', '--ignore']) expect(help.stdout).toContain(flag);
  });
});

describe('the closing line of check', () => {
  it('does not point at migrate when no site would be migrated', async () => {
    const root = makeProject({ 'src/roots.ts': FLAGGED });
    const run = await runCli(['check', 'src'], root);
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('Migrate with');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('No site here can be migrated automatically: each needs a change by hand (reasons above).');
  });

  it('still points at migrate when some would be', async () => {
    const { run } = await checkedWithLegacy();
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('Migrate with: mcp-mrtr migrate src');
  });
});

/** FLAGGED with a reasoned suppression above its one request. */
const SUPPRESSED_HOOK = FLAGGED.replace(
  '    const result = await server.server.listRoots();',
  '    // mcp-mrtr-ignore: roots only refresh for 2025 clients; 2026 clients send them per request\n    const result = await server.server.listRoots();',
);
/** MIGRATABLE with its request suppressed: migrate must not rewrite the handler. */
const SUPPRESSED_TOOL = MIGRATABLE.replace(
  '    const confirmation = await ctx.mcpReq.elicitInput({',
  '    /* mcp-mrtr-ignore: confirmation is optional here */\n    const confirmation = await ctx.mcpReq.elicitInput({',
);
const UNREASONED = FLAGGED.replace('    const result = await server.server.listRoots();', '    // mcp-mrtr-ignore\n    const result = await server.server.listRoots();');
/** Two requests in one handler, one suppressed: the handler is not rewritten around the one that stays. */
const HALF_SUPPRESSED = MIGRATABLE.replace(
  '    const confirmation = await ctx.mcpReq.elicitInput({',
  "    // mcp-mrtr-ignore: the roots are only logged\n    console.log(await ctx.mcpReq.send({ method: 'roots/list' }));\n    const confirmation = await ctx.mcpReq.elicitInput({",
);

describe('mcp-mrtr-ignore: <reason>', () => {
  it('check lists a suppressed site apart and passes; JSON and SARIF say suppressed with the reason', async () => {
    const root = makeProject({ 'src/roots.ts': SUPPRESSED_HOOK });
    const run = await runCli(['check', 'src', '--json', 'out/check.json', '--sarif', 'out/check.sarif'], root);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('mcp-mrtr check: 0 legacy sites in 0 file(s)');
    expect(run.stdout).toMatch(/Suppressed with mcp-mrtr-ignore \(1\), not counted:\n {2}src\/roots\.ts:8:\d+ {2}roots\/list {2}roots only refresh for 2025 clients; 2026 clients send them per request/);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('No legacy server-to-client request left to attend to (1 suppressed).');
    const json = JSON.parse(fs.readFileSync(path.join(root, 'out/check.json'), 'utf8'));
    expect(validateJsonReport(json)).toBe(true);
    expect(json.summary).toMatchObject({ sitesFound: 0, sitesFlagged: 0, sitesSuppressed: 1, suppressionsWithoutReason: 0 });
    expect(json.files[0].sites).toEqual([expect.objectContaining({ line: 8, method: 'roots/list', status: 'suppressed', reason: 'roots only refresh for 2025 clients; 2026 clients send them per request' })]);
    const sarif = JSON.parse(fs.readFileSync(path.join(root, 'out/check.sarif'), 'utf8'));
    expect(validateSarif(sarif)).toBe(true);
    expect(sarif.runs[0].results).toEqual([
      expect.objectContaining({ ruleId: 'mcp-mrtr/unmigrated-roots', suppressions: [{ kind: 'inSource', justification: 'roots only refresh for 2025 clients; 2026 clients send them per request' }] }),
    ]);
  });

  it('migrate leaves a suppressed site as it is, unmarked, and reports it', async () => {
    const root = makeProject({ 'src/roots.ts': SUPPRESSED_HOOK, 'src/server.ts': SUPPRESSED_TOOL });
    const run = await runCli(['migrate', 'src', '--force'], root);
    expect(run.status).toBe(0);
    expect(read(root, 'src/roots.ts')).toBe(SUPPRESSED_HOOK);
    expect(read(root, 'src/server.ts')).toBe(SUPPRESSED_TOOL);
    expect(run.stdout).toMatch(/Suppressed with mcp-mrtr-ignore \(2\), left as they are, unmarked:/);
    expect(run.stdout).toMatch(/src\/server\.ts:8:\d+ {2}elicitation\/create \(delete_file\) {2}confirmation is optional here/);
  });

  it('a directive without a reason suppresses nothing and is reported: check fails, migrate marks the site', async () => {
    const root = makeProject({ 'src/roots.ts': UNREASONED });
    const check = await runCli(['check', 'src', '--json', 'out/check.json'], root);
    expect(check.status).toBe(1);
    expect(check.stdout).toMatch(/mcp-mrtr-ignore comments without a reason \(1\), which suppress nothing:\n {2}src\/roots\.ts:7:5 {2}write it as \/\/ mcp-mrtr-ignore: <why this request stays>/);
    expect(check.stdout).toMatch(/src\/roots\.ts:8:\d+\s+roots\/list\s+flag: /);
    const json = JSON.parse(fs.readFileSync(path.join(root, 'out/check.json'), 'utf8'));
    expect(json.summary).toMatchObject({ sitesFound: 1, sitesSuppressed: 0, suppressionsWithoutReason: 1 });
    expect(json.files[0].suppressionsWithoutReason).toEqual([{ line: 7, column: 5 }]);
    const migrate = await runCli(['migrate', 'src', '--force'], root);
    expect(migrate.status).toBe(1);
    expect(read(root, 'src/roots.ts')).toMatch(/\/\/ mcp-mrtr-ignore\n\s*\/\/ @mcp-mrtr-todo\(/);
  });

  it('a suppressed request holds back the rest of its handler (flagged, saying why), never a half-rewritten handler', async () => {
    const root = makeProject({ 'src/server.ts': HALF_SUPPRESSED });
    const check = await runCli(['check', 'src', '--json', '-'], root);
    const sites = JSON.parse(check.stdout).files[0].sites;
    expect(sites.map((s: { status: string }) => s.status)).toEqual(['suppressed', 'flagged']);
    expect(sites[1].reason).toBe('its handler also holds a request suppressed with mcp-mrtr-ignore (line 8), and a handler is migrated whole or not at all');
    const migrate = await runCli(['migrate', 'src', '--force'], root);
    expect(migrate.status).toBe(1);
    const after = read(root, 'src/server.ts');
    // only the marker above the held-back request was added
    expect(after.replace(/^\s*\/\/ @mcp-mrtr-todo\(its handler also holds a request suppressed[^\n]*\n/m, '')).toBe(HALF_SUPPRESSED);
  });
});

describe('check --baseline <file>', () => {
  it('writes the known sites when the file is missing, then fails only on new ones; edits above a site do not make it new', async () => {
    const root = makeProject({ 'src/roots.ts': FLAGGED, 'src/server.ts': MIGRATABLE });
    const first = await runCli(['check', 'src', '--baseline', 'mrtr-baseline.json'], root);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('Baseline written to mrtr-baseline.json: 2 known site(s). From now on the gate fails only on sites not in it; commit the file.');
    const written = JSON.parse(read(root, 'mrtr-baseline.json'));
    expect(written).toMatchObject({ tool: 'mcp-mrtr', baselineVersion: 1 });
    expect(written.sites).toEqual([
      { file: 'src/roots.ts', method: 'roots/list', scope: 'watchRoots > setNotificationHandler(notifications/roots/list_changed)', snippet: 'server.server.listRoots()' },
      { file: 'src/server.ts', method: 'elicitation/create', scope: 'createServer > registerTool(delete_file)', snippet: expect.stringMatching(/^ctx\.mcpReq\.elicitInput\(\{message:/) },
    ]);

    // lines added above both sites, the file reformatted: the same sites
    fs.writeFileSync(path.join(root, 'src/roots.ts'), `// header\nimport os from 'node:os';\n\nexport const host = os.hostname();\n` + FLAGGED.replace('await server.server.listRoots()', 'await server.server\n      .listRoots()'));
    fs.writeFileSync(path.join(root, 'src/server.ts'), `export const VERSION = '1';\n\n` + MIGRATABLE);
    const same = await runCli(['check', 'src', '--baseline', 'mrtr-baseline.json'], root);
    expect(same.status).toBe(0);
    expect(same.stdout).toContain('Baseline mrtr-baseline.json: 2 known site(s), 0 new.\nNo new legacy sites since the baseline.');

    // a second, identical request in the same scope is new (sites are matched by count)
    fs.writeFileSync(path.join(root, 'src/roots.ts'), FLAGGED.replace('    roots = result', '    await server.server.listRoots();\n    roots = result'));
    const added = await runCli(['check', 'src', '--baseline', 'mrtr-baseline.json', '--json', 'out/check.json', '--sarif', 'out/check.sarif'], root);
    expect(added.status).toBe(1);
    expect(added.stdout).toMatch(/Baseline mrtr-baseline\.json: 2 known site\(s\), 1 new\.\nNew since the baseline \(1\), the gate fails on these:\n {2}src\/roots\.ts:8:\d+ {2}roots\/list {2}flag: /);
    const json = JSON.parse(read(root, 'out/check.json'));
    expect(validateJsonReport(json)).toBe(true);
    expect(json.files.flatMap((f: { sites: Array<{ baseline: string }> }) => f.sites.map((s) => s.baseline))).toEqual(['known', 'new', 'known']);
    const sarif = JSON.parse(read(root, 'out/check.sarif'));
    expect(validateSarif(sarif)).toBe(true);
    expect(sarif.runs[0].results.map((r: { baselineState: string }) => r.baselineState)).toEqual(['unchanged', 'new', 'unchanged']);

    // --update-baseline takes the new site in; a site removed since is counted as gone
    expect((await runCli(['check', 'src', '--baseline', 'mrtr-baseline.json', '--update-baseline'], root)).status).toBe(0);
    expect(JSON.parse(read(root, 'mrtr-baseline.json')).sites[0]).toMatchObject({ file: 'src/roots.ts', count: 2 });
    fs.rmSync(path.join(root, 'src/server.ts'));
    const gone = await runCli(['check', 'src', '--baseline', 'mrtr-baseline.json'], root);
    expect(gone.status).toBe(0);
    expect(gone.stdout).toContain('Baseline mrtr-baseline.json: 2 known site(s), 0 new, 1 gone since it was written (shrink it with --update-baseline).');
  });

  it('a file that is not a baseline, or --update-baseline alone, is a usage error', async () => {
    const root = makeProject({ 'src/roots.ts': FLAGGED, 'package.json': '{"name":"x"}\n' });
    const bad = await runCli(['check', 'src', '--baseline', 'package.json'], root);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('mcp-mrtr: package.json is not a mcp-mrtr baseline (version 1); write a new one with --update-baseline\n');
    expect(read(root, 'package.json')).toBe('{"name":"x"}\n');
    const alone = await runCli(['check', 'src', '--update-baseline'], root);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toBe('mcp-mrtr: --update-baseline needs --baseline <file>\n');
  });
});

describe('check --handoff <file.md>', () => {
  it('writes one self-contained brief per flagged site: code around it, the engine\'s reason, the target API and idiom, what to verify', async () => {
    const root = makeProject({ 'src/roots.ts': FLAGGED, 'src/server.ts': MIGRATABLE });
    const run = await runCli(['check', 'src', '--json', 'out/check.json', '--handoff', 'out/handoff.md'], root);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Hand-off brief for 1 flagged site(s) written to out/handoff.md.');
    const md = read(root, 'out/handoff.md');
    const json = JSON.parse(read(root, 'out/check.json'));
    const flagged = json.files.find((f: { path: string }) => f.path === 'src/roots.ts').sites[0];
    // one section, for the flagged site only: the migratable one needs no brief
    expect(md.match(/^## /gm)).toHaveLength(1);
    expect(md).not.toContain('src/server.ts');
    expect(md).toContain('## 1. src/roots.ts:7: roots/list in `watchRoots > setNotificationHandler(notifications/roots/list_changed)`');
    // the true obstacle is the engine's own reason and advice, word for word
    expect(md).toContain(`**Why it was not migrated** (the codemod's finding): ${flagged.reason.replace(/\.?$/, '.')}\n`);
    expect(md).toContain(`**What to do instead:** ${flagged.advice.replace(/\.?$/, '.')}\n`);
    expect(md).not.toContain('..\n');
    // the code around the site, with its line marked
    expect(md).toContain('>  7 |     const result = await server.server.listRoots();');
    expect(md).toContain('   1 | import { McpServer } from \'@modelcontextprotocol/server\';');
    // target API and idiom for roots/list, and the checks
    expect(md).toContain('inputRequired.listRoots()');
    expect(md).toContain("const roots = inputResponse(ctx.mcpReq.inputResponses, 'roots');");
    expect(md).toContain('- [ ] `npx mcp-mrtr check src/roots.ts` no longer lists roots/list at this place');
    expect(md).toContain('// mcp-mrtr-ignore: <reason>');
    // the run wrote nothing else
    expect(read(root, 'src/roots.ts')).toBe(FLAGGED);
  });

  it('an elicitation brief carries the elicitation idiom; no flagged site gives a short file', async () => {
    const hook = FLAGGED.replace('const result = await server.server.listRoots();\n    roots = result.roots.map((r) => r.uri);', "await server.server.elicitInput({ message: 'Roots changed, reload?', requestedSchema: { type: 'object', properties: {} } });");
    const root = makeProject({ 'src/hook.ts': hook });
    await runCli(['check', 'src', '--handoff', 'handoff.md'], root);
    const md = read(root, 'handoff.md');
    expect(md).toContain("const answer = acceptedContent(ctx.mcpReq.inputResponses, 'elicitation', fromJsonSchema(confirmSchema));");
    expect(md).toContain("inputRequired.elicit({ message: 'Proceed?', requestedSchema: confirmSchema })");
    const clean = makeProject({ 'src/server.ts': MIGRATABLE });
    expect((await runCli(['check', 'src', '--handoff', 'handoff.md'], clean)).stdout).toContain('Hand-off brief for 0 flagged site(s) written to handoff.md.');
    expect(read(clean, 'handoff.md')).toContain('Nothing to hand off: no flagged site.');
  });
});
