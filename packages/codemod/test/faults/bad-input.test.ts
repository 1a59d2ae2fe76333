/**
 * Bad input: every awkward file gets a clear per-file outcome, the run goes on, nothing is lost.
 * Files that are not migrated stay byte-identical; migrated ones keep their BOM, CRLF line endings
 * and shebang. Runs the real engine with `write: true` (the same path the CLI's `migrate` takes),
 * and the built CLI as an unprivileged user for the unreadable file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateProject } from '../shared-library-files.js';
import type { FileResult, MigrationResult } from '../../src/types.js';
import { initProjectRepo } from '../security/temp-project.js';
import { legacyServer, legacyServerJs, ordinaryCode } from './sources.js';

const CODEMOD_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const CLI = join(CODEMOD_ROOT, 'dist/cli.js');
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const TEMP_FILE = /\.mcp-mrtr-.*\.tmp$/;

const tried: string[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) {
    spawnSync('chmod', ['-R', 'u+rwX', d]);
    rmSync(d, { recursive: true, force: true });
  }
  console.log(`fault cases tried: ${tried.length}: ${tried.join(', ')}`);
});

function listAll(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) listAll(full, out);
    else out.push(full);
  }
  return out;
}

function fileResult(result: MigrationResult, path: string): FileResult {
  const found = result.files.filter((f) => resolve(f.path) === path);
  expect(found, `exactly one result for ${path}`).toHaveLength(1);
  return found[0];
}

function expectUntouched(fr: FileResult, path: string, original: Buffer): void {
  expect(readFileSync(path).equals(original), `${path} must be byte-identical`).toBe(true);
  expect(fr.status === 'changed' || fr.status === 'created').toBe(false);
}

describe('bad input: per-file outcomes, the run continues, nothing lost', () => {
  let dir: string;
  let result: MigrationResult;
  const originals = new Map<string, Buffer>();
  const p = (name: string) => join(dir, name);

  beforeAll(async () => {
    dir = join(CODEMOD_ROOT, '.tmp', `faults-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    initProjectRepo(dir);
    dirs.push(dir);
    const files: Record<string, Buffer> = {
      'tsconfig.json': Buffer.from(
        JSON.stringify({
          compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, allowJs: true, jsx: 'preserve', types: ['node'] },
          include: ['**/*'],
        }),
      ),
      'ok.ts': Buffer.from(legacyServer('ok')),
      'plain.ts': Buffer.from(ordinaryCode(2000)),
      'syntax-error.ts': Buffer.from(legacyServer('broken').replace('return server;', 'return server;;\n  const = ;\n  if (')),
      'bom.ts': Buffer.concat([BOM, Buffer.from(legacyServer('bom'))]),
      'crlf.ts': Buffer.from(legacyServer('crlf', '\r\n')),
      'bom-crlf.ts': Buffer.concat([BOM, Buffer.from(legacyServer('bomcrlf', '\r\n'))]),
      'shebang.mjs': Buffer.from(`#!/usr/bin/env node\n${legacyServerJs('shebang')}`),
      'latin1.ts': Buffer.concat([Buffer.from('// caf'), Buffer.from([0xe9]), Buffer.from(' cr\xe8me\n', 'latin1'), Buffer.from(legacyServer('latin'))]),
      'latin1-plain.ts': Buffer.concat([Buffer.from('// na'), Buffer.from([0xef, 0x76, 0x65]), Buffer.from('\n'), Buffer.from(ordinaryCode(300))]),
      'types.d.ts': Buffer.from(
        "import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport declare function ask(server: McpServer): Promise<void>;\nexport declare const server: { server: { elicitInput(p: unknown): Promise<unknown>; listRoots(): Promise<unknown> } };\nexport type Q = ReturnType<McpServer['server']['elicitInput']>;\n",
      ),
      'widget.tsx': Buffer.from(
        `${legacyServer('widget')}\ndeclare global { namespace JSX { interface IntrinsicElements { div: { title?: string; children?: unknown } } } }\nexport const View = (props: { title: string }) => <div title={props.title}>{props.title}</div>;\n`,
      ),
      'view.jsx': Buffer.from(`${legacyServerJs('view')}\nexport const View = (props) => <div title={props.title}>{props.title}</div>;\n`),
      'readonly.ts': Buffer.from(legacyServer('readonly')),
    };
    for (const [name, bytes] of Object.entries(files)) {
      writeFileSync(p(name), bytes);
      originals.set(p(name), bytes);
    }
    chmodSync(p('readonly.ts'), 0o444);
    tried.push(...Object.keys(files).filter((f) => f !== 'tsconfig.json'));
    result = await migrateProject([dir], { cwd: dir, write: true, tsconfig: p('tsconfig.json') });
  });

  it('a plain legacy file next to the bad ones is migrated (the run continued)', () => {
    expect(fileResult(result, p('ok.ts')).status).toBe('changed');
    expect(readFileSync(p('ok.ts'), 'utf8')).toContain('inputRequired');
  });

  it('ordinary code: unchanged, byte-identical', () => {
    const fr = result.files.find((f) => resolve(f.path) === p('plain.ts'));
    if (fr) expect(fr.status).toBe('unchanged');
    expect(readFileSync(p('plain.ts')).equals(originals.get(p('plain.ts'))!)).toBe(true);
  });

  it('syntax error: failed with a parse error, byte-identical', () => {
    const fr = fileResult(result, p('syntax-error.ts'));
    expect(fr.status).toBe('failed');
    expect(fr.error).toMatch(/syntax|parse|expected/i);
    expectUntouched(fr, p('syntax-error.ts'), originals.get(p('syntax-error.ts'))!);
  });

  it('BOM, CRLF and both: migrated, BOM and CRLF line endings preserved', () => {
    for (const name of ['bom.ts', 'crlf.ts', 'bom-crlf.ts']) {
      expect(fileResult(result, p(name)).status, name).toBe('changed');
      const bytes = readFileSync(p(name));
      const hadBom = originals.get(p(name))!.subarray(0, 3).equals(BOM);
      expect(bytes.subarray(0, 3).equals(BOM), `${name}: BOM`).toBe(hadBom);
      expect(bytes.subarray(3, 6).equals(BOM), `${name}: no doubled BOM`).toBe(false);
      const text = bytes.toString('utf8');
      expect(text).toContain('inputRequired');
      if (name.includes('crlf')) expect(text.match(/(?<!\r)\n/g) ?? [], `${name}: lone LF`).toEqual([]);
      else expect(text).not.toContain('\r');
    }
  });

  it('shebang: migrated, shebang still the first line', () => {
    expect(fileResult(result, p('shebang.mjs')).status).toBe('changed');
    const text = readFileSync(p('shebang.mjs'), 'utf8');
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(text).toContain('inputRequired');
  });

  it('non-UTF-8 bytes: never decoded lossily (either untouched with a clear reason, or the bytes survive)', () => {
    const fr = fileResult(result, p('latin1.ts'));
    const bytes = readFileSync(p('latin1.ts'));
    if (fr.status === 'changed') {
      expect(bytes.includes(Buffer.from([0x63, 0x61, 0x66, 0xe9])), 'the 0xE9 byte survives').toBe(true);
      expect(bytes.includes(Buffer.from([0xef, 0xbf, 0xbd])), 'no U+FFFD replacement').toBe(false);
    } else {
      expect(['failed', 'skipped']).toContain(fr.status);
      expect(fr.error).toMatch(/utf-?8|encoding|decode/i);
      expectUntouched(fr, p('latin1.ts'), originals.get(p('latin1.ts'))!);
    }
    expect(readFileSync(p('latin1-plain.ts')).equals(originals.get(p('latin1-plain.ts'))!)).toBe(true);
  });

  it('.d.ts: no site, byte-identical', () => {
    const fr = result.files.find((f) => resolve(f.path) === p('types.d.ts'));
    if (fr) {
      expect(fr.sites).toEqual([]);
      expect(['skipped', 'unchanged']).toContain(fr.status);
    }
    expect(readFileSync(p('types.d.ts')).equals(originals.get(p('types.d.ts'))!)).toBe(true);
  });

  it('TSX and JSX: handled like any source (migrated or flagged, never failed), JSX kept', () => {
    for (const name of ['widget.tsx', 'view.jsx']) {
      const fr = fileResult(result, p(name));
      expect(['changed', 'flagged'], `${name}: ${fr.status} ${fr.error ?? ''}`).toContain(fr.status);
      if (fr.status === 'flagged') expect(fr.sites.every((s) => s.reason)).toBe(true);
      const text = readFileSync(p(name), 'utf8');
      expect(text).toContain('<div title={props.title}>{props.title}</div>');
    }
  });

  it('read-only file: failed with a clear reason, byte-identical, mode kept', () => {
    const fr = fileResult(result, p('readonly.ts'));
    expect(fr.status).toBe('failed');
    expect(fr.error).toMatch(/read-only|permission|EACCES|EPERM/i);
    expect(readFileSync(p('readonly.ts')).equals(originals.get(p('readonly.ts'))!)).toBe(true);
    expect(statSync(p('readonly.ts')).mode & 0o777).toBe(0o444);
  });

  it('summary counts failures and no temp file is left behind', () => {
    expect(result.summary.filesFailed).toBe(result.files.filter((f) => f.status === 'failed').length);
    expect(result.summary.filesFailed).toBeGreaterThanOrEqual(2);
    expect(listAll(dir).filter((f) => TEMP_FILE.test(f))).toEqual([]);
  });
});

