/**
 * Tools dispatched through a table: the functions a tools/call (prompts/get, resources/read) handler
 * runs by looking them up rather than by name.
 *
 *   handlers[request.params.name](args, server)              object map indexed by the tool name
 *   const fn = handlers[name]; ...; return fn(args)          the looked-up function in a variable
 *   const tool = TOOLS.find((t) => t.name === name); tool.handler(args)
 *   for (const tool of tools) server.registerTool(tool.name, cfg, (a) => tool.handler(a))
 *   tools.forEach((tool) => server.registerTool(tool.name, cfg, (a) => tool.run(a)))
 *   tool.execute(args) on `new DropTool(...)` entries, or on a base-class-typed value
 *   const fn = toolHandlerFor(name); fn(args)                 a project function returning the lookup
 *     (`(name) => TOOLS.find((t) => t.name === name)?.handler`), also through a second one
 *
 * Every function the lookup can yield is a target (every member of a table indexed by the tool
 * name). Entries are read from literal tables (array / object literals, spreads and identifiers
 * of them, `new C(...)` instances); when the entries cannot be listed but the called member is a
 * method of a project class, the type checker's view of it is used: the method and every override
 * in the project's subclasses.
 */
import { Node, SyntaxKind, type CallExpression, type ClassDeclaration, type ObjectLiteralExpression } from 'ts-morph';
import { declarationOf, functionOfDeclaration, isFunctionNode, isInNodeModules, nameText, referencesOf, shorthandValueDeclaration, unwrapExpression, type FunctionLike } from '../find/resolve.js';

export interface DispatchedTool {
  /** The function the lookup yields (an arrow in a table, a method of an entry's class, ...). */
  fn: FunctionLike;
  /** The call in the dispatching handler that runs it. */
  call: CallExpression;
  /** The tool name when the table spells it (object key, the entry's literal `name`). */
  name?: string;
}

/** What a table holds: its values, each with the name the table gives it. */
interface Entry {
  value: Node;
  name?: string;
}

const MAX_DEPTH = 6;

/** How many project functions deep a returned lookup is followed (`handlerOf(name)` returning `getTool(name)?.run`). */
const MAX_GETTER_DEPTH = 2;

/** A lookup in a table: the table, and the member read from the entry it yields (none: the entry itself). */
interface Lookup {
  table: Node;
  member?: string;
}

/** Functions `handlerFn` runs through a table lookup, with the dispatching call. */
export function dispatchedTools(handlerFn: Node): DispatchedTool[] {
  const out: DispatchedTool[] = [];
  // Calls in nested callbacks count too: the rewrite then names that obstacle (the callback does not return the result).
  handlerFn.forEachDescendant((node) => {
    if (!Node.isCallExpression(node)) return;
    for (const target of targetsOfCall(node, handlerFn)) {
      if (!out.some((t) => t.fn === target.fn && t.call === node)) out.push({ ...target, call: node });
    }
  });
  return out;
}

function targetsOfCall(call: CallExpression, handlerFn: Node): Array<{ fn: FunctionLike; name?: string }> {
  const callee = unwrapExpression(call.getExpression());
  if (!callee) return [];
  // `table[key](...)`
  if (Node.isElementAccessExpression(callee)) return functionsOf(tableEntries(callee.getExpression(), 0));
  // `map.get(key)(...)`; `toolFor(name)(...)` of a project function returning a lookup
  if (Node.isCallExpression(callee)) {
    const getter = unwrapExpression(callee.getExpression());
    if (getter && Node.isPropertyAccessExpression(getter) && getter.getName() === 'get') return functionsOf(tableEntries(getter.getExpression(), 0));
    return targetsOfLookups(returnedLookups(callee, 0), undefined, callee);
  }
  // `fn(...)` where `const fn = table[key]` (or `table.get(key)` on a literal map, or `toolFor(name)`)
  if (Node.isIdentifier(callee)) {
    const lookedUp = lookupSource(callee);
    if (lookedUp) return functionsOf(lookedUp);
    const init = variableInitializer(callee);
    return init && Node.isCallExpression(init) ? targetsOfLookups(returnedLookups(init, 0), undefined, callee) : [];
  }
  if (!Node.isPropertyAccessExpression(callee)) return [];
  const member = callee.getName();
  const receiver = unwrapExpression(callee.getExpression());
  if (!receiver) return [];
  // `tool.handler(...)` where `tool` is a loop variable, a `.find` result or a `table[key]` value
  let entries: Entry[] | undefined;
  if (Node.isIdentifier(receiver)) entries = entriesOfElementVariable(receiver, handlerFn);
  else if (Node.isElementAccessExpression(receiver)) entries = tableEntries(receiver.getExpression(), 0);
  else if (Node.isCallExpression(receiver) && isFindCall(receiver)) entries = tableEntries(findTable(receiver)!, 0);
  if (entries && entries.length > 0) return membersOf(entries, member, callee);
  if (!entries || entries.length === 0) {
    // Entries not listed: a method of a project class reached through a base-typed value.
    if (Node.isIdentifier(receiver) && isTableElement(receiver, handlerFn)) return overridesOf(callee);
  }
  // `getTool(name).run(...)`, `const tool = getTool(name); tool.run(...)`: the entry a project function looks up
  const source = Node.isIdentifier(receiver) ? variableInitializer(receiver) : receiver;
  if (source && Node.isCallExpression(source)) return targetsOfLookups(returnedLookups(source, 0), member, callee);
  return [];
}

