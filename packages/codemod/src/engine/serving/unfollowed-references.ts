/**
 * Legacy requests the find stage cannot see: code that reads a legacy request method by name but
 * makes the request through something the find stage does not follow (a duck-typed getter handing
 * out `inner.elicitInput.bind(inner)`, `const m = (server as any).createMessage; m.call(server, p)`,
 * a computed member `low['elicitInput']`), or names the wire method in code
 * (`{ method: 'elicitation/create', ... }` given to a sender it does not know). Such a request is
 * neither migrated nor flagged, and served by `serveStdio` / `createMcpHandler` a 2026-07-28 request
 * has no session to send it on: it throws, and a catch around it silently turns the feature off.
 * While any exists in the files a hosting serves, the hosting is kept, flagged with where it is,
 * and the reference is reported as a flagged site of its own.
 *
 * Not such references: comments, type positions (interfaces, type aliases, annotations), the
 * modules the rewrite generates, test files, checks that the method exists (`typeof x.elicitInput`,
 * `if (x.elicitInput)`), look-alikes (a member another library or the project declares with a body
 * of its own: `slack.createMessage(...)`), and every reference a site the run found goes through
 * (the call itself, a `.bind` alias it calls, a parameter it is passed as, a request object
 * declared before the sender call). Requests the run migrated are no longer in the text.
 */
import path from 'node:path';
import { Node, SyntaxKind, type SourceFile, type ts } from 'ts-morph';
import { forEachWantedDescendant, hasCompilerModifier, kindsWhere } from '../compiler-walk.js';
import { CTX_MCPREQ_METHOD_TO_LEGACY, LEGACY_REQUESTS, METHOD_BINDER, METHOD_INVOKERS, SERVER_METHOD_TO_LEGACY, TARGET, isLegacyMethod, type LegacyMethod } from '@mcp-mrtr/surface';
import type { Site } from '../model.js';
import { isMcpReqReceiver, isServerReceiver, type FindContext } from '../find/receivers.js';
import { declaresSdkRequestMethod } from '../find/sdk-shaped.js';
import { declarationOf, isInNodeModules, nameText, outermostWrapper, referencesOf, unwrapExpression } from '../find/resolve.js';
import { ANSWERS_MODULE_BASENAME } from '../rewrite/answers-module.js';
import { CAPABILITIES_MODULE_BASENAME } from '../rewrite/capabilities-module.js';
import { STATE_MODULE_BASENAME } from '../generated-names.js';
import { reportLine } from '../report-lines.js';
import { looksLikeTestFile } from '../test-mocks/find.js';
import { abbreviate, flag, type ServingFinding } from './findings.js';
import { enclosingFunctionName, servedFiles, type SitesOf } from './swallowed-requests.js';

export interface UnfollowedReference {
  /** The member read (`inner.elicitInput`, `low['elicitInput']`, `{ elicitInput }`) or the wire string. */
  node: Node;
  method: LegacyMethod;
  /** `elicitInput`, or `'elicitation/create'` for a wire string. */
  name: string;
  /** `confirm.ts:8 (confirmer)`: the file relative to the hosting file, the line of the user's file. */
  where: string;
}

/** Method names read off a server (v1/v2) or `ctx.mcpReq` (v2). */
const METHOD_NAMES: Readonly<Record<string, LegacyMethod>> = { ...SERVER_METHOD_TO_LEGACY, ...CTX_MCPREQ_METHOD_TO_LEGACY };
/** Names no other well-known API uses: read off a receiver of unknown type, still a legacy request. */
const MCP_ONLY_NAMES = new Set(Object.keys(CTX_MCPREQ_METHOD_TO_LEGACY));
const TOKENS = [...Object.keys(METHOD_NAMES), ...Object.keys(LEGACY_REQUESTS)];
const GENERATED_BASENAMES = [ANSWERS_MODULE_BASENAME, CAPABILITIES_MODULE_BASENAME, STATE_MODULE_BASENAME];
const INVOKERS: readonly string[] = METHOD_INVOKERS;
const HANDLER_REGISTRATIONS = new Set(['setRequestHandler', 'setNotificationHandler', 'removeRequestHandler', 'assertCanSetRequestHandler']);
const COMPARISONS = new Set([SyntaxKind.EqualsEqualsEqualsToken, SyntaxKind.ExclamationEqualsEqualsToken, SyntaxKind.EqualsEqualsToken, SyntaxKind.ExclamationEqualsToken, SyntaxKind.InKeyword]);

