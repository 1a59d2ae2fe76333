/**
 * A handler whose requests run on mutually exclusive paths (the cases of a `switch` over the tool
 * name, the branches of an `if`), one of which cannot be rewritten for a reason of its own (a
 * sampling request whose catch falls back): planning the handler as a whole stops at that request
 * and would leave the others as they are. The others are rewritten instead, in the write-once form,
 * which keeps every path's code where it is: the blocked request's path stays as written, and its
 * site is flagged with its own reason.
 */
import { Node } from 'ts-morph';
import type { CallPathStep, Handler, Site } from '../model.js';
import { withReadingFile } from '../report-lines.js';
import { entryObstacle } from './analyse.js';
import { neverBothRun } from './control-flow.js';

export interface HandlerEntry {
  site: Site;
  path: CallPathStep[];
}

export interface ExclusiveSplit {
  /** The requests to rewrite. */
  rest: HandlerEntry[];
  /** The requests left as they are, each with its own reason (read in its own file). */
  blocked: Array<{ entry: HandlerEntry; reason: string }>;
}

/** The split of `entries` into blocked requests and the rest, when every blocked one never runs with any of the rest. */
export function exclusiveSplit(handler: Handler, entries: HandlerEntry[]): ExclusiveSplit | undefined {
  if (entries.length < 2) return undefined;
  const reasons = new Map(entries.map((entry) => [entry, withReadingFile(entry.site.sourceFile, () => entryObstacle(handler, entry))]));
  const blocked = entries.filter((entry) => reasons.get(entry) !== undefined);
  const rest = entries.filter((entry) => reasons.get(entry) === undefined);
  if (blocked.length === 0 || rest.length === 0) return undefined;
  const body = (handler.fn as Node & { getBody?: () => Node | undefined }).getBody?.();
  if (!body || !Node.isBlock(body)) return undefined;
  // where each request is in the handler's own code: the request, or the call on its way to it
  const at = (entry: HandlerEntry): Node => (entry.path.length > 0 ? entry.path[0]!.call : entry.site.node);
  for (const one of blocked) {
    for (const other of rest) {
      const [first, second] = at(one).getPos() < at(other).getPos() ? [at(one), at(other)] : [at(other), at(one)];
      if (!body.containsRange(first.getPos(), first.getEnd()) || !body.containsRange(second.getPos(), second.getEnd()) || !neverBothRun(first, second, body)) return undefined;
    }
  }
  return { rest, blocked: blocked.map((entry) => ({ entry, reason: reasons.get(entry)! })) };
}
