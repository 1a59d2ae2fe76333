/**
 * Liveness across a request point for the phase form: which locals declared before the point are
 * read at or after it, and how each travels to the next round (stored in requestState when
 * JSON-serialisable, recomputed when provably pure, otherwise an obstacle).
 */
import { Node, SyntaxKind, TypeFormatFlags, ts, type Statement, type Type, type VariableStatement } from 'ts-morph';
import { firstEffect } from './purity.js';
import { Obstacle, line } from './points.js';
import { reportLine } from '../report-lines.js';

export interface LiveVar {
  name: string;
  declKind: 'const' | 'let' | 'var';
  /** 'store': carried in requestState; 'recompute': declaration re-run in the later phase. */
  mode: 'store' | 'recompute';
  /** TS type text for the state type (store mode, TS only). */
  typeText?: string;
  statement: VariableStatement;
}

interface Declared {
  name: string;
  id: Node;
  declKind: 'const' | 'let' | 'var';
  statement: VariableStatement;
  initializer?: Node;
}

/** Names bound by the top-level variable statements in `statements`. */
export function declaredIn(statements: Statement[]): Declared[] {
  const out: Declared[] = [];
  for (const statement of statements) {
    if (Node.isFunctionDeclaration(statement) || Node.isClassDeclaration(statement)) {
      out.push({ name: statement.getName() ?? '', id: statement, declKind: 'const', statement: statement as unknown as VariableStatement });
      continue;
    }
    if (!Node.isVariableStatement(statement)) continue;
    const declKind = statement.getDeclarationKind() as 'const' | 'let' | 'var';
    for (const decl of statement.getDeclarations()) {
      const nameNode = decl.getNameNode();
      const ids = Node.isIdentifier(nameNode) ? [nameNode] : nameNode.getDescendantsOfKind(SyntaxKind.Identifier).filter((id) => !Node.isPropertyAssignment(id.getParent()) && !(Node.isBindingElement(id.getParent()) && (id.getParent() as { getPropertyNameNode?: () => Node | undefined }).getPropertyNameNode?.() === id));
      for (const id of ids) out.push({ name: id.getText(), id, declKind, statement, initializer: Node.isIdentifier(nameNode) ? decl.getInitializer() : undefined });
    }
  }
  return out;
}

/**
 * Declared names referenced anywhere in `after` (by name: over-approximates under shadowing,
 * which only carries one value too many).
 */
export function referencedLater(declared: Declared[], after: Node[]): Declared[] {
  const used = new Set<string>();
  for (const root of after) {
    const ids = Node.isIdentifier(root) ? [root] : root.getDescendantsOfKind(SyntaxKind.Identifier);
    for (const id of ids) {
      const parent = id.getParent();
      if (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id) continue;
      if (Node.isPropertyAssignment(parent) && parent.getNameNode() === id) continue;
      used.add(id.getText());
    }
  }
  return declared.filter((d) => used.has(d.name));
}

const NON_JSON_CLASSES = new Set(['Date', 'Map', 'Set', 'WeakMap', 'WeakSet', 'RegExp', 'Promise', 'URL', 'Buffer', 'Uint8Array', 'ArrayBuffer', 'Error']);

/** Is every value of `type` preserved by JSON.stringify/parse? Undefined when unknown (any). */
export function isJsonType(type: Type, depth = 0): boolean | undefined {
  if (depth > 6) return false;
  if (type.isAny() || type.isUnknown()) return undefined;
  if (type.isString() || type.isNumber() || type.isBoolean() || type.isNull() || type.isUndefined() || type.isLiteral() || type.isBooleanLiteral() || type.isEnumLiteral() || type.isEnum()) return true;
  // Template literal types (e.g. randomUUID's `${string}-${string}-...`) are strings on the wire.
  if (type.getFlags() & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike)) return true;
  if (type.isUnion()) {
    let all = true;
    for (const t of type.getUnionTypes()) {
      const verdict = isJsonType(t, depth + 1);
      if (verdict === false) return false;
      if (verdict === undefined) all = false;
    }
    return all ? true : undefined;
  }
  if (type.isArray()) return isJsonType(type.getArrayElementTypeOrThrow(), depth + 1);
  if (type.isTuple()) return type.getTupleElements().every((t) => isJsonType(t, depth + 1) === true);
  if (type.isObject()) {
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) return false;
    const symbol = type.getSymbol() ?? type.getAliasSymbol();
    if (symbol && NON_JSON_CLASSES.has(symbol.getName())) return false;
    if (symbol?.getDeclarations().some((d) => Node.isClassDeclaration(d))) return false;
    const decl = symbol?.getDeclarations()[0];
    for (const prop of type.getProperties()) {
      const propDecl = prop.getValueDeclaration() ?? prop.getDeclarations()[0] ?? decl;
      if (!propDecl) return undefined;
      const verdict = isJsonType(prop.getTypeAtLocation(propDecl), depth + 1);
      if (verdict !== true) return verdict;
    }
    const index = type.getStringIndexType();
    if (index && isJsonType(index, depth + 1) === false) return false;
    return true;
  }
  return false;
}