/** The unfollowed references in the files `hostingFile` serves (itself and what it imports or loads). */
export function unfollowedReferences(hostingFile: SourceFile, sitesOf: SitesOf, ctx: FindContext): UnfollowedReference[] {
  const found: UnfollowedReference[] = [];
  const from = path.dirname(hostingFile.getFilePath());
  for (const file of servedFiles(hostingFile)) {
    const text = file.getFullText();
    if (!TOKENS.some((t) => text.includes(t)) || looksLikeTestFile(file.getFilePath(), text) || isGenerated(file)) continue;
    const followed = followedNodes(sitesOf(file));
    const isFollowed = (node: Node) => followed.some((n) => n.getSourceFile() === file && n.getPos() <= node.getStart() && node.getEnd() <= n.getEnd());
    const fileName = path.relative(from, file.getFilePath()) || path.basename(file.getFilePath());
    const lines = new Set<number>();
    // only these kinds can read a request method (legacyRead); type-only code is not entered
    forEachWantedDescendant(
      file,
      (node) => READ_KINDS.has(node.kind),
      (node) => {
        const read = legacyRead(node, ctx);
        // one per line: a line reading the method twice (`x.elicitInput ?? y.elicitInput`) is one place to fix
        if (!read || isFollowed(node) || lines.has(node.getStartLineNumber())) return;
        lines.add(node.getStartLineNumber());
        found.push({ node, ...read, where: `${fileName}:${reportLine(node)} (${enclosingFunctionName(node)})` });
      },
      isTypeOnly,
    );
  }
  return found;
}

function isGenerated(file: SourceFile): boolean {
  const base = file.getBaseNameWithoutExtension();
  return GENERATED_BASENAMES.includes(base);
}

/** Interfaces, type aliases, annotations, `declare` statements: no code runs there. */
function isTypeOnly(node: ts.Node): boolean {
  return TYPE_ONLY_KINDS.has(node.kind) || (MODIFIERABLE_KINDS.has(node.kind) && hasCompilerModifier(node, SyntaxKind.DeclareKeyword));
}

/** ts-morph's kind tests, asked once per kind. */
const TYPE_ONLY_KINDS = kindsWhere(
  (node) => Node.isInterfaceDeclaration(node) || Node.isTypeAliasDeclaration(node) || Node.isTypeNode(node) || Node.isImportDeclaration(node) || Node.isExportDeclaration(node),
);
const MODIFIERABLE_KINDS = kindsWhere((node) => Node.isModifierable(node));

/** The kinds legacyRead answers for. */
const READ_KINDS: ReadonlySet<SyntaxKind> = new Set([SyntaxKind.PropertyAccessExpression, SyntaxKind.ElementAccessExpression, SyntaxKind.BindingElement, SyntaxKind.StringLiteral, SyntaxKind.NoSubstitutionTemplateLiteral]);

