/**
 * Shared text pre-filter: every rule registers the tokens without which it has nothing to find, and
 * each file's text is scanned once (one regular expression over the union of all tokens) instead of
 * once per rule and token. On ordinary code, where no rule has anything to do, this scan is most of
 * what the plugin costs.
 */
import type { TSESLint } from '@typescript-eslint/utils';

const registered = new Set<string>();
let pattern: RegExp | undefined;
/** Bumped when a token is registered late, so that earlier scans are not trusted any more. */
let generation = 0;
const found = new WeakMap<object, { generation: number; tokens: readonly string[] }>();

function escape(token: string): string {
  return token.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * A zero-width lookahead at every position, longest tokens first: the token reported at a position
 * is the longest one starting there, so a shorter token that starts at the same position is its
 * prefix, and `includes` below still finds it.
 */
function buildPattern(): RegExp {
  const alternatives = [...registered].sort((a, b) => b.length - a.length).map(escape);
  return new RegExp(`(?=(${alternatives.join('|')}))`, 'g');
}

function tokensIn(sourceCode: Readonly<TSESLint.SourceCode>): readonly string[] {
  const key = sourceCode.ast;
  const hit = found.get(key);
  if (hit && hit.generation === generation) return hit.tokens;
  pattern ??= buildPattern();
  const seen = new Set<string>();
  for (const match of sourceCode.text.matchAll(pattern)) seen.add(match[1]!);
  const list = [...seen];
  found.set(key, { generation, tokens: list });
  return list;
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
    const present = tokensIn(sourceCode);
    if (present.length === 0) return false;
    return tokens.some((token) => present.some((p) => p.includes(token)));
  };
}
