/**
 * The committed repository list (`repos.tsv`) and the pristine checkouts it names. A checkout is an
 * export of the pinned commit (no .git), made from a bare mirror when missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Columns: name, commit, subdir, paths (comma-separated), tsconfig, test, notes. `-` = default. */
export function readRepos(file) {
  const rows = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [name, commit, subdir = '.', paths = 'src', tsconfig = '-', test = '-', notes = ''] = line.split('\t');
    if (name === 'name') continue;
    rows.push({
      name,
      commit,
      subdir: subdir || '.',
      paths: paths.split(',').map((p) => p.trim()).filter(Boolean),
      tsconfig: tsconfig === '-' ? undefined : tsconfig,
      test: test === '-' ? undefined : test,
      notes,
    });
  }
  return rows;
}

export const slug = (name) => name.replace('/', '+');

/** The pristine checkout of `repo`, exported from `mirrors` when it is missing or at another commit. */
export function ensureCheckout(repo, checkouts, mirrors) {
  const dir = join(checkouts, slug(repo.name));
  const stamp = `${dir}.commit`;
  if (existsSync(dir) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === repo.commit) return dir;
  const gitDir = join(mirrors, slug(repo.name), 'repo');
  if (!existsSync(gitDir)) {
    if (existsSync(dir)) return dir; // a checkout made by hand: trust it
    throw new Error(`no checkout at ${dir} and no mirror at ${gitDir}`);
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('bash', ['-c', `set -o pipefail; git --git-dir="${gitDir}" archive "${repo.commit}" | tar -x -C "${dir}"`], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch {
    // A snapshot can lack its largest files, and `git archive` stops at the first missing blob:
    // export blob by blob, leaving out the missing ones (listed next to the checkout).
    rmSync(dir, { recursive: true, force: true });
    const missing = exportBlobByBlob(gitDir, repo.commit, dir);
    writeFileSync(`${dir}.missing`, missing.join('\n') + '\n');
  }
  writeFileSync(stamp, repo.commit + '\n');
  return dir;
}

function exportBlobByBlob(gitDir, commit, dir) {
  const git = (args, opts = {}) => execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 1 << 30, ...opts });
  const missing = [];
  for (const entry of git(['ls-tree', '-r', '-z', commit]).toString().split('\0').filter(Boolean)) {
    const [meta, path] = entry.split('\t');
    const [mode, type, sha] = meta.split(' ');
    if (type !== 'blob') continue;
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    let content;
    try { content = git(['cat-file', 'blob', sha], { stdio: ['ignore', 'pipe', 'ignore'] }); } catch { missing.push(path); continue; }
    if (mode === '120000') symlinkSync(content.toString(), target);
    else writeFileSync(target, content, { mode: mode === '100755' ? 0o755 : 0o644 });
  }
  return missing;
}
