/**
 * Turning the server a transport is connected to into a factory that `serveStdio` /
 * `createMcpHandler` can call once per connection or request.
 */
import { Node, SyntaxKind, type CallExpression, type Identifier, type PropertyAccessExpression, type SourceFile, type Statement, type VariableDeclaration, type VariableStatement } from 'ts-morph';
import { abbreviate } from './findings.js';
import { declarationOf, unwrapExpression } from '../find/resolve.js';
import { indentOf, indentUnit, shiftIndent, statementRange, type TextEdit } from '../text-edits.js';

/** The server a `<server>.connect(transport)` call connects, through parentheses, casts and `await`. */
export function connectedServer(connect: CallExpression): Node {
  const callee = unwrapExpression(connect.getExpression()) as PropertyAccessExpression;
  const receiver = unwrapExpression(callee.getExpression())!;
  return Node.isAwaitExpression(receiver) ? unwrapExpression(receiver.getExpression())! : receiver;
}

/**
 * The declaration of the variable a connected server is read from: `const server = ...`, or a
 * single property taken from a construction, `const { server } = new McpServer(...)` (the low-level
 * `Server` of an McpServer, which `serveStdio` / `createMcpHandler` serve as well). Anything else
 * (several names bound at once, nested or defaulted patterns, a declaration in another file) is
 * given back as the reason it is not wrapped.
 */
export function serverDeclaration(
  identifier: Node,
  sourceFile: SourceFile,
): { declaration: VariableDeclaration; statement: VariableStatement; nameNode: Identifier; init: Node | undefined } | string {
  const decl = declarationOf(identifier);
  if (!decl || decl.getSourceFile() !== sourceFile) return 'the server variable is not declared in this file';
  let declaration: VariableDeclaration;
  let nameNode: Node;
  if (Node.isVariableDeclaration(decl)) {
    declaration = decl;
    nameNode = decl.getNameNode();
    if (!Node.isIdentifier(nameNode)) return 'the server variable is destructured';
  } else if (Node.isBindingElement(decl)) {
    const pattern = decl.getParent();
    const owner = pattern.getParent();
    if (!Node.isObjectBindingPattern(pattern) || !Node.isVariableDeclaration(owner)) return 'the server variable is bound by a nested destructuring pattern';
    if (pattern.getElements().length !== 1 || decl.getInitializer() || decl.getDotDotDotToken()) return `the server variable is destructured together with other names or a default (\`${abbreviate(pattern.getText())}\`)`;
    const init = unwrapExpression(owner.getInitializer());
    if (!init || !Node.isNewExpression(init)) return 'the server variable is destructured from something other than a construction in this file';
    declaration = owner;
    nameNode = decl.getNameNode();
    if (!Node.isIdentifier(nameNode)) return 'the server variable is bound by a nested destructuring pattern';
  } else return 'the server variable is not declared by a variable statement in this file';
  const statement = declaration.getVariableStatement();
  if (!statement || statement.getDeclarations().length !== 1 || statement.isExported()) return 'the server variable is exported or declared together with others';
  return { declaration, statement, nameNode, init: unwrapExpression(declaration.getInitializer()) };
}

/**
 * `createServer()` / `createServer(config)` with trivially re-evaluable arguments → factory text.
 * `serveStdio` / `createMcpHandler` call the factory with a context argument: the function itself is
 * passed only when it provably declares no parameter (else `createServer(runner?: Runner)` would
 * receive the context as `runner`) and is not a method (which would lose its `this`); otherwise the
 * call is wrapped, `() => createServer()`.
 */
export function factoryFromCall(call: CallExpression): string | undefined {
  const callee = unwrapExpression(call.getExpression());
  if (!callee || !(Node.isIdentifier(callee) || Node.isPropertyAccessExpression(callee))) return undefined;
  const args = call.getArguments();
  if (args.length === 0 && Node.isIdentifier(callee) && declaresNoParameter(callee)) return callee.getText();
  const simple = args.every((a) => Node.isIdentifier(a) || Node.isStringLiteral(a) || Node.isNumericLiteral(a) || Node.isPropertyAccessExpression(a));
  return simple ? `() => ${call.getText()}` : undefined;
}

/** The function an identifier names is declared (every overload) without parameters. */
function declaresNoParameter(callee: Node): boolean {
  const declaration = declarationOf(callee);
  if (!declaration) return false;
  if (Node.isFunctionDeclaration(declaration)) {
    const implementation = declaration.getImplementation() ?? declaration;
    return [implementation, ...implementation.getOverloads()].every((f) => f.getParameters().length === 0);
  }
  if (Node.isVariableDeclaration(declaration)) {
    const init = unwrapExpression(declaration.getInitializer());
    if (!init || !(Node.isArrowFunction(init) || Node.isFunctionExpression(init))) return false;
    // a declared type (`const f: Factory = () => ...`) may promise parameters the arrow ignores: still none read
    return init.getParameters().length === 0;
  }
  return false;
}

/**
 * `const server = new McpServer(...)` followed by statements that only register on it: the factory
 * function that builds it (declared where the construction was), or why that is not safe.
 */