/**
 * The lookups a call of a project function returns (`const toolFor = (name) => TOOLS.find((t) =>
 * t.name === name)?.handler`, `function getTool(name) { return registry[name]; }`), also through a
 * second such function: every value it returns other than `undefined` or `null` is a lookup
 * (`table[key]`, `map.get(key)`, `table.find(...)`, a member of one, a local constant holding one).
 * Empty when the call is not one.
 */
function returnedLookups(call: CallExpression, depth: number): Lookup[] {
  if (depth >= MAX_GETTER_DEPTH || isFindCall(call) || isGetCall(call)) return [];
  const returned = returnedExpressions(call).filter((e) => !isNullish(e));
  const out: Lookup[] = [];
  for (const expression of returned) {
    const lookups = lookupsIn(expression, depth, 0);
    if (lookups.length === 0) return [];
    out.push(...lookups);
  }
  return out;
}

/** The lookups an expression a getter returns is (see returnedLookups); `steps` bounds the local constants followed. */
function lookupsIn(expression: Node, depth: number, steps: number): Lookup[] {
  const node = unwrapExpression(expression);
  if (!node || steps > MAX_DEPTH) return [];
  if (Node.isElementAccessExpression(node)) return [{ table: node.getExpression() }];
  if (Node.isCallExpression(node)) {
    if (isFindCall(node) || isGetCall(node)) return [{ table: findTable(node)! }];
    return returnedLookups(node, depth + 1);
  }
  if (Node.isPropertyAccessExpression(node)) {
    const inner = lookupsIn(node.getExpression(), depth, steps + 1);
    return inner.length > 0 && inner.every((l) => l.member === undefined) ? inner.map((l) => ({ table: l.table, member: node.getName() })) : [];
  }
  // `const tool = TOOLS.find(...); ...; return tool.run;`
  if (Node.isIdentifier(node)) {
    const init = variableInitializer(node);
    return init ? lookupsIn(init, depth, steps + 1) : [];
  }
  return [];
}

/** The functions the lookups yield when called, or their entries' `calledMember` is (`getTool(name).run(...)`). */
function targetsOfLookups(lookups: Lookup[], calledMember: string | undefined, callee: Node): Array<{ fn: FunctionLike; name?: string }> {
  const out: Array<{ fn: FunctionLike; name?: string }> = [];
  for (const lookup of lookups) {
    // `handlerOf(name).call(...)`: a member of the looked-up function, not a lookup of a tool
    if (lookup.member !== undefined && calledMember !== undefined) return [];
    const member = lookup.member ?? calledMember;
    const entries = tableEntries(lookup.table, 0);
    for (const target of member === undefined ? functionsOf(entries) : membersOf(entries, member, callee)) {
      if (!out.some((o) => o.fn === target.fn)) out.push(target);
    }
  }
  return out;
}

/** The initializer of the `const` an identifier names (project code), unwrapped. */
function variableInitializer(id: Node): Node | undefined {
  const decl = declarationOf(id);
  if (!decl || !Node.isVariableDeclaration(decl) || isInNodeModules(decl) || decl.getVariableStatement()?.getDeclarationKind() !== 'const') return undefined;
  return unwrapExpression(decl.getInitializer());
}

