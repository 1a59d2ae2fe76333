/**
 * A kept helper's request parameters, built by one function that the helper and its handlers' copy
 * both call.
 *
 * A helper that code outside request handlers also runs (a timer, a listener) keeps doing what it
 * did for that code, and the handlers that call it get a copy of it to migrate (inline.ts). The copy would
 * write the request's parameters out a second time: a reviewer reads them twice and a later change
 * to the request has to be made twice. So when the parameters are an object literal that reads only
 * the helper's parameters and names from outside the helper, the literal moves into a small function
 * declared after the helper (`summarizeRequest(text)`), and both the kept helper and the copy call
 * it where the literal was. The kept helper does exactly what it did: the same literal, evaluated at
 * the same point, from the same values; its comments move with it.
 *
 * The function's return type is the SDK's request-params type: an unannotated literal widens
 * `role: 'user'` to `string`, and `as const` would make its arrays readonly, which the request
 * types do not accept.
 */
import { Node, SyntaxKind, type ObjectLiteralExpression, type ParameterDeclaration, type Statement } from 'ts-morph';
import { LEGACY_REQUESTS } from '@mcp-mrtr/surface';
import type { Site } from '../model.js';
import type { FunctionWithBody } from './function-body.js';
import { indentOf, indentUnit, type TextEdit } from '../text-edits.js';

/** The parameter types of the requests a shared function can build, by request kind (URL elicitations are left out: another type). */
const PARAMS_TYPE: Partial<Record<string, string>> = { elicitation: 'ElicitRequestFormParams', sampling: 'CreateMessageRequestParams' };

export interface SharedRequests {
  /** The functions, inserted right after the helper's declaration (before its copy). */
  insertion: TextEdit;
  /** Each shared request's parameters (positions in the file) replaced by a call of its function. */
  calls: TextEdit[];
  /** The SDK types the functions' return types name (for the file's imports). */
  types: Set<string>;
}

/**
 * The functions that build the requests of `helper` (declared by the module-level `declaration`,
 * named `name`) its `sites` make, for those a function can build; undefined when none can.
 */
export function shareRequests(helper: FunctionWithBody, declaration: Statement, name: string, sites: Site[]): SharedRequests | undefined {
  const file = helper.getSourceFile();
  const typed = /\.[cm]?tsx?$/.test(file.getFilePath());
  const used = new Set(file.getDescendantsOfKind(SyntaxKind.Identifier).map((i) => i.getText()));
  const unit = indentUnit(file);
  const functions: string[] = [];
  const calls: TextEdit[] = [];
  const types = new Set<string>();
  for (const site of sites) {
    const params = site.params;
    const type = PARAMS_TYPE[LEGACY_REQUESTS[site.method].kind];
    if (!params || !Node.isObjectLiteralExpression(params) || !type || !sharable(site, params)) continue;
    const read = helperParametersRead(helper, params);
    if (!read || (typed && read.some((p) => !p.getTypeNode()))) continue;
    const variable = sites.length > 1 ? answerVariable(site) : undefined;
    if (sites.length > 1 && !variable) continue;
    const fnName = `${name}${variable ? variable[0]!.toUpperCase() + variable.slice(1) : ''}Request`;
    if (used.has(fnName)) continue;
    used.add(fnName);
    const signature = read.map((p) => (typed ? `${p.getName()}: ${p.getTypeNode()!.getText()}${p.hasQuestionToken() ? ' | undefined' : ''}` : p.getName())).join(', ');
    const body = reindented(params, indentOf(params), unit);
    functions.push(
      `/** The parameters of the request \`${name}\` sends${variable ? ` for \`${variable}\`` : ''}, written once for \`${name}\` and for its copy in the request handlers that call it. */\n` +
        `function ${fnName}(${signature})${typed ? `: ${type}` : ''} {\n${unit}return ${body};\n}`,
    );
    calls.push({ start: params.getStart(), end: params.getEnd(), text: `${fnName}(${read.map((p) => p.getName()).join(', ')})` });
    if (typed) types.add(type);
  }
  if (functions.length === 0) return undefined;
  // After the helper, not above it: the report's lines are read back through a line diff of the text
  // before and after the rewrite, and the helper's own lines (a capability check before its request)
  // only keep their alignment when the moved literal comes after them.
  const at = declaration.getEnd();
  return { insertion: { start: at, end: at, text: `\n\n${functions.join('\n\n')}` }, calls, types };
}

