/**
 * Hand-built v1 handler contexts in tests, reshaped to the v2 `ServerContext` they now stand for.
 *
 * A unit test that calls a registered handler directly passes it a fake of the v1 `extra`
 * (`handler(args, { _meta: {}, requestId: 'r1' })`, `const extra = { signal, sendNotification: vi.fn() }`).
 * The v1-to-v2 upgrade moves the handler's reads to the v2 shape (`extra._meta` → `ctx.mcpReq._meta`,
 * `extra.sendRequest` → `ctx.mcpReq.send`), so on the flat fake the handler throws "Cannot read
 * properties of undefined" where the v1 read was safe. The fake gets the same move as the reads:
 * `{ mcpReq: { _meta: {}, id: 'r1' } }`, and the test's own reads of a fake bound to a variable
 * (`expect(extra.sendNotification).toHaveBeenCalled()`) follow it.
 *
 * Only literals whose every key is a v1 context property, with a key no other object has
 * (`sendRequest`, `sendNotification`, `authInfo`, ...) or two context keys, at a place a context
 * is handed over (a call argument, a variable's initializer, a return value); a literal with a
 * comment between its properties, or a variable read in a way the move cannot follow
 * (destructured, indexed, exported, shadowed), is left as it is. An awaited call handing a fake
 * with a `sendRequest` to a handler (written in the call, or bound to a variable the call passes)
 * goes through the helper of `answer-rounds.ts` when the run migrated requests: a migrated handler
 * asks through input_required instead of calling it. What the helper cannot make pass is noted
 * (`answer-shape.ts`). An empty context handed to a handler of the server's private handler map
 * gets the v2 seam's first-round shape (`protocol-handler-contexts.ts`).
 */
import { Node, Project, SyntaxKind, ts, type ObjectLiteralExpression, type SourceFile } from 'ts-morph';
import { ANSWER_HELPER, answerHelperText, answeringCallEdit, helperNameFree } from './answer-rounds.js';
import { answerShapeNotes, drivenAnswerNotes, drivenRejectedAnswers, type RejectedAnswer } from './answer-shape.js';
import { HELPER_DRIVER } from '../rewrite/test-calls.js';
import { ensureNamedImportsOf } from '../rewrite/imports.js';
import { flavourOf } from '../rewrite/module-flavour.js';
import { emptyProtocolContextEdits } from './protocol-handler-contexts.js';
import { contextlessCallChanges, type StateCodecOf, type UndrivenCall } from './contextless-handler-calls.js';
import { spyAnswerHelperText } from './spy-answers.js';
import { shimAnsweredCalls, shimClientHelperText, type ShimMembers } from './shim-answered-calls.js';
import { scriptKindOf } from '../script-kind.js';
import { CONTEXT_PROPERTIES } from '../upgrade-repairs.js';
import { applyEdits, type TextEdit } from '../text-edits.js';

/** Keys a fake context has and other objects hardly do (a lone `signal` or `requestId` says nothing). */
const DISTINCTIVE_KEYS = new Set(['sendRequest', 'sendNotification', 'requestInfo', 'authInfo', 'closeSSEStream', 'closeStandaloneSSEStream']);
/** Calls whose object argument is a transport's flat message info, not a handler context. */
const TRANSPORT_MESSAGE_METHODS = new Set(['onmessage', 'handleMessage']);

const SEND_NOTE =
  '; a handler this run migrated no longer calls mcpReq.send (it returns input_required): a test passing this fake to one fails until it answers the inputRequests and calls the handler again with inputResponses';

const ANSWER_NOTE =
  `; the call goes through ${ANSWER_HELPER} (added at the end of this file): a handler this run migrated returns input_required instead of calling mcpReq.send, and the helper answers its inputRequests with the fake's mcpReq.send and calls it again (a handler whose rounds carry requestState stays at its input_required result)`;