function isNullish(node: Node): boolean {
  const value = unwrapExpression(node);
  return Node.isNullLiteral(value) || (Node.isIdentifier(value) && value.getText() === 'undefined');
}

/** The functions among table entries (a map of functions). */
function functionsOf(entries: Entry[]): Array<{ fn: FunctionLike; name?: string }> {
  const out: Array<{ fn: FunctionLike; name?: string }> = [];
  for (const entry of entries) {
    const fn = functionOfValue(entry.value);
    if (fn && !out.some((o) => o.fn === fn)) out.push({ fn, ...(entry.name !== undefined ? { name: entry.name } : {}) });
  }
  return out;
}

/** The `member` of each entry object (a table of `{ name, handler }` or of tool instances). */
function membersOf(entries: Entry[], member: string, callee: Node): Array<{ fn: FunctionLike; name?: string }> {
  const out: Array<{ fn: FunctionLike; name?: string }> = [];
  let unlisted = false;
  for (const entry of entries) {
    const resolved = resolveValue(entry.value, 0);
    const value = factoryResult(resolved);
    let fn: FunctionLike | undefined;
    let name = entry.name;
    if (value && Node.isObjectLiteralExpression(value)) {
      // a factory's `{ name, handler }` built from its parameters: the call's arguments
      const call = value !== resolved && resolved && Node.isCallExpression(resolved) ? resolved : undefined;
      fn = propertyFunction(value, member) ?? (call ? functionOfValue(argumentFor(value, member, call) ?? value) : undefined);
      name ??= literalProperty(value, 'name') ?? (call ? nameText(unwrapExpression(argumentFor(value, 'name', call))) : undefined);
    } else if (value && Node.isNewExpression(value)) {
      const cls = classOf(value.getExpression());
      if (cls) {
        fn = methodOf(cls, member);
        name ??= classNameProperty(cls);
      }
    }
    const same = fn ? out.find((o) => o.fn === fn) : undefined;
    // one function of a factory serving several entries (`handler: (a) => options.handler(a)`): no one tool's name
    if (same && same.name !== name) delete same.name;
    if (fn && !same) out.push({ fn, ...(name !== undefined ? { name } : {}) });
    if (!value || !(Node.isObjectLiteralExpression(value) || Node.isNewExpression(value))) unlisted = true;
  }
  // an entry that is not a literal (a parameter, a factory's result): the type checker's view of the member
  if (unlisted) for (const o of overridesOf(callee)) if (!out.some((x) => x.fn === o.fn)) out.push(o);
  return out;
}

const ALTERNATIVE_OPERATORS = new Set([SyntaxKind.BarBarToken, SyntaxKind.QuestionQuestionToken]);

/** Values a table expression holds: array elements, object property values, and what is added to it later. */
function tableEntries(table: Node, depth: number): Entry[] {
  if (depth > MAX_DEPTH) return [];
  const value = resolveValue(table, depth);
  if (!value) return [];
  // `...(allowWrites ? writeTools : {})`, `custom ?? defaults`: either side may be the table
  if (Node.isConditionalExpression(value)) return [...tableEntries(value.getWhenTrue(), depth + 1), ...tableEntries(value.getWhenFalse(), depth + 1)];
  if (Node.isBinaryExpression(value) && ALTERNATIVE_OPERATORS.has(value.getOperatorToken().getKind())) return [...tableEntries(value.getLeft(), depth + 1), ...tableEntries(value.getRight(), depth + 1)];
  // `const registry = createToolRegistry()`: the table the project function builds and returns
  if (Node.isCallExpression(value)) return [...returnedExpressions(value).flatMap((returned) => tableEntries(returned, depth + 1)), ...addedEntries(table, depth)];
  return [...literalEntries(value, depth), ...addedEntries(table, depth)];
}

