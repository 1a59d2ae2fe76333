/**
 * The README followed from the start, as a newcomer does. A fresh `git clone` of this checkout's
 * HEAD (commit first: uncommitted changes are not in it) runs the "Set up" commands. The three
 * packages are then `npm pack`ed from that clone, so a file the build needs but git does not hold
 * fails here, and installed from the tarballs into a fresh TypeScript project (a copy of
 * fixtures/demo, a v1 server), where the README's commands run verbatim: the install line (package
 * names mapped to the tarballs, since they are not taken from a registry here), the "Migrate a
 * project" commands, `npx mcp-mrtr`, and the "Lint what is left" config with the real ESLint.
 *
 * Time: the clone is not given its own `npm ci`. That command on a clean clone is the first step of
 * `.ci/run`, which then builds and runs this suite there, so it is proven where it matters; here it
 * would only extract the same locked packages again (the most expensive step of this file by far).
 * The clone gets this checkout's installed packages instead, linked entry by entry, its workspace
 * packages linked to its own packages/ as `npm ci` links them. Of `npm run demo` the clone runs the
 * build (the tarballs are packed from it); the built demo it then runs is test/cli/demo.test.ts,
 * on the same sources and the same installed packages. The clone's turbo reads the cache of this
 * checkout's build (`npm test` builds before it tests): turbo keys its cache by the inputs' content,
 * so a hit replays the same build outputs (an uncommitted change, or a lone run without a build,
 * makes the hashes differ, and the clone builds from scratch). Dependencies of the fresh project
 * come from the npm cache where it has them (`prefer-offline`).
 *
 * Nothing here runs turbo in this checkout: a turbo build, even a cache hit, rewrites every dist/
 * file, and the test files running beside this one (the codemod's and the plugin's, in parallel)
 * load those files. The last test holds this.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeBlocks, shellCommands } from '../../../../fixtures/support/readme-blocks.js';
import { commitAll, git, repoRoot } from '../cli/helpers.js';
import { CHILD_PROCESS_TIMEOUT_MS } from '../child-timeouts.js';

const PACKAGES = ['@mcp-mrtr/surface', '@mcp-mrtr/codemod', '@mcp-mrtr/eslint-plugin'] as const;
type PackageName = (typeof PACKAGES)[number];
/** Versions the workspace itself is tested with, so the install can come from the npm cache. */
const PROJECT_DEPENDENCIES = { '@modelcontextprotocol/sdk': '1.32.2', zod: '4.6.7' };
const PROJECT_DEV_DEPENDENCIES = { typescript: '5.9.3', eslint: '10.15.0' };
const INSTALL_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
const ESC = '\u001b[';

interface Packed {
  tarball: string;
  files: string[];
  manifest: Record<string, any>;
}

let work: string;
let clone: string;
let project: string;
const packed = {} as Record<PackageName, Packed>;

/** `extraEnv` adds variables; one given as undefined is removed. */
function sh(command: string, cwd: string, timeout = CHILD_PROCESS_TIMEOUT_MS, extraEnv: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  // the test may itself run under npm: its workspace settings must not leak into the project's npm
  for (const key of Object.keys(env)) if (/^npm_(config|package|lifecycle)_/i.test(key)) delete env[key];
  for (const [key, value] of Object.entries(extraEnv)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return spawnSync('sh', ['-c', command], { cwd, encoding: 'utf8', env, timeout });
}

/**
 * The local cache this checkout's turbo builds into: `.turbo/cache` beside the repository's main
 * work tree, which turbo shares with every linked work tree (`git worktree add`) of it; in a plain
 * clone, this checkout's own `.turbo/cache`.
 */
function turboCacheDir(): string {
  const common = path.resolve(repoRoot, git(repoRoot, 'rev-parse', '--git-common-dir').trim());
  return path.join(path.dirname(common), '.turbo', 'cache');
}

/** For commands in the clone: turbo from this checkout's cache. */
const CLONE_ENV: NodeJS.ProcessEnv = { TURBO_CACHE_DIR: turboCacheDir() };

/**
 * `from`'s installed packages made visible in `to` (a node_modules directory, made here): each
 * package a link to the installed one; a link `npm ci` made (a workspace package, a `.bin` command)
 * copied as it is, so that its relative target resolves inside the clone, to the clone's own
 * packages. Dot entries other than `.bin` (npm's and vite's caches) are left out.
 */
function linkInstalled(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.name.startsWith('.') && entry.name !== '.bin') continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), target);
    else if (entry.isDirectory() && (entry.name.startsWith('@') || entry.name === '.bin')) linkInstalled(source, target);
    else fs.symlinkSync(source, target);
  }
}