function syntacticallyJson(init: Node | undefined): boolean {
  if (!init) return false;
  if (syntacticType(init) !== undefined) return true;
  if (Node.isAwaitExpression(init)) {
    const inner = init.getExpression();
    return Node.isCallExpression(inner) && /\.json$/.test(inner.getExpression().getText());
  }
  if (Node.isStringLiteral(init) || Node.isNumericLiteral(init) || Node.isNoSubstitutionTemplateLiteral(init) || Node.isTemplateExpression(init)) return true;
  if (init.getKind() === SyntaxKind.TrueKeyword || init.getKind() === SyntaxKind.FalseKeyword || init.getKind() === SyntaxKind.NullKeyword) return true;
  if (Node.isArrayLiteralExpression(init)) return init.getElements().every(syntacticallyJson);
  if (Node.isObjectLiteralExpression(init)) return init.getProperties().every((p) => Node.isPropertyAssignment(p) && syntacticallyJson(p.getInitializer()));
  if (Node.isBinaryExpression(init)) return true; // arithmetic/comparison/concatenation of any values yields JSON primitives
  if (Node.isPrefixUnaryExpression(init)) return true;
  if (Node.isCallExpression(init)) return /^JSON\.parse$|^(String|Number|Boolean)$|\.(join|toString|trim|toLowerCase|toUpperCase|toFixed|toISOString)$/.test(init.getExpression().getText());
  return false;
}

/** The type of `node` where it stands, as TypeScript text that names only what the file can name; undefined otherwise. */
export function nameableType(node: Node): string | undefined {
  const text = typeText(node, undefined);
  return text === undefined || /\bany\b/.test(text) ? undefined : text;
}

function typeText(node: Node, init: Node | undefined): string | undefined {
  const type = node.getType();
  // names in scope at the declaration print as themselves; a type declared in a module this file
  // does not import (`lookup()` returning `Notebook` from ./store.js) prints as `import("…")`, and
  // is spelled out structurally instead (it is a JSON type: primitives, literals, arrays, objects)
  const text = type.getText(node, TypeFormatFlags.NoTruncation);
  if (text.includes('import(')) return structuralText(type, node, 0);
  if (/\bany\b/.test(text)) return syntacticType(init);
  return text;
}

/**
 * Why a type could not be named, when it is a declared type of another module that the value's file
 * does not import (the usual case): `: its type \`Snapshot\` is declared in types.ts, which tools.ts
 * does not import, and is not a plain JSON shape to write out`.
 */
function unnamedTypeCause(node: Node): string {
  const type = node.getType().getNonNullableType();
  const symbol = type.getAliasSymbol() ?? type.getSymbol();
  const declaration = symbol?.getDeclarations()[0];
  if (!symbol || !declaration || declaration.getSourceFile() === node.getSourceFile() || declaration.getSourceFile().isInNodeModules()) return '';
  return `: its type \`${symbol.getName()}\` is declared in ${declaration.getSourceFile().getBaseName()}, which ${node.getSourceFile().getBaseName()} does not import, and is not a plain JSON shape to write out`;
}

const IDENTIFIER_NAME = /^[A-Za-z_$][\w$]*$/;