/** What `node` reads, when it reads a legacy request method by name (or names the wire method) in code that uses it. */
function legacyRead(node: Node, ctx: FindContext): { method: LegacyMethod; name: string } | undefined {
  if (Node.isPropertyAccessExpression(node)) {
    const name = node.getName();
    return Object.hasOwn(METHOD_NAMES, name) && !isExistenceCheck(node) && readsRequestMethod(node.getExpression(), name, node.getNameNode(), ctx) ? { method: METHOD_NAMES[name]!, name } : undefined;
  }
  if (Node.isElementAccessExpression(node)) {
    const argument = node.getArgumentExpression();
    const name = nameText(unwrapExpression(argument));
    return argument && name !== undefined && Object.hasOwn(METHOD_NAMES, name) && !isExistenceCheck(node) && readsRequestMethod(node.getExpression(), name, argument, ctx) ? { method: METHOD_NAMES[name]!, name } : undefined;
  }
  if (Node.isBindingElement(node)) {
    // const { elicitInput } = server.server;  const { elicitInput: ask } = inner
    const name = nameText(node.getPropertyNameNode() ?? node.getNameNode());
    const holder = node.getParent()?.getParent();
    const source = holder && Node.isVariableDeclaration(holder) ? holder.getInitializer() : undefined;
    return name !== undefined && Object.hasOwn(METHOD_NAMES, name) && readsRequestMethod(source, name, node.getPropertyNameNode() ?? node.getNameNode(), ctx) ? { method: METHOD_NAMES[name]!, name } : undefined;
  }
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) {
    const value = node.getLiteralValue();
    return isLegacyMethod(value) && namesTheRequest(node) ? { method: value, name: `'${value}'` } : undefined;
  }
  return undefined;
}

/**
 * The member read is the SDK's request method: read off a server or `ctx.mcpReq`, declared by an
 * MCP package or by the project's own slice of the SDK (find/sdk-shaped.ts), or, for a name only
 * MCP uses, read off something of unknown type. A member the project or another library declares
 * (a class's own `createMessage`) is a look-alike.
 */
function readsRequestMethod(receiver: Node | undefined, name: string, member: Node, ctx: FindContext): boolean {
  if (receiver && (isServerReceiver(receiver, ctx) || (Object.hasOwn(CTX_MCPREQ_METHOD_TO_LEGACY, name) && isMcpReqReceiver(receiver, ctx)))) return true;
  if (receiver && declaresSdkRequestMethod(receiver, name)) return true;
  const declarations = declarationsOf(member);
  if (declarations.some((d) => isInNodeModules(d) && MCP_DECLARATION.test(d.getSourceFile().getFilePath()) && sendsRequest(d))) return true;
  if (declarations.length > 0) return false;
  return MCP_ONLY_NAMES.has(name);
}

const MCP_DECLARATION = /\/node_modules\/@modelcontextprotocol\//;

/** The SDK member sends a request (resolves to its answer), unlike the v2 builder `inputRequired.createMessage(params)`. */
function sendsRequest(declaration: Node): boolean {
  try {
    return declaration.getType().getCallSignatures().some((signature) => signature.getReturnType().getSymbol()?.getName() === 'Promise');
  } catch {
    return false;
  }
}

function declarationsOf(member: Node): Node[] {
  try {
    return member.getSymbol()?.getDeclarations() ?? [];
  } catch {
    return [];
  }
}

/** `typeof x.elicitInput`, `!x.elicitInput`, `if (x.elicitInput)`, `x.elicitInput && ...`, `x.elicitInput === undefined`: asks whether it exists. */
function isExistenceCheck(read: Node): boolean {
  let node = read;
  while (Node.isParenthesizedExpression(node.getParent()) || Node.isNonNullExpression(node.getParent())) node = node.getParent()!;
  const parent = node.getParent();
  if (!parent) return false;
  if (Node.isTypeOfExpression(parent) || Node.isDeleteExpression(parent)) return true;
  if (Node.isPrefixUnaryExpression(parent) && parent.getOperatorToken() === SyntaxKind.ExclamationToken) return true;
  if ((Node.isIfStatement(parent) || Node.isWhileStatement(parent) || Node.isDoStatement(parent) || Node.isConditionalExpression(parent)) && conditionOf(parent) === node) return true;
  if (Node.isBinaryExpression(parent)) {
    const operator = parent.getOperatorToken().getKind();
    if (COMPARISONS.has(operator)) return true;
    if ((operator === SyntaxKind.AmpersandAmpersandToken || operator === SyntaxKind.BarBarToken) && parent.getLeft() === node) return true;
  }
  return false;
}

