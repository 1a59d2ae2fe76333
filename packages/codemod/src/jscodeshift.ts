/**
 * jscodeshift entry: `npx jscodeshift -t node_modules/@mcp-mrtr/codemod/dist/jscodeshift.cjs src/`.
 *
 * Runs the same engine as `mcp-mrtr migrate` on one file at a time (the engine's per-source entry,
 * syntactic mode unless `--tsconfig=<file>` is passed), so a single file comes out exactly as the
 * CLI writes it, test-mock markers included (the run's test-mock stage, told that the requests a
 * mock fakes may be migrated in other files). Files the migration creates (the requestState codec
 * module) are written next to it unless jscodeshift runs with `--dry`. A file that cannot be
 * migrated makes the transform throw, which jscodeshift reports as an error for that file.
 *
 * Options (jscodeshift passes unknown CLI flags through): `--stateKeyEnv=NAME`, `--tsconfig=FILE`.
 *
 * Why a worker thread: by default jscodeshift installs @babel/register, which then compiles every
 * module the transform requires, dependencies included, and fails on ts-morph's class static
 * blocks. A worker thread has its own module loader without that hook, so the engine is loaded and
 * run there; this module's top level needs nothing but Node built-ins.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

export interface FileInfo {
  path: string;
  source: string;
}

export interface TransformOptions {
  stateKeyEnv?: string;
  'state-key-env'?: string;
  tsconfig?: string;
  dry?: boolean;
  [option: string]: unknown;
}

interface Job {
  id: number;
  file: FileInfo;
  options: { stateKeyEnv?: string; tsconfig?: string; dry: boolean; cwd: string };
}

type Reply = { id: number; output?: string; unchanged?: boolean; error?: string };

const WORKER_FLAG = 'mcpMrtrJscodeshiftEngine';

/** The actual migration of one file (runs inside the worker). */
async function migrateOne(job: Job): Promise<Omit<Reply, 'id'>> {
  const [{ migrateSource }, { writeFileAtomic }, fs] = await Promise.all([
    import('./migrate.js'),
    import('./fs/atomic-write.js'),
    import('node:fs'),
  ]);
  const { file, options } = job;
  const result = await migrateSource(
    file.source,
    file.path || 'input.ts',
    {
      cwd: options.cwd,
      ...(options.stateKeyEnv ? { stateKeyEnv: options.stateKeyEnv } : {}),
      ...(options.tsconfig ? { tsconfig: options.tsconfig } : {}),
    },
    { oneFileOfMany: true },
  );
  if (result.status === 'failed') return { error: `mcp-mrtr: ${file.path}: ${result.error ?? 'could not be migrated'}` };
  const output = result.output ?? file.source;
  if (!options.dry) {
    for (const created of result.created) {
      if (created.output === undefined) continue;
      if (fs.existsSync(created.path) && fs.readFileSync(created.path, 'utf8') === created.output) continue;
      writeFileAtomic(created.path, created.output);
    }
  }
  return output === file.source ? { unchanged: true } : { output };
}

if (!isMainThread && (workerData as Record<string, unknown> | undefined)?.[WORKER_FLAG]) {
  parentPort!.on('message', (job: Job) => {
    migrateOne(job).then(
      (reply) => parentPort!.postMessage({ id: job.id, ...reply }),
      (error: unknown) => parentPort!.postMessage({ id: job.id, error: (error as Error).stack ?? String(error) }),
    );
  });
}

let engine: Worker | undefined;
let nextId = 0;
const pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();

function engineWorker(): Worker {
  if (engine) return engine;
  const worker = new Worker(__filename, { workerData: { [WORKER_FLAG]: true } });
  worker.on('message', (reply: Reply) => {
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    waiter?.resolve(reply);
  });
  const fail = (error: Error) => {
    engine = undefined;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`mcp-mrtr engine worker exited (${code})`)));
  worker.unref();
  engine = worker;
  return worker;
}

export default async function transform(file: FileInfo, _api: unknown, options: TransformOptions = {}): Promise<string> {
  const stateKeyEnv = options.stateKeyEnv ?? options['state-key-env'];
  const job: Job = {
    id: nextId++,
    file: { path: file.path, source: file.source },
    options: {
      cwd: process.cwd(),
      dry: Boolean(options.dry),
      ...(typeof stateKeyEnv === 'string' ? { stateKeyEnv } : {}),
      ...(typeof options.tsconfig === 'string' ? { tsconfig: options.tsconfig } : {}),
    },
  };
  const worker = engineWorker();
  const reply = await new Promise<Reply>((resolve, reject) => {
    pending.set(job.id, { resolve, reject });
    worker.ref();
    worker.postMessage(job);
  });
  if (reply.error) throw new Error(reply.error);
  // The same text back: jscodeshift counts the file as unmodified (undefined would count as skipped).
  return reply.unchanged || reply.output === undefined ? file.source : reply.output;
}

/** The engine parses with TypeScript itself; jscodeshift's parser is not used. */
export const parser = 'tsx';
