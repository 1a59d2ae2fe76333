/**
 * The `mcp-mrtr` command line, run as a subprocess from the BUILT package (dist/cli.js) on
 * throwaway projects: every flag and exit code of the contract.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROKEN,
  FLAGGED,
  MIGRATABLE,
  PLAIN,
  TEST_WITH_MOCK,
  TWO_STEP,
  assertBuilt,
  cliPath,
  repoRoot,
  cleanupProjects,
  commitAll,
  git,
  makeProject,
  read,
  runCli,
  sharedRun,
  snapshot,
} from './helpers.js';
import { validateJsonReport, validateSarif } from './schemas.js';

beforeAll(assertBuilt);
afterAll(cleanupProjects);

/** A migratable server beside a plain file in a committed work tree, migrated: exit 0, a changed tree. */
const cleanTreeMigrate = sharedRun(async () => {
  const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/math.ts': PLAIN });
  // a committed work tree: outside git, migrate adds a notice on stderr (usage.test.ts)
  commitAll(root);
  return { root, run: await runCli(['migrate', 'src'], root) };
});

/** A migratable, a flagged and a plain file, migrated with a SARIF report beside them and a JSON one apart. */
const flaggedMigrate = sharedRun(async () => {
  const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/roots.ts': FLAGGED, 'src/math.ts': PLAIN });
  return { root, run: await runCli(['migrate', 'src', '--sarif', 'src/mrtr.sarif', '--json', 'reports/mrtr.json'], root) };
});

/** A file that does not parse (it names a request, so the pre-filter reads it) beside a migratable and a flagged one. */
const BROKEN_REQUEST = BROKEN + '// elicitInput\n';
const brokenFileMigrate = sharedRun(async () => {
  const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/roots.ts': FLAGGED, 'src/broken.ts': BROKEN_REQUEST });
  return { root, run: await runCli(['migrate', 'src', '--json', 'report.json', '--sarif', 'mrtr.sarif'], root) };
});

describe('usage and exit code 2', () => {
  it('--help lists both commands and exits 0', async () => {
    const run = await runCli(['--help'], process.cwd());
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('migrate <paths..>');
    expect(run.stdout).toContain('check <paths..>');
    const sub = await runCli(['migrate', '--help'], process.cwd());
    for (const flag of ['--dry-run', '--force', '--json', '--sarif', '--tsconfig', '--state-key-env', '--ignore']) expect(sub.stdout).toContain(flag);
  });

  it('--version prints the package version', async () => {
    const run = await runCli(['--version'], process.cwd());
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.each([
    ['no command', []],
    ['unknown command', ['upgrade', 'src']],
    ['migrate without paths', ['migrate']],
    ['unknown option', ['migrate', 'src', '--frobnicate']],
    ['--json without a file', ['check', 'src', '--json']],
    ['a path that does not exist', ['check', 'nope']],
    ['an invalid --state-key-env', ['migrate', 'src', '--dry-run', '--state-key-env', 'not a name']],
    ['a missing --tsconfig', ['migrate', 'src', '--dry-run', '--tsconfig', 'missing.json']],
  ])('%s exits 2 with a message', async (_name, args) => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE });
    const before = snapshot(root);
    const run = await runCli(args, root);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/mcp-mrtr|Usage|usage|Not enough|Unknown|missing/i);
    expect(snapshot(root)).toEqual(before);
  });

  it('a crash (report path is a directory) exits 2 and names the error', async () => {
    const root = makeProject({ 'src/server.ts': PLAIN, 'out/.keep': '' });
    const run = await runCli(['check', 'src', '--json', 'out'], root);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/EISDIR|directory/);
  });
});

