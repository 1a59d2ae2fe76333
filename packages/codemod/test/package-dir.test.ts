import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InMemoryFileSystemHost } from 'ts-morph';
import { afterEach, describe, expect, it } from 'vitest';
import { isRepositoryRoot, nearestDirWhere, nearestPackageDir, packageDirWithin, readManifest, unbounded } from '../src/engine/package-dir.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** outer/package.json, outer/repo/ (with .git when asked), outer/repo/pkg/src/ with the given manifests. */
function tree(manifests: string[], repo: boolean): string {
  const outer = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-package-dir-'));
  dirs.push(outer);
  fs.mkdirSync(path.join(outer, 'repo', 'pkg', 'src'), { recursive: true });
  if (repo) fs.mkdirSync(path.join(outer, 'repo', '.git'));
  for (const m of ['package.json', ...manifests]) fs.writeFileSync(path.join(outer, m), '{}\n');
  return outer;
}

describe('nearestPackageDir: the nearest package.json, never beyond the bound', () => {
  it('finds the nearest manifest at or above the folder', () => {
    const outer = tree(['repo/pkg/package.json'], true);
    expect(nearestPackageDir(path.join(outer, 'repo/pkg/src'), isRepositoryRoot)).toBe(path.join(outer, 'repo/pkg'));
    expect(nearestPackageDir(path.join(outer, 'repo/pkg'), isRepositoryRoot)).toBe(path.join(outer, 'repo/pkg'));
  });

  it('stops at the bound: its own package.json counts, one above it does not', () => {
    const atTop = tree(['repo/package.json'], true);
    expect(nearestPackageDir(path.join(atTop, 'repo/pkg/src'), isRepositoryRoot)).toBe(path.join(atTop, 'repo'));
    const aboveTop = tree([], true);
    expect(nearestPackageDir(path.join(aboveTop, 'repo/pkg/src'), isRepositoryRoot)).toBeUndefined();
    // without a .git the walk goes on to the outer package
    const noRepo = tree([], false);
    expect(nearestPackageDir(path.join(noRepo, 'repo/pkg/src'), isRepositoryRoot)).toBe(noRepo);
  });

  it('remembers the answer of every folder walked, for one bound', () => {
    const outer = tree([], false);
    const cache = new Map<string, string | undefined>();
    nearestPackageDir(path.join(outer, 'repo/pkg/src'), isRepositoryRoot, cache);
    expect([...cache].filter(([d]) => d.startsWith(outer))).toEqual(['repo/pkg/src', 'repo/pkg', 'repo', ''].map((d) => [path.join(outer, d), outer]));
    // an answer from the cache, even where the disk now says otherwise
    fs.writeFileSync(path.join(outer, 'repo/pkg/package.json'), '{}\n');
    expect(nearestPackageDir(path.join(outer, 'repo/pkg'), isRepositoryRoot, cache)).toBe(outer);
    expect(nearestPackageDir(path.join(outer, 'repo/pkg'), isRepositoryRoot)).toBe(path.join(outer, 'repo/pkg'));
  });
});

describe('packageDirWithin: the package of a folder inside the run root', () => {
  it('never above the root, and none for a folder outside it', () => {
    const outer = tree(['repo/pkg/package.json'], false);
    const root = path.join(outer, 'repo');
    expect(packageDirWithin(path.join(root, 'pkg/src'), root)).toBe(path.join(root, 'pkg'));
    fs.rmSync(path.join(root, 'pkg/package.json'));
    expect(packageDirWithin(path.join(root, 'pkg/src'), root)).toBeUndefined();
    expect(packageDirWithin(outer, root)).toBeUndefined();
    fs.writeFileSync(path.join(root, 'package.json'), '{}\n');
    expect(packageDirWithin(path.join(root, 'pkg/src'), root)).toBe(root);
  });
});

describe("the same walk on a project's file system (ts-morph's, in memory here)", () => {
  function files(entries: Record<string, string>): InMemoryFileSystemHost {
    const host = new InMemoryFileSystemHost();
    for (const [file, text] of Object.entries(entries)) host.writeFileSync(file, text);
    return host;
  }

  it('finds the package.json only that file system holds, bounded or not', () => {
    const host = files({ '/w/package.json': '{}', '/w/repo/.git': 'gitdir: /elsewhere', '/w/repo/pkg/src/a.ts': '' });
    expect(nearestPackageDir('/w/repo/pkg/src', unbounded, undefined, host)).toBe('/w');
    // a linked work tree's .git is a file: still the repository's root
    expect(isRepositoryRoot('/w/repo', host)).toBe(true);
    expect(nearestPackageDir('/w/repo/pkg/src', (d) => isRepositoryRoot(d, host), undefined, host)).toBeUndefined();
  });

  it('reads a manifest there; none for a missing, unparsable or non-object package.json', () => {
    const host = files({ '/p/package.json': JSON.stringify({ version: '1.0.0', prettier: { semi: false } }), '/bad/package.json': '{', '/null/package.json': 'null' });
    expect(readManifest('/p', host)).toEqual({ version: '1.0.0', prettier: { semi: false } });
    expect([readManifest('/bad', host), readManifest('/null', host), readManifest('/none', host), readManifest(undefined, host)]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('nearestDirWhere tries the bound itself, then stops', () => {
    const tried: string[] = [];
    expect(nearestDirWhere('/a/b/c', (d) => (tried.push(d), false), (d) => d === '/a')).toBeUndefined();
    expect(tried).toEqual(['/a/b/c', '/a/b', '/a']);
    expect(nearestDirWhere('/a/b/c', (d) => d === '/a', (d) => d === '/a')).toBe('/a');
  });
});