/** A JSON type written out without naming any declared type; undefined when it is not one. */
function structuralText(type: Type, at: Node, depth: number): string | undefined {
  if (depth > 10) return undefined;
  if (type.isAny() || type.isUnknown()) return undefined;
  if (type.isString() || type.isNumber() || type.isBoolean() || type.isNull() || type.isUndefined() || type.isLiteral() || type.isBooleanLiteral()) {
    return type.getText(at, TypeFormatFlags.NoTruncation);
  }
  const wrap = (t: string | undefined) => (t !== undefined && /[|&]/.test(t) ? `(${t})` : t);
  const members = type.isUnion() ? { parts: type.getUnionTypes(), join: ' | ' } : type.isIntersection() ? { parts: type.getIntersectionTypes(), join: ' & ' } : undefined;
  if (members) {
    const parts = members.parts.map((t) => wrap(structuralText(t, at, depth + 1)));
    return parts.some((p) => p === undefined) ? undefined : parts.join(members.join);
  }
  if (type.isArray()) {
    const element = wrap(structuralText(type.getArrayElementTypeOrThrow(), at, depth + 1));
    return element === undefined ? undefined : `${element}[]`;
  }
  if (type.isTuple()) {
    const elements = type.getTupleElements().map((t) => structuralText(t, at, depth + 1));
    return elements.some((e) => e === undefined) ? undefined : `[${elements.join(', ')}]`;
  }
  if (type.isObject() && type.getCallSignatures().length === 0 && type.getConstructSignatures().length === 0) {
    const fields: string[] = [];
    for (const property of type.getProperties()) {
      const name = property.getName();
      const optional = property.isOptional();
      let propertyType = property.getTypeAtLocation(at);
      // `title?: string` is `string | undefined` to the checker: the `?` says it already
      if (optional && propertyType.isUnion()) {
        const defined = propertyType.getUnionTypes().filter((t) => !t.isUndefined());
        if (defined.length === 1) propertyType = defined[0]!;
      }
      const text = structuralText(propertyType, at, depth + 1);
      if (text === undefined) return undefined;
      fields.push(`${IDENTIFIER_NAME.test(name) ? name : JSON.stringify(name)}${optional ? '?' : ''}: ${text}`);
    }
    const index = type.getStringIndexType();
    if (index) {
      const value = structuralText(index, at, depth + 1);
      if (value === undefined) return undefined;
      fields.push(`[key: string]: ${value}`);
    }
    return fields.length === 0 ? '{}' : `{ ${fields.join('; ')} }`;
  }
  return undefined;
}

/** Type of a JSON value from its initializer alone (no type information loaded). */
function syntacticType(init: Node | undefined): string | undefined {
  if (!init) return undefined;
  if (Node.isStringLiteral(init) || Node.isNoSubstitutionTemplateLiteral(init) || Node.isTemplateExpression(init)) return 'string';
  if (Node.isNumericLiteral(init)) return 'number';
  if (init.getKind() === SyntaxKind.TrueKeyword || init.getKind() === SyntaxKind.FalseKeyword) return 'boolean';
  if (Node.isPrefixUnaryExpression(init)) return init.getOperatorToken() === SyntaxKind.ExclamationToken ? 'boolean' : 'number';
  if (Node.isCallExpression(init)) {
    const callee = init.getExpression().getText();
    if (callee === 'String' || /^(crypto\.)?randomUUID$/.test(callee) || /\.(join|toString|trim|toLowerCase|toUpperCase|toFixed|toISOString|toUTCString|padStart|padEnd|substring)$/.test(callee)) return 'string';
    if (callee === 'Number' || callee === 'Date.now' || /^Math\.\w+$/.test(callee) || callee === 'parseInt' || callee === 'parseFloat') return 'number';
    if (callee === 'Boolean') return 'boolean';
  }
  if (Node.isBinaryExpression(init)) {
    const op = init.getOperatorToken().getText();
    if (['-', '*', '/', '%', '**'].includes(op)) return 'number';
    if (['===', '!==', '==', '!=', '<', '>', '<=', '>=', 'instanceof', 'in'].includes(op)) return 'boolean';
    if (op === '+') {
      const l = syntacticType(init.getLeft());
      const r = syntacticType(init.getRight());
      if (l === 'string' || r === 'string') return 'string';
      if (l === 'number' && r === 'number') return 'number';
    }
  }
  return undefined;
}

/** Methods that only answer a question about their receiver (no mutation, nothing shared handed out). */
const QUERY_METHODS = new Set(['has', 'includes', 'indexOf', 'lastIndexOf', 'startsWith', 'endsWith', 'test', 'toString', 'join', 'toFixed', 'toISOString']);

/** Whether a value referenced later is mutated through a method call (other than a query) or property write. */
function isMutatedAfter(name: string, after: Node[]): boolean {
  for (const root of after) {
    for (const id of root.getDescendantsOfKind(SyntaxKind.Identifier)) {
      if (id.getText() !== name) continue;
      const parent = id.getParent();
      if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === id) {
        const use = parent.getParent();
        if (Node.isCallExpression(use) && use.getExpression() === parent && !QUERY_METHODS.has(parent.getName())) return true;
        if (Node.isBinaryExpression(use) && use.getLeft() === parent) return true;
      }
      if (Node.isBinaryExpression(parent) && parent.getLeft() === id) return true;
    }
  }
  return false;
}