interface Entry {
  /** v1 key */
  key: string;
  /** `mcpReq` | `http` | undefined (stays on the top level) */
  group: string | undefined;
  /** the key inside its group */
  name: string;
  /** the property's text with its key renamed */
  text: string;
}

/**
 * The text of a test file with its v1 context fakes reshaped, and a note per reshaped fake
 * (`line: what`). `keep(start, end)` says a literal at that range stays as it is (a fake the
 * test-mock stage reports: what it fakes is no longer sent, moving it would not make it work).
 */
export function reshapeContextMockText(
  file: string,
  text: string,
  keep: (start: number, end: number) => boolean,
  /** The run migrated requests (sent through sendRequest or otherwise): a fake's `send` may no longer be called. */
  migratedAny = false,
  /** The registered names (tools, prompts) of the handlers the run migrated: contextless calls of them are driven or reported. */
  migratedHandlers: ReadonlySet<string> = new Set(),
  /** The state codec of a migrated handler, for the calls the test's spies answer (`spy-answers.ts`). */
  codecOf?: StateCodecOf,
  /** The migrated handlers registered without an input schema: the handler's one argument is its context. */
  contextOnlyHandlers: ReadonlySet<string> = new Set(),
  /** The server members whose assigned mocks the SDK's legacy shim may answer with (`shim-answered-calls.ts`). */
  shimMembers: ShimMembers = new Map(),
): { output: string; notes: string[]; undriven?: UndrivenCall[] } {
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true } });
  const scriptKind = scriptKindOf(file);
  const sourceFile = project.createSourceFile(`/${file.replace(/^.*[/\\]/, '')}`, text, { scriptKind });
  const typescript = scriptKind === ts.ScriptKind.TS || scriptKind === ts.ScriptKind.TSX;
  const { notes, undriven } = reshapeContextMocks(sourceFile, keep, migratedAny, typescript, migratedHandlers, codecOf, contextOnlyHandlers, shimMembers);
  return { output: sourceFile.getFullText(), notes, ...(undriven.length > 0 ? { undriven } : {}) };
}

/** The contextless calls of migrated handlers in a text the helper does not drive (`every`: all of them), at its positions. */
export function undrivenCallsIn(file: string, text: string, migratedHandlers: ReadonlySet<string>, every = false, contextOnlyHandlers: ReadonlySet<string> = new Set()): UndrivenCall[] {
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true } });
  return contextlessCallChanges(project.createSourceFile(`/${file.replace(/^.*[/\\]/, '')}`, text, { scriptKind: scriptKindOf(file) }), migratedHandlers, every, undefined, contextOnlyHandlers).undriven;
}

/**
 * The start positions in `text` of the mocks that answer a call the reshape drives: spies answering
 * a contextless call of a migrated handler (`spy-answers.ts`), assigned mocks the SDK's legacy shim
 * answers a request-handler call with (`shim-answered-calls.ts`); of those, the failing mocks whose
 * calls are driven as a client not declaring their capability; and why the other failing mocks at
 * such calls are not.
 */
export function answeringMocksIn(file: string, text: string, migratedHandlers: ReadonlySet<string>, codecOf: StateCodecOf, contextOnlyHandlers: ReadonlySet<string>, shimMembers: ShimMembers): { mocks: ReadonlySet<number>; undeclared: ReadonlySet<number>; undrivenFailing: ReadonlyMap<number, string> } {
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true } });
  const sourceFile = project.createSourceFile(`/${file.replace(/^.*[/\\]/, '')}`, text, { scriptKind: scriptKindOf(file) });
  const shim = shimAnsweredCalls(sourceFile, shimMembers);
  // the failing mocks driven as a client not declaring their capability: reported with what that means
  return { mocks: new Set([...contextlessCallChanges(sourceFile, migratedHandlers, false, codecOf, contextOnlyHandlers).answeringSpies, ...shim.mocks]), undeclared: new Set(shim.undeclared), undrivenFailing: shim.undrivenFailing };
}