/** What a call of a project function returns: the expressions of the function's own `return`s (or an arrow's body). */
function returnedExpressions(call: CallExpression): Node[] {
  const callee = unwrapExpression(call.getExpression());
  const target = callee && (Node.isIdentifier(callee) || Node.isPropertyAccessExpression(callee)) ? declarationOf(Node.isPropertyAccessExpression(callee) ? callee.getNameNode() : callee) : undefined;
  const fn = target && !isInNodeModules(target) ? functionOfDeclaration(target) : undefined;
  const body = fn?.getBody?.();
  if (!fn || !body) return [];
  if (!Node.isBlock(body)) return [body];
  return body
    .getDescendantsOfKind(SyntaxKind.ReturnStatement)
    .filter((r) => r.getFirstAncestor((a) => isFunctionNode(a)) === fn)
    .flatMap((r) => (r.getExpression() ? [r.getExpression()!] : []));
}

function literalEntries(value: Node, depth: number): Entry[] {
  if (Node.isArrayLiteralExpression(value)) {
    const out: Entry[] = [];
    for (const element of value.getElements()) {
      if (Node.isSpreadElement(element)) out.push(...tableEntries(element.getExpression(), depth + 1));
      else out.push({ value: element });
    }
    return out;
  }
  if (Node.isObjectLiteralExpression(value)) {
    const out: Entry[] = [];
    for (const property of value.getProperties()) {
      if (Node.isSpreadAssignment(property)) out.push(...tableEntries(property.getExpression(), depth + 1));
      else if (Node.isPropertyAssignment(property)) out.push({ value: property.getInitializer()!, name: nameText(property.getNameNode()) });
      else if (Node.isShorthandPropertyAssignment(property)) out.push({ value: property, name: property.getName() });
      else if (Node.isMethodDeclaration(property)) out.push({ value: property, name: nameText(property.getNameNode()) });
    }
    return out;
  }
  // `new Map([['a', fnA], ...])`
  if (Node.isNewExpression(value) && value.getExpression().getText() === 'Map') {
    const list = unwrapExpression(value.getArguments()[0]);
    if (!list || !Node.isArrayLiteralExpression(list)) return [];
    const out: Entry[] = [];
    for (const pair of list.getElements()) {
      if (!Node.isArrayLiteralExpression(pair) || pair.getElements().length !== 2) return [];
      const [key, entry] = pair.getElements();
      out.push({ value: entry!, name: nameText(unwrapExpression(key)) });
    }
    return out;
  }
  return [];
}

/**
 * Entries added to a table variable after its declaration: `Object.assign(registry, { a: fn })`,
 * `registry[name] = fn` / `registry.a = fn`, `tools.push(entry)`, `map.set(name, fn)`.
 */
function addedEntries(table: Node, depth: number): Entry[] {
  const id = unwrapExpression(table);
  if (!id || !Node.isIdentifier(id)) return [];
  const decl = declarationOf(id);
  if (!decl || !Node.isVariableDeclaration(decl) || isInNodeModules(decl)) return [];
  const nameNode = decl.getNameNode();
  if (!Node.isIdentifier(nameNode)) return [];
  const refs = referencesOf(nameNode);
  if (!refs) return [];
  const out: Entry[] = [];
  for (const ref of refs) {
    if (ref === nameNode) continue;
    const parent = ref.getParent();
    if (!parent) continue;
    // Object.assign(registry, { ... }, ...)
    if (Node.isCallExpression(parent) && parent.getArguments()[0] === ref && parent.getExpression().getText() === 'Object.assign') {
      for (const source of parent.getArguments().slice(1)) out.push(...literalEntries(unwrapExpression(source) ?? source, depth + 1));
      continue;
    }
    // registry[name] = fn, registry.name = fn
    if ((Node.isElementAccessExpression(parent) || Node.isPropertyAccessExpression(parent)) && parent.getExpression() === ref) {
      const assignment = parent.getParent();
      if (assignment && Node.isBinaryExpression(assignment) && assignment.getLeft() === parent && assignment.getOperatorToken().getKind() === SyntaxKind.EqualsToken) {
        const key = Node.isPropertyAccessExpression(parent) ? parent.getName() : nameText(unwrapExpression(parent.getArgumentExpression()));
        out.push({ value: assignment.getRight(), ...(key !== undefined ? { name: key } : {}) });
        continue;
      }
      // tools.push(a, b), map.set(name, fn)
      const call = parent.getParent();
      if (Node.isPropertyAccessExpression(parent) && call && Node.isCallExpression(call) && call.getExpression() === parent) {
        if (parent.getName() === 'push') for (const arg of call.getArguments()) out.push({ value: arg });
        if (parent.getName() === 'set' && call.getArguments().length === 2) {
          const key = nameText(unwrapExpression(call.getArguments()[0]));
          out.push({ value: call.getArguments()[1]!, ...(key !== undefined ? { name: key } : {}) });
        }
      }
    }
  }
  return out;
}