export function wrapConstruction(
  sourceFile: SourceFile,
  declaration: Statement,
  name: string,
  uses: Node[],
  connectStatement: Statement,
): { name: string; edits: TextEdit[] } | string {
  const list = declaration.getParent();
  if (!list || !(Node.isSourceFile(list) || Node.isBlock(list))) return 'the server is not constructed at statement level';
  const siblings = (list as unknown as { getStatements(): Statement[] }).getStatements();
  const moved: Statement[] = [];
  for (const use of uses) {
    const statement = siblings.find((s) => s.containsRange(use.getPos(), use.getEnd()));
    if (!statement || statement === connectStatement) return `'${name}' is used outside the statements that set it up`;
    if (statement.getStart() < declaration.getStart() || statement.getStart() > connectStatement.getStart()) return `'${name}' is used after connecting (serveStdio owns the instance)`;
    if (!Node.isExpressionStatement(statement) || !isSetUpStatement(statement.getExpression(), name)) return `'${name}' is used in a statement that is not a registration on it${statementName(statement)}`;
    if (statement.getDescendantsOfKind(SyntaxKind.AwaitExpression).some((a) => !a.getFirstAncestor((x) => Node.isFunctionLikeDeclaration(x) || Node.isArrowFunction(x) || Node.isFunctionExpression(x))))
      return 'a registration awaits at the top level';
    if (!moved.includes(statement)) moved.push(statement);
  }
  moved.sort((a, b) => a.getStart() - b.getStart());
  const taken = new Set(sourceFile.getDescendantsOfKind(SyntaxKind.Identifier).map((i) => i.getText()));
  let factory = 'createServer';
  for (let i = 2; taken.has(factory); i++) factory = i === 2 ? 'createMcpServer' : `createMcpServer${i - 1}`;
  const indent = indentOf(declaration);
  const unit = indentUnit(sourceFile);
  // a moved registration takes the comments on the lines above it along
  const full = sourceFile.getFullText();
  const withComments = (s: Statement) => full.slice(commentedStart(s), s.getEnd());
  const body = [declaration, ...moved].map((s, i) => shiftIndent(i === 0 ? s.getText() : withComments(s), indentOf(s), indent + unit)).join('\n');
  const text = `function ${factory}() {\n${body}\n${indent}${unit}return ${name};\n${indent}}`;
  // the factory takes the construction's place; the registrations it now holds leave theirs
  const edits: TextEdit[] = [{ start: declaration.getStart(), end: declaration.getEnd(), text }];
  for (const statement of moved) edits.push({ ...statementRange(sourceFile, statement), start: lineStartOf(full, commentedStart(statement)), text: '' });
  return { name: factory, edits };
}

/**
 * ` (function confirm)` for a statement that declares names, so the user finds it; positions are
 * not given: this text was found in the rewritten file, whose lines differ from the user's.
 */
function statementName(statement: Statement): string {
  if (Node.isFunctionDeclaration(statement) || Node.isClassDeclaration(statement)) {
    const declared = statement.getName();
    return declared ? ` (${Node.isFunctionDeclaration(statement) ? 'function' : 'class'} ${declared}, which would no longer see it inside the factory)` : '';
  }
  if (Node.isVariableStatement(statement)) {
    const names = statement.getDeclarations().map((d) => d.getName());
    return ` (${statement.getDeclarationKind()} ${names.join(', ')}, which would no longer see it inside the factory)`;
  }
  return '';
}

/** `server.registerTool(...)`, `server.server.oninitialized = ...`, `registerTools(server)`. */
export function isSetUpStatement(expr: Node, name: string): boolean {
  if (leftmostIdentifier(expr) === name) return true;
  const call = unwrapExpression(expr);
  return (
    call !== undefined &&
    Node.isCallExpression(call) &&
    call.getArguments().some((a) => {
      const arg = unwrapExpression(a);
      return arg !== undefined && Node.isIdentifier(arg) && arg.getText() === name;
    })
  );
}

export function leftmostIdentifier(expr: Node): string | undefined {
  let node: Node | undefined = expr;
  while (node) {
    if (Node.isIdentifier(node)) return node.getText();
    if (Node.isCallExpression(node) || Node.isPropertyAccessExpression(node) || Node.isElementAccessExpression(node) || Node.isNonNullExpression(node)) node = node.getExpression();
    else if (Node.isBinaryExpression(node)) node = node.getLeft();
    else return undefined;
  }
  return undefined;
}

/** Where a statement starts with the comments on the lines directly above it (no blank line between). */
function commentedStart(statement: Statement): number {
  const full = statement.getSourceFile().getFullText();
  let start = statement.getStart();
  for (const range of [...statement.getLeadingCommentRanges()].reverse()) {
    const between = full.slice(range.getEnd(), start);
    if (/\n[ \t]*\r?\n/.test(between) || !/^[ \t]*$/.test(full.slice(lineStartOf(full, range.getPos()), range.getPos()))) break;
    start = range.getPos();
  }
  return start;
}

function lineStartOf(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}
