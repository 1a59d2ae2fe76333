/**
 * The rules' one vocabulary of static AST helpers: names of properties and callees, string literals,
 * TS-wrapper unwrapping, constant bindings, the walk, import aliases (no MCP knowledge: what a file
 * takes from MCP packages is `mcp-imports.ts`, over `ReferenceTracker`). Where typescript-eslint's
 * `ASTUtils` already does the job (property names, variable look-up, node-type predicates) these
 * helpers are thin wrappers over it.
 */
import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

export type FunctionNode =
  | TSESTree.FunctionDeclaration
  | TSESTree.FunctionExpression
  | TSESTree.ArrowFunctionExpression;

const isFunctionType = ASTUtils.isNodeOfTypes([
  AST_NODE_TYPES.FunctionDeclaration,
  AST_NODE_TYPES.FunctionExpression,
  AST_NODE_TYPES.ArrowFunctionExpression,
] as const);

export function isFunctionNode(node: TSESTree.Node | null | undefined): node is FunctionNode {
  return !!node && isFunctionType(node);
}

/** Strips TS-only wrappers and optional chains: `(x as T)!` → `x`. */
export function unwrap(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
      case AST_NODE_TYPES.TSInstantiationExpression:
        current = current.expression;
        break;
      case AST_NODE_TYPES.ChainExpression:
        current = current.expression;
        break;
      default:
        return current;
    }
  }
}

/** Like `unwrap`, and also looks through `await`. */
export function unwrapAwait(node: TSESTree.Node): TSESTree.Node {
  let n = unwrap(node);
  while (n.type === AST_NODE_TYPES.AwaitExpression) n = unwrap(n.argument);
  return n;
}

/** The parent, skipping TS wrappers and chain expressions (the inverse of `unwrap`). */
export function outerParent(node: TSESTree.Node): TSESTree.Node | undefined {
  let current: TSESTree.Node = node;
  while (current.parent) {
    const parent: TSESTree.Node = current.parent;
    switch (parent.type) {
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
      case AST_NODE_TYPES.ChainExpression:
        current = parent;
        continue;
      default:
        return parent;
    }
  }
  return undefined;
}