/** Follows identifiers (`const x = ...`, imports) and `this.x` properties to the expression they are initialised with. */
function resolveValue(node: Node, depth: number): Node | undefined {
  let current: Node | undefined = unwrapExpression(node);
  for (let i = 0; current && i < MAX_DEPTH - depth; i++) {
    let target: Node | undefined;
    if (Node.isShorthandPropertyAssignment(current)) {
      const decl = shorthandValueDeclaration(current);
      if (!decl || isInNodeModules(decl) || !Node.isVariableDeclaration(decl)) return decl;
      current = unwrapExpression(decl.getInitializer());
      continue;
    }
    if (Node.isIdentifier(current)) target = current;
    else if (Node.isPropertyAccessExpression(current) && current.getExpression().getKind() === SyntaxKind.ThisKeyword) target = current.getNameNode();
    else return current;
    const decl = declarationOf(target);
    if (!decl || isInNodeModules(decl)) return undefined;
    if (Node.isVariableDeclaration(decl) || Node.isPropertyDeclaration(decl) || Node.isPropertyAssignment(decl)) {
      const init = decl.getInitializer();
      if (!init) return undefined;
      current = unwrapExpression(init);
    } else return decl;
  }
  return current;
}

/**
 * `createTool({ ... })`, `makeDeleteTool(server)`: the object literal a project factory returns (its
 * only returned value, or an arrow's object body), so the entry's members are read from it.
 */
function factoryResult(value: Node | undefined): Node | undefined {
  if (!value || !Node.isCallExpression(value)) return value;
  const callee = unwrapExpression(value.getExpression());
  const target = callee && (Node.isIdentifier(callee) || Node.isPropertyAccessExpression(callee)) ? declarationOf(Node.isPropertyAccessExpression(callee) ? callee.getNameNode() : callee) : undefined;
  const factory = target && !isInNodeModules(target) ? functionOfDeclaration(target) : undefined;
  const body = factory?.getBody?.();
  if (!factory || !body) return value;
  if (!Node.isBlock(body)) {
    const returned = unwrapExpression(body);
    return returned && Node.isObjectLiteralExpression(returned) ? returned : value;
  }
  const returns = body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => r.getFirstAncestor((a) => isFunctionNode(a)) === factory);
  if (returns.length !== 1) return value;
  const returned = unwrapExpression(returns[0]!.getExpression());
  if (returned && Node.isObjectLiteralExpression(returned)) return returned;
  // `const tool = { ... }; return tool;`
  const resolved = returned ? resolveValue(returned, 1) : undefined;
  return resolved && Node.isObjectLiteralExpression(resolved) ? resolved : value;
}

/** The argument of `call` that the factory's returned property `member` holds (`{ handler }` of parameter `handler`). */
function argumentFor(object: ObjectLiteralExpression, member: string, call: CallExpression): Node | undefined {
  const property = object.getProperty(member);
  let id = property && Node.isShorthandPropertyAssignment(property) ? property.getNameNode() : property && Node.isPropertyAssignment(property) ? unwrapExpression(property.getInitializer()) : undefined;
  // `name: options.name`: that member of the object passed for the parameter
  let memberOfArgument: string | undefined;
  if (id && Node.isPropertyAccessExpression(id) && Node.isIdentifier(id.getExpression())) {
    memberOfArgument = id.getName();
    id = id.getExpression();
  }
  if (!id || !Node.isIdentifier(id)) return undefined;
  const decl = property && Node.isShorthandPropertyAssignment(property) ? shorthandValueDeclaration(property) : declarationOf(id);
  if (!decl || !Node.isParameterDeclaration(decl)) return undefined;
  const fn = decl.getParent() as Node & { getParameters?: () => Node[] };
  const index = fn.getParameters?.().indexOf(decl) ?? -1;
  const argument = index >= 0 ? call.getArguments()[index] : undefined;
  if (memberOfArgument === undefined) return argument;
  const passed = unwrapExpression(argument);
  const passedMember = passed && Node.isObjectLiteralExpression(passed) ? passed.getProperty(memberOfArgument) : undefined;
  return passedMember && Node.isPropertyAssignment(passedMember) ? passedMember.getInitializer() : undefined;
}

