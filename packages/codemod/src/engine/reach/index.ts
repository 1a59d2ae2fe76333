/**
 * Reach stage: from every site, walk back through the functions that contain it and their callers
 * (same file and imported project files) to the handlers (tools/call, prompts/get, resources/read)
 * that reach it, with the call path, and to the non-handler contexts that reach it (hooks,
 * notification and non-MRTR request handlers, timers, emitters, HTTP routes, detached promises,
 * module scope, or nothing at all).
 */
import { Node, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';
import type { CallPathStep, Handler, Reach, Site } from '../model.js';
import type { OtherRegistration } from '../find/handlers.js';
import { declarationOf, isFunctionNode, nameText, referenceHeldBy, resolveCallee, unwrapExpression, valueParent, type FunctionLike } from '../find/resolve.js';
import { entryContextOf, isDetachedCall, type EntryContext } from './contexts.js';
import { dispatchedTools } from './dispatch.js';
import { wrappedTools } from './wrapped-callbacks.js';
import { callsThroughMember, memberStoringByName, storedFunctionExpression, storedMemberDeclaration } from './members.js';
import { virtualCallReaching } from './virtual-calls.js';
import { argumentAt, requestParameterIndex } from './context-argument.js';
import { abbreviate } from '../rewrite/purity.js';
import { looksLikeTestFile } from '../test-mocks/find.js';

export { entryContextOf, isDetachedCall, type EntryContext } from './contexts.js';

export interface ReachInput {
  sites: Site[];
  handlers: Handler[];
  /** Non-MRTR `setRequestHandler` / `setNotificationHandler` registrations. */
  others: OtherRegistration[];
  /** Every source file loaded in the project (callers are searched here). */
  sourceFiles: SourceFile[];
  /**
   * The line of a node in the file the user ran on, for reasons that cite lines (the analysed text
   * may differ: the v1-to-v2 upgrade merges imports). Default: the line in the analysed text.
   */
  originalLine?: (node: Node) => number;
}

const HANDLERS = 'tools/call, prompts/get or resources/read handler';

export function computeReaches(input: ReachInput): Reach[] {
  const graph = new CallGraph(input);
  return input.sites.map((site) => graph.reach(site));
}

class CallGraph {
  private readonly handlerByFn = new Map<Node, Handler[]>();
  private readonly otherByFn = new Map<Node, OtherRegistration>();
  private callsByName?: Map<string, CallExpression[]>;
  private aliases?: Map<string, Array<{ name: string; node: Node }>>;
  private propertiesByValue?: Map<string, Node[]>;
  private readonly callerCache = new Map<Node, CallExpression[]>();
  private readonly memberCallCache = new Map<Node, CallExpression[]>();
  /** Calls that reach a class method through an interface member or a base-class method, as reports name it. */
  private readonly virtualThrough = new Map<CallExpression, string>();

  constructor(private readonly input: ReachInput) {
    for (const handler of input.handlers) this.handlerByFn.set(handler.fn, [handler]);
    // A function a handler looks up in a table of tools serves that handler's requests: it is a
    // handler of its own, reached through the dispatching call.
    // So is a function a registration passes to the wrapper returning its callback (`withParams(closeTicket)`),
    // reached through the callback's call of that parameter.
    for (const dispatcher of input.handlers) {
      const tools: Array<{ fn: FunctionLike; call: CallExpression; name?: string; wrapperCall?: CallExpression }> = [
        ...dispatchedTools(dispatcher.fn),
        ...wrappedTools(dispatcher).map((t) => ({ fn: t.fn, call: t.call, ...(dispatcher.name !== undefined ? { name: dispatcher.name } : {}), wrapperCall: t.wrapperCall })),
      ];
      for (const tool of tools) {
        const existing = this.handlerByFn.get(tool.fn) ?? [];
        if (existing.some((h) => !h.dispatch)) continue;
        const handler: Handler = {
          fn: tool.fn,
          method: dispatcher.method,
          registration: 'dispatched',
          ...(tool.name !== undefined ? { name: tool.name } : {}),
          registrationCall: dispatcher.registrationCall,
          sourceFile: tool.fn.getSourceFile(),
          dispatch: { dispatcher, call: tool.call, ...(tool.wrapperCall ? { wrapperCall: tool.wrapperCall } : {}) },
        };
        this.handlerByFn.set(tool.fn, [...existing, handler]);
      }
    }
    for (const other of input.others) this.otherByFn.set(other.fn, other);
  }

  reach(site: Site): Reach {
    const out: Reach = { site, handlers: [], nonHandlerContexts: [] };
    const start = Node.isThrowStatement(site.node) ? site.node : site.node;
    this.explore(start, [], new Set(), out, true);
    if (out.handlers.length === 0) {
      const api = this.exposedToTestsOnly(site, out);
      if (api) out.nonHandlerContexts.unshift(api);
    }
    return out;
  }

  /**
   * A public function or method that returns the request's answer and that only tests call: the
   * obstacle is the API it offers to code outside the run (a framework's `requestSampling()`), not
   * the test that happens to exercise it.
   */
  private exposedToTestsOnly(site: Site, out: Reach): EntryContext | undefined {
    const fn = enclosingFunction(site.node);
    const contexts = out.nonHandlerContexts;
    // no caller at all: the function's own description already names the API
    if (!fn || contexts.length === 0 || contexts.some((c) => c.node === fn) || !isPublicApi(fn) || !returnsValueOf(fn, site.node)) return undefined;
    const tests = new Set<string>();
    for (const c of contexts) {
      const file = c.node.getSourceFile();
      if (!looksLikeTestFile(file.getFilePath(), file.getFullText())) return undefined;
      tests.add(file.getBaseName());
    }
    const at = this.placeIn(fn.getSourceFile(), site.sourceFile);
    return {
      context: 'unreachable',
      node: fn,
      description:
        `${describeFunction(fn)} (${at(fn)}) exposes the request as an API to other code (it returns the request's answer); only tests call it (${[...tests].join(', ')}), no ${HANDLERS} of this run: ` +
        `its callers decide the round; migrate the callers or the framework`,
    };
  }

  /**
   * The function sends the request after connecting the very server it sends it on
   * (`await server.connect(transport); ... await server.listRoots()`, or hands that server to the
   * call that does): connection set-up, where no client request is being answered.
   */
  private connectionSetup(fn: FunctionLike, node: Node, site: Site): EntryContext | undefined {
    const receiver = requestReceiverText(site);
    if (receiver === undefined) return undefined;
    const names = (text: string, server: string): boolean => text === server || text.startsWith(`${server}.`);
    // the request itself is in this function (also in a callback of it), or a call here hands the server on
    const inside = fn.getPos() <= site.node.getPos() && site.node.getEnd() <= fn.getEnd();
    const sentOn = (server: string): boolean => (inside && names(receiver, server)) || (Node.isCallExpression(node) && node.getArguments().some((a) => names(a.getText(), server)));
    const body = (fn as FunctionLike & { getBody?: () => Node | undefined }).getBody?.();
    if (!body) return undefined;
    for (const call of body.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      if (call.getEnd() > node.getStart()) continue;
      const callee = unwrapExpression(call.getExpression());
      if (!callee || !Node.isPropertyAccessExpression(callee) || callee.getName() !== 'connect' || call.getArguments().length === 0) continue;
      if (enclosingFunction(call) !== fn || !sentOn(callee.getExpression().getText())) continue;
      const at = this.placeIn(fn.getSourceFile(), site.sourceFile);
      return { context: 'lifecycle-hook', node: call, description: `connection set-up in ${describeFunction(fn)} after \`${abbreviate(call.getText(), 50)}\` (${at(call)})` };
    }
    return undefined;
  }

  /** `needs`: the index of the parameter of the function holding `node` the request is sent on. */
  private explore(node: Node, path: CallPathStep[], visited: Set<unknown>, out: Reach, isSite: boolean, needs?: number): void {
    if (!Node.isThrowStatement(node) && (isSite || this.startsAsyncWork(node)) && isDetachedCall(node)) {
      if (isSite) {
        out.nonHandlerContexts.push({ context: 'detached-promise', node, description: `fire-and-forget call that nothing awaits` });
        return;
      }
      // a caller of the request, named with its place: the request itself is where the reason is read
      const call = `\`${abbreviate(node.getText(), 40)}\` (${this.placeIn(node.getSourceFile(), out.site.sourceFile)(node)})`;
      // `main().catch(...)` at the top of a module is the program's start-up, not a request's side work
      if (!enclosingFunction(node)) out.nonHandlerContexts.push({ context: 'module-scope', node, description: `module-level code (the start-up call ${call})` });
      else out.nonHandlerContexts.push({ context: 'detached-promise', node, description: `fire-and-forget call ${call} that nothing awaits` });
      return;
    }
    const fn = enclosingFunction(node);
    if (!fn) {
      const test = testBlockOf(node);
      if (test) {
        const description = `the test \`${abbreviate(test, 40)}\` (${node.getSourceFile().getBaseName()}:${(this.input.originalLine ?? lineOf)(node)})`;
        // the last step of the path is the call of the function holding the request: made by the test itself?
        const last = path[path.length - 1];
        const testCall = last && last.call.getSourceFile() === node.getSourceFile() && last.callee === enclosingFunction(out.site.node) ? last.call : undefined;
        out.nonHandlerContexts.push({ context: 'test-code', node, description, ...(testCall ? { testCall } : {}) });
      }
      else out.nonHandlerContexts.push({ context: 'module-scope', node, description: `module-level code` });
      return;
    }
    const handlers = this.handlerByFn.get(fn);
    if (handlers) {
      for (const handler of handlers) addHandler(out, handler, path);
      return;
    }
    const other = this.otherByFn.get(fn);
    if (other) {
      const context = other.kind === 'notification' ? 'notification-handler' : 'non-mrtr-request-handler';
      const description = other.kind === 'notification' ? `notification handler for ${other.method}` : `${other.method} request handler`;
      out.nonHandlerContexts.push({ context, node: other.registrationCall, description });
      return;
    }
    const entry: EntryContext | undefined = entryContextOf(fn);
    if (entry) {
      out.nonHandlerContexts.push(entry);
      return;
    }
    const setup = this.connectionSetup(fn, node, out.site);
    if (setup) {
      out.nonHandlerContexts.push(setup);
      return;
    }
    const sentOn = isSite ? requestParameterIndex(out.site, fn) : needs;
    // a function reached with its request's argument tracked is explored apart from one reached without
    const key = sentOn === undefined ? fn : `${fn.getSourceFile().getFilePath()}:${fn.getPos()}#${sentOn}`;
    if (visited.has(key)) return;
    visited.add(key);

    // A callback handed to some other call (`items.map(async x => ...)`, `.then(cb)`): it runs in
    // the flow of that call.
    const { parent, child } = valueParent(fn);
    if (parent && (Node.isCallExpression(parent) || Node.isNewExpression(parent)) && (parent.getArguments() as Node[]).includes(child)) {
      if (Node.isCallExpression(parent)) this.explore(parent, [{ call: parent, callee: fn }, ...path], visited, out, false);
      else this.explore(parent, path, visited, out, false);
      return;
    }
    // `(async () => { ... })()`
    if (parent && Node.isCallExpression(parent) && parent.getExpression() === child) {
      this.explore(parent, [{ call: parent, callee: fn }, ...path], visited, out, false);
      return;
    }

    const callers = this.callersOf(fn);
    if (callers.length === 0) {
      const at = this.placeIn(node.getSourceFile(), out.site.sourceFile);
      out.nonHandlerContexts.push({ context: 'unreachable', node: fn, description: unreachableDescription(fn, node, at, (returner) => this.callersOf(returner)) });
      return;
    }
    for (const call of callers) {
      const passed = sentOn === undefined ? undefined : argumentAt(call, sentOn, enclosingFunction(call));
      if (passed?.omitted) {
        out.nonHandlerContexts.push(this.contextlessCall(call, fn, sentOn!, out.site.sourceFile));
        continue;
      }
      const through = this.virtualThrough.get(call);
      this.explore(call, [{ call, callee: fn, ...(through !== undefined ? { virtualThrough: through } : {}) }, ...path], visited, out, false, passed?.parameter);
    }
  }

  /** A call that runs the request's function without the argument the request is sent on. */
  private contextlessCall(call: CallExpression, fn: FunctionLike, index: number, siteFile: SourceFile): Reach['nonHandlerContexts'][number] {
    const parameter = (fn as FunctionLike & { getParameters(): Array<{ getName(): string }> }).getParameters()[index]?.getName() ?? 'context';
    const at = this.placeIn(call.getSourceFile(), siteFile)(call);
    return { context: 'contextless-call', node: call, description: `\`${abbreviate(call.getExpression().getText(), 40)}(…)\` (${at}) passes no \`${parameter}\`` };
  }

  private callsThroughMember(declaration: Node): CallExpression[] {
    let calls = this.memberCallCache.get(declaration);
    if (!calls) {
      calls = callsThroughMember(declaration);
      this.memberCallCache.set(declaration, calls);
    }
    return calls;
  }

  /** `line N` in the site's own file, `file.ts:N` in another one (a reason read at the site must say where). */
  private placeIn(file: SourceFile, siteFile: SourceFile): (node: Node) => string {
    const line = this.input.originalLine ?? lineOf;
    return (node) => (file === siteFile ? `line ${line(node)}` : `${file.getBaseName()}:${line(node)}`);
  }

  /** A call of an async project function (its promise is the request's promise). */
  private startsAsyncWork(node: Node): boolean {
    if (!Node.isCallExpression(node)) return false;
    const callee = resolveCallee(node.getExpression());
    if (!callee) return false;
    return (callee as unknown as { isAsync?: () => boolean }).isAsync?.() === true;
  }

  private callersOf(fn: FunctionLike): CallExpression[] {
    const cached = this.callerCache.get(fn);
    if (cached) return cached;
    const result: CallExpression[] = [];
    for (const name of this.namesOf(fn)) {
      for (const call of this.callIndex().get(name) ?? []) {
        if (result.includes(call)) continue;
        if (resolveCallee(call.getExpression()) === fn) {
          result.push(call);
          continue;
        }
        // `this.service.confirm(...)` through an interface the class satisfies, `this.execute(...)` in a base class
        const virtual = virtualCallReaching(call, fn);
        if (virtual) {
          result.push(call);
          const at = `${virtual.declaration.getSourceFile().getBaseName()}:${(this.input.originalLine ?? lineOf)(virtual.declaration)}`;
          this.virtualThrough.set(call, `the ${virtual.kind} \`${virtual.member}\` (${at})`);
        }
      }
    }
    // assigned to a variable (`let handler; ... handler = async (a) => { ... }`): the calls of that variable
    const variable = assignedVariable(fn);
    if (variable) {
      for (const call of this.callIndex().get(variable.name) ?? []) {
        const callee = unwrapExpression(call.getExpression());
        if (!result.includes(call) && callee && Node.isIdentifier(callee) && declarationOf(callee) === variable.declaration) result.push(call);
      }
    }
    // stored in a member of a typed object: the calls through that member (`options.handler(args)`),
    // wherever they are (the factory's own file need not mention MCP)
    const member = storedMemberDeclaration(fn);
    if (member) for (const call of this.callsThroughMember(member.declaration)) if (!result.includes(call)) result.push(call);
    // named by a property of a typed object (`export const alerts: DomainHandler = { handleCall }`):
    // the calls through that member (`(await loadDomain(name)).handleCall(...)`)
    for (const property of this.propertiesNaming(fn)) {
      const declaration = memberStoringByName(property, fn);
      if (declaration) for (const call of this.callsThroughMember(declaration)) if (!result.includes(call)) result.push(call);
    }
    this.callerCache.set(fn, result);
    return result;
  }

  /**
   * The function's own name and the other names a call of it can be written with: the local names
   * it is imported under (`import { a as b }`, default imports, also of a barrel's renaming
   * re-export), the names a module re-exports it under (`ns.b(...)` on `import * as ns` of a barrel
   * holding `export { a as b }`), the keys of objects holding it (`{ make: a }`) and the constants
   * naming it (`const make = a`); each of these under its own other names in turn.
   */
  private namesOf(fn: FunctionLike): string[] {
    const own = functionName(fn);
    const names = new Set<string>(own ? [own] : []);
    // the name the candidates refer to it by: only those are resolved (the type checker's symbols cost)
    const queue = [...names];
    if (Node.isFunctionDeclaration(fn) && fn.isDefaultExport()) queue.push('default');
    const followed = new Set(queue);
    const index = this.aliasIndex();
    while (queue.length > 0) {
      for (const alias of index.get(queue.pop()!) ?? []) {
        if (names.has(alias.name) || resolveCallee(alias.node) !== fn) continue;
        names.add(alias.name);
        if (!followed.has(alias.name)) {
          followed.add(alias.name);
          queue.push(alias.name);
        }
      }
    }
    return [...names];
  }

  /**
   * Every import, re-export, object key and constant that gives a name (`name`, resolved from
   * `node`) to what another name refers to, keyed by that referred name (syntax only, built once).
   */
  private aliasIndex(): Map<string, Array<{ name: string; node: Node }>> {
    if (this.aliases) return this.aliases;
    const index = new Map<string, Array<{ name: string; node: Node }>>();
    const add = (referred: string, name: string, node: Node): void => {
      const list = index.get(referred);
      if (list) list.push({ name, node });
      else index.set(referred, [{ name, node }]);
    };
    const referredBy = (value: Node): string | undefined => (Node.isIdentifier(value) ? value.getText() : Node.isPropertyAccessExpression(value) ? value.getName() : undefined);
    for (const sf of this.input.sourceFiles) {
      for (const decl of sf.getImportDeclarations()) {
        const local = decl.getDefaultImport();
        if (local) add('default', local.getText(), local);
        for (const spec of decl.getNamedImports()) {
          const node = spec.getAliasNode() ?? spec.getNameNode();
          add(spec.getName(), node.getText(), node);
        }
      }
      for (const decl of sf.getExportDeclarations()) {
        for (const spec of decl.getNamedExports()) {
          const node = spec.getAliasNode() ?? spec.getNameNode();
          add(spec.getName(), node.getText(), node);
        }
      }
      for (const property of sf.getDescendantsOfKind(SyntaxKind.PropertyAssignment)) {
        const name = property.getNameNode();
        const value = referenceHeldBy(property);
        const referred = value && referredBy(value);
        if (referred && (Node.isIdentifier(name) || Node.isStringLiteral(name))) add(referred, nameText(name)!, name);
      }
      for (const variable of sf.getDescendantsOfKind(SyntaxKind.VariableDeclaration)) {
        const name = variable.getNameNode();
        const value = referenceHeldBy(variable);
        const referred = value && referredBy(value);
        if (referred && Node.isIdentifier(name)) add(referred, name.getText(), name);
      }
    }
    this.aliases = index;
    return index;
  }

  /** The object-literal properties whose value is one of `fn`'s names (`{ handleCall }`, `{ run: handleCall }`), unresolved. */
  private propertiesNaming(fn: FunctionLike): Node[] {
    if (!this.propertiesByValue) {
      const index = new Map<string, Node[]>();
      for (const sf of this.input.sourceFiles) {
        const properties: Array<[Node, string | undefined]> = [
          ...sf.getDescendantsOfKind(SyntaxKind.ShorthandPropertyAssignment).map((p): [Node, string] => [p, p.getName()]),
          ...sf.getDescendantsOfKind(SyntaxKind.PropertyAssignment).map((p): [Node, string | undefined] => {
            const value = storedFunctionExpression(p.getInitializer());
            return [p, value && Node.isIdentifier(value) ? value.getText() : value && Node.isPropertyAccessExpression(value) ? value.getName() : undefined];
          }),
        ];
        for (const [property, value] of properties) {
          if (value === undefined) continue;
          const list = index.get(value);
          if (list) list.push(property);
          else index.set(value, [property]);
        }
      }
      this.propertiesByValue = index;
    }
    const index = this.propertiesByValue;
    return this.namesOf(fn).flatMap((name) => index.get(name) ?? []);
  }

  /** Calls in every loaded file, indexed by the called name (`f()`, `x.f()`): resolved lazily. */
  private callIndex(): Map<string, CallExpression[]> {
    if (this.callsByName) return this.callsByName;
    const index = new Map<string, CallExpression[]>();
    for (const sf of this.input.sourceFiles) {
      for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
        const callee = unwrapExpression(call.getExpression());
        const name = callee && Node.isPropertyAccessExpression(callee) ? callee.getName() : callee && Node.isIdentifier(callee) ? callee.getText() : undefined;
        if (!name) continue;
        const list = index.get(name);
        if (list) list.push(call);
        else index.set(name, [call]);
      }
    }
    this.callsByName = index;
    return index;
  }
}