/** The clone's node_modules trees (the root's and each package's), from this checkout's. */
function linkCheckoutInstall(): void {
  linkInstalled(path.join(repoRoot, 'node_modules'), path.join(clone, 'node_modules'));
  for (const pkg of fs.readdirSync(path.join(clone, 'packages'))) {
    const installed = path.join(repoRoot, 'packages', pkg, 'node_modules');
    if (fs.existsSync(installed)) linkInstalled(installed, path.join(clone, 'packages', pkg, 'node_modules'));
  }
}

function quote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Identity and modification time of every file under the workspace packages' dist/. */
function distStamps(): Record<string, string> {
  const stamps: Record<string, string> = {};
  for (const pkg of fs.readdirSync(path.join(repoRoot, 'packages'))) {
    const dist = path.join(repoRoot, 'packages', pkg, 'dist');
    if (!fs.existsSync(dist)) continue;
    for (const name of fs.readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
      const stat = fs.statSync(path.join(dist, name));
      if (stat.isFile()) stamps[path.join(pkg, 'dist', name)] = `${stat.ino}:${stat.mtimeMs}`;
    }
  }
  return stamps;
}

const distBefore = distStamps();

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-packed-'));
  clone = path.join(work, 'mcp-mrtr');
  const head = git(repoRoot, 'rev-parse', 'HEAD').trim();
  git(work, 'clone', '--quiet', '--no-checkout', repoRoot, clone);
  git(clone, 'checkout', '--quiet', '--detach', head);

  project = path.join(work, 'acme');
  fs.cpSync(path.join(repoRoot, 'fixtures/demo'), project, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8'));
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ ...manifest, dependencies: PROJECT_DEPENDENCIES, devDependencies: PROJECT_DEV_DEPENDENCIES }, null, 2) + '\n');
  fs.writeFileSync(path.join(project, '.gitignore'), 'node_modules\ndist\n');
});

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("a fresh clone: the README's Set up commands", () => {
  const [setUpBlock] = readmeBlocks('Set up', 'sh');
  const commands = shellCommands(setUpBlock!);
  let npmTest: SpawnSyncReturns<string>;

  it('the block: install and demo, the checkout CLI, the tests', () => {
    expect(commands).toEqual(['npm ci && npm run demo', 'npx mcp-mrtr --help', 'npm test']);
  });

  it('npm run demo, its build (after the install, linked): the clone builds from what git holds; the demo it then runs is test/cli/demo.test.ts', () => {
    expect(fs.existsSync(path.join(clone, 'node_modules'))).toBe(false);
    linkCheckoutInstall();
    // the workspace packages resolve to the clone's own packages, as `npm ci` links them
    const realClone = fs.realpathSync(clone);
    for (const name of PACKAGES) expect(fs.realpathSync(path.join(clone, 'node_modules', name)), name).toBe(path.join(realClone, 'packages', name.replace('@mcp-mrtr/', '')));
    expect(commands[0]!.split(' && ')).toEqual(['npm ci', 'npm run demo']);
    // the demo script: the build, then the built demo, which test/cli/demo.test.ts runs on the same
    // sources (this clone's build is the same build, replayed from the cache or made afresh)
    const [build, demo] = JSON.parse(fs.readFileSync(path.join(clone, 'package.json'), 'utf8')).scripts.demo.split(' && ') as string[];
    expect(demo).toBe('node packages/codemod/dist/demo.js');
    expect(build).toMatch(/^turbo run build( |$)/);
    const run = sh(`npx ${build}`, clone, 900_000, CLONE_ENV);
    expect(run.status, run.stderr + run.stdout.slice(-3000)).toBe(0);
    for (const file of ['packages/codemod/dist/demo.js', 'packages/codemod/dist/cli.js', 'packages/eslint-plugin/dist/index.js', 'packages/surface/dist/index.js']) expect(fs.existsSync(path.join(clone, file)), file).toBe(true);
  }, 900_000);

  it("npx mcp-mrtr --help: the clone's own CLI", () => {
    const run = sh(commands[1]!, clone, CHILD_PROCESS_TIMEOUT_MS, CLONE_ENV);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^mcp-mrtr <command>/m);
    expect(run.stdout).toMatch(/mcp-mrtr migrate/);
    expect(run.stdout).toMatch(/mcp-mrtr check/);
    const version = sh('npx mcp-mrtr --version', clone, CHILD_PROCESS_TIMEOUT_MS, CLONE_ENV);
    expect(version.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(clone, 'packages/codemod/package.json'), 'utf8')).version);
  });

  it('npm test into a pipe: the workspace test command runs (here for one package; the whole suite is the one running this test)', () => {
    // the CI order: `npm run typecheck` builds first (into a log that may take colour), and turbo
    // caches that log; both commands use the clone's own turbo cache, and a shell's colour settings
    const plain = { NO_COLOR: undefined, FORCE_COLOR: undefined };
    const build = sh('npx turbo run build --filter=@mcp-mrtr/surface --force', clone, CHILD_PROCESS_TIMEOUT_MS, { ...plain, FORCE_COLOR: '1' });
    expect(build.status, build.stdout + build.stderr).toBe(0);
    npmTest = sh(`${commands[2]!} -- --filter=@mcp-mrtr/surface`, clone, 600_000, plain);
    expect(npmTest.status, npmTest.stderr + npmTest.stdout.slice(-3000)).toBe(0);
    expect(npmTest.stdout).toMatch(/@mcp-mrtr\/surface:test: .*Test Files +\d+ passed/);
  });

  it('npm test into a pipe: no ANSI colour codes (turbo and vitest), even where a cached build was logged in colour', () => {
    const log = npmTest.stdout + npmTest.stderr;
    expect(npmTest.status, log).toBe(0);
    expect(log).toMatch(/Tests\s+\d+ passed/);
    expect(log.includes(ESC), log.split('\n').filter((l) => l.includes(ESC)).slice(0, 3).join('\n')).toBe(false);
  });
});