/** `'x'`, `"x"` or a template literal without expressions, as written (not looking through `as`, `satisfies` or `!`). */
export function literalString(node: TSESTree.Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') return node.value;
  if (node.type === AST_NODE_TYPES.TemplateLiteral && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** The same, looking through TS-only wrappers (`'x' as const`, see `unwrap`). */
export function getStaticString(node: TSESTree.Node | null | undefined): string | undefined {
  return node ? literalString(unwrap(node)) : undefined;
}

/**
 * Static name of a member access (`a.b`, `a['b']`) or an object/class key (`{ b: 1 }`, `{ 'b': 1 }`,
 * `{ [1]: x }` → `'1'`): `ASTUtils.getPropertyName` without a scope (a computed key is read only
 * when it is a constant expression, through TS wrappers), undefined for private names.
 */
export function getPropertyName(node: TSESTree.Node): string | undefined {
  switch (node.type) {
    case AST_NODE_TYPES.MemberExpression:
    case AST_NODE_TYPES.Property:
    case AST_NODE_TYPES.MethodDefinition:
    case AST_NODE_TYPES.PropertyDefinition:
      return ASTUtils.getPropertyName(node) ?? undefined;
    default:
      return undefined;
  }
}

/** A non-spread property of an object literal by static name. */
export function findProperty(obj: TSESTree.ObjectExpression, name: string): TSESTree.Property | undefined {
  for (const prop of obj.properties) {
    if (prop.type === AST_NODE_TYPES.Property && getPropertyName(prop) === name) return prop;
  }
  return undefined;
}

export function hasSpread(obj: TSESTree.ObjectExpression): boolean {
  return obj.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement);
}

/** `foo(...)` → `foo`, `a.b.foo(...)` → `foo`. */
export function getCalleeName(node: TSESTree.CallExpression | TSESTree.NewExpression): string | undefined {
  const callee = unwrap(node.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression) return getPropertyName(callee);
  return undefined;
}

/** Receiver of a member call, unwrapped: `a.b.foo(...)` → the `a.b` node (undefined for a bare call). */
export function getCalleeObject(node: TSESTree.CallExpression | TSESTree.NewExpression): TSESTree.Node | undefined {
  const callee = unwrap(node.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : undefined;
}

/** `JSON.stringify` for `JSON.stringify(x)`, `Buffer.from` for `Buffer.from(x)`, `btoa` for `btoa(x)`. */
export function getQualifiedCalleeName(node: TSESTree.CallExpression | TSESTree.NewExpression): string | undefined {
  return qualifiedName(unwrap(node.callee));
}

/** Dotted text of a member chain made of identifiers (`ctx.mcpReq.envelope`), `this` as `this`. */
export function qualifiedName(node: TSESTree.Node): string | undefined {
  const n = unwrap(node);
  if (n.type === AST_NODE_TYPES.Identifier) return n.name;
  if (n.type === AST_NODE_TYPES.ThisExpression) return 'this';
  if (n.type === AST_NODE_TYPES.MemberExpression) {
    const head = qualifiedName(n.object);
    const prop = getPropertyName(n);
    return head && prop ? `${head}.${prop}` : undefined;
  }
  return undefined;
}

/** Name of an identifier or of the last segment of a member expression. */
export function getSimpleName(node: TSESTree.Node): string | undefined {
  const n = unwrap(node);
  if (n.type === AST_NODE_TYPES.Identifier) return n.name;
  if (n.type === AST_NODE_TYPES.MemberExpression) return getPropertyName(n);
  return undefined;
}

export function findVariable(
  sourceCode: Readonly<TSESLint.SourceCode>,
  identifier: TSESTree.Identifier,
): TSESLint.Scope.Variable | null {
  return ASTUtils.findVariable(sourceCode.getScope(identifier), identifier);
}

/**
 * One hop: the initializer of the `const` (or never reassigned `let`) an identifier names, with a
 * single definition and a plain identifier binding. Undefined for parameters, imports, destructured
 * and reassigned variables.
 */
function constInitOf(sourceCode: Readonly<TSESLint.SourceCode>, id: TSESTree.Identifier): TSESTree.Node | undefined {
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs[0];
  if (!variable || !def || variable.defs.length !== 1) return undefined;
  const declarator = def.node;
  if (declarator.type !== AST_NODE_TYPES.VariableDeclarator || declarator.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  if (!declarator.init) return undefined;
  const writes = variable.references.filter((r) => r.isWrite() && r.identifier !== declarator.id);
  if (writes.length > 0) return undefined;
  return declarator.init;
}

/**
 * The initializer of a `const` (or never-reassigned `let`) binding, following `const a = b` chains
 * (up to 5 hops). Returns undefined for parameters, imports and reassigned variables; a node that
 * is not an identifier comes back unwrapped.
 */
export function resolveConstInit(
  sourceCode: Readonly<TSESLint.SourceCode>,
  node: TSESTree.Node,
  depth = 0,
): TSESTree.Node | undefined {
  const n = unwrap(node);
  if (n.type !== AST_NODE_TYPES.Identifier) return n;
  if (depth > 5) return undefined;
  const init = constInitOf(sourceCode, n);
  return init ? resolveConstInit(sourceCode, init, depth + 1) : undefined;
}

/**
 * Like `resolveConstInit`, up to `depth` hops, but never loses the node: where the chain stops (a
 * parameter, an import, a reassigned variable) the identifier reached comes back.
 */
export function resolveValue(node: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>, depth = 3): TSESTree.Node {
  let n = unwrap(node);
  for (let i = 0; i < depth && n.type === AST_NODE_TYPES.Identifier; i++) {
    const init = constInitOf(sourceCode, n);
    if (!init) return n;
    n = unwrap(init);
  }
  return n;
}

/** A function passed by value: inline, through a const, or a `function name() {}` declaration. */
export function resolveFunction(node: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): FunctionNode | undefined {
  const value = resolveValue(node, sourceCode);
  if (isFunctionNode(value)) return value;
  if (value.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(sourceCode, value)?.defs[0]?.node;
  return def?.type === AST_NODE_TYPES.FunctionDeclaration ? def : undefined;
}

/** An identifier that reads a variable (not `a.name` / `{ name: … }` / a declaration id). */
export function isValueReference(id: TSESTree.Identifier): boolean {
  const parent = id.parent;
  if (!parent) return true;
  if (parent.type === AST_NODE_TYPES.MemberExpression) return parent.object === id || parent.computed;
  if (parent.type === AST_NODE_TYPES.Property) return parent.value === id || parent.computed;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator) return parent.init === id;
  return true;
}

/**
 * Depth-first walk over a subtree with the source's visitor keys. `visit` returns `false` to skip a
 * node's children, `'stop'` to end the walk. Returns true when stopped.
 */
export function walk(
  root: TSESTree.Node,
  visitorKeys: TSESLint.SourceCode.VisitorKeys,
  visit: (node: TSESTree.Node) => boolean | 'stop' | void,
): boolean {
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const result = visit(node);
    if (result === 'stop') return true;
    if (result === false) continue;
    const keys = visitorKeys[node.type] ?? [];
    for (let k = keys.length - 1; k >= 0; k--) {
      const value = (node as unknown as Record<string, unknown>)[keys[k]!];
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) {
          const child = value[i];
          if (child && typeof child === 'object' && 'type' in child) stack.push(child as TSESTree.Node);
        }
      } else if (value && typeof value === 'object' && 'type' in value) {
        stack.push(value as TSESTree.Node);
      }
    }
  }
  return false;
}