function addHandler(out: Reach, handler: Handler, path: CallPathStep[]): void {
  const firstCall = path[0]?.call;
  if (out.handlers.some((h) => h.handler === handler && h.path[0]?.call === firstCall)) return;
  out.handlers.push({ handler, path });
}

export function enclosingFunction(node: Node): FunctionLike | undefined {
  return node.getFirstAncestor((a) => isFunctionNode(a)) as FunctionLike | undefined;
}

/** The variable a function is assigned to after its declaration (`handler = async (a) => { ... }`). */
function assignedVariable(fn: Node): { name: string; declaration: Node } | undefined {
  const { parent, child } = valueParent(fn);
  if (!parent || !Node.isBinaryExpression(parent) || parent.getRight() !== child || parent.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) return undefined;
  const left = unwrapExpression(parent.getLeft());
  if (!left || !Node.isIdentifier(left)) return undefined;
  const declaration = declarationOf(left);
  return declaration && Node.isVariableDeclaration(declaration) ? { name: left.getText(), declaration } : undefined;
}

export function functionName(fn: Node): string | undefined {
  if (Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn)) return fn.getName();
  const assigned = assignedVariable(fn);
  if (assigned) return assigned.name;
  const { parent } = valueParent(fn);
  if (parent && (Node.isVariableDeclaration(parent) || Node.isPropertyAssignment(parent) || Node.isPropertyDeclaration(parent))) {
    const name = parent.getNameNode();
    return Node.isIdentifier(name) || Node.isStringLiteral(name) ? (Node.isStringLiteral(name) ? name.getLiteralValue() : name.getText()) : undefined;
  }
  return undefined;
}