/** A request method called with the literal as its first argument (not a generic sender's `{ method, params }`, whose params type differs), not a URL elicitation. */
function sharable(site: Site, params: ObjectLiteralExpression): boolean {
  if (site.shape !== 'server-method' && site.shape !== 'ctx-method') return false;
  const mode = params.getProperty('mode');
  if (mode && !(Node.isPropertyAssignment(mode) && /^['"`]form['"`]$/.test(mode.getInitializer()?.getText() ?? ''))) return false;
  return !params.getDescendants().some((d) => Node.isAwaitExpression(d) || Node.isYieldExpression(d) || d.getKind() === SyntaxKind.ThisKeyword || (Node.isIdentifier(d) && d.getText() === 'arguments'));
}

/**
 * The helper's parameters the literal reads, in their order, or undefined when it reads a name the
 * helper's body declares (a function before the helper cannot see it) or a parameter that is not a
 * plain name. Names the literal declares itself, and names from outside the helper, need nothing.
 */
function helperParametersRead(helper: FunctionWithBody, params: ObjectLiteralExpression): ParameterDeclaration[] | undefined {
  const read = new Set<ParameterDeclaration>();
  for (const id of params.getDescendantsOfKind(SyntaxKind.Identifier)) {
    const parent = id.getParent();
    if ((Node.isPropertyAccessExpression(parent) || Node.isPropertyAssignment(parent)) && parent.getNameNode() === id) continue;
    const symbol = Node.isShorthandPropertyAssignment(parent) ? parent.getValueSymbol() : id.getSymbol();
    const declarations = symbol?.getDeclarations() ?? [];
    if (declarations.length === 0) return undefined;
    for (const d of declarations) {
      if (inside(d, params) || !inside(d, helper)) continue;
      const parameter = Node.isParameterDeclaration(d) ? d : undefined;
      if (!parameter || !helper.getParameters().includes(parameter) || !Node.isIdentifier(parameter.getNameNode()) || parameter.isRestParameter()) return undefined;
      read.add(parameter);
    }
  }
  return helper.getParameters().filter((p) => read.has(p));
}

function inside(node: Node, root: Node): boolean {
  return node.getSourceFile() === root.getSourceFile() && node.getStart() >= root.getStart() && node.getEnd() <= root.getEnd();
}

/**
 * The variable the request's answer is stored in (`const title = await ...`): with several requests
 * in the helper, each function is named after it (`<helper><Variable>Request`, a helper's one
 * request being `<helper>Request`).
 */
function answerVariable(site: Site): string | undefined {
  const declared = site.node.getFirstAncestor((a) => Node.isVariableDeclaration(a) || Node.isStatement(a));
  return declared && Node.isVariableDeclaration(declared) && Node.isIdentifier(declared.getNameNode()) ? declared.getName() : undefined;
}

/** The literal's text with its continuation lines moved from the indentation of the line it starts on to the function body's (a multi-line template's text is left as it is). */
function reindented(params: Node, from: string, to: string): string {
  const text = params.getText();
  if (from === to || params.getDescendants().some((d) => (Node.isTemplateExpression(d) || Node.isNoSubstitutionTemplateLiteral(d)) && d.getText().includes('\n'))) return text;
  return text
    .split('\n')
    .map((line, i) => (i > 0 && line.startsWith(from) ? to + line.slice(from.length) : line))
    .join('\n');
}

