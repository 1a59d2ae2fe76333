#!/usr/bin/env node
/**
 * `npm run realworld`: runs `mcp-mrtr migrate` on public MCP server repositories at pinned commits,
 * with their dependencies installed as a user would, and measures each against its own checks.
 * For each repository of repos.tsv, sequentially: copy the pristine checkout to a scratch dir,
 * install, typecheck, run its tests, commit (migrate wants a clean tree), migrate, install again,
 * typecheck and test again. Prints one table and writes results.md and results.json.
 *
 *   node bench/realworld/run.mjs [--tsv bench/realworld/repos.tsv] [--checkouts /work/realworld/checkouts]
 *       [--mirrors /work/.mirror] [--scratch /work/realworld/scratch] [--cli packages/codemod/dist/cli.js]
 *       [--only owner/repo[,owner/repo]] [--out bench/realworld] [--test-timeout-s 600] [--no-tests]
 *   node bench/realworld/run.mjs --render-only     (results.md again from results.json)
 *   --reuse-before <results.json>: take each repository's own test counts before the migration from an
 *     earlier run at the same commit instead of running the suite again (they do not depend on the CLI)
 *   --verdicts <tsv> (default verdicts.tsv here): a person's reading of each site, summed under the table
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runStep } from './lib/exec.mjs';
import { findInstallRoot, install } from './lib/install.mjs';
import { runTests, typecheck } from './lib/checks.mjs';
import { textSearchSites } from './lib/sites.mjs';
import { lostCommentLines } from './lib/comments.mjs';
import { ensureCheckout, readRepos, slug } from './lib/repos.mjs';
import { renderMarkdown, renderTable } from './lib/render.mjs';
import { readVerdicts, renderVerdicts, summariseVerdicts } from './lib/verdicts.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = resolve(here, '../..');

const { values: opts } = parseArgs({
  options: {
    tsv: { type: 'string', default: join(here, 'repos.tsv') },
    checkouts: { type: 'string', default: '/work/realworld/checkouts' },
    mirrors: { type: 'string', default: '/work/.mirror' },
    scratch: { type: 'string', default: '/work/realworld/scratch' },
    cli: { type: 'string', default: join(projectRoot, 'packages/codemod/dist/cli.js') },
    only: { type: 'string' },
    out: { type: 'string', default: here },
    'install-timeout-s': { type: 'string', default: '900' },
    'tsc-timeout-s': { type: 'string', default: '600' },
    'test-timeout-s': { type: 'string', default: '600' },
    'migrate-timeout-s': { type: 'string', default: '1200' },
    tests: { type: 'boolean', default: true },
    'no-tests': { type: 'boolean', default: false },
    'render-only': { type: 'boolean', default: false },
    'reuse-before': { type: 'string' },
    verdicts: { type: 'string', default: join(here, 'verdicts.tsv') },
  },
});

const timeouts = {
  install: Number(opts['install-timeout-s']),
  tsc: Number(opts['tsc-timeout-s']),
  test: Number(opts['test-timeout-s']),
  migrate: Number(opts['migrate-timeout-s']),
};
const withTests = opts.tests && !opts['no-tests'];
const cli = resolve(opts.cli);

const GIT_ID = ['-c', 'user.email=harness@localhost', '-c', 'user.name=realworld-harness', '-c', 'commit.gpgsign=false'];
const git = (cwd, args) => execFileSync('git', [...GIT_ID, ...args], { cwd, maxBuffer: 1 << 30 }).toString();
const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

function cliVersion() {
  try {
    const dir = dirname(dirname(dirname(cli)));
    // The checkout's HEAD may have moved since dist was built: name both.
    const head = execFileSync('git', ['log', '-1', '--format=%h'], { cwd: dir }).toString().trim();
    return `${head}, dist built ${statSync(cli).mtime.toISOString().slice(0, 16)}Z`;
  } catch { return 'unknown'; }
}

function readReport(file) {
  try { return JSON.parse(readFileSync(file, 'utf8')); } catch { return undefined; }
}

function sitesOf(report, status) {
  return (report?.files ?? []).flatMap((f) => f.sites.filter((s) => s.status === status).map((s) => ({ file: f.path, line: s.line, method: s.method, reason: s.reason, handler: s.handler })));
}

/** Changed files after migrate (paths relative to the scratch root) and the comment lines they lost. */
function inspectChanges(root, logDir) {
  git(root, ['add', '-A']);
  const changed = git(root, ['diff', '--cached', '--name-status', 'HEAD']).trim().split('\n').filter(Boolean).map((l) => l.split('\t'));
  writeFileSync(join(logDir, 'migrate.diff'), git(root, ['diff', '--cached', 'HEAD']));
  git(root, ['reset', '-q']);
  let lost = 0;
  const perFile = {};
  for (const [status, file] of changed) {
    if (!SOURCE.test(file) || status === 'A') continue;
    const before = git(root, ['show', `HEAD:${file}`]);
    const after = status === 'D' ? '' : readFileSync(join(root, file), 'utf8');
    const n = lostCommentLines(before, after);
    if (n > 0) perFile[file] = n;
    lost += n;
  }
  return { changed: changed.map(([status, file]) => `${status} ${file}`), commentLinesLost: lost, commentLinesLostByFile: perFile };
}