function describeFunction(fn: Node): string {
  const name = functionName(fn);
  if (Node.isMethodDeclaration(fn)) {
    const cls = fn.getParent();
    const owner = (Node.isClassDeclaration(cls) || Node.isClassExpression(cls)) && cls.getName() ? `${cls.getName()}.` : '';
    return `method \`${owner}${name}\``;
  }
  return name ? `function \`${name}\`` : 'an anonymous function';
}

/**
 * Why nothing reaches `fn` (`node` is the call in it that leads to the request): a function handed
 * to other code in an object, a public API that returns the request to its callers, a table entry
 * no dispatch was resolved through, or a function nothing in the run calls; with its name and line.
 */
function unreachableDescription(fn: Node, node: Node, at: (node: Node) => string, callersOf: (fn: FunctionLike) => CallExpression[]): string {
  const { parent } = valueParent(fn);
  const objectOfProperty = parent && Node.isPropertyAssignment(parent) ? parent.getParent() : Node.isMethodDeclaration(fn) && Node.isObjectLiteralExpression(fn.getParent()) ? fn.getParent() : undefined;
  const passedTo = objectOfProperty ? callTakingValue(objectOfProperty) : undefined;
  if (passedTo) {
    const key = functionName(fn);
    return (
      `the request function${key ? ` \`${key}\`` : ''} is handed to other code in the object passed to \`${abbreviate(passedTo.getExpression().getText(), 40)}(...)\` (${at(passedTo)}): ` +
      `its callers decide the round; migrate the callers or the framework`
    );
  }
  const returner = objectOfProperty ? functionReturning(objectOfProperty) : undefined;
  if (returner) {
    const key = functionName(fn);
    const handedTo = callersOf(returner).flatMap((call) => {
      const outer = callTakingValue(call);
      return outer ? [`\`${abbreviate(outer.getExpression().getText(), 40)}(...)\` (${at(outer)})`] : [];
    });
    const shown = handedTo.slice(0, 3).join(', ') + (handedTo.length > 3 ? ` and ${handedTo.length - 3} more` : '');
    return (
      `the request function${key ? ` \`${key}\`` : ''} is a member of the object returned by ${describeFunction(returner)} (${at(returner)})${handedTo.length > 0 ? `, which is passed to ${shown}` : ' to its callers'}: ` +
      `the code it is handed to decides the round; migrate that code or the framework`
    );
  }
  if (isPublicApi(fn) && returnsValueOf(fn, node)) {
    return (
      `${describeFunction(fn)} (${at(fn)}) exposes the request as an API to other code (it returns the request's answer) and no ${HANDLERS} of this run calls it: ` +
      `its callers decide the round; migrate the callers or the framework`
    );
  }
  const holder = parent && (Node.isPropertyAssignment(parent) ? parent.getParent() : Node.isArrayLiteralExpression(parent) ? parent : undefined);
  const table = Node.isMethodDeclaration(fn) && Node.isObjectLiteralExpression(fn.getParent()) ? fn.getParent() : holder;
  if (table) {
    const key = functionName(fn);
    return `the function stored ${key ? `as \`${key}\` ` : ''}in a table (${at(table)}) is not looked up and called by any ${HANDLERS}`;
  }
  return `${describeFunction(fn)} (${at(fn)}) is not called from any ${HANDLERS} in the files of this run`;
}

/** Test-runner blocks at the top of a test file (`describe(...)`, `it.each(...)(...)`, `beforeEach(...)`). */
const TEST_BLOCKS = new Set(['describe', 'it', 'test', 'suite', 'context', 'beforeAll', 'beforeEach', 'afterAll', 'afterEach', 'before', 'after']);

/**
 * The title of the test-runner block a module-level call is, in a test file (by name or by the
 * runner it imports): its callbacks run under the test runner, not as module-level code of a server.
 */
function testBlockOf(node: Node): string | undefined {
  if (!Node.isCallExpression(node)) return undefined;
  const sf = node.getSourceFile();
  if (!looksLikeTestFile(sf.getFilePath(), sf.getFullText())) return undefined;
  let callee: Node = node.getExpression();
  // `it.each(table)(title, fn)`, `describe.only(...)`, `test.skip(...)`
  while (Node.isCallExpression(callee) || Node.isPropertyAccessExpression(callee)) callee = callee.getExpression();
  if (!Node.isIdentifier(callee) || !TEST_BLOCKS.has(callee.getText())) return undefined;
  const title = node.getArguments()[0];
  return title && (Node.isStringLiteral(title) || Node.isNoSubstitutionTemplateLiteral(title)) ? title.getLiteralValue() : callee.getText();
}

/** The line a node's own text starts on (after comments and blank lines). */
export function lineOf(node: Node): number {
  return node.getSourceFile().getLineAndColumnAtPos(node.getStart()).line;
}

/** The function whose return value an object literal is (`return { elicit: ... }`, `() => ({ ... })`). */
function functionReturning(object: Node): FunctionLike | undefined {
  const { parent, child } = valueParent(object);
  if (!parent) return undefined;
  if (Node.isReturnStatement(parent)) return enclosingFunction(parent);
  return Node.isArrowFunction(parent) && parent.getBody() === child ? parent : undefined;
}

/** The text of what a request is sent on (`this.server` of `this.server.listRoots()`), when it is a method call. */
function requestReceiverText(site: Site): string | undefined {
  if (!Node.isCallExpression(site.node)) return undefined;
  const callee = unwrapExpression(site.node.getExpression());
  return callee && Node.isPropertyAccessExpression(callee) ? callee.getExpression().getText() : undefined;
}

/** The call an object literal is an argument of (`tool.execute(args, { elicit: ... })`). */
function callTakingValue(object: Node): CallExpression | undefined {
  const { parent, child } = valueParent(object);
  return parent && Node.isCallExpression(parent) && parent.getArguments().includes(child) ? parent : undefined;
}

/** An exported function, or a method of a class that is neither private nor `#`-named. */
function isPublicApi(fn: Node): boolean {
  if (Node.isMethodDeclaration(fn)) {
    const cls = fn.getParent();
    if (!Node.isClassDeclaration(cls) && !Node.isClassExpression(cls)) return false;
    return !fn.hasModifier(SyntaxKind.PrivateKeyword) && !fn.getName().startsWith('#');
  }
  if (Node.isFunctionDeclaration(fn)) return fn.isExported();
  const { parent } = valueParent(fn);
  if (parent && Node.isVariableDeclaration(parent)) return parent.getVariableStatement()?.isExported() === true;
  return false;
}

/** Whether `fn` returns the value of `node` (`return x.elicitInput(...)`, an arrow's expression body). */
function returnsValueOf(fn: Node, node: Node): boolean {
  const { parent, child } = valueParent(node);
  if (!parent) return false;
  if (Node.isReturnStatement(parent)) return enclosingFunction(parent) === fn;
  return Node.isArrowFunction(parent) && parent === fn && parent.getBody() === child;
}
