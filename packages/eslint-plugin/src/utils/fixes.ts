/** Edits the rules offer as suggestions. */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/** Fix that deletes one element of an object literal together with its separating comma. */
export function removeObjectElement(
  fixer: TSESLint.RuleFixer,
  sourceCode: Readonly<TSESLint.SourceCode>,
  element: TSESTree.Node,
): TSESLint.RuleFix {
  const after = sourceCode.getTokenAfter(element);
  if (after && after.value === ',') {
    const next = sourceCode.getTokenAfter(after, { includeComments: true });
    return fixer.removeRange([element.range[0], next ? next.range[0] : after.range[1]]);
  }
  const before = sourceCode.getTokenBefore(element);
  if (before && before.value === ',') return fixer.removeRange([before.range[0], element.range[1]]);
  return fixer.remove(element);
}