describe('migrate', () => {
  it('rewrites a migratable server in place and exits 0', async () => {
    const { root, run } = await cleanTreeMigrate();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const out = read(root, 'src/server.ts');
    expect(out).toContain('inputRequired');
    expect(out).not.toContain('elicitInput(');
    expect(read(root, 'src/math.ts')).toBe(PLAIN);
    expect(run.stdout).toMatch(/migrated\s+1\s+\(elicitation 1\)/);
    expect(run.stdout).toContain('Files changed (1):\n  src/server.ts');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe("Find every site left to do: grep -rn --exclude-dir=node_modules --include='*.[jt]s' --include='*.[jt]sx' --include='*.[cm][jt]s' '@mcp-mrtr-todo' src");
  });

  it('flags what it cannot migrate with an @mcp-mrtr-todo marker, lists file:line and reason, exits 1; the last line finds the markers', async () => {
    const { root, run } = await flaggedMigrate();
    expect(run.status).toBe(1);
    expect(read(root, 'src/mrtr.sarif')).toContain('@mcp-mrtr-todo');
    const roots = read(root, 'src/roots.ts').split('\n');
    const call = roots.findIndex((l) => l.includes('await server.server.listRoots()'));
    expect(roots[call - 1]).toMatch(/^\s*\/\/ @mcp-mrtr-todo/);
    expect(run.stdout).toMatch(/src\/roots\.ts:7\s+roots\/list: \S.*/);
    const last = run.stdout.trimEnd().split('\n').at(-1)!;
    const command = last.replace('Find every site left to do: ', '');
    const found = execFileSync('sh', ['-c', command], { cwd: root, encoding: 'utf8' });
    expect(found.trim().split('\n')).toEqual([expect.stringMatching(/^src\/roots\.ts:7:\s+\/\/ @mcp-mrtr-todo/)]);
  });

  it('refuses with 2 in a git work tree with uncommitted changes; --force proceeds; a clean tree proceeds', async () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE });
    commitAll(root);
    fs.writeFileSync(path.join(root, 'notes.md'), 'uncommitted\n');
    const refused = await runCli(['migrate', 'src'], root);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('uncommitted');
    expect(refused.stderr).toContain('--force');
    expect(read(root, 'src/server.ts')).toBe(MIGRATABLE);

    const forced = await runCli(['migrate', 'src', '--force'], root);
    expect(forced.status).toBe(0);
    expect(read(root, 'src/server.ts')).not.toBe(MIGRATABLE);

    const clean = cleanTreeMigrate();
    expect((await clean).run.status).toBe(0);
    expect(git((await clean).root, 'status', '--porcelain')).toContain('src/server.ts');
  });

  it('--dry-run writes nothing, needs no clean tree, and prints a unified diff that reproduces the real run', async () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/roots.ts': FLAGGED });
    commitAll(root);
    fs.writeFileSync(path.join(root, 'dirty.txt'), 'x');
    const before = snapshot(root);
    const dry = await runCli(['migrate', 'src', '--dry-run'], root);
    expect(dry.status).toBe(1);
    expect(snapshot(root)).toEqual(before);
    expect(dry.stdout).toContain('--- a/src/server.ts');
    expect(dry.stdout).toContain('+++ b/src/server.ts');
    expect(dry.stdout).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@/m);
    expect(dry.stdout).toContain('(dry run: nothing written)');

    const patches = parsePatch(dry.stdout.slice(0, dry.stdout.indexOf('mcp-mrtr migrate')));
    const real = await runCli(['migrate', 'src', '--force'], root);
    expect(real.status).toBe(1);
    for (const patch of patches) {
      const rel = patch.newFileName!.replace(/^b\//, '');
      // a created file's patch starts from nothing
      expect(applyPatch(patch.oldFileName === '/dev/null' ? '' : before[rel]!, patch)).toBe(read(root, rel));
    }
    expect(patches.map((p) => p.newFileName).sort()).toEqual(['b/src/mcp-client-capabilities.ts', 'b/src/mcp-input-responses.ts', 'b/src/roots.ts', 'b/src/server.ts']);
  });

  it('a broken file fails alone: exit 1, the others migrated, the error listed', async () => {
    const { root, run } = await brokenFileMigrate();
    expect(run.status).toBe(1);
    expect(read(root, 'src/broken.ts')).toBe(BROKEN_REQUEST);
    expect(read(root, 'src/server.ts')).toContain('inputRequired');
    expect(run.stdout).toMatch(/Files that failed \(1\)[^\n]*\n\s+src\/broken\.ts: \S/);
    const report = JSON.parse(read(root, 'report.json'));
    expect(report.summary.filesFailed).toBe(1);
    expect(report.files.find((f: { path: string }) => f.path === 'src/broken.ts')).toMatchObject({ status: 'failed', error: expect.any(String) });
  });

  it('a read-only file is a per-file error; the run goes on', async () => {
    const root = makeProject({ 'src/a.ts': MIGRATABLE, 'src/b.ts': MIGRATABLE });
    fs.chmodSync(path.join(root, 'src/b.ts'), 0o444);
    const run = await runCli(['migrate', 'src'], root);
    expect(run.status).toBe(1);
    expect(read(root, 'src/a.ts')).toContain('inputRequired');
    expect(read(root, 'src/b.ts')).toBe(MIGRATABLE);
    expect(run.stdout).toMatch(/src\/b\.ts: could not write: file is read-only/);
  });

  it('a second run is idempotent: nothing changes, same verdict', async () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/roots.ts': FLAGGED, 'src/wizard.ts': TWO_STEP });
    const first = await runCli(['migrate', 'src'], root);
    expect(first.status).toBe(1);
    const after = snapshot(root);
    const second = await runCli(['migrate', 'src', '--json', '../second.json'], root);
    expect(second.status).toBe(1);
    expect(snapshot(root)).toEqual(after);
    const report = JSON.parse(fs.readFileSync(path.join(root, '..', 'second.json'), 'utf8'));
    fs.rmSync(path.join(root, '..', 'second.json'));
    expect(report.summary.filesChanged).toBe(0);
    expect(report.summary.sitesMigrated).toBe(0);
  });

  it('--json writes the contract shape', async () => {
    const { root, run } = await flaggedMigrate();
    expect(run.status).toBe(1);
    const report = JSON.parse(read(root, 'reports/mrtr.json'));
    expect(validateJsonReport(report), JSON.stringify(validateJsonReport.errors)).toBe(true);
    expect(report.summary).toEqual({ sitesFound: 2, sitesMigrated: 1, sitesFlagged: 1, filesChanged: 2, filesFailed: 0, sitesSuppressed: 0, suppressionsWithoutReason: 0 });
    const byPath = Object.fromEntries(report.files.map((f: { path: string }) => [f.path, f]));
    expect(byPath['src/server.ts']).toMatchObject({ status: 'changed', sites: [{ line: 7, method: 'elicitation/create', status: 'migrated' }] });
    expect(byPath['src/roots.ts']).toMatchObject({ status: 'flagged', sites: [{ line: 7, method: 'roots/list', status: 'flagged', reason: expect.any(String) }] });
    expect(byPath['src/math.ts']).toBeUndefined();
  });

  it('--json - prints the JSON report on stdout and the summary on stderr', async () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE });
    const run = await runCli(['migrate', 'src', '--dry-run', '--json', '-'], root);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).summary.sitesMigrated).toBe(1);
    expect(run.stderr).toContain('Find every site left to do');
  });

  it('--sarif writes SARIF 2.1.0 that validates against the official schema', async () => {
    const { root, run } = await brokenFileMigrate();
    expect(run.status).toBe(1);
    const sarif = JSON.parse(read(root, 'mrtr.sarif'));
    expect(validateSarif(sarif), JSON.stringify(validateSarif.errors)).toBe(true);
    const results = sarif.runs[0].results as Array<{ ruleId: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }> }>;
    expect(results.map((r) => [r.ruleId, r.locations[0]!.physicalLocation.artifactLocation.uri, r.locations[0]!.physicalLocation.region.startLine]).sort()).toEqual([
      ['mcp-mrtr/file-error', 'src/broken.ts', 1],
      ['mcp-mrtr/unmigrated-roots', 'src/roots.ts', 7],
    ]);
  });

  it('passes on what the official v1-to-v2 upgrade asks a person to check, credited to it apart from our own repair notes (JSON notes and the summary)', async () => {
    const v1 = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export function log(extra: RequestHandlerExtra<ServerRequest, ServerNotification>): string {
  return String(extra.requestId);
}
export const server = new McpServer({ name: 'n', version: '1.0.0' });
// a migrated handler: the file needs the upgrade
server.registerTool('ask', { description: 'asks' }, async () => {
  const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return { content: [{ type: 'text', text: answer.action }] };
});
const shape: z.ZodRawShape = { name: z.string() };
server.registerTool('greet', { inputSchema: shape }, async () => ({ content: [] }));
`;
    const root = makeProject({ 'src/server.ts': v1 });
    const run = await runCli(['migrate', 'src', '--dry-run', '--json', 'out.json'], root);
    expect(run.status).not.toBe(2);
    const report = JSON.parse(read(root, 'out.json'));
    const notes = report.files.find((f: { path: string }) => f.path === 'src/server.ts').notes as string[];
    const official = expect.stringMatching(/^2: RequestHandlerExtra renamed to ServerContext/);
    // the raw shape's repair is ours (engine/upgrade-repairs.ts), not the official codemod's
    const repair = expect.stringMatching(/^\d+: 'shape' is a zod raw shape \(typed ZodRawShape\); v2 takes a schema object: wrapped in z\.object\(\.\.\.\)$/);
    expect(notes).toEqual([official, repair]);
    expect(report.files.find((f: { path: string }) => f.path === 'src/server.ts').officialNotes).toEqual([official]);
    expect(validateJsonReport(report), JSON.stringify(validateJsonReport.errors)).toBe(true);
    expect(run.stdout).toMatch(/The official v1-to-v2 upgrade asks you to check \(1\):\n  src\/server\.ts:2: RequestHandlerExtra renamed to ServerContext[^\n]*\n\n/);
    expect(run.stdout).toMatch(/mcp-mrtr's own repairs and notes to check \(1\):\n  src\/server\.ts:\d+: 'shape' is a zod raw shape/);
  });

  it('--state-key-env names the variable the generated codec reads', async () => {
    const root = makeProject({ 'src/wizard.ts': TWO_STEP });
    const run = await runCli(['migrate', 'src', '--state-key-env', 'TRAVEL_STATE_KEY'], root);
    expect(run.status).toBe(0);
    const all = Object.values(snapshot(root)).join('\n');
    expect(all).toContain('process.env.TRAVEL_STATE_KEY');
    expect(all).not.toContain('MCP_REQUEST_STATE_KEY');
    expect(all).toContain('process.env.TRAVEL_STATE_KEY_PREVIOUS');
    expect(all).toContain("createCipheriv('aes-256-gcm'");
    // the summary tells the person to provide the secret, under the chosen name
    expect(run.stdout).toMatch(/Secret for multi-round handlers \(src\/mcp-request-state\.ts created\):\n  set TRAVEL_STATE_KEY to a random secret of at least 32 bytes/);
    expect(run.stdout).toContain('to rotate it, move the old value to TRAVEL_STATE_KEY_PREVIOUS (still accepted, comma-separated) and set a new TRAVEL_STATE_KEY');
    expect((await runCli(['migrate', 'src', '--state-key-env', 'TRAVEL_STATE_KEY'], root)).stdout).not.toContain('Secret for multi-round handlers');
  });

  it('--tsconfig loads the given project for type information', async () => {
    const root = makeProject({
      'src/server.ts': MIGRATABLE,
      'config/tsconfig.app.json': JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022' }, include: ['../src'] }),
    });
    const run = await runCli(['migrate', 'src', '--tsconfig', 'config/tsconfig.app.json'], root);
    expect(run.status).toBe(0);
    expect(read(root, 'src/server.ts')).toContain('inputRequired');
  });

  it('--ignore skips matching files and directories', async () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/legacy/old.ts': MIGRATABLE, 'src/keep.spec.ts': MIGRATABLE });
    const run = await runCli(['migrate', 'src', '--ignore', 'src/legacy/**', '*.spec.ts'], root);
    expect(run.status).toBe(0);
    expect(read(root, 'src/server.ts')).toContain('inputRequired');
    expect(read(root, 'src/legacy/old.ts')).toBe(MIGRATABLE);
    expect(read(root, 'src/keep.spec.ts')).toBe(MIGRATABLE);
  });

  it('honours .gitignore and skips node_modules, build output and declaration files', async () => {
    const root = makeProject({
      '.gitignore': 'generated/\n',
      'src/server.ts': MIGRATABLE,
      'src/generated/server.ts': MIGRATABLE,
      'node_modules/dep/index.ts': MIGRATABLE,
      'dist/server.js': MIGRATABLE,
      'src/types.d.ts': MIGRATABLE,
    });
    commitAll(root);
    const run = await runCli(['migrate', '.'], root);
    expect(run.status).toBe(0);
    expect(read(root, 'src/server.ts')).toContain('inputRequired');
    for (const untouched of ['src/generated/server.ts', 'node_modules/dep/index.ts', 'dist/server.js', 'src/types.d.ts']) expect(read(root, untouched)).toBe(MIGRATABLE);
    expect(run.stdout).toContain('Not looked at: 1 path ignored by .gitignore, 1 declaration file.');
  });

  it('does not follow symlinks: a link loop terminates and linked files are not rewritten', async () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'elsewhere/other.ts': MIGRATABLE });
    fs.symlinkSync(path.join(root, 'src'), path.join(root, 'src', 'loop'));
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(root, 'src', 'linked'));
    const run = await runCli(['migrate', 'src'], root);
    expect(run.status).toBe(0);
    expect(read(root, 'src/server.ts')).toContain('inputRequired');
    expect(read(root, 'elsewhere/other.ts')).toBe(MIGRATABLE);
    expect(run.stdout).toContain('Not looked at: 2 symbolic links (not followed).');
  });

  it('lists unit tests that mock legacy requests, with advice, and marks them', async () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'test/server.test.ts': TEST_WITH_MOCK });
    const run = await runCli(['migrate', '.', '--json', 'r.json'], root);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/Unit tests that mock legacy requests \(1\), each marked with @mcp-mrtr-todo:\n\s+test\/server\.test\.ts:6\s+test-mock: test vi\.spyOn for elicitInput/);
    expect(run.stdout).toMatch(/What to do: [^\n]*inputResponses/);
    const lines = read(root, 'test/server.test.ts').split('\n');
    expect(lines[5]).toMatch(/^\s+\/\/ @mcp-mrtr-todo\(test vi\.spyOn for elicitInput/);
    const report = JSON.parse(read(root, 'r.json'));
    expect(report.files.find((f: { path: string }) => f.path === 'test/server.test.ts').sites).toEqual([
      expect.objectContaining({ line: 6, method: 'test-mock', status: 'flagged' }),
    ]);
  });

  it('runs the prettier of the project on the changed files when the project configures it', async () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/math.ts': 'export const  x =  1\n', '.prettierrc.json': JSON.stringify({ singleQuote: false, printWidth: 100 }) });
    fs.mkdirSync(path.join(root, 'node_modules'));
    fs.symlinkSync(path.join(repoRoot, 'node_modules', 'prettier'), path.join(root, 'node_modules', 'prettier'), 'dir');
    const run = await runCli(['migrate', 'src'], root);
    expect(run.status).toBe(0);
    // the migrated file and the capabilities helper it now imports
    expect(run.stdout).toContain('Formatted 3 changed file(s) with prettier (configured in this project).');
    expect(read(root, 'src/mcp-client-capabilities.ts')).toContain('from "@modelcontextprotocol/server"');
    const out = read(root, 'src/server.ts');
    expect(out).toContain('inputRequired');
    expect(out).toContain('from "@modelcontextprotocol/server"');
    expect(read(root, 'src/math.ts')).toBe('export const  x =  1\n');
  });

  it('shows progress on a terminal (through a pty), not when piped', async () => {
    const root = makeProject({ 'src/a.ts': PLAIN, 'src/b.ts': PLAIN });
    const tty = execFileSync('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} check src`, '/dev/null'], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(tty).toContain('\r\u001b[K[1/2] src/a.ts');
    expect(tty).toContain('\r\u001b[K[2/2] src/b.ts');
    expect((await runCli(['check', 'src'], root)).stderr).toBe('');
  });

  it('hints at the formatter for the changed files when the project has no prettier installed', async () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, '.prettierrc': '{}' });
    const run = await runCli(['migrate', 'src'], root);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Run your formatter on the changed files, e.g.: npx prettier --write src/mcp-client-capabilities.ts src/mcp-input-responses.ts src/server.ts');
  });
});