function functionOfValue(value: Node): FunctionLike | undefined {
  const node = unwrapExpression(value);
  if (!node) return undefined;
  if (isFunctionNode(node)) return node;
  // `{ wipe }`: the variable or function the shorthand names
  if (Node.isShorthandPropertyAssignment(node)) {
    const decl = shorthandValueDeclaration(node);
    return decl && !isInNodeModules(decl) ? functionOfDeclaration(decl) : undefined;
  }
  if (Node.isIdentifier(node)) {
    const decl = declarationOf(node);
    return decl && !isInNodeModules(decl) ? functionOfDeclaration(decl) : undefined;
  }
  if (Node.isCallExpression(node)) {
    // `fn.bind(thisArg)`
    const callee = unwrapExpression(node.getExpression());
    if (callee && Node.isPropertyAccessExpression(callee) && callee.getName() === 'bind') return functionOfValue(callee.getExpression());
  }
  return undefined;
}

function propertyFunction(object: ObjectLiteralExpression, member: string): FunctionLike | undefined {
  const property = object.getProperty(member);
  if (!property) return undefined;
  if (Node.isPropertyAssignment(property)) return functionOfValue(property.getInitializer()!);
  if (Node.isShorthandPropertyAssignment(property)) return functionOfValue(property);
  if (Node.isMethodDeclaration(property)) return property;
  return undefined;
}

function literalProperty(object: ObjectLiteralExpression, member: string): string | undefined {
  const property = object.getProperty(member);
  return property && Node.isPropertyAssignment(property) ? nameText(unwrapExpression(property.getInitializer())) : undefined;
}

function classOf(expression: Node): ClassDeclaration | undefined {
  const decl = Node.isIdentifier(expression) ? declarationOf(expression) : undefined;
  return decl && Node.isClassDeclaration(decl) && !isInNodeModules(decl) ? decl : undefined;
}

/** The method `member` as an instance of `cls` has it: its own, else the nearest base class's (with a body). */
function methodOf(cls: ClassDeclaration, member: string): FunctionLike | undefined {
  for (let c: ClassDeclaration | undefined = cls, i = 0; c && i < MAX_DEPTH; c = c.getBaseClass(), i++) {
    if (isInNodeModules(c)) return undefined;
    const method = c.getInstanceMethod(member);
    if (method && method.getBody()) return method;
    const property = c.getInstanceProperty(member);
    if (property && Node.isPropertyDeclaration(property)) {
      const fn = functionOfDeclaration(property);
      if (fn) return fn;
    }
  }
  return undefined;
}

/** `name = 'drop_table'` / `readonly name = '...'` on the class (or a base). */
function classNameProperty(cls: ClassDeclaration): string | undefined {
  for (let c: ClassDeclaration | undefined = cls, i = 0; c && i < MAX_DEPTH; c = c.getBaseClass(), i++) {
    const property = c.getInstanceProperty('name');
    if (property && Node.isPropertyDeclaration(property)) return nameText(unwrapExpression(property.getInitializer()));
  }
  return undefined;
}

function isFindCall(call: CallExpression): boolean {
  const callee = unwrapExpression(call.getExpression());
  return !!callee && Node.isPropertyAccessExpression(callee) && callee.getName() === 'find';
}

function isGetCall(call: CallExpression): boolean {
  const callee = unwrapExpression(call.getExpression());
  return !!callee && Node.isPropertyAccessExpression(callee) && callee.getName() === 'get';
}

function findTable(call: CallExpression): Node | undefined {
  const callee = unwrapExpression(call.getExpression());
  return callee && Node.isPropertyAccessExpression(callee) ? callee.getExpression() : undefined;
}

/** `const fn = table[key]`, `const fn = map.get(key)`: the table's entries. */
function lookupSource(id: Node): Entry[] | undefined {
  const decl = declarationOf(id);
  if (!decl || !Node.isVariableDeclaration(decl)) return undefined;
  const init = unwrapExpression(decl.getInitializer());
  if (!init) return undefined;
  if (Node.isElementAccessExpression(init)) return tableEntries(init.getExpression(), 0);
  if (Node.isCallExpression(init)) {
    const callee = unwrapExpression(init.getExpression());
    if (callee && Node.isPropertyAccessExpression(callee) && callee.getName() === 'get') return tableEntries(callee.getExpression(), 0);
  }
  return undefined;
}

