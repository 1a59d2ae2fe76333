/**
 * `migrateProject` run on the tsconfig's own folder walks it once: the tests the tsconfig leaves
 * out (`"include": ["src"]`, tests in `tests/`) are picked from the run's discovery, not from a
 * second walk of the same tree (on the 2,000-file bench tree the second walk and its gitignore
 * checks cost about 0.2 s of CPU), and the rewrite and the importers check read the same list
 * instead of walking the folder again each. Run on a sub-folder, the tests beside the tsconfig still
 * come from a walk of the tsconfig's folder (once), and they are inputs of the run either way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEST_DIR } from './find-helpers.js';

const walks = vi.hoisted(() => ({ roots: [] as string[][] }));
vi.mock('../src/discover.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/discover.js')>();
  return {
    ...actual,
    discoverFiles: (paths: readonly string[], options?: Parameters<typeof actual.discoverFiles>[1]) => {
      // the package.json stage walks a package's folder for its own reasons (engine/package-json.ts)
      if (!/[\\/]engine[\\/]package-json\./.test(new Error().stack ?? '')) walks.roots.push([...paths]);
      return actual.discoverFiles(paths, options);
    },
  };
});

const { migrateProject } = await import('../src/migrate.js');

// a v1 server with tests outside its tsconfig that the run migrates (the rewrite and the importers check run)
const MIGRATED = path.resolve(TEST_DIR, '../../../fixtures/test-mocks/tests-outside');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mrtr-tests-beside-walk-'));
fs.mkdirSync(path.join(dir, 'src'));
fs.mkdirSync(path.join(dir, 'tests'));
fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }));
fs.writeFileSync(path.join(dir, 'src/tool.ts'), `export function double(n: number): number {\n  return n * 2;\n}\n`);
fs.writeFileSync(path.join(dir, 'tests/tool.test.ts'), `import { double } from '../src/tool.js';\n\nif (double(2) !== 4) throw new Error('double');\n`);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  walks.roots = [];
});

describe('tests beside the tsconfig', () => {
  it('run on the tsconfig folder, the folder is walked once and its tests are inputs of the run', async () => {
    const result = await migrateProject([dir], { cwd: dir });
    expect(walks.roots).toEqual([[dir]]);
    expect(result.files.map((f) => f.path)).toContain(path.join(dir, 'tests/tool.test.ts'));
  });

  it('run on a sub-folder, the tsconfig folder is walked for its tests', async () => {
    const result = await migrateProject(['src'], { cwd: dir });
    expect(walks.roots).toEqual([['src'], [dir]]);
    expect(result.files.map((f) => f.path)).toContain(path.join(dir, 'tests/tool.test.ts'));
  });

  it('a run that migrates walks the folder once, for the rewrite and the importers check too', async () => {
    const result = await migrateProject([MIGRATED], { cwd: MIGRATED });
    expect(result.summary.sitesMigrated).toBeGreaterThan(0);
    expect(result.files.some((f) => f.path.startsWith(path.join(MIGRATED, 'tests')) && f.output !== f.original)).toBe(true);
    expect(walks.roots).toEqual([[MIGRATED]]);
  });
});