describe('tarballs', () => {
  beforeAll(() => {
    // packed from the clone, as a release would be: only what git holds, built by the Set up commands
    const tarballs = path.join(work, 'tarballs');
    fs.mkdirSync(tarballs);
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', tarballs, ...PACKAGES.flatMap((p) => ['-w', p])], { cwd: clone, encoding: 'utf8', timeout: CHILD_PROCESS_TIMEOUT_MS });
    for (const entry of JSON.parse(out) as { name: PackageName; filename: string; files: { path: string }[] }[]) {
      const tarball = path.join(tarballs, entry.filename);
      const manifest = JSON.parse(execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }));
      packed[entry.name] = { tarball, files: entry.files.map((f) => f.path), manifest };
    }
  });

  it.each(PACKAGES)('%s: README, LICENSE (MIT), repository, keywords, engines', (name) => {
    const { files, manifest } = packed[name];
    expect(files).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
    expect(manifest.license).toBe('MIT');
    expect(manifest.repository).toMatchObject({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\/.+\.git$/), directory: expect.stringMatching(/^packages\//) });
    expect(manifest.keywords).toContain('mcp');
    expect(manifest.engines?.node).toMatch(/^>=20/);
    // the same licence text as the repository's
    const license = execFileSync('tar', ['-xOzf', packed[name].tarball, 'package/LICENSE'], { encoding: 'utf8' });
    expect(license).toBe(fs.readFileSync(path.join(repoRoot, 'LICENSE'), 'utf8'));
    expect(license).toMatch(/^MIT License/);
  });

  it('keywords: the plugin is findable as an ESLint plugin, the codemod as a codemod', () => {
    expect(packed['@mcp-mrtr/eslint-plugin'].manifest.keywords).toEqual(expect.arrayContaining(['eslint', 'eslintplugin', 'mcp']));
    expect(packed['@mcp-mrtr/codemod'].manifest.keywords).toEqual(expect.arrayContaining(['codemod', 'mcp']));
  });

  it('the codemod ships its bin shim, dist and the JSON report schema; no tests or sources', () => {
    const { files, manifest } = packed['@mcp-mrtr/codemod'];
    expect(manifest.bin).toEqual({ 'mcp-mrtr': './bin/mcp-mrtr.js' });
    expect(files).toEqual(expect.arrayContaining(['bin/mcp-mrtr.js', 'dist/cli.js', 'dist/index.js', 'dist/jscodeshift.cjs', 'schema/report.schema.json']));
    expect(files.filter((f) => /^(src|test)\//.test(f))).toEqual([]);
  });
});

describe('installed from the tarballs into a TypeScript project, the README commands', () => {
  const [migrateBlock] = readmeBlocks('Migrate a project', 'sh');
  const commands = shellCommands(migrateBlock!);
  const install = commands.find((c) => c.startsWith('npm i'))!;
  const runs = commands.filter((c) => c.startsWith('npx '));

  it('the README installs both packages by their scoped names and runs them with npx', () => {
    expect(install).toBe('npm i -D @mcp-mrtr/codemod @mcp-mrtr/eslint-plugin');
    expect(runs.map((c) => c.split(' ').slice(0, 3).join(' '))).toEqual(['npx @mcp-mrtr/codemod check', 'npx @mcp-mrtr/codemod migrate', 'npx @mcp-mrtr/codemod migrate']);
  });

  it('npm install of the three tarballs succeeds', () => {
    // the README's line with each name replaced by its tarball; @mcp-mrtr/surface, which a registry
    // would resolve as their dependency, is given the same way
    const words = install.split(' ').map((w) => (w in packed ? quote(packed[w as PackageName].tarball) : w));
    const run = sh([...words, quote(packed['@mcp-mrtr/surface'].tarball), ...INSTALL_FLAGS].join(' '), project, 600_000);
    expect(run.status, run.stderr).toBe(0);
    for (const name of PACKAGES) expect(fs.existsSync(path.join(project, 'node_modules', name, 'package.json')), name).toBe(true);
    commitAll(project);
  });

  it('npx mcp-mrtr --version runs the installed bin', () => {
    const run = sh('npx mcp-mrtr --version', project);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(packed['@mcp-mrtr/codemod'].manifest.version);
  });

  it("the README's Lint config, verbatim, reports the legacy calls with the installed ESLint", () => {
    const [config] = readmeBlocks('Lint what is left', 'js');
    fs.writeFileSync(path.join(project, 'eslint.config.js'), config!);
    const run = sh('npx eslint src --format json', project);
    expect(run.status, run.stderr).toBe(1);
    const results = JSON.parse(run.stdout) as { filePath: string; messages: { ruleId: string | null; fatal?: boolean }[] }[];
    expect(results.flatMap((r) => r.messages.filter((m) => m.fatal || m.ruleId === null))).toEqual([]);
    const legacy = results.filter((r) => r.messages.some((m) => m.ruleId === '@mcp-mrtr/no-server-initiated-requests')).map((r) => path.relative(project, r.filePath));
    expect(legacy).toContain('src/confirm.ts');
    fs.rmSync(path.join(project, 'eslint.config.js'));
  });

  it('check: exit 1, lists the legacy sites, writes nothing', () => {
    const before = git(project, 'status', '--porcelain');
    const run = sh(runs[0]!, project);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/src\/confirm\.ts:5:\d+\s+elicitation\/create/);
    expect(git(project, 'status', '--porcelain')).toBe(before);
  });

  it('migrate --dry-run: a unified diff, nothing written', () => {
    const run = sh(runs[1]!, project);
    expect([0, 1], run.stderr).toContain(run.status);
    expect(run.stdout).toMatch(/^--- a\/src\/confirm\.ts$/m);
    expect(run.stdout).toMatch(/^\+.*inputRequired/m);
    expect(git(project, 'status', '--porcelain')).toBe('');
  });

  it('migrate: rewrites in place, moves package.json to the 2.x server package', () => {
    const run = sh(runs[2]!, project);
    expect([0, 1], run.stderr + run.stdout).toContain(run.status);
    expect(run.stderr).not.toMatch(/not in a git work tree|refusing/);
    const changed = git(project, 'status', '--porcelain').split('\n').filter(Boolean).map((l) => l.slice(3));
    expect(changed).toEqual(expect.arrayContaining(['package.json', 'src/confirm.ts']));
    expect(fs.readFileSync(path.join(project, 'src/confirm.ts'), 'utf8')).toContain('inputRequired');
    const manifest = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8'));
    expect(manifest.dependencies['@modelcontextprotocol/server']).toBeDefined();
    expect(manifest.dependencies['@modelcontextprotocol/sdk']).toBeUndefined();
  });

  it('the Lint config also works with ESLint 9', () => {
    const install = sh(['npm', 'i', '-D', 'eslint@9.39.5', ...INSTALL_FLAGS].join(' '), project, 600_000);
    expect(install.status, install.stderr).toBe(0);
    const [config] = readmeBlocks('Lint what is left', 'js');
    fs.writeFileSync(path.join(project, 'eslint.config.js'), config!);
    fs.writeFileSync(path.join(project, 'legacy.mts'), `export async function ask(server: { server: { listRoots(): Promise<unknown> } }): Promise<unknown> {\n  return server.server.listRoots();\n}\n`);
    const version = sh('npx eslint --version', project);
    expect(version.stdout.trim()).toMatch(/^v9\./);
    const run = sh('npx eslint legacy.mts', project);
    expect(run.stdout).not.toMatch(/ignored/i);
    expect(run.stdout).toMatch(/2:\d+\s+error\s+.*@mcp-mrtr\/no-server-initiated-requests/);
    expect(run.status, run.stderr).toBe(1);
  });
});

describe('this checkout', () => {
  it('its build outputs are untouched: the same files, never rewritten (the tests beside this one load them)', () => {
    expect(distStamps()).toEqual(distBefore);
  });
});
