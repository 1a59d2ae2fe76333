/**
 * The one edit toolkit of the engine: text edits on original source positions (collected first,
 * applied once per file, overlaps refused), and the indentation and statement-range helpers the
 * rewrite and serving stages place their edits with, and moved statements' comments.
 */
import type { Node, SourceFile, Statement } from 'ts-morph';

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Text of `node` with `edits` (positions in the original file, inside the node) applied. */
export function textWithEdits(node: Node, edits: TextEdit[]): string {
  return applyEdits(node.getFullText().slice(node.getLeadingTriviaWidth()), edits, node.getStart());
}

/**
 * Applies non-overlapping edits to `text`, whose first character sits at `offset` in the file;
 * overlapping edits throw. Edits starting at one position go in in list order, each before the
 * ones already there: of two insertions at one position, the later one ends up first.
 */
export function applyEdits(text: string, edits: TextEdit[], offset = 0): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  let out = text;
  let lastStart = Number.POSITIVE_INFINITY;
  for (const edit of sorted) {
    if (edit.end > lastStart) throw new Error('overlapping rewrite edits');
    out = out.slice(0, edit.start - offset) + edit.text + out.slice(edit.end - offset);
    lastStart = edit.start;
  }
  return out;
}

/** Indentation (spaces/tabs) of the line `node` starts on. */
export function indentOf(node: Node): string {
  const text = node.getSourceFile().getFullText();
  const lineStart = text.lastIndexOf('\n', node.getStart() - 1) + 1;
  const match = /^[ \t]*/.exec(text.slice(lineStart));
  return match ? match[0] : '';
}

/** Moves a multi-line snippet from indentation `from` to `to` (the first line gets `to` prepended). */
export function shiftIndent(text: string, from: string, to: string): string {
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
  // a doc comment's ` * ` continuation lines are not indentation
  return /\n( +|\t)(?!\*)\S/.exec(sourceFile.getFullText())?.[1] ?? '  ';
}

/**
 * A statement moved into generated code, with the comments that go with it: those on the lines
 * above it and the one ending its last line. Its text is taken without them (`getText()`), and the
 * code it moves into is new: left behind, they would be dropped with the old body.
 */
export function withComments(statement: Statement, text: string): string[] {
  const leading = leadingComments(statement);
  const trailing = statement.getTrailingCommentRanges().map((range) => range.getText());
  return [...leading, trailing.length > 0 ? `${text} ${trailing.join(' ')}` : text];
}

/** The comments on the lines above a statement (its `getText()` leaves them out). */
export function leadingComments(statement: Node): string[] {
  return statement.getLeadingCommentRanges().map((range) => range.getText());
}
