/**
 * `// mcp-mrtr-ignore: <reason>` comments (syntax and placement defined once in @mcp-mrtr/surface,
 * shared with the codemod): the rules that report legacy request sites skip a site a reasoned
 * comment covers; a directive without a reason suppresses nothing and is itself reported.
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { SUPPRESSION_DIRECTIVE, parseSuppression, suppressionCovers } from '@mcp-mrtr/surface';

export interface Suppression {
  readonly comment: TSESTree.Comment;
  /** Undefined for a directive without a reason. */
  readonly reason?: string;
}

type Source = Readonly<TSESLint.SourceCode>;

const cache = new WeakMap<TSESTree.Program, readonly Suppression[]>();

/** Every suppression directive in the file, reasoned or not, in source order. */
export function suppressionComments(sourceCode: Source): readonly Suppression[] {
  const cached = cache.get(sourceCode.ast);
  if (cached) return cached;
  const found: Suppression[] = [];
  if (sourceCode.text.includes(SUPPRESSION_DIRECTIVE)) {
    for (const comment of sourceCode.getAllComments()) {
      const parsed = parseSuppression(comment.value);
      if (parsed) found.push({ comment, ...parsed });
    }
  }
  cache.set(sourceCode.ast, found);
  return found;
}

const STATEMENT_LISTS = new Set<string>([AST_NODE_TYPES.Program, AST_NODE_TYPES.BlockStatement, AST_NODE_TYPES.SwitchCase, AST_NODE_TYPES.TSModuleBlock, AST_NODE_TYPES.StaticBlock]);

/** The statement holding `node` that sits in a statement list (where the codemod puts its markers). */
function statementOf(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.parent && !STATEMENT_LISTS.has(current.parent.type)) current = current.parent;
  return current;
}

/** The reasoned suppression covering a site's node, if any. */
export function suppressionOf(sourceCode: Source, node: TSESTree.Node): Suppression | undefined {
  const reasoned = suppressionComments(sourceCode).filter((s) => s.reason !== undefined);
  if (reasoned.length === 0) return undefined;
  const text = sourceCode.text;
  const lineStart = (offset: number) => text.lastIndexOf('\n', offset - 1) + 1;
  const lines = [lineStart(node.range[0]), lineStart(statementOf(node).range[0])];
  return reasoned.find((s) => lines.some((line) => suppressionCovers(text, s.comment.range[0], s.comment.range[1], line)));
}
