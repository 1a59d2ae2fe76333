/** Text edits on original source positions: collected first, applied once per file. */
import type { Node } from 'ts-morph';

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Text of `node` with `edits` (positions in the original file, inside the node) applied. */
export function textWithEdits(node: Node, edits: TextEdit[]): string {
  return applyEdits(node.getFullText().slice(node.getLeadingTriviaWidth()), edits, node.getStart());
}

/** Applies non-overlapping edits to `text`, whose first character sits at `offset` in the file. */
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

export function isIdentifierName(name: string): boolean {
  return /^[A-Za-z_$][\w$]*$/.test(name);
}

/** Property key text for a wire key: bare when it is an identifier, quoted otherwise. */
export function keyProperty(key: string): string {
  return isIdentifierName(key) ? key : `'${key.replace(/'/g, "\\'")}'`;
}

export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