/**
 * Classifies each live declaration. `knownTypes` gives the state type for point results
 * (`ElicitResult`...), which the rewrite itself produces.
 */
export function classifyLive(declared: Declared[], after: Node[], ts: boolean, typeChecked: boolean, knownTypes: Map<string, string>): LiveVar[] {
  return declared.map((d) => {
    if (!Node.isVariableStatement(d.statement)) {
      throw new Obstacle(`live value \`${d.name}\` is a ${(d.statement as Node).getKindName().replace('Declaration', '').toLowerCase()} declared before a request: not JSON-serialisable`);
    }
    const known = knownTypes.get(d.name);
    if (known !== undefined) return { name: d.name, declKind: d.declKind, mode: 'store', typeText: known, statement: d.statement };
    let json: boolean | undefined;
    if (typeChecked || ts) json = isJsonType(d.id.getType());
    if (json === undefined && syntacticallyJson(d.initializer)) json = true;
    if (json === true) {
      let text: string | undefined;
      if (ts) {
        text = typeText(d.id, d.initializer);
        // the value is named with its file: the reason is read at the request, often in a helper's module
        if (!text) throw new Obstacle(`live value \`${d.name}\` (line ${reportLine(d.statement)} of ${d.statement.getSourceFile().getBaseName()}) has a type the rewrite cannot name in the state type${unnamedTypeCause(d.id)}`);
      }
      return { name: d.name, declKind: d.declKind, mode: 'store', typeText: text, statement: d.statement };
    }
    // Not serialisable: recompute when the declaration is pure, const, single and never mutated.
    const init = d.initializer;
    const pure =
      d.declKind === 'const' &&
      d.statement.getDeclarations().length === 1 &&
      init !== undefined &&
      init.getDescendantsOfKind(SyntaxKind.AwaitExpression).length === 0 &&
      !Node.isAwaitExpression(init) &&
      firstEffect([init], d.statement) === undefined &&
      !isMutatedAfter(d.name, after);
    if (pure) return { name: d.name, declKind: d.declKind, mode: 'recompute', statement: d.statement };
    const typeName = d.id.getType().getSymbol()?.getName();
    const what = json === false && typeName && typeName !== '__object' && typeName !== '__type' ? ` (${typeName})` : '';
    throw new Obstacle(
      json === false
        ? `live value \`${d.name}\`${what} is not JSON-serialisable and not provably pure to recompute`
        : `cannot prove live value \`${d.name}\` JSON-serialisable${typeChecked ? '' : ' without type information'}; it must survive into the next round`,
    );
  });
}

/**
 * The locals that must reach the next round, classified: those read at or after the point, and,
 * for each recomputed one, the locals its declaration reads (`const spec = def.actions[name]` re-run
 * later needs `def` there too), until nothing more is needed. In declaration order.
 */
export function liveAcross(declared: Declared[], after: Node[], ts: boolean, typeChecked: boolean, knownTypes: Map<string, string>): LiveVar[] {
  let wanted = referencedLater(declared, after);
  for (;;) {
    const live = classifyLive(wanted, after, ts, typeChecked, knownTypes);
    const missing: Declared[] = [];
    for (const v of live.filter((x) => x.mode === 'recompute')) {
      for (const d of referencedLater(declared, [v.statement])) {
        if (wanted.includes(d) || missing.includes(d)) continue;
        try {
          classifyLive([d], after, ts, typeChecked, knownTypes);
        } catch (error) {
          // the reason names the local the request's code never reads itself, and who needs it
          if (error instanceof Obstacle) throw new Obstacle(`${error.message}; the recomputed \`${v.name}\` (line ${line(v.statement)}) reads it`);
          throw error;
        }
        missing.push(d);
      }
    }
    if (missing.length === 0) return live;
    wanted = declared.filter((d) => wanted.includes(d) || missing.includes(d));
  }
}

/** Keys the generated state object uses itself: a carried local of the same name travels under another key. */
const RESERVED_STATE_KEYS = ['phase', 'args'];

/** The state-object key each carried local travels under (its own name unless that is reserved). */
export function stateKeyOf(name: string, carried: string[]): string {
  if (!RESERVED_STATE_KEYS.includes(name)) return name;
  let key = `${name}_`;
  while (carried.includes(key) || RESERVED_STATE_KEYS.includes(key)) key += '_';
  return key;
}

/** `name` or `key: name` in an object literal; `name` or `key: name` in a destructuring pattern. */
export function stateField(name: string, carried: string[]): string {
  const key = stateKeyOf(name, carried);
  return key === name ? name : `${key}: ${name}`;
}
