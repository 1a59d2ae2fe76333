/**
 * Comments a transformation dropped, put back where they were. Both texts are cut into their code
 * tokens and the comments between them; the two token streams are aligned (a diff), and every
 * comment of the first text that the second lacks goes back next to the token it documented: above
 * the line of the token it preceded, or at the end of the line of the token it followed. The
 * official v1-to-v2 transforms rebuild import declarations (a file-header doc comment or a comment
 * on an import goes with them) and re-print handler bodies; our own stages rewrite handlers and
 * hosting. Only trivia is added: a result whose code tokens differ from the input's is discarded.
 */
import { diffArrays } from 'diff';
import { ts } from 'ts-morph';
import { TODO_MARKER } from '@mcp-mrtr/surface';

interface Token {
  text: string;
  start: number;
  end: number;
}

interface Comment {
  text: string;
  key: string;
  pos: number;
  end: number;
  /** Index of the code token the comment stands before (tokens.length: the end of the file). */
  before: number;
  /** Code precedes the comment on its line: it documents that line. */
  trailing: boolean;
  /** A blank line separates the comment from the code after it. */
  blankAfter: boolean;
  /** Code follows the comment on its line. */
  inline: boolean;
}

interface Lexed {
  tokens: Token[];
  comments: Comment[];
}

export interface RestoredComments {
  text: string;
  restored: number;
  /** Comments that could not be put back (their place is gone, or re-inserting would touch code). */
  lost: string[];
}

function lex(text: string, scriptKind: ts.ScriptKind): Lexed {
  const sf = ts.createSourceFile('comments.tsx', text, ts.ScriptTarget.Latest, false, scriptKind);
  const tokens: Token[] = [];
  const comments: Comment[] = [];
  const seen = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(sf);
    if (children.length > 0 && node.kind !== ts.SyntaxKind.JsxText) {
      for (const child of children) visit(child);
      return;
    }
    // trailing ranges: comments on the rest of the previous token's line; leading: those after it
    for (const range of [...(ts.getTrailingCommentRanges(text, node.pos) ?? []), ...(ts.getLeadingCommentRanges(text, node.pos) ?? [])]) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const commentText = text.slice(range.pos, range.end);
      const lineStart = text.lastIndexOf('\n', range.pos - 1) + 1;
      const start = node.kind === ts.SyntaxKind.EndOfFileToken ? text.length : node.getStart(sf);
      comments.push({
        text: commentText,
        key: keyOf(commentText),
        pos: range.pos,
        end: range.end,
        before: tokens.length,
        trailing: text.slice(lineStart, range.pos).trim() !== '' && tokens.length > 0,
        blankAfter: /\n[ \t]*\r?\n/.test(text.slice(range.end, start)),
        inline: !text.slice(range.end, start).includes('\n'),
      });
    }
    if (node.kind === ts.SyntaxKind.EndOfFileToken) return;
    const start = node.getStart(sf);
    if (node.end > start) tokens.push({ text: text.slice(start, node.end), start, end: node.end });
  };
  visit(sf);
  return { tokens, comments };
}

/** Indentation-insensitive identity of a comment (a re-indented block comment is the same comment). */
function keyOf(comment: string): string {
  return comment
    .split(/\r?\n/)
    .map((line) => line.trim())
    .join('\n');
}

/**
 * `after` with every comment of `before` that it lacks put back. With `move`, a comment the
 * transformation kept but displaced (an import's comment left above the next statement when the
 * import block was rebuilt) also goes back next to its token. `@mcp-mrtr-todo` markers are the
 * codemod's own and may go.
 */
