/**
 * After a run: format the changed files with the project's prettier when the project configures it
 * and has it installed; otherwise say how to.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { findPrettierConfigDir } from './engine/prettier-config.js';
import type { FormatterOutcome } from './report/text.js';

/** The prettier CLI the project itself installed, resolved from `dir`. */
export function findProjectPrettier(dir: string): string | undefined {
  try {
    const require = createRequire(path.join(dir, 'noop.js'));
    const pkgPath = require.resolve('prettier/package.json');
    const pkg = JSON.parse(fs.readFileSync(pkgPath, 'utf8')) as { bin?: string | Record<string, string> };
    const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.prettier;
    return bin ? path.join(path.dirname(pkgPath), bin) : undefined;
  } catch {
    return undefined;
  }
}

function shellQuote(arg: string): string {
  return /^[\w./@:+=-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function formatChangedFiles(files: string[], cwd: string, options: { run: boolean }): FormatterOutcome {
  if (files.length === 0) return { kind: 'none' };
  const rel = files.map((f) => path.relative(cwd, f) || f);
  const command = `npx prettier --write ${rel.map(shellQuote).join(' ')}`;
  const configDir = findPrettierConfigDir(path.dirname(files[0]!)) ?? findPrettierConfigDir(cwd);
  const bin = configDir ? findProjectPrettier(configDir) : undefined;
  if (!configDir || !bin || !options.run) return { kind: 'hint', command };
  try {
    execFileSync(process.execPath, [bin, '--write', '--log-level', 'warn', '--', ...files], { cwd: configDir, stdio: ['ignore', 'ignore', 'pipe'] });
    return { kind: 'ran', tool: 'prettier', files: files.length };
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { kind: 'failed', tool: 'prettier', message: (stderr || (error as Error).message).split('\n')[0]!, command };
  }
}
