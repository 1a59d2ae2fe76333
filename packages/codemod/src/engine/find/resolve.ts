/**
 * Name resolution shared by the find and reach stages: identifiers to their declarations (through
 * imports), declarations to the function nodes they hold, and the "is this code from the MCP SDK?"
 * test on types.
 */
import { Node, ts, VariableDeclarationKind, type CallExpression, type ReferenceFindableNode, type Symbol as MorphSymbol, type Type } from 'ts-morph';
import { MCP_PACKAGE_PREFIX } from '@mcp-mrtr/surface';

export type FunctionLike = Node & { getBody?: () => Node | undefined };

/** The declaration an identifier refers to, following import aliases; undefined when unresolved. */
export function declarationOf(id: Node): Node | undefined {
  let symbol: MorphSymbol | undefined;
  try {
    symbol = id.getSymbol();
  } catch {
    return undefined;
  }
  if (!symbol) return undefined;
  const declarations = symbol.getDeclarations();
  const first = declarations[0];
  // imports, re-exports and (in JS) `const { x } = require('./y')` are aliases of the target symbol
  if (first && (symbol.isAlias() || Node.isImportSpecifier(first) || Node.isImportClause(first) || Node.isNamespaceImport(first) || Node.isExportSpecifier(first))) {
    let aliased: MorphSymbol | undefined;
    try {
      aliased = symbol.getAliasedSymbol();
    } catch {
      aliased = undefined;
    }
    return aliased?.getDeclarations()[0] ?? first;
  }
  // `const { x } = require('./y')` and shorthand properties resolve through the value declaration.
  if (first && Node.isShorthandPropertyAssignment(first)) {
    // `tools.create(...)` on `const tools = { create }`: the value the shorthand holds (through an import)
    const held = shorthandValue(first);
    if (held) return held;
    const value = first.getNameNode();
    const valueSymbol = value.getSymbol();
    return valueSymbol?.getValueDeclaration() ?? first;
  }
  return first;
}

function shorthandValue(property: Node & { getValueSymbol(): MorphSymbol | undefined }): Node | undefined {
  try {
    const value = property.getValueSymbol();
    const target = value?.isAlias() ? value.getAliasedSymbol() : value;
    const decl = target?.getDeclarations()[0];
    return decl && decl !== property ? decl : undefined;
  } catch {
    return undefined;
  }
}

export function isFunctionNode(node: Node | undefined): node is FunctionLike {
  return (
    node !== undefined &&
    (Node.isFunctionDeclaration(node) ||
      Node.isFunctionExpression(node) ||
      Node.isArrowFunction(node) ||
      Node.isMethodDeclaration(node))
  );
}

/** The function a declaration holds: the function itself, or a variable/property initialised with one. */
export function functionOfDeclaration(decl: Node | undefined): FunctionLike | undefined {
  if (!decl) return undefined;
  if (isFunctionNode(decl)) return decl;
  if (Node.isVariableDeclaration(decl) || Node.isPropertyAssignment(decl) || Node.isPropertyDeclaration(decl)) {
    const init = unwrapExpression(decl.getInitializer());
    if (isFunctionNode(init)) return init;
  }
  return undefined;
}

/** The project function a callee expression refers to (`helper`, `utils.helper`, `this.helper`). */
export function resolveCallee(callee: Node, depth = 0): FunctionLike | undefined {
  const inline = unwrapExpression(callee);
  if (isFunctionNode(inline)) return inline;
  let target: Node = callee;
  if (Node.isPropertyAccessExpression(callee)) target = callee.getNameNode();
  if (!Node.isIdentifier(target) && !Node.isPrivateIdentifier(target)) return undefined;
  const decl = declarationOf(target);
  if (!decl || isInNodeModules(decl)) return undefined;
  const fn = functionOfDeclaration(decl);
  if (fn || depth >= 4) return fn;
  // an object of functions under names of its own (`const ops = { make: createThing }`,
  // `{ make: configOps.createThing }`) or a constant naming one (`const make = createThing`): the
  // call of that member or constant runs the function it names
  const named = referenceHeldBy(decl);
  return named ? resolveCallee(named, depth + 1) : undefined;
}

/** The declaration of what a shorthand property (`{ wipe }`) names, through an import to the imported declaration. */
export function shorthandValueDeclaration(property: Node & { getValueSymbol(): { getDeclarations(): Node[] } | undefined; getNameNode(): Node }): Node | undefined {
  let declarations: Node[] = [];
  try {
    declarations = property.getValueSymbol()?.getDeclarations() ?? [];
  } catch {
    declarations = [];
  }
  const first = declarations[0];
  // an imported name: follow the import to the declaration
  if (first && (Node.isImportSpecifier(first) || Node.isImportClause(first))) return declarationOf(property.getNameNode()) ?? first;
  return first;
}

/** The function reference (`createThing`, `ops.createThing`) a property or a `const` is initialised with. */
export function referenceHeldBy(decl: Node): Node | undefined {
  let init: Node | undefined;
  if (Node.isPropertyAssignment(decl)) init = decl.getInitializer();
  else if (Node.isVariableDeclaration(decl) && decl.getVariableStatement()?.getDeclarationKind() === VariableDeclarationKind.Const && Node.isIdentifier(decl.getNameNode())) init = decl.getInitializer();
  const value = unwrapExpression(init);
  return value && (Node.isIdentifier(value) || Node.isPropertyAccessExpression(value)) ? value : undefined;
}

