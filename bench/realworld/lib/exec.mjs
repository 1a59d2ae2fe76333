/**
 * Runs one step of the harness as a child process group: output goes to a log file (and is kept,
 * truncated, for parsing), a timeout kills the whole group, and a failure is a result, never a throw,
 * so one repository's broken step never stops the run.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

const KEEP_CHARS = 4_000_000;

/**
 * @param {string} cmd  executable
 * @param {string[]} args
 * @param {{ cwd: string, log: string, timeoutS: number, env?: Record<string,string> }} opts
 * @returns {Promise<{ code: number|null, timedOut: boolean, output: string, seconds: number }>}
 */
export function runStep(cmd, args, { cwd, log, timeoutS, env = {} }) {
  mkdirSync(dirname(log), { recursive: true });
  const out = createWriteStream(log);
  out.write(`$ (cd ${cwd} && ${[cmd, ...args].join(' ')})\n`);
  const started = Date.now();
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    // `nice` keeps the machine usable for everyone else sharing it.
    const child = spawn('nice', ['-n', '10', cmd, ...args], {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: '1', FORCE_COLOR: '0', NO_COLOR: '1', COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
        // corepack 0.34 cannot verify newer pnpm signatures; and a pinned version may be swapped (see pnpmSpec)
        COREPACK_INTEGRITY_KEYS: '0', COREPACK_ENABLE_STRICT: '0', ...env },
    });
    const take = (chunk) => {
      out.write(chunk);
      if (output.length < KEEP_CHARS) output += chunk.toString();
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, timeoutS * 1000);
    const finish = (code) => {
      clearTimeout(timer);
      // Test runners leave watchers or servers behind: end the group we started.
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
      const seconds = (Date.now() - started) / 1000;
      out.end(`\n[exit ${code}${timedOut ? ', timed out' : ''} after ${seconds.toFixed(1)} s]\n`);
      resolve({ code, timedOut, output, seconds });
    };
    child.on('error', (error) => { take(String(error)); finish(-1); });
    child.on('close', (code) => finish(code));
  });
}
