import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyResult, writeFileAtomic } from '../../src/fs/atomic-write.js';
import type { MigrationResult } from '../../src/types.js';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'mrtr-write-'));
}

describe('writeFileAtomic', () => {
  it('replaces the content, keeps the mode and leaves no temp file behind', () => {
    const dir = tmp();
    const file = path.join(dir, 'run.mjs');
    fs.writeFileSync(file, 'old');
    fs.chmodSync(file, 0o751);
    writeFileAtomic(file, 'new');
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
    expect(fs.statSync(file).mode & 0o7777).toBe(0o751);
    expect(fs.readdirSync(dir)).toEqual(['run.mjs']);
  });
  it('refuses a read-only file and leaves it untouched', () => {
    const dir = tmp();
    const file = path.join(dir, 'locked.ts');
    fs.writeFileSync(file, 'old');
    fs.chmodSync(file, 0o444);
    expect(() => writeFileAtomic(file, 'new')).toThrow(/read-only/);
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
    expect(fs.readdirSync(dir)).toEqual(['locked.ts']);
  });
});

describe('applyResult', () => {
  it('writes changed and created files and package.json; a failing file becomes failed and the rest are written', () => {
    const dir = tmp();
    const a = path.join(dir, 'a.ts');
    const locked = path.join(dir, 'locked.ts');
    const created = path.join(dir, 'gen', 'codec.ts');
    const pkg = path.join(dir, 'package.json');
    fs.writeFileSync(a, 'a1');
    fs.writeFileSync(locked, 'l1');
    fs.chmodSync(locked, 0o444);
    fs.writeFileSync(pkg, '{"dependencies":{}}');
    const result: MigrationResult = {
      summary: { sitesFound: 2, sitesMigrated: 2, sitesFlagged: 0, filesChanged: 3, filesFailed: 0 },
      files: [
        { path: a, status: 'changed', original: 'a1', output: 'a2', sites: [{ line: 1, column: 1, method: 'roots/list', status: 'migrated' }] },
        { path: locked, status: 'changed', original: 'l1', output: 'l2', sites: [{ line: 1, column: 1, method: 'roots/list', status: 'migrated' }] },
        { path: created, status: 'created', output: 'codec', sites: [] },
      ],
      packageJsonChanges: [{ path: pkg, removed: {}, added: { x: '1' }, original: '{"dependencies":{}}', output: '{"dependencies":{"x":"1"}}' }],
    };
    const { result: after, written, failures } = applyResult(result);
    expect(fs.readFileSync(a, 'utf8')).toBe('a2');
    expect(fs.readFileSync(locked, 'utf8')).toBe('l1');
    expect(fs.readFileSync(created, 'utf8')).toBe('codec');
    expect(fs.readFileSync(pkg, 'utf8')).toBe('{"dependencies":{"x":"1"}}');
    expect(written.sort()).toEqual([a, created, pkg].sort());
    expect(failures).toEqual([{ path: locked, error: expect.stringMatching(/read-only/) }]);
    expect(after.files[1]).toMatchObject({ status: 'failed', sites: [{ status: 'flagged', reason: expect.stringMatching(/not written/) }] });
    expect(after.summary).toEqual({ sitesFound: 2, sitesMigrated: 1, sitesFlagged: 1, filesChanged: 2, filesFailed: 1 });
  });
  it('does not overwrite a file that changed on disk after it was read', () => {
    const dir = tmp();
    const a = path.join(dir, 'a.ts');
    fs.writeFileSync(a, 'edited meanwhile');
    const { failures } = applyResult({
      summary: { sitesFound: 0, sitesMigrated: 0, sitesFlagged: 0, filesChanged: 1, filesFailed: 0 },
      files: [{ path: a, status: 'changed', original: 'a1', output: 'a2', sites: [] }],
      packageJsonChanges: [],
    });
    expect(failures[0]!.error).toMatch(/changed on disk/);
    expect(fs.readFileSync(a, 'utf8')).toBe('edited meanwhile');
  });
});
