/**
 * `// mcp-mrtr-ignore: <reason>` comments in a source file (syntax and placement: @mcp-mrtr/surface,
 * shared with the ESLint plugin). A site a reasoned comment covers is neither rewritten nor marked,
 * and is reported as suppressed; a directive without a reason suppresses nothing and is reported.
 */
import { ts, type Node, type SourceFile } from 'ts-morph';
import { SUPPRESSION_DIRECTIVE, parseSuppression, suppressionCovers } from '@mcp-mrtr/surface';
import { markerAnchor } from './markers.js';

export interface SuppressionComment {
  pos: number;
  end: number;
  /** 1-based line of the comment in the file's current text. */
  line: number;
  column: number;
  /** Undefined for a directive without a reason. */
  reason?: string;
}

/** Every suppression directive in the file (reasoned or not), found through the comment ranges TypeScript attaches to nodes. */
export function findSuppressionComments(sourceFile: SourceFile): SuppressionComment[] {
  const text = sourceFile.getFullText();
  if (!text.includes(SUPPRESSION_DIRECTIVE)) return [];
  const seen = new Set<number>();
  const found: SuppressionComment[] = [];
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const raw = text.slice(range.pos, range.end);
      const body = range.kind === ts.SyntaxKind.SingleLineCommentTrivia ? raw.slice(2) : raw.slice(2, -2);
      const parsed = parseSuppression(body);
      if (!parsed) continue;
      const { line, column } = sourceFile.getLineAndColumnAtPos(range.pos);
      found.push({ pos: range.pos, end: range.end, line, column, ...parsed });
    }
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(sourceFile.compilerNode);
  take(ts.getLeadingCommentRanges(text, sourceFile.compilerNode.endOfFileToken.pos));
  return found.sort((a, b) => a.pos - b.pos);
}

/** The reasoned suppression covering a site's node: above (or trailing) the line it starts on or the statement holding it. */
export function suppressionOf(node: Node, comments: SuppressionComment[]): SuppressionComment | undefined {
  const reasoned = comments.filter((c) => c.reason !== undefined);
  if (reasoned.length === 0) return undefined;
  const text = node.getSourceFile().getFullText();
  const lineStart = (offset: number) => text.lastIndexOf('\n', offset - 1) + 1;
  const lines = [lineStart(node.getStart()), lineStart(markerAnchor(node).getStart())];
  return reasoned.find((c) => lines.some((line) => suppressionCovers(text, c.pos, c.end, line)));
}
