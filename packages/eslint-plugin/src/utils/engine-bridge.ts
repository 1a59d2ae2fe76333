/**
 * A synchronous call into the migration engine of `@mcp-mrtr/codemod`, for the rule option that
 * offers its rewrite as a suggestion. ESLint rules are synchronous and the engine's entry
 * (`migrateSource`) is async, so the engine runs in a worker thread and the rule blocks on an
 * `Atomics.wait` until the worker has posted its answer (the answer is read with
 * `receiveMessageOnPort`, which needs no event loop turn).
 *
 * The codemod is an optional peer: it is looked up only when the option is on, from the linted
 * file's directory (the project's own install), and never imported by the plugin itself, so the
 * plugin keeps its small dependency set and the two packages do not import each other.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';

export const CODEMOD_PACKAGE = '@mcp-mrtr/codemod';

/** What the rule needs of one engine run (a subset of the codemod's `FileResult`). */
export interface EngineFileResult {
  status: string;
  output?: string;
  error?: string;
  sites: Array<{ line: number; column: number; method: string; status: string; reason?: string }>;
  created: Array<{ path: string; output?: string }>;
}

export type EngineAnswer = { ok: true; result: EngineFileResult } | { ok: false; error: string };

/** Generous: the first call loads TypeScript and ts-morph in the worker. */
const TIMEOUT_MS = 120_000;

// Plain CommonJS evaluated in the worker: it does not depend on how the plugin itself was bundled.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const engines = new Map();
parentPort.on('message', async (job) => {
  let reply;
  try {
    if (!engines.has(job.entry)) engines.set(job.entry, import(pathToFileURL(job.entry).href));
    const { migrateSource } = await engines.get(job.entry);
    const r = await migrateSource(job.text, job.fileName, { cwd: job.cwd });
    reply = {
      ok: true,
      result: {
        status: r.status,
        output: r.output,
        error: r.error,
        sites: r.sites.map((s) => ({ line: s.line, column: s.column, method: s.method, status: s.status, reason: s.reason })),
        created: r.created.map((c) => ({ path: c.path, output: c.output })),
      },
    };
  } catch (error) {
    reply = { ok: false, error: String((error && error.stack) || error) };
  }
  job.port.postMessage(reply);
  job.port.close();
  const flag = new Int32Array(job.flag);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

let worker: Worker | undefined;

function engineWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, { eval: true });
  // an idle worker must not keep ESLint's process alive
  started.unref();
  started.on('error', () => {
    if (worker === started) worker = undefined;
  });
  started.on('exit', () => {
    if (worker === started) worker = undefined;
  });
  worker = started;
  return started;
}

/** The codemod's entry as the linted file's project resolves it, or undefined when it is not installed. */
export function resolveEngine(fileName: string): string | undefined {
  try {
    return createRequire(path.resolve(fileName)).resolve(CODEMOD_PACKAGE);
  } catch {
    return undefined;
  }
}

/** Runs `migrateSource(text, fileName)` of the codemod at `entry` and waits for it. */
export function migrateSourceSync(entry: string, text: string, fileName: string): EngineAnswer {
  const { port1, port2 } = new MessageChannel();
  const flag = new SharedArrayBuffer(4);
  try {
    engineWorker().postMessage({ entry, text, fileName, cwd: path.dirname(fileName), port: port2, flag }, [port2]);
    const waited = Atomics.wait(new Int32Array(flag), 0, 0, TIMEOUT_MS);
    const message = receiveMessageOnPort(port1);
    if (!message) return { ok: false, error: waited === 'timed-out' ? `the engine did not answer within ${TIMEOUT_MS / 1000} s` : 'the engine worker stopped' };
    return message.message as EngineAnswer;
  } finally {
    port1.close();
  }
}