function conditionOf(node: Node): Node | undefined {
  if (Node.isConditionalExpression(node)) return node.getCondition();
  if (Node.isIfStatement(node) || Node.isWhileStatement(node) || Node.isDoStatement(node)) return node.getExpression();
  return undefined;
}

/**
 * The wire method as a value a request is built from: an argument, a property's value, an
 * initializer. Not a property name (a table keyed by method), a comparison or `case` (code reading
 * a message's method), nor a handler registration (`client.setRequestHandler('elicitation/create', ...)`).
 */
function namesTheRequest(literal: Node): boolean {
  const parent = literal.getParent();
  if (!parent) return false;
  if (Node.isCaseClause(parent)) return false;
  if (Node.isBinaryExpression(parent) && COMPARISONS.has(parent.getOperatorToken().getKind())) return false;
  if (Node.isPropertyAssignment(parent)) return parent.getInitializer() === literal && handedOn(parent.getParent());
  if (Node.isElementAccessExpression(parent) || Node.isExternalModuleReference(parent)) return false;
  if (Node.isCallExpression(parent)) {
    const callee = unwrapExpression(parent.getExpression());
    const name = callee && (Node.isPropertyAccessExpression(callee) ? callee.getName() : nameText(callee));
    return !(name && HANDLER_REGISTRATIONS.has(name)) && parent.getExpression() !== literal;
  }
  return Node.isVariableDeclaration(parent) || Node.isReturnStatement(parent) || Node.isArrayLiteralExpression(parent) || Node.isBinaryExpression(parent) || Node.isConditionalExpression(parent) || Node.isArrowFunction(parent) || Node.isNewExpression(parent);
}

/**
 * The object holding the request's method is handed on: not a variable whose only uses read its
 * members (`request.params`) or that nothing uses. A migrated handler keeps the legacy request
 * object it no longer sends (`const request = { method: 'sampling/createMessage', params }` before
 * `inputRequired.createMessage(...)`), and such an object sends nothing.
 */
function handedOn(object: Node | undefined): boolean {
  const node = object && outermostWrapper(object);
  const holder = node?.getParent();
  if (!node || !holder || !Node.isVariableDeclaration(holder) || holder.getInitializer() !== node) return true;
  const name = holder.getNameNode();
  const uses = Node.isIdentifier(name) ? referencesOf(name) : undefined;
  if (!uses) return true;
  return uses.some((use) => {
    if (use === name) return false;
    const up = use.getParent();
    return !(up && Node.isPropertyAccessExpression(up) && up.getExpression() === use);
  });
}

/**
 * The nodes a found site goes through: its own node, and for a call of an alias the declarations
 * the find stage followed to a request method (`const ask = s.elicitInput.bind(s)`, `const { elicitInput } = s`,
 * the argument passed for a parameter it calls), and request objects declared before the sender
 * call (`const req = { method: 'elicitation/create', ... }; extra.sendRequest(req, Schema)`).
 */
function followedNodes(sites: readonly Site[]): Node[] {
  const nodes: Node[] = [];
  for (const site of sites) {
    if (site.node.wasForgotten()) continue;
    nodes.push(site.node);
    if (!Node.isCallExpression(site.node)) continue;
    for (const arg of site.node.getArguments()) {
      const value = unwrapExpression(arg);
      const decl = value && Node.isIdentifier(value) ? declarationOf(value) : undefined;
      if (decl && Node.isVariableDeclaration(decl)) nodes.push(decl);
    }
    let callee = unwrapExpression(site.node.getExpression());
    if (Node.isPropertyAccessExpression(callee) && INVOKERS.includes(callee.getName())) callee = unwrapExpression(callee.getExpression());
    followAlias(callee, nodes, 0);
  }
  return nodes;
}

