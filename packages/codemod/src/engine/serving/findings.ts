/** What the serving stage reports, and the advice it gives for each hosting shape. */
import type { Node } from 'ts-morph';
import { HOSTING_ADVICE, type LegacyMethod, type RequestKind } from '@mcp-mrtr/surface';

export interface ServingFinding {
  /** A legacy method for a request the find stage does not follow (unfollowed-references.ts). */
  method: 'serving' | 'session-state' | LegacyMethod;
  kind?: RequestKind;
  status: 'migrated' | 'flagged';
  reason: string;
  advice?: string;
  /** Node to mark (flagged findings); absent once rewritten. */
  node?: Node;
  /** 1-based, in `text`: the file's text when the finding was made (earlier stages may have moved lines since the upgrade). */
  line: number;
  column: number;
  text: string;
  snippet?: string;
}

export const SERVING_ADVICE = HOSTING_ADVICE;

export function flag(node: Node, reason: string, advice: string): ServingFinding {
  const { line, column } = node.getSourceFile().getLineAndColumnAtPos(node.getStart());
  return { method: 'serving', status: 'flagged', reason, advice, node, line, column, text: node.getSourceFile().getFullText(), snippet: abbreviate(node.getText()) };
}

/** One line of code for a report entry. */
export function abbreviate(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
