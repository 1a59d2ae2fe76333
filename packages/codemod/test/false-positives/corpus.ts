/**
 * Bodies of real non-MCP-server code from `node_modules`, used to prove the engine and the plugin
 * report nothing where there is nothing to migrate.
 *
 * What counts as "not a legacy site" (decided here, see README in this directory):
 * - the SDKs' own library code: the *definitions* of `elicitInput`/`createMessage`/`listRoots`, the
 *   `this.request({ method: 'sampling/createMessage' })` inside `Server.createMessage`, the v2 shim
 *   that forwards embedded requests, client-side handlers answering `elicitation/create`, schemas
 *   and method-name tables. None of it is server application code that serves a tool, prompt or
 *   resource, so none of it may be reported.
 * - the SDK's bundled *server examples* (`dist/{esm,cjs}/examples/server/`) ARE legacy server code
 *   (tools that call `server.elicitInput`): they are not in the negative corpus; they are the
 *   positive control that shows the scan actually runs.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
export const NODE_MODULES = join(REPO_ROOT, 'node_modules');

const SOURCE_EXT = /\.(?:[cm]?js|[cm]?ts|tsx|jsx)$/;
const DECLARATION = /\.d\.[cm]?ts$/;

export interface CorpusGroup {
  name: string;
  /** Directory the relative paths are taken from. */
  base: string;
  /** Sorted paths relative to `base`. */
  files: string[];
}

function walk(dir: string, accept: (rel: string) => boolean, base = dir, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules') continue;
      walk(full, accept, base, out);
    } else if (entry.isFile()) {
      const rel = relative(base, full);
      if (SOURCE_EXT.test(rel) && !DECLARATION.test(rel) && accept(rel)) out.push(rel);
    }
  }
  return out.sort();
}

/** Every k-th file (deterministic), at most `max` files. */
function sample(files: string[], max: number): string[] {
  if (files.length <= max) return files;
  const step = files.length / max;
  return Array.from({ length: max }, (_, i) => files[Math.floor(i * step)]);
}

function group(name: string, base: string, accept: (rel: string) => boolean = () => true, max = Infinity): CorpusGroup {
  const abs = join(NODE_MODULES, base);
  return { name, base: abs, files: sample(walk(abs, accept), max) };
}

const notServerExample = (rel: string) => !/(^|\/)examples\/server\//.test(rel);
const underMaxBytes = (base: string, bytes: number) => (rel: string) => statSync(join(NODE_MODULES, base, rel)).size <= bytes;

/**
 * The negative corpus. Bounded so each group runs in well under a minute on 2 cores:
 * the TypeScript compiler is represented by its 6 MB `_tsc.js` plus the smaller lib entry points
 * (the 9 MB `typescript.js` is the same compiler again plus the language service).
 */
export function negativeCorpus(): CorpusGroup[] {
  return [
    group('typescript-lib', 'typescript/lib', (rel) => !rel.includes('/') && rel !== 'typescript.js'),
    group('eslint-lib', 'eslint/lib'),
    group('sdk-v1-dist', '@modelcontextprotocol/sdk/dist', notServerExample),
    group('sdk-v2-server-dist', '@modelcontextprotocol/server/dist', underMaxBytes('@modelcontextprotocol/server/dist', 2_000_000)),
    group('sdk-v2-client-dist', '@modelcontextprotocol/client/dist', underMaxBytes('@modelcontextprotocol/client/dist', 2_000_000)),
    group('ts-morph', 'ts-morph/dist'),
    group('yargs', 'yargs', (rel) => !rel.startsWith('locales')),
    group('zod-src', 'zod/src', () => true, 400),
  ];
}

/** Legacy v1 server examples shipped inside the SDK: must be found (positive control). */
export function positiveControl(): CorpusGroup {
  return group('sdk-v1-server-examples', '@modelcontextprotocol/sdk/dist/esm/examples/server', (rel) =>
    /^(elicitationFormExample|toolWithSampleServer)\.js$/.test(rel),
  );
}
