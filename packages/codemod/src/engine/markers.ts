/**
 * `// @mcp-mrtr-todo(<reason>): <advice>` comments, one directly above the statement that holds a
 * flagged site. Idempotent: a statement that already has a marker on the line above gets none.
 */
import { Node, type SourceFile } from 'ts-morph';
import { TODO_MARKER } from '@mcp-mrtr/surface';

export interface MarkerRequest {
  /** The flagged site's node (call, `new`, `throw`) or any node inside the statement to mark. */
  node: Node;
  reason: string;
  advice?: string;
}

export function markerComment(reason: string, advice?: string): string {
  const clean = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/\*\//g, '* /').trim();
  return `// ${TODO_MARKER}(${balancedParentheses(clean(reason))})${advice ? `: ${clean(advice)}` : ''}`;
}

/**
 * The reason with its parentheses kept where they pair up, so quoted code reads as code
 * (`server.connect(new StdioServerTransport())`), and each one that does not pair turned into a
 * bracket: the marker's own parentheses then close where the reason ends.
 */
export function balancedParentheses(reason: string): string {
  const chars = [...reason];
  const open: number[] = [];
  chars.forEach((char, i) => {
    if (char === '(') open.push(i);
    else if (char === ')') {
      if (open.length > 0) open.pop();
      else chars[i] = ']';
    }
  });
  for (const i of open) chars[i] = '[';
  return chars.join('');
}

/** The statement a marker goes above: the nearest ancestor statement that sits in a statement list. */
export function markerAnchor(node: Node): Node {
  let current: Node | undefined = node;
  let best: Node = node;
  while (current) {
    const parent: Node | undefined = current.getParent();
    if (!parent) break;
    if (
      Node.isStatement(current) &&
      (Node.isBlock(parent) || Node.isSourceFile(parent) || Node.isCaseClause(parent) || Node.isDefaultClause(parent) || Node.isModuleBlock(parent))
    ) {
      return current;
    }
    best = current;
    current = parent;
  }
  return best;
}

/**
 * Adds markers for the requested nodes (several sites in one statement share one marker). Returns the
 * number of markers inserted. Manipulates the file text directly, bottom-up, so nodes of other files
 * stay valid; nodes of this file are forgotten afterwards.
 */
export function addMarkers(sourceFile: SourceFile, requests: MarkerRequest[]): number {
  if (requests.length === 0) return 0;
  const text = sourceFile.getFullText();
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const byLineStart = new Map<number, { indent: string; reasons: string[]; advices: string[] }>();
  for (const request of requests) {
    const anchor = markerAnchor(request.node);
    const start = anchor.getStart();
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    if (hasMarkerAbove(text, lineStart)) continue;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
    const entry = byLineStart.get(lineStart) ?? { indent, reasons: [], advices: [] };
    if (!entry.reasons.includes(request.reason)) entry.reasons.push(request.reason);
    if (request.advice && !entry.advices.includes(request.advice)) entry.advices.push(request.advice);
    byLineStart.set(lineStart, entry);
  }
  const positions = [...byLineStart.keys()].sort((a, b) => a - b);
  if (positions.length === 0) return 0;
  const comments = repeatsReferred(positions.map((pos) => ({ reason: byLineStart.get(pos)!.reasons.join('; '), advice: byLineStart.get(pos)!.advices.join(' / ') || undefined })));
  let next = text;
  for (let i = positions.length - 1; i >= 0; i--) {
    const pos = positions[i]!;
    next = next.slice(0, pos) + byLineStart.get(pos)!.indent + comments[i]! + eol + next.slice(pos);
  }
  sourceFile.replaceWithText(next);
  return positions.length;
}

/**
 * The marker comments for `entries` (in file order). A marker saying word for word what one above it
 * in the file says (several requests of a helper, every request of a file held back for one reason)
 * gives the reason's first clause and points to that first marker for the full reason and advice
 * (by its words, not its line, which later edits such as a formatter run may move).
 */
function repeatsReferred(entries: Array<{ reason: string; advice?: string }>): string[] {
  const seen = new Set<string>();
  return entries.map((entry) => {
    const full = markerComment(entry.reason, entry.advice);
    if (!seen.has(full)) {
      seen.add(full);
      return full;
    }
    return markerComment(`${/^[^;:]*/.exec(entry.reason)![0].trim()}; the full reason and advice are in the first marker of this file that starts with these words`);
  });
}

function hasMarkerAbove(text: string, lineStart: number): boolean {
  if (lineStart === 0) return false;
  const prevEnd = lineStart - 1;
  const prevStart = text.lastIndexOf('\n', prevEnd - 1) + 1;
  return text.slice(prevStart, prevEnd).includes(TODO_MARKER);
}

