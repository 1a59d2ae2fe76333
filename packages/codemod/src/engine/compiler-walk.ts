/**
 * `forEachDescendant` for a walk that wants a few kinds of node out of a whole file. ts-morph's walk
 * wraps every node it passes (a wrapper object, its child list, the forgotten check): on a large
 * file that was most of a finder's time (the SDK's 1 MB bundles: the find and serving stages spent
 * seconds wrapping nodes none of them looked at). This walks the compiler nodes in the same order
 * (pre-order, `ts.forEachChild`) and wraps only the nodes `wanted` accepts, before visiting them.
 *
 * The wrappers come from the file's own ts-morph factory (the same objects `forEachDescendant` would
 * give); without that internal method (another ts-morph) the walk falls back to `forEachDescendant`.
 */
import { Node, ts } from 'ts-morph';

interface Wrapping {
  _getNodeFromCompilerNode(node: ts.Node): Node;
}

/**
 * Calls `visit` for each descendant of `root` that `wanted` accepts, in `forEachDescendant`'s order;
 * the subtree of a node `skip` accepts is not entered (nor is that node wanted). Both tests see
 * compiler nodes only; `visit` must not edit the tree.
 */
export function forEachWantedDescendant(root: Node, wanted: (node: ts.Node) => boolean, visit: (node: Node) => void, skip?: (node: ts.Node) => boolean): void {
  const wrapping = root as unknown as Partial<Wrapping>;
  if (typeof wrapping._getNodeFromCompilerNode !== 'function') {
    root.forEachDescendant((node, traversal) => {
      if (skip?.(node.compilerNode)) traversal.skip();
      else if (wanted(node.compilerNode)) visit(node);
    });
    return;
  }
  const walk = (node: ts.Node): void => {
    if (skip?.(node)) return;
    if (wanted(node)) visit(wrapping._getNodeFromCompilerNode!(node));
    ts.forEachChild(node, walk);
  };
  ts.forEachChild(root.compilerNode, walk);
}

/** The syntax kinds a ts-morph kind test (`Node.isTypeNode`, `Node.isModifierable`...: each reads only the kind) accepts. */
export function kindsWhere(test: (node: Node) => boolean): ReadonlySet<ts.SyntaxKind> {
  const kinds = new Set<ts.SyntaxKind>();
  for (let kind = 0; kind <= ts.SyntaxKind.Count; kind++) if (test({ getKind: () => kind } as unknown as Node)) kinds.add(kind);
  return kinds;
}

/** Whether a compiler node carries `modifier` (ts-morph's `hasModifier`). */
export function hasCompilerModifier(node: ts.Node, modifier: ts.SyntaxKind): boolean {
  return (node as { modifiers?: ts.NodeArray<ts.ModifierLike> }).modifiers?.some((m) => m.kind === modifier) ?? false;
}
