/**
 * A server's capabilities literal with keys v2's `ServerCapabilities` does not declare (a server
 * that also lists `elicitation: {}` or `sampling: {}`, which are capabilities a client declares)
 * compiled against v1 SDKs whose capability types were open objects, and fails v2's excess-property
 * check. The keys are sent to the client in the initialize result as written, in v1 as in v2 (the
 * v2 `Server` keeps the object it is given): removing them would change what the server says, so
 * the literal is asserted as `ServerCapabilities` instead, a change of types only (the emitted
 * JavaScript is the same), and the file's notes name the keys for a person to decide on.
 *
 * Only a literal the compiler checks against v2's `ServerCapabilities` (its contextual type, e.g.
 * `new Server(info, { capabilities: { ... } })`) is asserted, and only when every key v2 does
 * declare has a value of v2's type: the assertion then drops exactly the excess-property error and
 * hides no other.
 */
import { Node, SyntaxKind, type ObjectLiteralExpression, type SourceFile, type Type } from 'ts-morph';
import { TARGET_SERVER_PACKAGE } from '@mcp-mrtr/surface';
import { ensureNamedImports } from './rewrite/imports.js';
import { flavourOf } from './rewrite/module-flavour.js';
import { V2_PACKAGE_PATH } from './v1-declared-types.js';

const CAPABILITIES_TYPE = 'ServerCapabilities';
const CAPABILITIES_PROPERTY = /^(['"]?)capabilities\1$/;
/** Capabilities only a server declares: the contextual type is the server's, not a client's. */
const SERVER_ONLY_KEYS = ['tools', 'prompts', 'resources'];

/** Asserts each such literal as `ServerCapabilities`; one `<line>: <note>` per literal, its line the file's before the upgrade (`toOriginal`). */
export function assertServerCapabilities(sourceFile: SourceFile, toOriginal: (line: number) => number = (line) => line): string[] {
  if (flavourOf(sourceFile) !== 'ts' || !sourceFile.getFullText().includes('capabilities')) return [];
  const literals = sourceFile
    .getDescendantsOfKind(SyntaxKind.PropertyAssignment)
    .filter((p) => CAPABILITIES_PROPERTY.test(p.getNameNode().getText()))
    .map((p) => p.getInitializer())
    .filter((init): init is ObjectLiteralExpression => init !== undefined && Node.isObjectLiteralExpression(init));
  if (literals.length === 0 || localCapabilitiesType(sourceFile)) return [];
  // a literal that can yield no excess key is left without asking the checker: each file this
  // stage upgrades was just edited, so the first type query on it builds a new program and checker
  const repairs = literals.filter(mayHaveExcessKeys).flatMap((literal) => {
    const excess = excessKeys(literal);
    return excess ? [{ literal, excess, line: toOriginal(literal.getStartLineNumber()) }] : [];
  });
  if (repairs.length === 0) return [];
  // inserted after each literal, last first (the earlier positions stay valid): the literal's own
  // text, and its lines' indentation, are left as written
  const ends = repairs.map(({ literal }) => literal.getEnd());
  for (const end of ends.reverse()) sourceFile.insertText(end, ` as ${CAPABILITIES_TYPE}`);
  ensureNamedImports(sourceFile, TARGET_SERVER_PACKAGE, [], [CAPABILITIES_TYPE], 'ts');
  return repairs.map(
    ({ line, excess }) =>
      `${line}: the server capabilities declare ${excess.map((k) => `'${k}'`).join(', ')}, which v2's ${CAPABILITIES_TYPE} does not have: the literal is asserted as ${CAPABILITIES_TYPE}, a change of types only, so the server still sends ${excess.length > 1 ? 'them' : 'it'} in its initialize result as before; remove ${excess.length > 1 ? 'them' : 'it'} if no client reads ${excess.length > 1 ? 'them' : 'it'}`,
  );
}

/**
 * Whether `excessKeys` can find an excess key in the literal, read from its syntax alone: it needs a
 * plainly named property (`excessKeys` gives up on a method or a computed name) whose name is not
 * one of `SERVER_ONLY_KEYS`, since it only counts keys of a target that declares all of those.
 */
function mayHaveExcessKeys(literal: ObjectLiteralExpression): boolean {
  return literal.getProperties().some((property) => {
    if (!Node.isPropertyAssignment(property) && !Node.isShorthandPropertyAssignment(property)) return false;
    const nameNode = property.getNameNode();
    if (Node.isComputedPropertyName(nameNode)) return false;
    return !SERVER_ONLY_KEYS.includes(propertyName(nameNode));
  });
}

function propertyName(nameNode: Node): string {
  return Node.isStringLiteral(nameNode) ? nameNode.getLiteralText() : nameNode.getText();
}

/**
 * The literal's keys v2's `ServerCapabilities` lacks, when its contextual type is that type and its
 * other keys have values of v2's types; undefined otherwise.
 */
function excessKeys(literal: ObjectLiteralExpression): string[] | undefined {
  const target = literal.getContextualType()?.getNonNullableType();
  if (!target || !isV2ServerCapabilities(target)) return undefined;
  const excess: string[] = [];
  for (const property of literal.getProperties()) {
    if (Node.isSpreadAssignment(property)) continue;
    if (!Node.isPropertyAssignment(property) && !Node.isShorthandPropertyAssignment(property)) return undefined;
    const nameNode = property.getNameNode();
    if (Node.isComputedPropertyName(nameNode)) return undefined;
    const name = propertyName(nameNode);
    const declared = target.getProperty(name);
    if (!declared) {
      excess.push(name);
      continue;
    }
    const value = Node.isPropertyAssignment(property) ? property.getInitializerOrThrow() : property.getNameNode();
    if (!value.getType().isAssignableTo(declared.getTypeAtLocation(literal).getNonNullableType())) return undefined;
  }
  return excess.length > 0 ? excess : undefined;
}

function isV2ServerCapabilities(type: Type): boolean {
  return SERVER_ONLY_KEYS.every((key) => {
    const declarations = type.getProperty(key)?.getDeclarations() ?? [];
    return declarations.length > 0 && declarations.every((d) => V2_PACKAGE_PATH.test(d.getSourceFile().getFilePath()));
  });
}

/** A declaration of the file's own named `ServerCapabilities` (not an import of v2's) would be shadowed or collide. */
function localCapabilitiesType(sourceFile: SourceFile): boolean {
  const own = [...sourceFile.getInterfaces(), ...sourceFile.getTypeAliases(), ...sourceFile.getClasses(), ...sourceFile.getVariableDeclarations()].some((d) => d.getName() === CAPABILITIES_TYPE);
  if (own) return true;
  return sourceFile.getImportDeclarations().some((i) => i.getModuleSpecifierValue() !== TARGET_SERVER_PACKAGE && i.getNamedImports().some((n) => (n.getAliasNode() ?? n.getNameNode()).getText() === CAPABILITIES_TYPE));
}
