/**
 * A low-level `tools/list` handler that returns tool definitions written as object literals
 * compiled under v1 and does not under v2: TypeScript infers one union type for an array of object
 * literals with different `inputSchema.properties` keys, filling the missing keys with
 * `key?: undefined`, and v2's `Tool` types `properties` as a record of JSON values, where
 * `undefined` is not one. Typed as what they are (`ListToolsResult`, `Tool[]`), each literal is
 * checked on its own and compiles. A schema a project function computes (`inputSchema:
 * toJsonSchema(shape)`) and types loosely (`Record<string, unknown>`, no `type: 'object'`) passed
 * v1's looser result check and fails v2's: it is asserted as `Tool['inputSchema']`, since the value
 * on the wire is the one v1 sent and the v1 client checked it against the same `type: 'object'` shape.
 */
import { Node, SyntaxKind, type ArrowFunction, type CallExpression, type FunctionExpression, type SourceFile } from 'ts-morph';
import { LOW_LEVEL_REGISTRATION, TARGET_SERVER_PACKAGE } from '@mcp-mrtr/surface';
import { ensureNamedImports } from './rewrite/imports.js';
import { flavourOf } from './rewrite/module-flavour.js';

const LIST_TOOLS = new Set(["'tools/list'", '"tools/list"', 'ListToolsRequestSchema']);
const RESULT_TYPE = 'ListToolsResult';
const TOOL_TYPE = 'Tool';

export function typeToolListResults(sourceFile: SourceFile): string[] {
  if (flavourOf(sourceFile) !== 'ts') return [];
  const notes: string[] = [];
  const types = new Set<string>();
  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression).reverse()) {
    const handler = listToolsHandler(call);
    if (!handler) continue;
    const line = handler.getStartLineNumber();
    const tools = returnedTools(handler);
    if (tools && Node.isIdentifier(tools)) {
      const shorthand = tools.getParent();
      const symbol = Node.isShorthandPropertyAssignment(shorthand) ? shorthand.getValueSymbol() : tools.getSymbol();
      const declaration = symbol?.getDeclarations()[0];
      const init = declaration && Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
      if (declaration && Node.isVariableDeclaration(declaration) && declaration.getSourceFile() === sourceFile && !declaration.getTypeNode() && init && literalDefinitions(init)) {
        declaration.setType(`${TOOL_TYPE}[]`);
        types.add(TOOL_TYPE);
        notes.push(`${declaration.getStartLineNumber()}: the tool definitions '${tools.getText()}' returned by the tools/list handler (line ${line}) typed ${TOOL_TYPE}[]: v2 checks each definition's inputSchema against JSON values`);
        for (const asserted of assertComputedSchemas(init)) notes.push(assertedNote(asserted));
      }
      continue;
    }
    if (!tools || !literalDefinitions(tools) || handler.getReturnTypeNode()) continue;
    handler.setReturnType(handler.isAsync() ? `Promise<${RESULT_TYPE}>` : RESULT_TYPE);
    types.add(RESULT_TYPE);
    notes.push(`${line}: the tools/list handler typed as returning ${RESULT_TYPE}: v2 checks each tool definition's inputSchema against JSON values`);
    for (const asserted of assertComputedSchemas(tools)) {
      types.add(TOOL_TYPE);
      notes.push(assertedNote(asserted));
    }
  }
  if (types.size > 0) ensureNamedImports(sourceFile, TARGET_SERVER_PACKAGE, [], [...types].sort(), 'ts');
  return notes.reverse();
}

const SCHEMA_PROPERTIES = ['inputSchema', 'outputSchema'];

/**
 * `inputSchema` / `outputSchema` values of the literal definitions that are computed (a call, an
 * identifier) and whose type has no `type` property: written `(value) as Tool['inputSchema']`.
 */
function assertComputedSchemas(tools: Node): Array<{ line: number; property: string; text: string }> {
  const asserted: Array<{ line: number; property: string; text: string }> = [];
  if (!Node.isArrayLiteralExpression(tools)) return asserted;
  for (const element of tools.getElements()) {
    if (!Node.isObjectLiteralExpression(element)) continue;
    for (const property of SCHEMA_PROPERTIES) {
      const assignment = element.getProperty(property);
      if (!assignment || !Node.isPropertyAssignment(assignment)) continue;
      const value = assignment.getInitializer();
      if (!value || !(Node.isCallExpression(value) || Node.isIdentifier(value) || Node.isPropertyAccessExpression(value))) continue;
      const type = value.getType();
      if (type.isAny() || type.getProperty('type') || type.isUnion()) continue;
      const text = value.getText();
      asserted.push({ line: assignment.getStartLineNumber(), property, text });
      value.replaceWithText(`${text} as ${TOOL_TYPE}['${property}']`);
    }
  }
  return asserted;
}

function assertedNote(asserted: { line: number; property: string; text: string }): string {
  return `${asserted.line}: the computed ${asserted.property} '${asserted.text}' (typed without type: 'object') asserted as ${TOOL_TYPE}['${asserted.property}']: the value sent is the one v1 sent; check that it has type: 'object'`;
}

/** An array of two or more object literals: one alone is typed as it is, with nothing to fill in. */
function literalDefinitions(node: Node): boolean {
  return Node.isArrayLiteralExpression(node) && node.getElements().length >= 2 && node.getElements().every((e) => Node.isObjectLiteralExpression(e));
}

/** The handler function of `x.setRequestHandler('tools/list' | ListToolsRequestSchema, handler)`. */
function listToolsHandler(call: CallExpression): ArrowFunction | FunctionExpression | undefined {
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== LOW_LEVEL_REGISTRATION) return undefined;
  const [method, handler] = call.getArguments();
  if (!method || !LIST_TOOLS.has(method.getText()) || !handler) return undefined;
  return Node.isArrowFunction(handler) || Node.isFunctionExpression(handler) ? handler : undefined;
}

/** The expression of the `tools` property the handler returns, when it returns one object literal. */
function returnedTools(handler: ArrowFunction | FunctionExpression): Node | undefined {
  const body = handler.getBody();
  let returned: Node | undefined;
  if (Node.isExpression(body)) returned = body;
  else {
    const returns = body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => r.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a)) === handler);
    if (returns.length !== 1) return undefined;
    returned = returns[0]!.getExpression();
  }
  while (returned && Node.isParenthesizedExpression(returned)) returned = returned.getExpression();
  if (!returned || !Node.isObjectLiteralExpression(returned)) return undefined;
  const property = returned.getProperty('tools');
  if (property && Node.isPropertyAssignment(property)) return property.getInitializer();
  if (property && Node.isShorthandPropertyAssignment(property)) return property.getNameNode();
  return undefined;
}
