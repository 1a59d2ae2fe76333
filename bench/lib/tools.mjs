/**
 * The commands the benchmark times, each run in a fresh process on the same tree.
 * A tool whose entry file is missing (not built yet) is reported as n/a, never as a failure.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** @param {string} root  @param {{ ourCli?: string }} [options]  ourCli: a snapshot of the built CLI (see snapshotCli) */
export function benchTools(root, options = {}) {
  const ourCli = options.ourCli ?? join(root, 'packages/codemod/dist/cli.js');
  const officialCli = join(root, 'node_modules/@modelcontextprotocol/codemod/dist/cli.mjs');
  const floor = join(root, 'bench/parse-floor.mjs');
  return [
    {
      id: 'floor',
      label: 'parse floor',
      entry: floor,
      args: (tree) => [floor, tree],
    },
    {
      id: 'migrate',
      label: 'mcp-mrtr migrate --dry-run',
      entry: ourCli,
      args: (tree) => [ourCli, 'migrate', tree, '--dry-run'],
      // a dry run that finds sites it cannot migrate may exit non-zero by design; a crash exits >= 2
      okExitCodes: [0, 1],
    },
    {
      id: 'check',
      label: 'mcp-mrtr check',
      entry: ourCli,
      args: (tree) => [ourCli, 'check', tree],
      // `check` exits 1 when it finds legacy sites (it is meant for CI): that is a successful run here
      okExitCodes: [0, 1],
    },
    {
      id: 'official',
      label: 'official v1-to-v2 --dry-run',
      entry: officialCli,
      args: (tree) => [officialCli, 'v1-to-v2', tree, '--dry-run'],
      okExitCodes: [0, 1],
    },
  ].map((tool) => ({ ...tool, available: existsSync(tool.entry) }));
}

/**
 * Copies the built codemod (packages/codemod/dist) aside so that every repetition of a run times
 * the same build even when someone rebuilds the package meanwhile. The copy lives under the
 * package's own node_modules, so its imports resolve exactly as the original's do.
 */
export function snapshotCli(root) {
  const dist = join(root, 'packages/codemod/dist');
  if (!existsSync(join(dist, 'cli.js'))) return undefined;
  const target = join(root, 'packages/codemod/node_modules/.mcp-mrtr-bench-snapshot/dist');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true });
  cpSync(dist, target, { recursive: true });
  return join(target, 'cli.js');
}
