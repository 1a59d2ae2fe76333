/**
 * Installs a repository's dependencies the way its lockfile says, as a user would, with the
 * fallbacks a user reaches for when that fails (install scripts off; then no lockfile, for a pinned
 * tarball that is gone). The second install (after migrate changed package.json) is the same
 * package manager in its updating mode: a frozen install would refuse the changed manifest.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { runStep } from './exec.mjs';

const LOCKFILES = [
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
];

const hasBun = spawnSync('bun', ['--version'], { stdio: 'ignore' }).status === 0;

function readJson(file) {
  try { return JSON.parse(readFileSync(file, 'utf8')); } catch { return undefined; }
}

/** The directory whose lockfile governs `pkgDir` (nearest upward, inside `root`), and its manager. */
export function findInstallRoot(pkgDir, root) {
  for (let dir = pkgDir; ; dir = dirname(dir)) {
    const present = LOCKFILES.filter(([file]) => existsSync(join(dir, file)));
    if (present.length > 0) {
      const declared = readJson(join(dir, 'package.json'))?.packageManager?.split('@')[0];
      const usable = present.map(([, pm]) => pm).filter((pm) => pm !== 'bun' || hasBun);
      const pm = usable.includes(declared) ? declared : usable[0];
      return { dir, pm: pm ?? 'none', lockfiles: present.map(([file]) => file) };
    }
    if (dir === root || relative(root, dir).startsWith('..') || dirname(dir) === dir) break;
  }
  return { dir: pkgDir, pm: 'none', lockfiles: [] };
}

function isYarnBerry(dir) {
  const declared = readJson(join(dir, 'package.json'))?.packageManager ?? '';
  const major = /^yarn@(\d+)/.exec(declared)?.[1];
  return existsSync(join(dir, '.yarnrc.yml')) || (major !== undefined && Number(major) >= 2);
}

/**
 * The pnpm to run through corepack: the pinned one, except that pnpm 11 needs Node 22 (node:sqlite);
 * on an older Node, pnpm 10 reads the same lockfile format (v9).
 */
export function pnpmSpec(dir) {
  let declared;
  for (let d = dir; !declared && dirname(d) !== d; d = dirname(d)) declared = readJson(join(d, 'package.json'))?.packageManager;
  const major = Number(/^pnpm@(\d+)/.exec(declared ?? '')?.[1] ?? 0);
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  return major >= 11 && nodeMajor < 22 ? 'pnpm@10' : 'pnpm';
}

/** Commands in the order tried; `frozen` for the first install, updating mode for the second. */
function attempts(pm, dir, frozen) {
  const npmFlags = ['--no-audit', '--no-fund'];
  const lockless = [
    { label: 'npm install (no lockfile)', cmd: 'npm', args: ['install', ...npmFlags, '--no-package-lock'], dropLock: true },
    { label: 'npm install (no lockfile, legacy peers, no scripts)', cmd: 'npm', args: ['install', ...npmFlags, '--no-package-lock', '--legacy-peer-deps', '--ignore-scripts'], dropLock: true },
  ];
  let locked = [];
  if (pm === 'npm') {
    const args = frozen ? ['ci', ...npmFlags] : ['install', ...npmFlags];
    locked = [{ label: `npm ${args[0]}`, cmd: 'npm', args }, { label: `npm ${args[0]} --ignore-scripts`, cmd: 'npm', args: [...args, '--ignore-scripts'] }];
  } else if (pm === 'pnpm') {
    const args = [pnpmSpec(dir), 'install', frozen ? '--frozen-lockfile' : '--no-frozen-lockfile'];
    locked = [{ label: args.join(' '), cmd: 'corepack', args }, { label: `${args.join(' ')} --ignore-scripts`, cmd: 'corepack', args: [...args, '--ignore-scripts'] }];
  } else if (pm === 'yarn') {
    const berry = isYarnBerry(dir);
    const args = ['yarn', 'install', ...(frozen ? [berry ? '--immutable' : '--frozen-lockfile'] : [])];
    const env = berry && !frozen ? { YARN_ENABLE_IMMUTABLE_INSTALLS: 'false' } : {};
    locked = [{ label: args.slice(1).join(' '), cmd: 'corepack', args, env }];
  } else if (pm === 'bun') {
    const args = ['install', ...(frozen ? ['--frozen-lockfile'] : [])];
    locked = [{ label: `bun ${args.join(' ')}`, cmd: 'bun', args }];
  }
  return [...locked, ...lockless];
}

/**
 * @returns {Promise<{ ok: boolean, method: string, seconds: number, tried: string[] }>}
 */
export async function install({ pm, dir, lockfiles }, { logDir, phase, timeoutS, preferLockless = false }) {
  const tried = [];
  let seconds = 0;
  const list = attempts(pm, dir, phase === 'before');
  for (const [i, step] of (preferLockless ? list.filter((s) => s.dropLock) : list).entries()) {
    if (step.dropLock) for (const file of lockfiles) rmSync(join(dir, file), { force: true });
    const run = await runStep(step.cmd, step.args, {
      cwd: dir,
      log: join(logDir, `install-${phase}-${i + 1}.log`),
      timeoutS,
      env: { npm_config_update_notifier: 'false', ...(step.env ?? {}) },
    });
    seconds += run.seconds;
    tried.push(`${step.label}: ${run.timedOut ? 'timeout' : `exit ${run.code}`}`);
    // pnpm 10 installs everything, then exits 1 over dependency build scripts it was not told to allow.
    const ignoredBuildsOnly = step.cmd === 'corepack' && /ERR_PNPM_IGNORED_BUILDS/.test(run.output);
    if (run.code === 0 || ignoredBuildsOnly) return { ok: true, method: step.label, lockless: Boolean(step.dropLock), seconds, tried };
  }
  return { ok: false, method: 'failed', lockless: false, seconds, tried };
}