/**
 * Every reference of a name (the name itself included), or undefined when the language service
 * cannot list them (it throws on some nodes it cannot resolve): the caller decides what an unknown
 * set of references means for its decision.
 */
export function referencesOf(name: ReferenceFindableNode): Node[] | undefined {
  try {
    return name.findReferencesAsNodes();
  } catch {
    return undefined;
  }
}

export function isInNodeModules(node: Node): boolean {
  return node.getSourceFile().getFilePath().includes('/node_modules/');
}

/** Strips parentheses, `as`, `!`, `satisfies` and type assertions (`<T>x`); `unwrapTsExpression` is its twin on the compiler's tree. */
export function unwrapExpression(node: Node): Node;
export function unwrapExpression(node: Node | undefined): Node | undefined;
export function unwrapExpression(node: Node | undefined): Node | undefined {
  let current = node;
  while (
    current &&
    (Node.isParenthesizedExpression(current) ||
      Node.isAsExpression(current) ||
      Node.isNonNullExpression(current) ||
      Node.isSatisfiesExpression(current) ||
      Node.isTypeAssertion(current))
  ) {
    current = current.getExpression();
  }
  return current;
}

/** `unwrapExpression` on the compiler's own tree (for the stages that parse a file without a project): the same wrappers. */
export function unwrapTsExpression(expr: ts.Expression): ts.Expression {
  let e = expr;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e) || ts.isSatisfiesExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
  return e;
}

/** The outermost of the wrappers `unwrapExpression` strips that enclose `node` (its upward twin): the node whose parent uses the value. */
export function outermostWrapper(node: Node): Node {
  let current = node;
  for (let up = current.getParent(); up && (Node.isParenthesizedExpression(up) || Node.isAsExpression(up) || Node.isNonNullExpression(up) || Node.isSatisfiesExpression(up) || Node.isTypeAssertion(up)); up = up.getParent()) current = up;
  return current;
}

/** The node a function is called by: its own name, or that of the variable, property or class field an arrow or function expression initialises. */
export function functionNameNode(fn: Node): Node | undefined {
  if (Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn)) return fn.getNameNode();
  const holder = fn.getParent();
  if ((Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) && holder && (Node.isVariableDeclaration(holder) || Node.isPropertyAssignment(holder) || Node.isPropertyDeclaration(holder))) return holder.getNameNode();
  return undefined;
}

/** The call `f(...)`, `obj.f(...)` or `this.f(...)` whose callee `ref` names. */
export function callOf(ref: Node): CallExpression | undefined {
  let callee: Node = ref;
  const parent = ref.getParent();
  if (parent && Node.isPropertyAccessExpression(parent) && parent.getNameNode() === ref) callee = parent;
  const call = callee.getParent();
  return call && Node.isCallExpression(call) && call.getExpression() === callee ? call : undefined;
}

/** Walks up through parentheses/casts/`await` from an expression to the node that uses its value. */
export function valueParent(node: Node): { parent: Node | undefined; child: Node; awaited: boolean } {
  let child = node;
  let parent = node.getParent();
  let awaited = false;
  while (
    parent &&
    (Node.isParenthesizedExpression(parent) ||
      Node.isAsExpression(parent) ||
      Node.isNonNullExpression(parent) ||
      Node.isSatisfiesExpression(parent) ||
      Node.isAwaitExpression(parent))
  ) {
    if (Node.isAwaitExpression(parent)) awaited = true;
    child = parent;
    parent = parent.getParent();
  }
  return { parent, child, awaited };
}

export type TypeVerdict = 'mcp' | 'other' | 'unknown';

/**
 * Whether a type comes from an `@modelcontextprotocol/*` package (optionally with one of `names`),
 * including user classes that extend one. `unknown` for any/error types (syntactic fallback).
 */
export function classifyType(type: Type, names?: readonly string[]): TypeVerdict {
  if (type.isAny() || type.isUnknown()) return 'unknown';
  const candidates = type.isUnion() ? type.getUnionTypes().filter((t) => !t.isUndefined() && !t.isNull()) : [type];
  if (candidates.length === 0) return 'unknown';
  let sawMcp = false;
  for (const candidate of candidates) {
    if (candidate.isAny()) return 'unknown';
    if (typeIsMcp(candidate, names, 0)) sawMcp = true;
  }
  return sawMcp ? 'mcp' : 'other';
}

function typeIsMcp(type: Type, names: readonly string[] | undefined, depth: number): boolean {
  if (depth > 6) return false;
  for (const symbol of [type.getSymbol(), type.getAliasSymbol()]) {
    if (!symbol) continue;
    const fromMcp = symbol.getDeclarations().some((d) => d.getSourceFile().getFilePath().includes(`/node_modules/${MCP_PACKAGE_PREFIX}`));
    if (fromMcp && (!names || names.includes(symbol.getName()))) return true;
  }
  if (type.isIntersection()) return type.getIntersectionTypes().some((t) => typeIsMcp(t, names, depth + 1));
  if (type.isClassOrInterface() || type.isObject()) {
    for (const base of safeBaseTypes(type)) if (typeIsMcp(base, names, depth + 1)) return true;
  }
  return false;
}

function safeBaseTypes(type: Type): Type[] {
  try {
    return type.getBaseTypes();
  } catch {
    return [];
  }
}

export function safeType(node: Node): Type | undefined {
  try {
    return node.getType();
  } catch {
    return undefined;
  }
}

/** Identifier name of a property-access name or identifier node. */
export function nameText(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  if (Node.isIdentifier(node) || Node.isPrivateIdentifier(node)) return node.getText();
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  return undefined;
}

