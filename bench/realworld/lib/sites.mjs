/**
 * Legacy server-to-client requests found by a plain text search: the baseline the engine's own
 * count is compared with. Counts calls of the SDK's request methods and the request method strings
 * (which is how `sendRequest`/`request` calls name them), in source files of the migrated paths,
 * outside node_modules, build output, declaration files and tests. Comment lines are skipped.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', 'out', 'coverage', '.git', 'test', 'tests', '__tests__', '__mocks__', 'spec', 'e2e', 'fixtures']);
const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$|\.d\.[cm]?ts$/;

export const SITE_PATTERNS = [
  ['elicitInput', /\.elicitInput\s*\(/g],
  ['createMessage', /\.createMessage\s*\(/g],
  ['listRoots', /\.listRoots\s*\(/g],
  ['elicitation/create', /(?<!\\)['"`]elicitation\/create['"`]/g],
  ['sampling/createMessage', /(?<!\\)['"`]sampling\/createMessage['"`]/g],
  ['roots/list', /(?<!\\)['"`]roots\/list['"`]/g],
];

function* sourceFiles(path) {
  let stat;
  try { stat = statSync(path); } catch { return; }
  if (stat.isFile()) { if (SOURCE.test(path) && !TEST_FILE.test(path)) yield path; return; }
  if (!stat.isDirectory()) return;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory() && SKIP_DIRS.has(entry.name)) continue;
    yield* sourceFiles(join(path, entry.name));
  }
}

const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*)/;

/** @returns {{ total: number, byMethod: Record<string, number>, sites: Array<{ file: string, line: number, method: string }> }} */
export function textSearchSites(pkgDir, paths) {
  const sites = [];
  for (const p of paths) {
    for (const file of sourceFiles(join(pkgDir, p))) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((text, i) => {
        if (COMMENT_LINE.test(text)) return;
        for (const [method, regex] of SITE_PATTERNS) {
          for (const _ of text.matchAll(regex)) sites.push({ file: relative(pkgDir, file), line: i + 1, method });
        }
      });
    }
  }
  const byMethod = {};
  for (const s of sites) byMethod[s.method] = (byMethod[s.method] ?? 0) + 1;
  return { total: sites.length, byMethod, sites };
}