/** Earlier results by repository, for --reuse-before. */
const earlier = new Map();
if (opts['reuse-before']) {
  for (const r of JSON.parse(readFileSync(opts['reuse-before'], 'utf8')).repos ?? []) earlier.set(r.name, r);
}

function reusableTestsBefore(repo) {
  const previous = earlier.get(repo.name);
  if (!previous || previous.commit !== repo.commit || previous.error) return undefined;
  // Only a counted suite is worth reusing: a missing summary may come from an install this run repairs.
  if (!previous.testsBefore || previous.testsBefore.passed === null || previous.testsBefore.timedOut) return undefined;
  return { ...previous.testsBefore, reused: true };
}

async function runRepo(repo) {
  const started = Date.now();
  const work = join(resolve(opts.scratch), slug(repo.name));
  const root = join(work, 'repo');
  const logDir = join(work, 'logs');
  const result = { name: repo.name, commit: repo.commit, subdir: repo.subdir, paths: repo.paths, notes: repo.notes, steps: {} };
  const log = (msg) => process.stderr.write(`[${repo.name}] ${msg}\n`);
  try {
    const checkout = ensureCheckout(repo, resolve(opts.checkouts), resolve(opts.mirrors));
    rmSync(work, { recursive: true, force: true });
    mkdirSync(logDir, { recursive: true });
    cpSync(checkout, root, { recursive: true, verbatimSymlinks: true });
    const pkgDir = join(root, repo.subdir);
    result.textSites = textSearchSites(pkgDir, repo.paths);

    const installRoot = findInstallRoot(pkgDir, root);
    result.pm = installRoot.pm;
    log(`install (${installRoot.pm}) in ${installRoot.dir.slice(root.length) || '.'}`);
    const before = await install(installRoot, { logDir, phase: 'before', timeoutS: timeouts.install });
    result.steps.installBefore = before;
    // After a lockless fallback the project was installed with npm: its own package manager may be
    // what could not be fetched (a corepack pin of a yarn or pnpm release), so npm runs its tests too.
    const testPm = before.lockless ? 'npm' : installRoot.pm;
    log(`typecheck, tests (before)`);
    result.tscBefore = await typecheck({ pkgDir, root, tsconfig: repo.tsconfig, log: join(logDir, 'tsc-before.log'), timeoutS: timeouts.tsc });
    result.testsBefore = !withTests
      ? { passed: null, failed: null, note: 'not run' }
      : reusableTestsBefore(repo) ?? (await runTests({ pkgDir, pm: testPm, override: repo.test, log: join(logDir, 'test-before.log'), timeoutS: timeouts.test }));

    // migrate refuses a dirty tree: commit the installed state (dependencies left out).
    git(root, ['init', '-q']);
    writeFileSync(join(root, '.git/info/exclude'), 'node_modules/\n.pnpm-store/\n');
    git(root, ['add', '-A']);
    git(root, ['commit', '-q', '--no-verify', '-m', 'pristine, installed']);

    log(`migrate ${repo.paths.join(' ')}`);
    const reportFile = join(logDir, 'report.json');
    const migrateArgs = [cli, 'migrate', ...repo.paths, '--json', reportFile, ...(repo.tsconfig && !repo.tsconfig.startsWith('build:') ? ['--tsconfig', repo.tsconfig] : [])];
    const migrate = await runStep('node', migrateArgs, { cwd: pkgDir, log: join(logDir, 'migrate.log'), timeoutS: timeouts.migrate });
    result.steps.migrate = { code: migrate.code, timedOut: migrate.timedOut, seconds: migrate.seconds };
    const report = readReport(reportFile);
    result.engine = report ? { ...report.summary } : undefined;
    result.migrated = sitesOf(report, 'migrated');
    result.flagged = sitesOf(report, 'flagged');
    result.failedFiles = (report?.files ?? []).filter((f) => f.error).map((f) => ({ file: f.path, error: f.error }));
    Object.assign(result, inspectChanges(root, logDir));

    log(`install, typecheck, tests (after)`);
    result.steps.installAfter = await install(findInstallRoot(pkgDir, root), { logDir, phase: 'after', timeoutS: timeouts.install, preferLockless: before.lockless });
    result.tscAfter = await typecheck({ pkgDir, root, tsconfig: repo.tsconfig, log: join(logDir, 'tsc-after.log'), timeoutS: timeouts.tsc });
    result.testsAfter = withTests ? await runTests({ pkgDir, pm: testPm, override: repo.test, log: join(logDir, 'test-after.log'), timeoutS: timeouts.test }) : { passed: null, failed: null, note: 'not run' };
  } catch (error) {
    result.error = String(error?.stack ?? error).split('\n').slice(0, 3).join(' | ');
    log(`ERROR ${result.error}`);
  }
  result.seconds = Math.round((Date.now() - started) / 1000);
  result.cli = cliVersion();
  result.date = new Date().toISOString();
  result.scratch = work;
  log(`done in ${result.seconds} s`);
  return result;
}