/** Notes (`line: what`) on the fakes a driven helper call answers with that its migrated reader rejects (`answer-shape.ts`). */
export function drivenAnswerTextNotes(file: string, text: string): string[] {
  if (!text.includes(HELPER_DRIVER)) return [];
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true } });
  return drivenAnswerNotes(project.createSourceFile(`/${file.replace(/^.*[/\\]/, '')}`, text, { scriptKind: scriptKindOf(file) }));
}

/** The fake answers a driven helper call answers with that its migrated reader rejects (`answer-shape.ts`); `driven` false: in the test as written. */
export function drivenRejectedAnswersIn(file: string, text: string, driven: boolean): RejectedAnswer[] {
  if (driven && !text.includes(HELPER_DRIVER)) return [];
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true } });
  return drivenRejectedAnswers(project.createSourceFile(`/${file.replace(/^.*[/\\]/, '')}`, text, { scriptKind: scriptKindOf(file) }), driven);
}

function reshapeContextMocks(
  sourceFile: SourceFile,
  keep: (start: number, end: number) => boolean,
  migratedAny: boolean,
  typescript: boolean,
  migratedHandlers: ReadonlySet<string>,
  codecOf: StateCodecOf | undefined,
  contextOnlyHandlers: ReadonlySet<string>,
  shimMembers: ShimMembers,
): { notes: string[]; undriven: UndrivenCall[] } {
  const edits: TextEdit[] = [];
  const notes: string[] = [];
  // calls handing an answering fake to a handler the run may have migrated go through the helper
  const canAnswer = migratedAny && helperNameFree(sourceFile.getFullText());
  let answering = false;
  for (const literal of sourceFile.getDescendantsOfKind(SyntaxKind.ObjectLiteralExpression)) {
    if (!handsOverContext(literal) || keep(literal.getStart(), literal.getEnd())) continue;
    const entries = contextEntries(literal);
    if (!entries) continue;
    const readEdits = variableReadEdits(literal);
    if (!readEdits) continue;
    edits.push({ start: literal.getStart(), end: literal.getEnd(), text: nestedLiteral(literal, entries) }, ...readEdits);
    const moved = entries.filter((e) => e.group).map((e) => `${e.key} → ${e.group}.${e.name}`);
    // a handler the run migrated asks through input_required and no longer calls the fake's send
    const sends = migratedAny && entries.some((e) => e.key === 'sendRequest');
    const routed = sends && canAnswer ? answeringCallEdits(literal) : [];
    if (routed.length > 0) {
      edits.push(...routed);
      answering = true;
    }
    const unsent = routed.length > 0 ? ANSWER_NOTE : sends ? SEND_NOTE : '';
    notes.push(`${literal.getStartLineNumber()}: a v1 handler-context fake, reshaped to the v2 ServerContext the upgraded handlers read (${moved.join(', ')})${unsent}`);
    if (routed.length > 0) notes.push(...answerShapeNotes(literal));
  }
  const emptyContexts = emptyProtocolContextEdits(sourceFile);
  edits.push(...emptyContexts.edits);
  notes.push(...emptyContexts.notes);
  const contextless = contextlessCallChanges(sourceFile, migratedHandlers, false, codecOf, contextOnlyHandlers);
  edits.push(...contextless.edits);
  notes.push(...contextless.notes);
  answering ||= contextless.answering;
  const shimAnswered = shimAnsweredCalls(sourceFile, shimMembers);
  edits.push(...shimAnswered.edits);
  notes.push(...shimAnswered.notes);
  const { undriven } = contextless;
  if (notes.length === 0 && undriven.length === 0) return { notes: [], undriven: [] };
  if (answering) {
    const end = sourceFile.getEnd();
    edits.push({ start: end, end, text: `${sourceFile.getFullText().endsWith('\n') ? '' : '\n'}${answerHelperText(typescript)}` });
  }
  if (contextless.spyAnswering) {
    const end = sourceFile.getEnd();
    edits.push({ start: end, end, text: `${sourceFile.getFullText().endsWith('\n') ? '' : '\n'}${spyAnswerHelperText(typescript)}` });
  }
  // at one position the edit toolkit puts a later edit first: the declaring helper comes first in the file
  for (const helper of (['undeclared', 'declaring'] as const).filter((h) => shimAnswered.helpers.includes(h))) {
    const end = sourceFile.getEnd();
    edits.push({ start: end, end, text: `${sourceFile.getFullText().endsWith('\n') ? '' : '\n'}${shimClientHelperText(typescript, helper === 'undeclared')}` });
  }
  let output: string;
  try {
    output = applyEdits(sourceFile.getFullText(), edits);
  } catch {
    // a moved read inside another reshaped fake: leave the file as the upgrade made it (the calls still reported)
    return { notes: [], undriven };
  }
  sourceFile.replaceWithText(output);
  ensureNamedImportsOf(sourceFile, contextless.imports, flavourOf(sourceFile));
  return { notes, undriven };
}