describe('check', () => {
  it('exits 1 when legacy sites exist, lists each with what migrate would do, writes nothing', async () => {
    const root = makeProject({ 'src/server.ts': MIGRATABLE, 'src/roots.ts': FLAGGED });
    const before = snapshot(root);
    const run = await runCli(['check', 'src', '--json', '../check.json', '--sarif', '../check.sarif'], root);
    const json = JSON.parse(fs.readFileSync(path.join(root, '..', 'check.json'), 'utf8'));
    const sarif = JSON.parse(fs.readFileSync(path.join(root, '..', 'check.sarif'), 'utf8'));
    fs.rmSync(path.join(root, '..', 'check.json'));
    fs.rmSync(path.join(root, '..', 'check.sarif'));
    expect(run.status).toBe(1);
    expect(snapshot(root)).toEqual(before);
    expect(run.stdout).toMatch(/src\/server\.ts:7:\d+\s+elicitation\/create \(delete_file\)\s+migrate/);
    expect(run.stdout).toMatch(/src\/roots\.ts:7:\d+\s+roots\/list\s+flag: \S/);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('Migrate with: mcp-mrtr migrate src');
    expect(validateJsonReport(json)).toBe(true);
    expect(json.summary.sitesFound).toBe(2);
    expect(validateSarif(sarif)).toBe(true);
    expect(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId).sort()).toEqual(['mcp-mrtr/legacy-elicitation', 'mcp-mrtr/unmigrated-roots']);
  });

  it('exits 0 on a project without legacy sites (e.g. after migrating)', async () => {
    const { root, run: migrated } = await cleanTreeMigrate();
    expect(migrated.status).toBe(0);
    const run = await runCli(['check', 'src'], root);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('No legacy server-to-client requests found.');
  });

  it('needs no clean tree', async () => {
    const root = makeProject({ 'src/math.ts': PLAIN });
    commitAll(root);
    fs.writeFileSync(path.join(root, 'src/math.ts'), PLAIN + '// edited\n');
    expect((await runCli(['check', 'src'], root)).status).toBe(0);
  });
});
