/** The Node 20 stand-in for fs.globSync that lets the conformance suite start (fixtures/conformance/fs-with-globsync.mjs). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

interface FsWithGlobSync {
  globSync(pattern: string, options?: { cwd?: string }): string[];
  readFileSync: unknown;
}
const shim = (await import(new URL('../../../../fixtures/conformance/fs-with-globsync.mjs', import.meta.url).href)) as FsWithGlobSync;

const dir = mkdtempSync(join(tmpdir(), 'globsync-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('globSync polyfill for the conformance suite on Node 20', () => {
  it('finds every file of that name below cwd, as relative paths, and nothing else', () => {
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    mkdirSync(join(dir, 'checks.json.d'));
    writeFileSync(join(dir, 'checks.json'), '[]');
    writeFileSync(join(dir, 'a', 'b', 'checks.json'), '[]');
    writeFileSync(join(dir, 'a', 'other.json'), '[]');
    expect(shim.globSync('**/checks.json', { cwd: dir }).sort()).toEqual(['a/b/checks.json', 'checks.json']);
  });

  it('re-exports the real fs and refuses patterns it does not implement', () => {
    expect(typeof shim.readFileSync).toBe('function');
    expect(() => shim.globSync('a/*.json', { cwd: dir })).toThrow(/unsupported pattern/);
  });
});