describe('filesystem traps: symlink loops, dangling symlinks, FIFOs', () => {
  it('terminates, processes each real file once, leaves everything byte-identical but the migratable file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-fs-traps-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'a/b'), { recursive: true });
    writeFileSync(join(dir, 'ok.ts'), legacyServer('ok'));
    writeFileSync(join(dir, 'a/b/inner.ts'), ordinaryCode(500));
    symlinkSync('..', join(dir, 'a/b/up')); // a/b/up -> a (loop)
    symlinkSync('.', join(dir, 'self')); // self -> . (loop)
    symlinkSync('nowhere.ts', join(dir, 'dangling.ts'));
    symlinkSync('ok.ts', join(dir, 'alias.ts'));
    execFileSync('mkfifo', [join(dir, 'pipe.ts')]);
    tried.push('symlink loop (a/b/up -> ..)', 'symlink loop (self -> .)', 'dangling symlink', 'symlink to a source file', 'FIFO named .ts');
    const started = Date.now();
    const result = await migrateProject([dir], { cwd: dir, write: true });
    expect(Date.now() - started).toBeLessThan(45_000);
    const paths = result.files.map((f) => resolve(f.path));
    expect(new Set(paths).size, 'no file processed twice').toBe(paths.length);
    expect(paths.filter((x) => x.includes('/up/') || x.includes('/self/'))).toEqual([]);
    expect(fileResult(result, join(dir, 'ok.ts')).status).toBe('changed');
    for (const special of ['pipe.ts', 'dangling.ts', 'alias.ts']) {
      const fr = result.files.find((f) => resolve(f.path) === join(dir, special));
      if (fr) expect(['skipped', 'failed', 'unchanged'], `${special}: ${fr.status}`).toContain(fr.status);
    }
    expect(readFileSync(join(dir, 'a/b/inner.ts'), 'utf8')).toBe(ordinaryCode(500));
    expect(statSync(join(dir, 'pipe.ts')).isFIFO()).toBe(true);
  });
});