function followAlias(expr: Node | undefined, nodes: Node[], depth: number): void {
  const node = unwrapExpression(expr);
  if (!node || depth > 4) return;
  if (Node.isCallExpression(node)) {
    const callee = unwrapExpression(node.getExpression());
    if (Node.isPropertyAccessExpression(callee) && callee.getName() === METHOD_BINDER) followAlias(callee.getExpression(), nodes, depth + 1);
    return;
  }
  if (!Node.isIdentifier(node)) return;
  const decl = declarationOf(node);
  if (!decl) return;
  if (Node.isVariableDeclaration(decl)) {
    nodes.push(decl);
    followAlias(decl.getInitializer(), nodes, depth + 1);
  } else if (Node.isBindingElement(decl)) {
    const holder = decl.getParent()?.getParent();
    nodes.push(holder && Node.isVariableDeclaration(holder) ? holder : decl);
  } else if (Node.isParameterDeclaration(decl)) {
    for (const arg of argumentsFor(decl)) {
      nodes.push(arg);
      followAlias(arg, nodes, depth + 1);
    }
  }
}

/** What the calls of the parameter's function (by name, in its file) pass for it. */
function argumentsFor(param: Node): Node[] {
  const fn = param.getParent();
  if (!fn || !Node.isParameterDeclaration(param)) return [];
  const index = (fn as unknown as { getParameters?(): Node[] }).getParameters?.().indexOf(param) ?? -1;
  const holder = fn.getParent();
  const name = Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn) ? fn.getName() : holder && (Node.isVariableDeclaration(holder) || Node.isPropertyAssignment(holder)) ? holder.getName() : undefined;
  if (index < 0 || !name) return [];
  const args: Node[] = [];
  for (const call of fn.getSourceFile().getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = unwrapExpression(call.getExpression());
    if (!callee || nameText(Node.isPropertyAccessExpression(callee) ? callee.getNameNode() : callee) !== name) continue;
    const arg = call.getArguments()[index];
    if (arg) args.push(arg);
  }
  return args;
}

const ADVICE = `make the request where the codemod can follow it (a direct server.server.elicitInput(...) / createMessage(...) / listRoots(...) call, or extra.sendRequest(...), in the handler or a helper taking the server) and run migrate again, or migrate it by hand (return inputRequired.elicit(...) / inputRequired.createMessage(...) / inputRequired.listRoots() and read the answer with inputResponse(ctx.mcpReq.inputResponses, key)); then serve with ${TARGET.serveStdio} / ${TARGET.createMcpHandler}`;

/** Why the hosting is kept while such references exist. */
export function unfollowedKeptReason(references: UnfollowedReference[]): string {
  const shown = references.slice(0, 3).map((r) => `${r.where} ${describe(r)} (\`${abbreviate(r.node.getText())}\`)`);
  const subject = references.length === 1 ? `${shown[0]}, so the request made through it is neither migrated nor flagged at its call` : `${references.length} places make requests the codemod does not follow (${shown.join('; ')}${references.length > 3 ? '; ...' : ''}), so those requests are neither migrated nor flagged at their calls`;
  return `${subject}: served by ${TARGET.serveStdio} / ${TARGET.createMcpHandler}, a 2026-07-28 request has no session to send it on, so it would throw, and a catch around it would silently turn the feature off for clients that support it; make the request where the codemod follows it (or migrate it by hand), then switch the hosting`;
}

/** The reference as a flagged site of its own, in its file. */
export function unfollowedFinding(reference: UnfollowedReference): ServingFinding {
  const finding = flag(reference.node, `${describe(reference)} (it follows direct calls, .call/.apply on the member itself, aliases it sees called and parameters it sees passed): the codemod does not follow the request made through it, so that request is not migrated, and the hosting serving this file is kept on the 2025 era`, ADVICE);
  return { ...finding, method: reference.method, kind: LEGACY_REQUESTS[reference.method].kind };
}

function describe(reference: UnfollowedReference): string {
  return reference.name.startsWith("'") ? `names the legacy request ${reference.name} in code the codemod does not recognise as a request` : `reads the legacy request method ${reference.name} through a reference the codemod does not follow`;
}