/** The table whose elements the identifier holds: `for (const x of T)`, `T.forEach((x) => ...)`, `const x = T.find(...)`, `const x = T[key]`. */
function elementTable(id: Node, handlerFn: Node): { table: Node; keyed: boolean } | undefined {
  const decl = declarationOf(id);
  if (!decl) return undefined;
  if (Node.isVariableDeclaration(decl)) {
    const list = decl.getParent();
    const loop = list?.getParent();
    // a loop around the registration (a loop inside the handler iterates, it does not dispatch)
    if (list && loop && Node.isForOfStatement(loop) && loop.getInitializer() === list) {
      return loop.getStatement().containsRange(handlerFn.getPos(), handlerFn.getEnd()) ? { table: loop.getExpression(), keyed: false } : undefined;
    }
    const init = unwrapExpression(decl.getInitializer());
    if (init && Node.isCallExpression(init) && isFindCall(init)) return { table: findTable(init)!, keyed: false };
    if (init && Node.isElementAccessExpression(init)) return { table: init.getExpression(), keyed: true };
    if (init && Node.isCallExpression(init)) {
      const callee = unwrapExpression(init.getExpression());
      if (callee && Node.isPropertyAccessExpression(callee) && callee.getName() === 'get') return { table: callee.getExpression(), keyed: true };
    }
    return undefined;
  }
  // `tools.forEach((tool) => server.registerTool(...))`: the parameter of an iteration callback around the handler
  if (Node.isParameterDeclaration(decl)) {
    const callback = decl.getParent();
    if (!callback || callback === handlerFn || !(Node.isArrowFunction(callback) || Node.isFunctionExpression(callback))) return undefined;
    if (callback.getParameters()[0] !== decl) return undefined;
    const iteration = callback.getParent();
    if (!iteration || !Node.isCallExpression(iteration) || !iteration.getArguments().includes(callback)) return undefined;
    const callee = unwrapExpression(iteration.getExpression());
    if (!callee || !Node.isPropertyAccessExpression(callee) || callee.getName() !== 'forEach') return undefined;
    return { table: callee.getExpression(), keyed: false };
  }
  return undefined;
}

function entriesOfElementVariable(id: Node, handlerFn: Node): Entry[] | undefined {
  const source = elementTable(id, handlerFn);
  return source ? tableEntries(source.table, 0) : undefined;
}

function isTableElement(id: Node, handlerFn: Node): boolean {
  return elementTable(id, handlerFn) !== undefined;
}

/**
 * `tool.execute(...)` on a table element whose entries are not listed: the method the type checker
 * resolves (when it has a body) and every override in the project's subclasses of its class.
 */
function overridesOf(callee: Node): Array<{ fn: FunctionLike; name?: string }> {
  if (!Node.isPropertyAccessExpression(callee)) return [];
  const decl = declarationOf(callee.getNameNode());
  if (!decl || isInNodeModules(decl) || !Node.isMethodDeclaration(decl)) return [];
  const cls = decl.getParent();
  if (!Node.isClassDeclaration(cls)) return [];
  const member = callee.getName();
  const out: Array<{ fn: FunctionLike; name?: string }> = [];
  if (decl.getBody()) out.push({ fn: decl, ...(classNameProperty(cls) !== undefined ? { name: classNameProperty(cls)! } : {}) });
  for (const derived of safeDerivedClasses(cls)) {
    if (isInNodeModules(derived)) continue;
    const method = derived.getInstanceMethod(member);
    if (method && method.getBody() && !out.some((o) => o.fn === method)) {
      const name = classNameProperty(derived);
      out.push({ fn: method, ...(name !== undefined ? { name } : {}) });
    }
  }
  return out;
}

function safeDerivedClasses(cls: ClassDeclaration): ClassDeclaration[] {
  try {
    return cls.getDerivedClasses();
  } catch {
    return [];
  }
}

