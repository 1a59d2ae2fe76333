import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverFiles } from '../../src/discover.js';

const dirs: string[] = [];
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mrtr-discover-'));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return root;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const rel = (root: string, files: string[]) => files.map((f) => path.relative(root, f).split(path.sep).join('/'));

describe('discoverFiles', () => {
  it('takes every JS/TS source extension and skips declarations, dependencies and build output', () => {
    const root = tree({
      'src/a.ts': '',
      'src/b.tsx': '',
      'src/c.mts': '',
      'src/d.cts': '',
      'src/e.js': '',
      'src/f.jsx': '',
      'src/g.mjs': '',
      'src/h.cjs': '',
      'src/types.d.ts': '',
      'src/readme.md': '',
      'node_modules/pkg/index.js': '',
      'dist/index.js': '',
      'build/x.js': '',
      'out/x.js': '',
      '.next/x.js': '',
      'coverage/x.js': '',
    });
    const { files, skipped } = discoverFiles(['.'], { cwd: root });
    expect(rel(root, files)).toEqual(['src/a.ts', 'src/b.tsx', 'src/c.mts', 'src/d.cts', 'src/e.js', 'src/f.jsx', 'src/g.mjs', 'src/h.cjs']);
    const byPath = Object.fromEntries(skipped.map((s) => [path.relative(root, s.path), s.kind]));
    expect(byPath).toMatchObject({
      'src/types.d.ts': 'declaration',
      node_modules: 'skipped-directory',
      dist: 'skipped-directory',
      build: 'skipped-directory',
      out: 'skipped-directory',
      '.next': 'skipped-directory',
      coverage: 'skipped-directory',
    });
  });

  it('honours nested .gitignore files with negation, and --ignore globs relative to cwd', () => {
    const root = tree({
      '.gitignore': 'generated/\n*.gen.ts\n',
      'src/.gitignore': 'local-*.ts\n!local-keep.ts\n',
      'src/a.ts': '',
      'src/x.gen.ts': '',
      'src/local-one.ts': '',
      'src/local-keep.ts': '',
      'generated/g.ts': '',
      'legacy/old.ts': '',
      'src/a.test.ts': '',
    });
    fs.mkdirSync(path.join(root, '.git'));
    const { files, skipped } = discoverFiles(['.'], { cwd: root, ignore: ['legacy/**', '*.test.ts'] });
    expect(rel(root, files)).toEqual(['src/a.ts', 'src/local-keep.ts']);
    const kinds = Object.fromEntries(skipped.map((s) => [path.relative(root, s.path).split(path.sep).join('/'), s.kind]));
    expect(kinds).toMatchObject({
      generated: 'gitignored',
      'src/x.gen.ts': 'gitignored',
      'src/local-one.ts': 'gitignored',
      'src/a.test.ts': 'ignored',
      '.git': 'skipped-directory',
    });
    expect(kinds['legacy'] ?? kinds['legacy/old.ts']).toBe('ignored');
  });

  it('applies the .gitignore of the enclosing git root when discovery starts in a subdirectory', () => {
    const root = tree({ '.gitignore': 'secret-*.ts\n', 'pkg/src/a.ts': '', 'pkg/src/secret-b.ts': '' });
    fs.mkdirSync(path.join(root, '.git'));
    const { files } = discoverFiles(['src'], { cwd: path.join(root, 'pkg') });
    expect(rel(root, files)).toEqual(['pkg/src/a.ts']);
  });

  it('does not follow symlinks, so a link loop terminates', () => {
    const root = tree({ 'src/a.ts': '' });
    fs.symlinkSync(path.join(root, 'src'), path.join(root, 'src', 'loop'));
    fs.symlinkSync(path.join(root, 'src', 'a.ts'), path.join(root, 'src', 'alias.ts'));
    const { files, skipped } = discoverFiles(['.'], { cwd: root });
    expect(rel(root, files)).toEqual(['src/a.ts']);
    expect(skipped.filter((s) => s.kind === 'symlink').map((s) => path.basename(s.path)).sort()).toEqual(['alias.ts', 'loop']);
  });

  it('reports missing paths, takes explicitly named files, and deduplicates', () => {
    const root = tree({ 'src/a.ts': '', 'notes.txt': '' });
    const { files, skipped } = discoverFiles(['src/a.ts', 'src', 'nope', 'notes.txt'], { cwd: root });
    expect(rel(root, files)).toEqual(['src/a.ts']);
    expect(skipped.map((s) => [path.basename(s.path), s.kind])).toEqual([
      ['nope', 'missing'],
      ['notes.txt', 'unsupported'],
    ]);
  });
});