/** True when `text` contains at least one of `tokens` (cheap per-file pre-filter). */
export function textHasAny(text: string, tokens: readonly string[]): boolean {
  for (const token of tokens) if (text.includes(token)) return true;
  return false;
}

/** Nearest enclosing function of a node (undefined at module scope). */
export function enclosingFunction(node: TSESTree.Node): FunctionNode | undefined {
  let current = node.parent;
  while (current) {
    if (isFunctionNode(current)) return current;
    current = current.parent;
  }
  return undefined;
}

/** The exported name an import specifier names: `x` in `import { x as y }`, also `import { 'x' as y }`. */
export function importedNameOf(spec: TSESTree.ImportSpecifier): string {
  return spec.imported.type === AST_NODE_TYPES.Identifier ? spec.imported.name : spec.imported.value;
}

interface ImportBinding {
  readonly local: string;
}

const importIndexes = new WeakMap<TSESTree.Program, ReadonlyMap<string, readonly ImportBinding[]>>();

/** Named imports of the file by exported name, in source order (built once per file). */
function importIndex(sourceCode: Readonly<TSESLint.SourceCode>): ReadonlyMap<string, readonly ImportBinding[]> {
  const cached = importIndexes.get(sourceCode.ast);
  if (cached) return cached;
  const index = new Map<string, ImportBinding[]>();
  for (const statement of sourceCode.ast.body) {
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration) continue;
    for (const spec of statement.specifiers) {
      if (spec.type !== AST_NODE_TYPES.ImportSpecifier) continue;
      const imported = importedNameOf(spec);
      const list = index.get(imported) ?? [];
      list.push({ local: spec.local.name });
      index.set(imported, list);
    }
  }
  importIndexes.set(sourceCode.ast, index);
  return index;
}

const importNameCache = new WeakMap<TSESTree.Program, Map<string, Set<string>>>();

/**
 * Local names under which `exported` is available in the file: its own name plus import aliases
 * (`import { inputRequired as ir } from '...'`), from any module.
 * Cached per file; the set is shared, callers must not change it.
 */
export function importedLocalNames(sourceCode: Readonly<TSESLint.SourceCode>, exported: string): ReadonlySet<string> {
  let perFile = importNameCache.get(sourceCode.ast);
  if (!perFile) {
    perFile = new Map();
    importNameCache.set(sourceCode.ast, perFile);
  }
  const hit = perFile.get(exported);
  if (hit) return hit;
  const names = new Set([exported]);
  for (const binding of importIndex(sourceCode).get(exported) ?? []) {
    names.add(binding.local);
  }
  perFile.set(exported, names);
  return names;
}

/** The local name of an export only when the file really imports it (`fromJsonSchema as fjs` → `fjs`), from any module. */
export function importedLocalName(sourceCode: Readonly<TSESLint.SourceCode>, exported: string): string | undefined {
  return importIndex(sourceCode).get(exported)?.[0]?.local;
}