/**
 * The edits routing the awaited handler calls that receive the fake through the answering helper:
 * the call it is written in, or, bound to a variable, each call the variable is the last argument of.
 */
function answeringCallEdits(literal: ObjectLiteralExpression): TextEdit[] {
  const expr = outerExpression(literal);
  const holder = expr.getParent();
  if (!holder || !Node.isVariableDeclaration(holder)) {
    const edit = answeringCallEdit(expr);
    return edit ? [edit] : [];
  }
  const edits: TextEdit[] = [];
  for (const reference of referencesInScope(holder.getNameNode()) ?? []) {
    const edit = answeringCallEdit(outerExpression(reference));
    if (edit) edits.push(edit);
  }
  return edits;
}

function outerExpression(node: Node): Node {
  let n = node;
  for (let p = n.getParent(); p && (Node.isAsExpression(p) || Node.isSatisfiesExpression(p) || Node.isParenthesizedExpression(p)); p = p.getParent()) n = p;
  return n;
}

function handsOverContext(literal: ObjectLiteralExpression): boolean {
  const expr = outerExpression(literal);
  const parent = expr.getParent();
  if (!parent) return false;
  if (Node.isCallExpression(parent) && parent.getArguments().includes(expr as never)) {
    const callee = parent.getExpression();
    return !(Node.isPropertyAccessExpression(callee) && TRANSPORT_MESSAGE_METHODS.has(callee.getName()));
  }
  if (Node.isVariableDeclaration(parent)) return parent.getInitializer() === expr && Node.isIdentifier(parent.getNameNode());
  if (Node.isReturnStatement(parent)) return true;
  return Node.isArrowFunction(parent) && parent.getBody() === expr;
}

