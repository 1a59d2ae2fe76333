/**
 * Runs one command in a fresh process and measures wall time, CPU time (user + system) and peak RSS.
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
 * @returns {Promise<{ok: boolean, wallMs: number, cpuMs: number|null, rssBytes: number|null, exitCode: number|null, signal: string|null, error?: string}>}
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
      const { rssBytes, cpuMs } = readUsage(rssFile);
      let status = exitCode;
      if (hasGnuTime() && exitCode !== null) {
        // time(1) exits with the child's status; a signal shows as "Command terminated by signal".
        const report = existsSync(rssFile) ? readFileSync(rssFile, 'utf8') : '';
        const m = /Exit status: (\d+)/.exec(report);
        if (m) status = Number(m[1]);
      }
      const ok = !error && !timedOut && signal === null && okExitCodes.includes(status);
      const why = error ?? (timedOut ? `timed out after ${timeoutMs} ms` : ok ? undefined : `exit ${status ?? signal}: ${tail(`${logBase}.err`)}`);
      resolve({ ok, wallMs, cpuMs, rssBytes, exitCode: status, signal, ...(why ? { error: why } : {}) });
    };
    child.on('error', (err) => finish(null, null, err.message));
    child.on('exit', (code, signal) => finish(code, signal));
  });
}

/** Peak RSS (bytes) and user+system CPU time (ms) from the GNU time report or the preload's JSON. */
function readUsage(file) {
  if (!existsSync(file)) return { rssBytes: null, cpuMs: null };
  const text = readFileSync(file, 'utf8');
  const gnu = /Maximum resident set size \(kbytes\): (\d+)/.exec(text);
  if (gnu) {
    const user = /User time \(seconds\): ([\d.]+)/.exec(text);
    const sys = /System time \(seconds\): ([\d.]+)/.exec(text);
    const cpuMs = user && sys ? (Number(user[1]) + Number(sys[1])) * 1000 : null;
    return { rssBytes: Number(gnu[1]) * 1024, cpuMs };
  }
  try {
    const usage = JSON.parse(text);
    return { rssBytes: usage.maxRSS * 1024, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 };
  } catch {
    return { rssBytes: null, cpuMs: null };
  }
}

function tail(file, max = 400) {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return text.length > max ? `…${text.slice(-max)}` : text;
  } catch {
    return '';
  }
}