describe('unreadable file (run as an unprivileged user: root reads anything)', () => {
  it('gets a per-file failure with the reason, the rest of the run goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-unreadable-'));
    dirs.push(dir);
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'ok.ts'), legacyServer('ok'));
    writeFileSync(join(dir, 'secret.ts'), legacyServer('secret'));
    chmodSync(join(dir, 'ok.ts'), 0o666);
    chmodSync(join(dir, 'secret.ts'), 0o000);
    tried.push('unreadable file (mode 000)');
    const original = legacyServer('secret');
    let files: Array<{ path: string; status: string; error?: string }>;
    if (process.getuid?.() === 0) {
      expect(existsSync(CLI), 'the CLI must be built (npm test builds first)').toBe(true);
      const report = join(dir, 'report.json');
      const run = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, CLI, 'check', dir, '--json', report], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 600_000,
      });
      expect([0, 1], `${run.stdout}\n${run.stderr}`).toContain(run.status);
      files = JSON.parse(readFileSync(report, 'utf8')).files;
    } else {
      files = (await migrateProject([dir], { cwd: dir, write: false })).files;
    }
    const secret = files.find((f) => resolve(dir, f.path) === join(dir, 'secret.ts'));
    expect(secret?.status).toBe('failed');
    expect(secret?.error ?? '').toMatch(/EACCES|permission|unreadable|cannot read/i);
    const ok = files.find((f) => resolve(dir, f.path) === join(dir, 'ok.ts'));
    expect(ok, 'the readable file was still analysed').toBeDefined();
    chmodSync(join(dir, 'secret.ts'), 0o644);
    expect(readFileSync(join(dir, 'secret.ts'), 'utf8')).toBe(original);
  });
});

describe('very large file', () => {
  // Through the CLI in a subprocess, so a slow engine fails the test at the time limit instead of
  // blocking the worker (synchronous work cannot be interrupted by a test timeout).
  it('a 5 MB file with a legacy tool at its end: migrated without hanging, the rest kept verbatim', () => {
    expect(existsSync(CLI), 'the CLI must be built (npm test builds first)').toBe(true);
    const dir = join(CODEMOD_ROOT, '.tmp', `faults-big-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    initProjectRepo(dir);
    dirs.push(dir);
    const bulk = ordinaryCode(5 * 1024 * 1024);
    writeFileSync(join(dir, 'big.ts'), `${legacyServer('big')}\n${bulk}`);
    writeFileSync(join(dir, 'bulk-only.ts'), bulk);
    tried.push('5 MB file with a legacy site', '5 MB file without');
    const report = join(dir, '..', `faults-big-${process.pid}.json`);
    dirs.push(report);
    const started = Date.now();
    const run = spawnSync(process.execPath, [CLI, 'migrate', dir, '--force', '--json', report], { cwd: dir, encoding: 'utf8', timeout: 600_000, killSignal: 'SIGKILL' });
    const elapsed = Date.now() - started;
    console.log(`5 MB files: mcp-mrtr migrate took ${elapsed} ms (status ${run.status}, signal ${run.signal})`);
    expect(run.signal, `hung: did not finish within 600 s`).toBeNull();
    expect([0, 1], run.stdout + run.stderr).toContain(run.status);
    const files = JSON.parse(readFileSync(report, 'utf8')).files as Array<{ path: string; status: string }>;
    const big = files.find((f) => resolve(dir, f.path) === join(dir, 'big.ts'));
    expect(['changed', 'flagged']).toContain(big?.status);
    expect(readFileSync(join(dir, 'big.ts'), 'utf8').includes(bulk), 'the ordinary 5 MB are kept verbatim').toBe(true);
    expect(readFileSync(join(dir, 'bulk-only.ts'), 'utf8') === bulk).toBe(true);
  });
});
