/**
 * Shared text pre-filter: every rule registers the tokens without which it has nothing to find, and
 * each file's text is scanned once (one regular expression over the union of all tokens) instead of
 * once per rule and token. On ordinary code, where no rule has anything to do, this scan is most of
 * what the plugin costs. Only files where some token occurs (MCP code) pay for the exact per-token
 * checks, which are cached per file.
 */
import type { TSESLint } from '@typescript-eslint/utils';

const registered = new Set<string>();
let pattern: RegExp | undefined;
/** Bumped when a token is registered late, so that earlier scans are not trusted any more. */
let generation = 0;

interface FileScan {
  readonly generation: number;
  /** Whether any registered token occurs in the text (exact: a plain alternation finds one iff one occurs). */
  readonly any: boolean;
  readonly byToken: Map<string, boolean>;
}

const scans = new WeakMap<object, FileScan>();

function escape(token: string): string {
  return token.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function scan(sourceCode: Readonly<TSESLint.SourceCode>): FileScan {
  const key = sourceCode.ast;
  const hit = scans.get(key);
  if (hit && hit.generation === generation) return hit;
  pattern ??= new RegExp([...registered].map(escape).join('|'));
  const result: FileScan = { generation, any: pattern.test(sourceCode.text), byToken: new Map() };
  scans.set(key, result);
  return result;
}

/**
 * Registers `tokens` and returns a test telling whether a file's text contains at least one of them.
 * Call at module level (before linting starts), so that one scan serves every rule.
 */
export function fileTokenFilter(tokens: readonly string[]): (sourceCode: Readonly<TSESLint.SourceCode>) => boolean {
  let added = false;
  for (const token of tokens) {
    if (token.length > 0 && !registered.has(token)) {
      registered.add(token);
      added = true;
    }
  }
  if (added) {
    pattern = undefined;
    generation++;
  }
  return (sourceCode) => {
    const file = scan(sourceCode);
    if (!file.any) return false;
    return tokens.some((token) => {
      let present = file.byToken.get(token);
      if (present === undefined) {
        present = sourceCode.text.includes(token);
        file.byToken.set(token, present);
      }
      return present;
    });
  };
}