function contextEntries(literal: ObjectLiteralExpression): Entry[] | undefined {
  const entries: Entry[] = [];
  for (const property of literal.getProperties()) {
    if (!Node.isPropertyAssignment(property) && !Node.isShorthandPropertyAssignment(property) && !Node.isMethodDeclaration(property)) return undefined;
    const nameNode = property.getNameNode();
    if (!Node.isIdentifier(nameNode) && !Node.isStringLiteral(nameNode)) return undefined;
    const key = Node.isIdentifier(nameNode) ? nameNode.getText() : nameNode.getLiteralText();
    const target = CONTEXT_PROPERTIES[key];
    if (!target) return undefined;
    // a comment between the properties would have no place in the nested literal
    if (/\/[/*]/.test(property.getFullText().slice(0, property.getLeadingTriviaWidth()))) return undefined;
    const [group, name] = target.includes('.') ? (target.replace('?', '').split('.') as [string, string]) : [undefined, target];
    entries.push({ key, group, name, text: renamed(property, key, name) });
  }
  if (/\/[/*]/.test(literal.getLastChildByKindOrThrow(SyntaxKind.CloseBraceToken).getFullText())) return undefined;
  const keys = entries.map((e) => e.key);
  if (!keys.some((k) => DISTINCTIVE_KEYS.has(k)) && keys.length < 2) return undefined;
  return entries.some((e) => e.group) ? entries : undefined;
}

/** The property's text under its v2 name: `requestId: 'r'` → `id: 'r'`, shorthand `requestId` → `id: requestId`. */
function renamed(property: Node, key: string, name: string): string {
  const text = property.getText();
  if (key === name) return text;
  if (Node.isShorthandPropertyAssignment(property)) return `${name}: ${text}`;
  const nameNode = (property as import('ts-morph').PropertyAssignment | import('ts-morph').MethodDeclaration).getNameNode();
  // `notify: notify` reads as the shorthand it would have been written as
  if (Node.isPropertyAssignment(property) && property.getInitializer()?.getText() === name) return name;
  return text.slice(0, nameNode.getStart() - property.getStart()) + name + text.slice(nameNode.getEnd() - property.getStart());
}

/** The literal with its moved properties grouped under `mcpReq` / `http`, in the first one's place. */
function nestedLiteral(literal: ObjectLiteralExpression, entries: Entry[]): string {
  const groups = new Map<string, Entry[]>();
  const parts: ({ text: string } | { group: string })[] = [];
  for (const entry of entries) {
    if (!entry.group) {
      parts.push({ text: entry.text });
      continue;
    }
    if (!groups.has(entry.group)) {
      groups.set(entry.group, []);
      parts.push({ group: entry.group });
    }
    groups.get(entry.group)!.push(entry);
  }
  const multiline = literal.getText().includes('\n');
  if (!multiline) {
    const inline = parts.map((p) => ('text' in p ? p.text : `${p.group}: { ${groups.get(p.group)!.map((e) => e.text).join(', ')} }`));
    return `{ ${inline.join(', ')} }`;
  }
  const text = literal.getSourceFile().getFullText();
  const lineStart = text.lastIndexOf('\n', literal.getStart() - 1) + 1;
  const outer = /^[ \t]*/.exec(text.slice(lineStart))![0];
  const firstProperty = literal.getProperties()[0]!;
  const inner = /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', firstProperty.getStart() - 1) + 1))![0];
  const unit = inner.startsWith(outer) && inner.length > outer.length ? inner.slice(outer.length) : '  ';
  const lines = parts.map((p) =>
    'text' in p
      ? `${inner}${p.text},`
      : [`${inner}${p.group}: {`, ...groups.get(p.group)!.map((e) => `${inner}${unit}${e.text.replace(/\n/g, `\n${unit}`)},`), `${inner}},`].join('\n'),
  );
  return `{\n${lines.join('\n')}\n${outer}}`;
}

/**
 * The edits that move the test's reads of the fake's properties (`extra.sendNotification` →
 * `extra.mcpReq.notify`), of the variable it is bound to or, returned by a helper, of the
 * variables the helper's calls are bound to; undefined when a read cannot be moved.
 */
function variableReadEdits(literal: ObjectLiteralExpression): TextEdit[] | undefined {
  const holder = outerExpression(literal).getParent();
  if (holder && Node.isVariableDeclaration(holder)) return readEdits(holder.getNameNode());
  if (!holder || !(Node.isReturnStatement(holder) || Node.isArrowFunction(holder))) return [];
  const fn = Node.isArrowFunction(holder) ? holder : holder.getFirstAncestor((a) => Node.isFunctionDeclaration(a) || Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isMethodDeclaration(a));
  const nameNode = fn && (Node.isFunctionDeclaration(fn) ? fn.getNameNode() : Node.isVariableDeclaration(fn.getParent()) ? (fn.getParent() as import('ts-morph').VariableDeclaration).getNameNode() : undefined);
  // a returned fake whose helper has no name to follow (a method, a callback) may be read anywhere
  if (!nameNode || !Node.isIdentifier(nameNode)) return undefined;
  const edits: TextEdit[] = [];
  const references = referencesInScope(nameNode);
  if (!references) return undefined;
  for (const reference of references) {
    const call = reference.getParent();
    if (!call || !Node.isCallExpression(call) || call.getExpression() !== reference) continue;
    const user = outerExpression(call).getParent();
    if (user && Node.isVariableDeclaration(user)) {
      const more = readEdits(user.getNameNode());
      if (!more) return undefined;
      edits.push(...more);
    } else if (user && Node.isPropertyAccessExpression(user)) {
      const edit = moveRead(user);
      if (edit === undefined) return undefined;
      if (edit) edits.push(edit);
    } else if (user && Node.isElementAccessExpression(user)) return undefined;
  }
  return edits;
}

/** Edits moving the property reads of the variable `nameNode` declares. */
function readEdits(nameNode: Node): TextEdit[] | undefined {
  if (!Node.isIdentifier(nameNode)) return undefined;
  const edits: TextEdit[] = [];
  const references = referencesInScope(nameNode);
  if (!references) return undefined;
  for (const reference of references) {
    const parent = reference.getParent();
    if (parent && Node.isPropertyAccessExpression(parent) && parent.getExpression() === reference) {
      const edit = moveRead(parent);
      if (edit === undefined) return undefined;
      if (edit) edits.push(edit);
      continue;
    }
    // destructured, indexed or aliased: its keys are read under their v1 names
    if (parent && (Node.isElementAccessExpression(parent) || Node.isVariableDeclaration(parent))) return undefined;
  }
  return edits;
}

/**
 * The uses of the name a declaration binds, within the scope it is declared in (found by name: a
 * test file has no other meaning for it); undefined when it is exported or declared again there.
 */
function referencesInScope(nameNode: Node): Node[] | undefined {
  const name = nameNode.getText();
  const declaration = nameNode.getParent()!;
  const statement = declaration.getFirstAncestor((a) => Node.isVariableStatement(a) || Node.isFunctionDeclaration(a)) ?? declaration;
  if (Node.isVariableStatement(statement) || Node.isFunctionDeclaration(statement)) {
    if (statement.hasExportKeyword()) return undefined;
  }
  const scope = statement.getParentOrThrow();
  const uses: Node[] = [];
  for (const id of scope.getDescendantsOfKind(SyntaxKind.Identifier)) {
    if (id === nameNode || id.getText() !== name) continue;
    const parent = id.getParent();
    // a property name (`a.name`, `{ name: v }`), not the variable
    if (parent && Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id) continue;
    if (parent && (Node.isPropertyAssignment(parent) || Node.isPropertySignature(parent) || Node.isMethodDeclaration(parent)) && parent.getNameNode() === id) continue;
    // declared again (a parameter, an inner variable): uses can no longer be told apart by name
    if (parent && (Node.isVariableDeclaration(parent) || Node.isParameterDeclaration(parent) || Node.isFunctionDeclaration(parent) || Node.isBindingElement(parent)) && parent.getNameNode() === id) return undefined;
    uses.push(id);
  }
  return uses;
}

/** `x.sendNotification` → `x.mcpReq.notify`; null for a key that does not move, undefined when it cannot. */
function moveRead(access: import('ts-morph').PropertyAccessExpression): TextEdit | null | undefined {
  const target = CONTEXT_PROPERTIES[access.getName()];
  if (!target || target === access.getName()) return null;
  if (target.includes('?') && isAssigned(access)) return undefined;
  return { start: access.getNameNode().getStart(), end: access.getNameNode().getEnd(), text: target };
}

function isAssigned(access: Node): boolean {
  const parent = access.getParent();
  return !!parent && Node.isBinaryExpression(parent) && parent.getLeft() === access && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken;
}
