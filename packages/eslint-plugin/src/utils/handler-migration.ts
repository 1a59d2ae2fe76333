/**
 * The codemod's migration of ONE handler, as a text replacement for an ESLint suggestion.
 *
 * The engine migrates files, so the handler is isolated the way a user would do it by hand: every
 * legacy request outside the handler gets a reasoned `mcp-mrtr-ignore` comment (the engine leaves
 * such sites exactly as they are), the engine runs on that text with its own verification, and the
 * comments are taken out of its output again. The result is offered only when the engine migrated
 * every request of the handler and nothing else was flagged; otherwise there is no suggestion (the
 * rule's message and `mcp-mrtr check` say why).
 */
import { SUPPRESSION_DIRECTIVE, isLegacyMethod } from '@mcp-mrtr/surface';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import fs from 'node:fs';
import { migrateSourceSync, resolveEngine, type EngineFileResult } from './engine-bridge.js';

/** The text the suggestion puts in place of `range`. */
export interface HandlerMigration {
  range: [number, number];
  text: string;
}

export interface HandlerMigrationRequest {
  sourceCode: Readonly<TSESLint.SourceCode>;
  fileName: string;
  handler: TSESTree.Node;
  /** The handler's own legacy requests (each directly in its body). */
  own: readonly TSESTree.Node[];
  /** Every other legacy request of the file: held back while the handler is migrated. */
  others: readonly TSESTree.Node[];
}

const HOLD_BACK_REASON = 'held back while the ESLint suggestion migrates one handler (mcp-mrtr-eslint-hold)';
/** v1 files are upgraded to v2 as a whole before any handler is migrated: that is `mcp-mrtr migrate`'s job. */
const V1_PACKAGE = "@modelcontextprotocol/sdk";

/** The engine's answer per file text and handler; whether the files it creates exist is checked on every use. */
interface Computed {
  migration: HandlerMigration;
  created: Array<{ path: string; output?: string }>;
}
const cache = new Map<string, Computed | undefined>();
const CACHE_SIZE = 32;

export function migrateOneHandler(request: HandlerMigrationRequest): HandlerMigration | undefined {
  const { sourceCode, fileName, handler } = request;
  const key = `${fileName}\0${handler.range.join(':')}\0${sourceCode.text}`;
  let computed = cache.get(key);
  if (!cache.has(key)) {
    computed = compute(request);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, computed);
  }
  if (!computed) return undefined;
  // files the rewrite needs (the sealed-state codec module) must exist already: a suggestion edits one file
  for (const created of computed.created) {
    if (created.output === undefined) continue;
    if (!fs.existsSync(created.path) || fs.readFileSync(created.path, 'utf8') !== created.output) return undefined;
  }
  return computed.migration;
}

function compute({ sourceCode, fileName, own, others }: HandlerMigrationRequest): Computed | undefined {
  const original = sourceCode.text;
  if (original.includes(V1_PACKAGE)) return undefined;
  const entry = resolveEngine(fileName);
  if (!entry) return undefined;

  // one hold-back comment above each line where another request starts
  const eol = original.includes('\r\n') ? '\r\n' : '\n';
  const lineStarts = [...new Set(others.map((node) => sourceCode.getIndexFromLoc({ line: node.loc.start.line, column: 0 })))].sort((a, b) => a - b);
  const insertedLines: string[] = [];
  let variant = '';
  let from = 0;
  for (const start of lineStarts) {
    const indent = /^[ \t]*/.exec(original.slice(start))![0];
    const line = `${indent}// ${SUPPRESSION_DIRECTIVE}: ${HOLD_BACK_REASON}${eol}`;
    insertedLines.push(line);
    variant += original.slice(from, start) + line;
    from = start;
  }
  variant += original.slice(from);

  const answer = migrateSourceSync(entry, variant, fileName);
  if (!answer.ok) return undefined;
  const result = answer.result;
  if (result.status !== 'changed' || result.output === undefined) return undefined;
  if (!accepts(result, own, lineStarts, sourceCode)) return undefined;

  // the engine left the held-back lines as they were: take the comments out again
  let output = result.output;
  for (const line of insertedLines) {
    const at = output.indexOf(line);
    if (at < 0) return undefined;
    output = output.slice(0, at) + output.slice(at + line.length);
  }
  if (output.includes(HOLD_BACK_REASON)) return undefined;
  // the other requests' code is still there, unchanged
  if (!others.every((node) => output.includes(sourceCode.getText(node)))) return undefined;
  return { migration: replacement(original, output), created: result.created };
}

/** Every request of the handler migrated, the held-back ones suppressed, nothing flagged. */
function accepts(result: EngineFileResult, own: readonly TSESTree.Node[], lineStarts: number[], sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  if (result.sites.some((site) => site.status === 'flagged')) return false;
  const requests = result.sites.filter((site) => isLegacyMethod(site.method));
  for (const node of own) {
    const start = sourceCode.getIndexFromLoc({ line: node.loc.start.line, column: 0 });
    const shifted = node.loc.start.line + lineStarts.filter((s) => s <= start).length;
    if (!requests.some((site) => site.line === shifted && site.status === 'migrated')) return false;
  }
  return requests.every((site) => site.status === 'migrated' || site.status === 'suppressed');
}

/** The smallest replacement turning `before` into `after`. */
function replacement(before: string, after: string): HandlerMigration {
  let prefix = 0;
  const max = Math.min(before.length, after.length);
  while (prefix < max && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  return { range: [prefix, before.length - suffix], text: after.slice(prefix, after.length - suffix) };
}