/**
 * Every function the lookup at `call` can yield, when the table spells all of them out: each entry
 * a function (or an object whose called member is one), the table a `const` that the project only
 * reads after its declaration (lookups, `Object.keys/values/entries`, the additions `addedEntries`
 * lists). Undefined when some entry, or some change to the table, is not visible here: then the
 * lookup may yield a function nobody has read.
 */
export function listedTargets(call: CallExpression, handlerFn: Node): FunctionLike[] | undefined {
  const lookup = tableOfCall(call, handlerFn);
  if (!lookup || !onlyRead(lookup.table)) return undefined;
  const entries = tableEntries(lookup.table, 0);
  if (entries.length === 0) return undefined;
  const out: FunctionLike[] = [];
  for (const entry of entries) {
    const found = lookup.member === undefined ? functionsOf([entry]) : membersOf([entry], lookup.member, call.getExpression());
    if (found.length !== 1) return undefined;
    if (!out.includes(found[0]!.fn)) out.push(found[0]!.fn);
  }
  return out;
}

/** The table a call looks its function up in, and the member it calls on the entry (none for a map of functions). */
function tableOfCall(call: CallExpression, handlerFn: Node): { table: Node; member?: string } | undefined {
  const callee = unwrapExpression(call.getExpression());
  if (!callee) return undefined;
  if (Node.isElementAccessExpression(callee)) return { table: callee.getExpression() };
  if (Node.isIdentifier(callee)) {
    const decl = declarationOf(callee);
    const init = decl && Node.isVariableDeclaration(decl) ? unwrapExpression(decl.getInitializer()) : undefined;
    return init && Node.isElementAccessExpression(init) ? { table: init.getExpression() } : undefined;
  }
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const receiver = unwrapExpression(callee.getExpression());
  if (!receiver) return undefined;
  const member = callee.getName();
  if (Node.isElementAccessExpression(receiver)) return { table: receiver.getExpression(), member };
  if (Node.isCallExpression(receiver) && isFindCall(receiver)) return { table: findTable(receiver)!, member };
  const source = Node.isIdentifier(receiver) ? elementTable(receiver, handlerFn) : undefined;
  return source ? { table: source.table, member } : undefined;
}

/** Calls taking the table as their first argument that read it, or add entries `addedEntries` lists. */
const READING_CALLS = new Set(['Object.keys', 'Object.values', 'Object.entries', 'Object.assign']);

/** A `const` table variable whose references read it, or make the additions `addedEntries` reads. */
function onlyRead(table: Node): boolean {
  const id = unwrapExpression(table);
  if (!id || !Node.isIdentifier(id)) return false;
  const decl = declarationOf(id);
  if (!decl || !Node.isVariableDeclaration(decl) || isInNodeModules(decl) || decl.getVariableStatement()?.getDeclarationKind() !== 'const') return false;
  const nameNode = decl.getNameNode();
  if (!Node.isIdentifier(nameNode)) return false;
  const refs = referencesOf(nameNode);
  if (!refs) return false;
  return refs.every((ref) => {
    if (ref === nameNode) return true;
    const parent = ref.getParent();
    if (!parent) return false;
    if (Node.isImportSpecifier(parent) || Node.isExportSpecifier(parent) || Node.isImportClause(parent)) return true;
    if (Node.isCallExpression(parent)) return parent.getArguments()[0] === ref && READING_CALLS.has(parent.getExpression().getText());
    if (Node.isElementAccessExpression(parent) || Node.isPropertyAccessExpression(parent)) {
      if (parent.getExpression() !== ref) return false;
      const outer = parent.getParent();
      // `table[k] = fn` is an addition addedEntries reads; `table.push(x)`, `map.set(k, fn)` likewise
      if (outer && Node.isBinaryExpression(outer) && outer.getLeft() === parent) return outer.getOperatorToken().getKind() === SyntaxKind.EqualsToken;
      if (outer && (Node.isDeleteExpression(outer) || Node.isPrefixUnaryExpression(outer) || Node.isPostfixUnaryExpression(outer))) return false;
      if (outer && Node.isCallExpression(outer) && outer.getExpression() === parent && Node.isPropertyAccessExpression(parent)) return ['push', 'set', 'get', 'has', 'find', 'forEach', 'map', 'filter', 'some', 'includes'].includes(parent.getName());
      return true;
    }
    // `for (const t of table)`
    if (Node.isForOfStatement(parent) && parent.getExpression() === ref) return true;
    return false;
  });
}
