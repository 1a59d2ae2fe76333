#!/usr/bin/env node
/**
 * The parse floor: discover every TypeScript/JavaScript source under a directory, read it and
 * parse it once with `ts.createSourceFile`. No binding, no type checking, no printing: any tool
 * that looks at every file's syntax pays at least this. Prints a one-line JSON summary.
 *
 *   node bench/parse-floor.mjs <dir>
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { listSourceFiles } from './lib/tree-files.mjs';

// require(), not import: ESM import of the 9 MB CommonJS bundle scans it for named exports first (~0.4 s)
const ts = createRequire(import.meta.url)('typescript');

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node bench/parse-floor.mjs <dir>');
  process.exit(2);
}

let files = 0;
let lines = 0;
let statements = 0;
for (const file of listSourceFiles(dir)) {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, scriptKind(file));
  files++;
  lines += sf.getLineStarts().length;
  statements += sf.statements.length;
}
console.log(JSON.stringify({ files, lines, statements }));

function scriptKind(file) {
  if (/\.[mc]?tsx?$/.test(file)) return file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return file.endsWith('x') ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
}
