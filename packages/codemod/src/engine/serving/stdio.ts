/**
 * stdio hosting: `server.connect(new StdioServerTransport())` of a server that comes from a factory
 * call, or whose construction and registrations can be wrapped into one → `serveStdio(factory)`.
 */
import { Node, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';
import { LEGACY_SDK_PACKAGE, SERVER_CONNECT_METHOD, STDIO_TRANSPORT, TARGET, TARGET_SERVER_STDIO_ENTRY } from '@mcp-mrtr/surface';
import { declarationOf, referencesOf, unwrapExpression, valueParent } from '../find/resolve.js';
import { dropUnusedImports, ensureNamedImports } from '../rewrite/imports.js';
import { flavourOf } from '../rewrite/module-flavour.js';
import { applyEdits, statementRange, type TextEdit } from '../text-edits.js';
import { abbreviate } from './findings.js';
import { connectedServer, factoryFromCall, serverDeclaration, wrapConstruction } from './factory.js';
import { flag, SERVING_ADVICE, type ServingFinding } from './findings.js';

const STDIO = STDIO_TRANSPORT;

/** `x.connect(transport)` where the transport is a `new StdioServerTransport(...)` (inline or via a const). */
export function connectCalls(sourceFile: SourceFile): CallExpression[] {
  const out: CallExpression[] = [];
  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = unwrapExpression(call.getExpression());
    if (!callee || !Node.isPropertyAccessExpression(callee) || callee.getName() !== SERVER_CONNECT_METHOD) continue;
    if (stdioTransportOf(call.getArguments()[0])) out.push(call);
  }
  return out;
}

function stdioTransportOf(arg: Node | undefined): { inline: boolean; declaration?: import('ts-morph').VariableStatement; name?: string } | undefined {
  const node = unwrapExpression(arg);
  if (!node) return undefined;
  if (Node.isNewExpression(node) && node.getExpression().getText() === STDIO) return { inline: true };
  if (Node.isIdentifier(node)) {
    const decl = declarationOf(node);
    if (decl && Node.isVariableDeclaration(decl)) {
      const init = unwrapExpression(decl.getInitializer());
      if (init && Node.isNewExpression(init) && init.getExpression().getText() === STDIO) {
        const statement = decl.getVariableStatement();
        return { inline: false, declaration: statement, name: node.getText() };
      }
    }
  }
  return undefined;
}

export function rewriteStdioConnect(sourceFile: SourceFile, connect: CallExpression): ServingFinding {
  const notRecognised = (why: string) => flag(connect, `server.connect(new ${STDIO}()) serves the 2025 era only; not rewritten: ${why}`, SERVING_ADVICE.stdio);
  const stdioImport = sourceFile.getImportDeclarations().find((d) => d.getNamedImports().some((n) => n.getName() === STDIO));
  if (!stdioImport) return notRecognised(`${STDIO} is not imported with an ES import`);
  const module = stdioImport.getModuleSpecifierValue();
  if (module.startsWith(LEGACY_SDK_PACKAGE)) return notRecognised('the file still imports the v1 SDK');

  // the connect call must be a statement of its own (optionally awaited)
  const { parent } = valueParent(connect);
  if (!parent || !Node.isExpressionStatement(parent)) return notRecognised('the connect call is part of a larger expression');
  const connectStatement = parent;
  const transport = stdioTransportOf(connect.getArguments()[0])!;

  let factory: string | undefined;
  const removals: Node[] = [];
  const edits: TextEdit[] = [];
  const awaitedReceiver = connectedServer(connect);

  if (Node.isCallExpression(awaitedReceiver)) {
    factory = factoryFromCall(awaitedReceiver);
    if (!factory) return notRecognised('the server comes from a call with non-trivial arguments');
  } else if (Node.isIdentifier(awaitedReceiver)) {
    const found = serverDeclaration(awaitedReceiver, sourceFile);
    if (typeof found === 'string') return notRecognised(found);
    const { statement, nameNode, init } = found;
    const allReferences = referencesOf(nameNode);
    if (!allReferences) return notRecognised(`the uses of '${nameNode.getText()}' could not be listed`);
    const references = allReferences.filter((r) => r !== nameNode && r.getSourceFile() === sourceFile);
    const initInner = init && Node.isAwaitExpression(init) ? unwrapExpression(init.getExpression()) : init;
    const otherUses = references.filter((r) => !connect.containsRange(r.getPos(), r.getEnd()));
    if (initInner && Node.isCallExpression(initInner)) {
      if (otherUses.length > 0) return notRecognised(`'${nameNode.getText()}' is used after connecting (serveStdio owns the instance)`);
      factory = factoryFromCall(initInner);
      if (!factory) return notRecognised('the server comes from a call with non-trivial arguments');
      removals.push(statement);
    } else if (initInner && Node.isNewExpression(initInner)) {
      const wrapped = wrapConstruction(sourceFile, statement, nameNode.getText(), otherUses, connectStatement);
      if (typeof wrapped === 'string') return notRecognised(wrapped);
      factory = wrapped.name;
      edits.push(...wrapped.edits);
    } else {
      return notRecognised('the server is not built by a factory call or a construction in this file');
    }
  } else {
    return notRecognised('the server expression is not a factory call or a variable');
  }

  // transport: drop a dedicated `const transport = new StdioServerTransport()` used only here
  let options = '';
  if (!transport.inline && transport.declaration) {
    const decl = transport.declaration.getDeclarations()[0]!;
    const nameNode = decl.getNameNode();
    // uses that cannot be listed keep the declaration, passed on as the transport
    const uses = Node.isIdentifier(nameNode) ? referencesOf(nameNode)?.filter((r) => r !== nameNode && !connect.containsRange(r.getPos(), r.getEnd())) : [];
    if (uses?.length === 0 && transport.declaration.getDeclarations().length === 1) removals.push(transport.declaration);
    else options = `, { transport: ${transport.name} }`;
  }

  const original = abbreviate(connectStatement.getText());
  const { line, column } = sourceFile.getLineAndColumnAtPos(connect.getStart());
  const replacement = `${TARGET.serveStdio}(${factory}${options});`;

  edits.push({ start: connectStatement.getStart(), end: connectStatement.getEnd(), text: replacement });
  for (const node of removals) edits.push({ ...statementRange(sourceFile, node), text: '' });
  const text = sourceFile.getFullText();
  sourceFile.replaceWithText(applyEdits(text, edits));
  ensureNamedImports(sourceFile, TARGET_SERVER_STDIO_ENTRY, [TARGET.serveStdio], [], flavourOf(sourceFile));
  dropUnusedImports(sourceFile, [STDIO]);
  return {
    method: 'serving',
    status: 'migrated',
    reason: `${original} → ${replacement} (serves 2026-07-28 and 2025-era clients from one factory)`,
    line,
    column,
    text,
    snippet: original,
  };
}
