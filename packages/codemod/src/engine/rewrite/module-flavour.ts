/** Which module syntax a generated file and its imports use: TypeScript, ES modules or CommonJS. */
import path from 'node:path';
import type { SourceFile } from 'ts-morph';

export type ModuleFlavour = 'ts' | 'esm' | 'cjs';

export function flavourOf(file: SourceFile): ModuleFlavour {
  const ext = path.extname(file.getFilePath());
  if (['.ts', '.tsx', '.mts', '.cts'].includes(ext)) return 'ts';
  if (ext === '.cjs') return 'cjs';
  if (ext === '.mjs') return 'esm';
  const text = file.getFullText();
  return /\brequire\s*\(/.test(text) && !/^\s*import\s/m.test(text) ? 'cjs' : 'esm';
}