export function restoreComments(before: string, after: string, scriptKind: ts.ScriptKind, options: { move?: boolean } = {}): RestoredComments {
  if (before === after) return { text: after, restored: 0, lost: [] };
  // every comment starts with one of these: a text without them has none to put back, and lexing
  // both texts is most of what this costs (the upgrade and the markers stage call it on every file)
  if (!before.includes('//') && !before.includes('/*')) return { text: after, restored: 0, lost: [] };
  const old = lex(before, scriptKind);
  const current = lex(after, scriptKind);
  const unclaimed = new Map<string, Comment[]>();
  for (const c of current.comments) unclaimed.set(c.key, [...(unclaimed.get(c.key) ?? []), c]);
  const candidates = old.comments.filter((c) => !c.text.includes(TODO_MARKER));
  if (!options.move && sameCount(candidates, current.comments)) return { text: after, restored: 0, lost: [] };

  const toNew = alignTokens(old.tokens, current.tokens);
  // first the comments found where they belong, then the others: displaced (moved back) or missing
  const open: Comment[] = [];
  for (const c of candidates) {
    const list = unclaimed.get(c.key) ?? [];
    const at = list.findIndex((k) => k.trailing === c.trailing && k.before === expectedBefore(c, toNew, old.tokens.length, current.tokens.length));
    if (at >= 0) list.splice(at, 1);
    else open.push(c);
  }
  const eol = after.includes('\r\n') ? '\r\n' : '\n';
  const edits: Array<{ start: number; end: number; text: string; order: number }> = [];
  const lost: string[] = [];
  open.forEach((comment, order) => {
    const list = unclaimed.get(comment.key) ?? [];
    const displaced = list.shift();
    if (displaced && !options.move) return; // kept, elsewhere: only a missing comment is put back here
    const edit = placement(comment, old, current, toNew, after, eol, options.move === true);
    if (edit === 'went with its code') return;
    if (!edit) {
      if (!displaced) lost.push(comment.text);
      return;
    }
    if (displaced) edits.push({ ...removal(after, displaced), text: '', order });
    edits.push({ start: edit.at, end: edit.at, text: edit.text, order });
  });
  if (edits.length === 0) return { text: after, restored: 0, lost };
  // bottom-up; several comments at one place keep their original order
  let text = after;
  for (const edit of [...edits].sort((a, b) => b.start - a.start || b.order - a.order)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  if (!sameCode(current.tokens, lex(text, scriptKind).tokens)) return { text: after, restored: 0, lost: open.filter((c) => !(unclaimed.get(c.key)?.length)).map((c) => c.text) };
  return { text, restored: edits.filter((e) => e.text !== '').length, lost };
}

function sameCount(a: Comment[], b: Comment[]): boolean {
  const counts = new Map<string, number>();
  for (const c of b) counts.set(c.key, (counts.get(c.key) ?? 0) + 1);
  for (const c of a) {
    const n = counts.get(c.key) ?? 0;
    if (n === 0) return false;
    counts.set(c.key, n - 1);
  }
  return true;
}

/** The index of the new token a kept comment of the old text should stand before. */
function expectedBefore(comment: Comment, toNew: number[], oldCount: number, newCount: number): number {
  if (comment.trailing) {
    let i = comment.before - 1;
    while (i >= 0 && toNew[i]! < 0) i--;
    return i >= 0 ? toNew[i]! + 1 : 0;
  }
  if (comment.before === 0) return 0;
  let i = comment.before;
  while (i < oldCount && toNew[i]! < 0) i++;
  return i < oldCount ? toNew[i]! : newCount;
}

/** A comment's text, with its line when it is alone on it. */
function removal(text: string, comment: Comment): { start: number; end: number } {
  const lineStart = text.lastIndexOf('\n', comment.pos - 1) + 1;
  const lineEnd = endOfLine(text, comment.end);
  if (text.slice(lineStart, comment.pos).trim() === '' && text.slice(comment.end, lineEnd).trim() === '') return { start: lineStart, end: Math.min(lineEnd + 1, text.length) };
  let start = comment.pos;
  while (start > lineStart && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
  return { start, end: comment.end };
}

/** For each token of `a`, the index of the same token in `b` when the diff keeps it, else -1. */
function alignTokens(a: Token[], b: Token[]): number[] {
  const map = new Array<number>(a.length).fill(-1);
  let i = 0;
  let j = 0;
  for (const change of diffArrays(
    a.map((t) => t.text),
    b.map((t) => t.text),
  )) {
    const count = change.count ?? change.value.length;
    if (change.added) j += count;
    else if (change.removed) i += count;
    else for (let k = 0; k < count; k++) map[i++] = j++;
  }
  return map;
}

/**
 * Where a comment goes back. `nearest`: when the token it documented is gone, next to the nearest
 * kept one (the upgrade rebuilds an import around the same names); otherwise the code it documented
 * was removed with it (an inlined helper's doc comment) and it is not put back.
 */
function placement(comment: Comment, old: Lexed, current: Lexed, toNew: number[], after: string, eol: string, nearest: boolean): { at: number; text: string } | 'went with its code' | undefined {
  const anchor = comment.trailing ? comment.before - 1 : comment.before;
  const header = comment.before === 0 && (nearest || comment.blankAfter);
  if (!nearest && !header && anchor >= 0 && anchor < old.tokens.length && toNew[anchor]! < 0) return 'went with its code';
  if (comment.trailing) {
    // the token the comment followed, or the nearest kept one before it
    let i = comment.before - 1;
    while (i >= 0 && toNew[i]! < 0) i--;
    if (i >= 0) {
      const token = current.tokens[toNew[i]!]!;
      const lineEnd = endOfLine(after, token.end);
      const rest = after.slice(token.end, lineEnd);
      const insideToken = current.tokens.some((t) => t.start < lineEnd && t.end > lineEnd);
      if (!insideToken && !rest.includes('//') && !rest.includes('/*')) {
        const at = lineEnd > 0 && after[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
        return { at, text: ` ${comment.text}` };
      }
      // the line now ends inside a string or template, or has a comment of its own: above the line
      return above(comment, token, current, after, eol);
    }
  }
  // the token the comment preceded (the first of the file for a file header), or the nearest kept one after it
  let target: number | undefined;
  // a file header (before the first token: always when the upgrade rebuilt the imports under it,
  // set off by a blank line otherwise) stays first
  if (header) target = 0;
  else {
    let i = comment.before;
    while (i < old.tokens.length && toNew[i]! < 0) i++;
    target = i < old.tokens.length ? toNew[i]! : current.tokens.length;
  }
  if (target >= current.tokens.length) {
    const trimmed = after.replace(/\s*$/, '');
    return { at: trimmed.length, text: `${trimmed.length > 0 ? eol : ''}${comment.text}` };
  }
  const token = current.tokens[target]!;
  const head = after.slice(after.lastIndexOf('\n', token.start - 1) + 1, token.start);
  // code before the token on its line: an inline block comment stays inline, others go above the line
  if (head.trim() !== '' && comment.inline && comment.text.startsWith('/*') && !comment.text.includes('\n')) return { at: token.start, text: `${comment.text} ` };
  return above(comment, token, current, after, eol);
}

/** The comment on a line of its own above the line where `token` starts, indented like it. */
function above(comment: Comment, token: Token, current: Lexed, after: string, eol: string): { at: number; text: string } | undefined {
  const lineStart = after.lastIndexOf('\n', token.start - 1) + 1;
  const head = after.slice(lineStart, token.start);
  const indent = /^[ \t]*/.exec(head)![0];
  const startsInsideToken = current.tokens.some((t) => t.start < lineStart && t.end > lineStart);
  if (startsInsideToken) return undefined;
  return { at: lineStart, text: `${reindentComment(comment.text, indent, eol)}${eol}${comment.blankAfter ? eol : ''}` };
}

function endOfLine(text: string, from: number): number {
  const at = text.indexOf('\n', from);
  return at < 0 ? text.length : at;
}

/** A block comment's continuation lines keep their position relative to its first line. */
function reindentComment(comment: string, indent: string, eol: string): string {
  const lines = comment.split(/\r?\n/);
  if (lines.length === 1) return indent + comment;
  const common = Math.min(...lines.slice(1).filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length));
  return lines.map((line, i) => (i === 0 ? indent + line : indent + line.slice(Math.min(common, /^[ \t]*/.exec(line)![0].length)).replace(/^(?=\*)/, ' '))).join(eol);
}

function sameCode(a: Token[], b: Token[]): boolean {
  return a.length === b.length && a.every((t, i) => t.text === b[i]!.text);
}
