/**
 * `npx mcp-mrtr` in a checkout: `npm ci` links each workspace bin before anything is built, so the
 * bin must be a committed file (a shim that loads dist/), and the root package must not carry the
 * bin's name (npx falls back to a package of that name when no bin matches).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertBuilt, packageRoot, repoRoot } from '../cli/helpers.js';
import { CHILD_PROCESS_TIMEOUT_MS } from '../child-timeouts.js';

const manifest = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const workspaces = fs.readdirSync(path.join(repoRoot, 'packages')).map((p) => path.join(repoRoot, 'packages', p)).filter((d) => fs.existsSync(path.join(d, 'package.json')));
const bins = workspaces.flatMap((dir) => Object.entries((manifest(dir).bin ?? {}) as Record<string, string>).map(([name, target]) => ({ name, file: path.join(dir, target) })));
const temps: string[] = [];

afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the mcp-mrtr bin in a checkout', () => {
  it('the codemod declares it', () => {
    expect(bins.map((b) => b.name)).toEqual(['mcp-mrtr']);
  });

  it.each(bins)('$name: a committed, executable node script (there before any build)', ({ file }) => {
    const rel = path.relative(repoRoot, file);
    const [mode] = execFileSync('git', ['ls-files', '--stage', '--', rel], { cwd: repoRoot, encoding: 'utf8' }).split(' ');
    expect(mode, `${rel} must be tracked`).toBe('100755');
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });

  it('the root package is not named like a bin', () => {
    expect(bins.map((b) => b.name)).not.toContain(manifest(repoRoot).name);
  });

  it('node_modules/.bin/mcp-mrtr (as npm links it) runs the built CLI', () => {
    assertBuilt();
    const run = spawnSync(path.join(repoRoot, 'node_modules/.bin/mcp-mrtr'), ['--version'], { encoding: 'utf8', timeout: CHILD_PROCESS_TIMEOUT_MS });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(manifest(packageRoot).version);
  });

  it('before a build, the bin says what to do (exit 2) instead of a module-not-found stack', () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-unbuilt-'));
    temps.push(copy);
    fs.cpSync(path.join(packageRoot, 'bin'), path.join(copy, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(copy, 'package.json'), JSON.stringify({ type: 'module' }));
    const run = spawnSync(process.execPath, [path.join(copy, 'bin/mcp-mrtr.js'), '--version'], { encoding: 'utf8', timeout: CHILD_PROCESS_TIMEOUT_MS });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^mcp-mrtr: not built yet .*npm run build/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
