/**
 * Repairs of what the official v1-to-v2 transforms leave not compiling, for the shapes that have a
 * mechanical fix (the others are marked by verify with the compiler's message):
 *
 * - a helper's parameter typed with the v1 handler-context shape written out
 *   (`extra: { sessionId?: string; requestId: unknown }`, or a local alias / interface of it) now
 *   receives the v2 `ServerContext`: the annotation becomes `ServerContext` and the property
 *   accesses follow its shape (`extra.requestId` → `extra.mcpReq.id`), so log fields keep their value;
 * - a zod raw shape typed `z.ZodRawShape` passed where v2 expects a schema object
 *   (`inputSchema: shape`) is wrapped: `inputSchema: z.object(shape)`;
 * - tool definitions of a low-level `tools/list` handler written as object literals are typed
 *   `ListToolsResult` / `Tool[]` (`upgrade-list-results.ts`);
 * - the project's own wrapper of `server.tool` (the bound original and the replaced member) follows
 *   the calls' rename to `registerTool` (`upgrade-wrapped-registration.ts`);
 * - a read of a result property v2 declares wider than v1 (`structuredContent`, a tool's
 *   `outputSchema`) that no longer compiles is asserted back to v1's declared type, a change of
 *   types only (`v1-declared-types.ts`).
 *
 * A read of a property only some members of a closed v2 union declare (`result.content.text`) is
 * repaired by verify instead (`union-member-reads.ts`): its error usually comes from another file's
 * upgrade, which may come after this file's.
 */
import { Node, SyntaxKind, type ParameterDeclaration, type SourceFile } from 'ts-morph';
import { TARGET_SERVER_PACKAGE } from '@mcp-mrtr/surface';
import { referencesOf } from './find/resolve.js';
import { ensureNamedImports } from './rewrite/imports.js';
import { flavourOf } from './rewrite/module-flavour.js';
import { typeToolListResults } from './upgrade-list-results.js';
import { renameWrappedRegistrations } from './upgrade-wrapped-registration.js';
import { assertV1DeclaredTypes, errorStartsOf } from './v1-declared-types.js';

/** v1 handler-context properties and where v2's `ServerContext` has them. */
export const CONTEXT_PROPERTIES: Record<string, string> = {
  signal: 'mcpReq.signal',
  requestId: 'mcpReq.id',
  _meta: 'mcpReq._meta',
  sendRequest: 'mcpReq.send',
  sendNotification: 'mcpReq.notify',
  authInfo: 'http?.authInfo',
  sessionId: 'sessionId',
  requestInfo: 'http?.req',
  closeSSEStream: 'http?.closeSSE',
  closeStandaloneSSEStream: 'http?.closeStandaloneSSE',
};

const SCHEMA_PROPERTIES = new Set(['inputSchema', 'outputSchema', 'argsSchema']);
const CONTEXT_TYPE = 'ServerContext';

export function repairUpgrade(sourceFile: SourceFile): string[] {
  const notes: string[] = [];
  notes.push(...repairContextParameters(sourceFile));
  notes.push(...wrapRawShapes(sourceFile));
  notes.push(...typeToolListResults(sourceFile));
  notes.push(...renameWrappedRegistrations(sourceFile));
  notes.push(...assertV1DeclaredTypes(sourceFile, () => errorStartsOf(sourceFile)));
  return notes;
}

/** Names of the members of a type literal / interface when every one is a v1 context property. */
function contextShape(node: Node | undefined): string[] | undefined {
  if (!node) return undefined;
  const members = Node.isTypeLiteral(node) || Node.isInterfaceDeclaration(node) ? node.getMembers() : undefined;
  if (!members || members.length === 0) return undefined;
  const names: string[] = [];
  for (const member of members) {
    if (!Node.isPropertySignature(member) && !Node.isMethodSignature(member)) return undefined;
    const name = member.getName();
    if (!(name in CONTEXT_PROPERTIES)) return undefined;
    names.push(name);
  }
  // `{ sessionId?: string }` alone says nothing about being a handler context
  return names.some((n) => n !== 'sessionId') ? names : undefined;
}

