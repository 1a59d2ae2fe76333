/**
 * Comment lines a rewrite lost: every comment of the file before and after (found with the
 * TypeScript parser, so strings, templates and regexes are not mistaken for comments), split into trimmed
 * lines, and counted as a multiset: a line present before and missing after is lost.
 */
import ts from 'typescript';

export function commentLines(text, fileName = 'file.tsx') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const seen = new Set();
  const lines = [];
  const take = (ranges) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      for (const line of text.slice(range.pos, range.end).split('\n')) {
        const t = line.trim().replace(/^\/\*+|\*+\/$|^\/\/+|^\*+/g, '').trim();
        if (t) lines.push(t);
      }
    }
  };
  // Comments are trivia around tokens: visiting every node's leading and trailing trivia (and the
  // end of file) reaches each one, and the parser keeps strings, templates and regexes out.
  const visit = (node) => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
    if (node.kind !== ts.SyntaxKind.SourceFile) for (const child of node.getChildren?.(source) ?? []) if (child.kind < ts.SyntaxKind.FirstNode) { take(ts.getLeadingCommentRanges(text, child.pos)); take(ts.getTrailingCommentRanges(text, child.end)); }
  };
  visit(source);
  take(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return lines;
}

/** Number of comment lines of `before` that `after` no longer has. */
export function lostCommentLines(before, after) {
  const remaining = new Map();
  for (const line of commentLines(after)) remaining.set(line, (remaining.get(line) ?? 0) + 1);
  let lost = 0;
  for (const line of commentLines(before)) {
    const n = remaining.get(line) ?? 0;
    if (n > 0) remaining.set(line, n - 1);
    else lost++;
  }
  return lost;
}
