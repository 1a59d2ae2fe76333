/** Text-level edits shared by the serving rewrites. */
import type { Node, SourceFile } from 'ts-morph';

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Applies edits (non-overlapping) bottom-up so earlier positions stay valid. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  let next = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) next = next.slice(0, edit.start) + edit.text + next.slice(edit.end);
  return next;
}

export function abbreviate(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

export function indentOf(sourceFile: SourceFile, node: Node): string {
  const text = sourceFile.getFullText();
  const lineStart = text.lastIndexOf('\n', node.getStart() - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

export function reindent(text: string, from: string, to: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? to + line : line.startsWith(from) ? to + line.slice(from.length) : line))
    .join('\n');
}

/** The statement with its line (indentation and line break) so removal leaves no blank line. */
export function statementRange(sourceFile: SourceFile, node: Node): { start: number; end: number } {
  const text = sourceFile.getFullText();
  let start = node.getStart();
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (/^[ \t]*$/.test(text.slice(lineStart, start))) start = lineStart;
  let end = node.getEnd();
  const lineEnd = text.indexOf('\n', end);
  if (lineEnd >= 0 && /^[ \t]*\r?$/.test(text.slice(end, lineEnd))) end = lineEnd + 1;
  return { start, end };
}

/** The file's indentation unit (two spaces unless its first indented line says otherwise). */
export function indentUnit(sourceFile: SourceFile): string {
  return /\n( +|\t)\S/.exec(sourceFile.getFullText())?.[1] ?? '  ';
}
