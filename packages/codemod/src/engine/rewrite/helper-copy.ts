/**
 * A copy of a request helper for the handlers that call it, when other code calls it too.
 *
 * `chooseTarget(server, service)` asks the client; a tool calls it, and so does code that is no
 * request handler (a test calling it directly, start-up code, a lifecycle hook, a caller without the
 * context it asks on). Rewriting the helper in place would change what that code runs, and inlining
 * it into the tool is not always possible (an early return, a call nested in the tool's code, the
 * helper in another file). So the helper is declared a second time, under a name of its own, right
 * after itself, and the handlers that call it directly call the copy: the helper form then rewrites
 * the copy for them, and the helper itself still does what it did for its other callers, flagged
 * there (its text changes only where shared-request.ts moves its request's parameters into a
 * function both call). Handlers that reach it through other functions keep calling it (and stay flagged).
 * So do handlers left unmigrated for reasons of their own (unmigrated-callers.ts).
 *
 * Only a module-level function (a declaration other than the default export, or
 * `const f = async (...) => ...`), called by name from its own file or through a plain named import
 * of it.
 */
import { Node, SyntaxKind, type CallExpression, type ImportSpecifier, type SourceFile, type Statement } from 'ts-morph';
import { declarationOf, unwrapExpression } from '../find/resolve.js';
import { enclosingFunction } from './points.js';
import { textWithEdits, type TextEdit } from '../text-edits.js';

/** Who still runs the helper as written: callers outside request handlers, handlers left unmigrated (unmigrated-callers.ts). */
export interface KeptFor {
  outside: boolean;
  handlers: boolean;
}

export interface HelperCopy {
  /** The copy's name (`chooseTargetForHandlers`). */
  name: string;
  /** The edit in the helper's file that declares the copy after the helper. */
  declaration: TextEdit & { file: SourceFile };
  /** The edits that make each handler's call (and the import it goes through) name the copy. */
  calls: Array<TextEdit & { file: SourceFile }>;
}

/**
 * The copy of `fn` (declared by the module-level `statement`) for the handlers' `calls`, or
 * undefined when a call does not name the helper plainly (then nothing is copied). `shared`: edits
 * inside the helper (its requests' parameters replaced by calls of the functions it shares with the
 * copy, shared-request.ts), made in the copy too.
 */
export function helperCopyFor(
  fn: Node,
  statement: Statement,
  helperName: string,
  calls: Array<{ call: CallExpression; handlerFn: Node }>,
  shared: TextEdit[] = [],
  keptFor: KeptFor = { outside: true, handlers: false },
): HelperCopy | undefined {
  // a second default export would not compile
  if (Node.isFunctionDeclaration(fn) && fn.isDefaultExport()) return undefined;
  const home = fn.getSourceFile();
  const nameNode = Node.isFunctionDeclaration(fn) ? fn.getNameNode() : (statement as Node).getFirstDescendantByKind(SyntaxKind.VariableDeclaration)?.getNameNode();
  if (!nameNode || !Node.isIdentifier(nameNode)) return undefined;
  // a helper calling itself would call the original from the copy
  const body = (fn as Node & { getBody?: () => Node | undefined }).getBody?.();
  if (!body || body.getDescendantsOfKind(SyntaxKind.Identifier).some((i) => i.getText() === helperName)) return undefined;
  const files = new Set<SourceFile>([home]);
  const callees: Array<{ callee: Node; specifier?: ImportSpecifier }> = [];
  for (const { call, handlerFn } of calls) {
    const callee = unwrapExpression(call.getExpression());
    if (!callee || !Node.isIdentifier(callee) || callee.getText() !== helperName || enclosingFunction(call) !== handlerFn) return undefined;
    const declared = declarationOf(callee);
    if (declared !== fn && declared !== nameNode.getParent()) return undefined;
    if (call.getSourceFile() === home) {
      callees.push({ callee });
      continue;
    }
    // `import { chooseTarget } from './targets.js'` (an alias would need the alias kept for the copy too)
    const specifier = importSpecifierOf(callee);
    if (!specifier || specifier.getAliasNode()) return undefined;
    callees.push({ callee, specifier });
    files.add(call.getSourceFile());
  }
  const name = freeName(`${helperName}ForHandlers`, files);
  // the edits are inside the body, after the name
  const text = textWithEdits(statement, shared);
  const nameStart = nameNode.getStart() - statement.getStart();
  const copyText = text.slice(0, nameStart) + name + text.slice(nameStart + helperName.length);
  const forWhom = [keptFor.outside ? 'its callers outside request handlers' : '', keptFor.handlers ? 'the request handlers that are not migrated' : ''].filter(Boolean).join(' and ');
  const note = `// A copy of \`${helperName}\` for the request handlers that call it; \`${helperName}\` above still does what it did for ${forWhom}.`;
  const declaration = { file: home, start: statement.getEnd(), end: statement.getEnd(), text: `\n\n${note}\n${copyText}` };
  const edits: Array<TextEdit & { file: SourceFile }> = callees.map(({ callee }) => ({ file: callee.getSourceFile(), start: callee.getStart(), end: callee.getEnd(), text: name }));
  const redirected = new Set(callees.map((c) => c.callee));
  for (const specifier of new Set(callees.flatMap((c) => (c.specifier ? [c.specifier] : [])))) {
    const local = specifier.getNameNode();
    // the file still calls the helper elsewhere: both names are imported; else the import names the copy only
    const stillUsed = local.getSourceFile().getDescendantsOfKind(SyntaxKind.Identifier).some((i) => i !== local && i.getText() === helperName && !redirected.has(i) && importSpecifierOf(i) === specifier);
    const file = specifier.getSourceFile();
    edits.push(stillUsed ? { file, start: specifier.getEnd(), end: specifier.getEnd(), text: `, ${name}` } : { file, start: local.getStart(), end: local.getEnd(), text: name });
  }
  return { name, declaration, calls: edits };
}

/** The import a name in another file is bound by (`chooseTarget` of `import { chooseTarget } ...`). */
function importSpecifierOf(id: Node): ImportSpecifier | undefined {
  const first = id.getSymbol()?.getDeclarations()[0];
  return first && Node.isImportSpecifier(first) ? first : undefined;
}

/** `base`, or `base2`, `base3`, ...: the first name no file of the copy uses yet. */
function freeName(base: string, files: Set<SourceFile>): string {
  const used = new Set<string>();
  for (const file of files) for (const id of file.getDescendantsOfKind(SyntaxKind.Identifier)) used.add(id.getText());
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base}${n}`;
  return name;
}