/** The local declaration (alias or interface) a parameter's annotation names, when it is context-shaped. */
function contextTypeOf(parameter: ParameterDeclaration): { declaration?: Node } | undefined {
  const typeNode = parameter.getTypeNode();
  if (!typeNode) return undefined;
  if (contextShape(typeNode)) return {};
  if (!Node.isTypeReference(typeNode) || typeNode.getTypeArguments().length > 0) return undefined;
  const name = typeNode.getTypeName().getText();
  const sourceFile = parameter.getSourceFile();
  const alias = sourceFile.getTypeAlias(name);
  if (alias && contextShape(alias.getTypeNode())) return { declaration: alias };
  const iface = sourceFile.getInterface(name);
  if (iface && iface.getExtends().length === 0 && iface.getTypeParameters().length === 0 && contextShape(iface)) return { declaration: iface };
  return undefined;
}

/**
 * A call passes a handler's context to the function at this parameter: the context parameter of a
 * registration callback (`(args, ctx) => add(args, ctx)`) or a parameter already found to be one.
 */
function receivesHandlerContext(parameter: ParameterDeclaration, contexts: Set<ParameterDeclaration>): boolean {
  const fn = parameter.getParent();
  if (!Node.isFunctionDeclaration(fn) && !Node.isArrowFunction(fn) && !Node.isFunctionExpression(fn)) return false;
  const index = fn.getParameters().indexOf(parameter);
  let nameNode: Node | undefined;
  if (Node.isFunctionDeclaration(fn)) nameNode = fn.getNameNode();
  else if (Node.isVariableDeclaration(fn.getParent())) nameNode = (fn.getParent() as import('ts-morph').VariableDeclaration).getNameNode();
  if (!nameNode || !Node.isIdentifier(nameNode)) return false;
  // references the language service cannot list: no call is known to pass the context
  return (referencesOf(nameNode) ?? []).some((ref) => {
    const call = ref.getParent();
    if (!call || !Node.isCallExpression(call) || call.getExpression() !== ref) return false;
    const arg = call.getArguments()[index];
    if (!arg || !Node.isIdentifier(arg)) return false;
    const declaration = arg.getSymbol()?.getDeclarations()[0];
    if (!declaration || !Node.isParameterDeclaration(declaration)) return false;
    if (contexts.has(declaration)) return true;
    // the context parameter (the last) of a registration callback
    const callback = declaration.getParent();
    return (Node.isArrowFunction(callback) || Node.isFunctionExpression(callback)) && callback.getParameters().at(-1) === declaration && isRegistrationCallback(callback);
  });
}

function isRegistrationCallback(callback: Node): boolean {
  const call = callback.getParent();
  if (!call || !Node.isCallExpression(call)) return false;
  const callee = call.getExpression();
  return Node.isPropertyAccessExpression(callee) && /^(registerTool|registerPrompt|registerResource|tool|prompt|resource|setRequestHandler)$/.test(callee.getName());
}