function mergeResults(file, fresh) {
  let previous = [];
  try { previous = JSON.parse(readFileSync(file, 'utf8')).repos ?? []; } catch { /* first run */ }
  const byName = new Map(previous.map((r) => [r.name, r]));
  for (const r of fresh) byName.set(r.name, r);
  return [...byName.values()];
}

/** The verdicts section for results.md, or undefined without a verdicts file. */
function verdictsSection(repos) {
  const rows = readVerdicts(resolve(opts.verdicts));
  return rows && renderVerdicts(summariseVerdicts(rows, repos));
}

function renderOnly() {
  const saved = JSON.parse(readFileSync(join(opts.out, 'results.json'), 'utf8'));
  writeFileSync(join(opts.out, 'results.md'), renderMarkdown(saved.repos, saved.meta, verdictsSection(saved.repos)));
  process.stdout.write(renderTable(saved.repos) + '\n');
}

async function main() {
  if (opts['render-only']) return renderOnly();
  if (!existsSync(cli)) throw new Error(`CLI not found: ${cli} (npm run build first)`);
  const all = readRepos(resolve(opts.tsv));
  const only = opts.only ? new Set(opts.only.split(',')) : undefined;
  const repos = only ? all.filter((r) => only.has(r.name)) : all;
  if (only && repos.length !== only.size) throw new Error(`--only names not in ${opts.tsv}: ${[...only].filter((n) => !all.some((r) => r.name === n)).join(', ')}`);
  const fresh = [];
  // A new --out directory (a scratch run kept apart from the committed results) is made here.
  mkdirSync(opts.out, { recursive: true });
  for (const repo of repos) {
    fresh.push(await runRepo(repo));
    // Written after every repository, so an interrupted run keeps what it measured.
    const order = new Map(all.map((r, i) => [r.name, i]));
    const merged = mergeResults(join(opts.out, 'results.json'), fresh).filter((r) => order.has(r.name)).sort((a, b) => order.get(a.name) - order.get(b.name));
    const meta = { date: new Date().toISOString(), cli: cliVersion(), node: process.version };
    writeFileSync(join(opts.out, 'results.json'), JSON.stringify({ meta, repos: merged }, null, 2) + '\n');
    writeFileSync(join(opts.out, 'results.md'), renderMarkdown(merged, meta, verdictsSection(merged)));
  }
  const merged = JSON.parse(readFileSync(join(opts.out, 'results.json'), 'utf8')).repos;
  process.stdout.write(renderTable(merged) + '\n');
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exitCode = 1;
});
