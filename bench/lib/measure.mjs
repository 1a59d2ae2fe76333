/**
 * Runs one command in a fresh process and measures wall time and peak RSS.
 * Peak RSS comes from GNU `/usr/bin/time -v` when it works here, otherwise from a preload
 * (`rss-preload.cjs`) that writes `process.resourceUsage().maxRSS` when a node process exits.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const RSS_PRELOAD = join(here, 'rss-preload.cjs');
const GNU_TIME = '/usr/bin/time';

let gnuTimeWorks;
/** True when `/usr/bin/time -v` exists and reports `Maximum resident set size`. */
export function hasGnuTime() {
  if (gnuTimeWorks === undefined) {
    gnuTimeWorks = false;
    if (existsSync(GNU_TIME)) {
      const probe = spawnSync(GNU_TIME, ['-v', process.execPath, '-e', '0'], { encoding: 'utf8' });
      gnuTimeWorks = probe.status === 0 && /Maximum resident set size \(kbytes\): \d+/.test(probe.stderr);
    }
  }
  return gnuTimeWorks;
}

export function rssMethod() {
  return hasGnuTime() ? 'gnu-time' : 'node-preload';
}

/**
 * @param {object} spec
 * @param {string[]} spec.nodeArgs  arguments after `node` (script and its flags)
 * @param {string} spec.cwd
 * @param {string} spec.logBase     path prefix for `.out` / `.err` logs of this run
 * @param {number[]} [spec.okExitCodes]  exit codes that count as a successful run (default [0])
 * @param {number} [spec.timeoutMs]
 * @param {Record<string,string>} [spec.env]
 * @returns {Promise<{ok: boolean, wallMs: number, rssBytes: number|null, exitCode: number|null, signal: string|null, error?: string}>}
 */
export function measure(spec) {
  const { nodeArgs, cwd, logBase, okExitCodes = [0], timeoutMs = 15 * 60_000, env = {} } = spec;
  mkdirSync(dirname(logBase), { recursive: true });
  const outFd = openSync(`${logBase}.out`, 'w');
  const errFd = openSync(`${logBase}.err`, 'w');
  const rssFile = `${logBase}.rss`;
  rmSync(rssFile, { force: true });

  let command;
  let args;
  const childEnv = { ...process.env, ...env, FORCE_COLOR: '0', NO_COLOR: '1' };
  if (hasGnuTime()) {
    command = GNU_TIME;
    args = ['-v', '-o', rssFile, process.execPath, ...nodeArgs];
  } else {
    command = process.execPath;
    args = ['--require', RSS_PRELOAD, ...nodeArgs];
    childEnv.BENCH_RSS_FILE = rssFile;
  }

  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd, env: childEnv, stdio: ['ignore', outFd, errFd] });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const finish = (exitCode, signal, error) => {
      clearTimeout(timer);
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      closeSync(outFd);
      closeSync(errFd);
      const rssBytes = readRss(rssFile);
      let status = exitCode;
      if (hasGnuTime() && exitCode !== null) {
        // time(1) exits with the child's status; a signal shows as "Command terminated by signal".
        const report = existsSync(rssFile) ? readFileSync(rssFile, 'utf8') : '';
        const m = /Exit status: (\d+)/.exec(report);
        if (m) status = Number(m[1]);
      }
      const ok = !error && !timedOut && signal === null && okExitCodes.includes(status);
      const why = error ?? (timedOut ? `timed out after ${timeoutMs} ms` : ok ? undefined : `exit ${status ?? signal}: ${tail(`${logBase}.err`)}`);
      resolve({ ok, wallMs, rssBytes, exitCode: status, signal, ...(why ? { error: why } : {}) });
    };
    child.on('error', (err) => finish(null, null, err.message));
    child.on('exit', (code, signal) => finish(code, signal));
  });
}

function readRss(file) {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const gnu = /Maximum resident set size \(kbytes\): (\d+)/.exec(text);
  if (gnu) return Number(gnu[1]) * 1024;
  const kb = Number(text.trim());
  return Number.isFinite(kb) && kb > 0 ? kb * 1024 : null;
}

function tail(file, max = 400) {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return text.length > max ? `…${text.slice(-max)}` : text;
  } catch {
    return '';
  }
}