function repairContextParameters(sourceFile: SourceFile): string[] {
  const notes: string[] = [];
  const candidates = sourceFile
    .getDescendantsOfKind(SyntaxKind.Parameter)
    .filter((p) => Node.isIdentifier(p.getNameNode()))
    .map((parameter) => ({ parameter, shape: contextTypeOf(parameter) }))
    .filter((c): c is { parameter: ParameterDeclaration; shape: { declaration?: Node } } => c.shape !== undefined);
  // to a fixpoint: a helper that receives a context from a handler, and the helpers it passes it to;
  // an alias or interface so found now means ServerContext for every parameter it types
  const contexts = new Set<ParameterDeclaration>();
  const declarations = new Set<Node>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const { parameter, shape } of candidates) {
      if (contexts.has(parameter)) continue;
      if (!(shape.declaration && declarations.has(shape.declaration)) && !receivesHandlerContext(parameter, contexts)) continue;
      contexts.add(parameter);
      if (shape.declaration) declarations.add(shape.declaration);
      grew = true;
    }
  }
  if (contexts.size === 0) return notes;
  const ordered = [...contexts].sort((a, b) => b.getStart() - a.getStart());
  for (const parameter of ordered) {
    const name = parameter.getName();
    const line = parameter.getStartLineNumber();
    const body = (parameter.getParent() as { getBody?: () => Node | undefined }).getBody?.();
    const accesses = (body?.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression) ?? []).filter((a) => Node.isIdentifier(a.getExpression()) && a.getExpression().getText() === name && a.getName() in CONTEXT_PROPERTIES);
    // last first: replacing one access leaves the positions of the earlier ones valid
    for (const access of accesses.sort((a, b) => b.getStart() - a.getStart())) {
      const target = CONTEXT_PROPERTIES[access.getName()]!;
      if (target !== access.getName()) access.replaceWithText(`${name}${access.hasQuestionDotToken() ? '?.' : '.'}${target}`);
    }
    if (!contextTypeOf(parameter)?.declaration) parameter.setType(CONTEXT_TYPE);
    notes.push(`${line}: '${name}' had the v1 handler-context shape and now receives the v2 ${CONTEXT_TYPE}: typed ${CONTEXT_TYPE}, its properties read where ${CONTEXT_TYPE} has them (requestId is mcpReq.id)`);
  }
  for (const declaration of declarations) {
    if (Node.isTypeAliasDeclaration(declaration)) declaration.setType(CONTEXT_TYPE);
    else if (Node.isInterfaceDeclaration(declaration)) declaration.replaceWithText(`${declaration.isExported() ? 'export ' : ''}type ${declaration.getName()} = ${CONTEXT_TYPE};`);
  }
  ensureNamedImports(sourceFile, TARGET_SERVER_PACKAGE, [], [CONTEXT_TYPE], flavourOf(sourceFile));
  notes.reverse();
  return notes;
}

/** `inputSchema: shape` where `shape` is declared `z.ZodRawShape` → `inputSchema: z.object(shape)`. */
function wrapRawShapes(sourceFile: SourceFile): string[] {
  const notes: string[] = [];
  for (const property of sourceFile.getDescendantsOfKind(SyntaxKind.PropertyAssignment).reverse()) {
    if (!SCHEMA_PROPERTIES.has(property.getName())) continue;
    const value = property.getInitializer();
    if (!value || !Node.isIdentifier(value)) continue;
    const declaration = value.getSymbol()?.getDeclarations()[0];
    if (!declaration || !(Node.isVariableDeclaration(declaration) || Node.isParameterDeclaration(declaration))) continue;
    const annotation = declaration.getTypeNode()?.getText().replace(/\s+/g, '');
    const zod = annotation ? /^(?:([A-Za-z_$][\w$]*)\.)?ZodRawShape$/.exec(annotation) : null;
    if (!zod) continue;
    const namespace = zod[1] ?? zodNamespace(sourceFile);
    if (!namespace) continue;
    const name = value.getText();
    notes.push(`${property.getStartLineNumber()}: '${name}' is a zod raw shape (typed ZodRawShape); v2 takes a schema object: wrapped in ${namespace}.object(...)`);
    value.replaceWithText(`${namespace}.object(${name})`);
  }
  return notes;
}

function zodNamespace(sourceFile: SourceFile): string | undefined {
  for (const decl of sourceFile.getImportDeclarations()) {
    if (!/^zod(\/v[34])?$/.test(decl.getModuleSpecifierValue())) continue;
    const named = decl.getNamedImports().find((n) => n.getName() === 'z');
    if (named) return (named.getAliasNode() ?? named.getNameNode()).getText();
    const ns = decl.getNamespaceImport();
    if (ns) return ns.getText();
  }
  return undefined;
}
