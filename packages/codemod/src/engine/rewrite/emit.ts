/**
 * Code for one legacy request at its new place: read the answer from `inputResponses` (validated,
 * rebuilt into the legacy result shape) or build the embedded request to ask for it.
 */
import { Node } from 'ts-morph';
import { LEGACY_REQUESTS, TARGET } from '@mcp-mrtr/surface';
import type { Site } from '../model.js';
import { CAPABILITIES_EXPORT, MISSING_CAPABILITY_ERRORS, REQUIRE_CAPABILITY_EXPORT } from './capabilities-module.js';
import { ANSWER_READERS, type AnswerReader } from './answers-module.js';
import { quote } from './text.js';

/** What the generated code needs from the file: names to import, whether type syntax is allowed. */
export interface EmitEnv {
  ts: boolean;
  /** Expression for the handler context (`ctx`). */
  ctx: string;
  values: Set<string>;
  types: Set<string>;
  /** Names the file imports from the generated client-capabilities module. */
  capabilityImports: Set<string>;
  names: NameAllocator;
  /** The generated answer readers: the local name each is imported under, and which the file calls. */
  answerReaders: AnswerReaders;
  /** Requests whose parameters the handler builds once (phase form): the expression naming them. */
  requests?: Map<Site, string>;
}

export interface AnswerReaders {
  locals: Map<AnswerReader, string>;
  used: Set<AnswerReader>;
}

/** The readers' local names in a file, reserved before any other generated name is taken (a file binding one gets `readRoots2`, imported under that alias). */
export function reserveAnswerReaders(names: NameAllocator): AnswerReaders {
  return { locals: new Map(Object.values(ANSWER_READERS).map((r) => [r, names.take(r)])), used: new Set() };
}

/**
 * Generated identifiers of one file. A name is taken for the file (the answer readers' imports), or
 * for one function through `inFunction`: a function's generated locals and parameters clash with the
 * file's own identifiers and names, and with the generated names of the functions around it or
 * inside it, never with a sibling's (two handlers side by side both get `args` and `replyRequest`,
 * not `args2`: neither can see the other's).
 */
export class NameAllocator {
  private readonly taken: Set<string>;
  /** Names this allocator cannot take though it does not hold them (the file's, an enclosing function's). */
  private readonly blocked: (name: string) => boolean;
  /** Per function of the file: its allocator (kept on the file's allocator only). */
  private readonly functions = new Map<Node, NameAllocator>();
  constructor(taken: Iterable<string>, blocked: (name: string) => boolean = () => false) {
    this.taken = new Set(taken);
    this.blocked = blocked;
  }
  /** `base` if free, else `base2`, `base3`... ; reserves the result. */
  take(base: string): string {
    let name = base;
    for (let i = 2; this.has(name); i++) name = `${base}${i}`;
    this.taken.add(name);
    return name;
  }
  has(name: string): boolean {
    return this.taken.has(name) || this.blocked(name);
  }
  /** A copy for a nested block scope: names taken there do not leak out. */
  clone(): NameAllocator {
    return new NameAllocator([], (name) => this.has(name));
  }
  /** The allocator of the names generated inside `fn` (one per function; call it on the file's allocator). */
  inFunction(fn: Node): NameAllocator {
    let names = this.functions.get(fn);
    if (!names) {
      const related = (other: Node): boolean => other !== fn && (encloses(other, fn) || encloses(fn, other));
      names = new NameAllocator([], (name) => this.has(name) || [...this.functions].some(([other, a]) => related(other) && a.taken.has(name)));
      this.functions.set(fn, names);
    }
    return names;
  }
}

function encloses(outer: Node, inner: Node): boolean {
  return outer.getSourceFile() === inner.getSourceFile() && outer.getStart() <= inner.getStart() && inner.getEnd() <= outer.getEnd();
}

export interface ReadPlan {
  /** Statements evaluated on every round before deciding: the request's parameters, where they are not built once per handler. */
  prelude: string[];
  /** The answer in the legacy result shape (one call of a generated reader), or undefined when the retry carries none: ask (again). */
  read: string;
  /** `inputRequired.<builder>(...)` expression for the embedded request. */
  builder: string;
  /** Capability-check statements to run right before asking (legacy behaviour without the capability). */
  capabilityCheck: string[];
}

/**
 * Emit met a condition planning rules out (emit-checks.ts decides those before emit runs): a bug in
 * the engine, reported as an internal rewrite error, never as a user-facing reason.
 */
export function unplanned(reason: string): never {
  throw new Error(`emit reached a condition planning rules out: ${reason}`);
}

/** Why the parameters of `site`'s request cannot be read (not a literal `params`), or undefined. */
export function unreadableParams(site: Site): string | undefined {
  if (site.params || LEGACY_REQUESTS[site.method].kind === 'roots') return undefined;
  return `request parameters of \`${abbreviated(site.node.getText())}\` are not a literal \`params\` the codemod can read`;
}

/** The params expression of a request site (`{ message, requestedSchema }`), or undefined for roots. */
function paramsText(site: Site): string | undefined {
  if (site.params) return site.params.getText();
  const unreadable = unreadableParams(site);
  if (unreadable) unplanned(unreadable);
  return undefined;
}

function abbreviated(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > 60 ? `${one.slice(0, 59)}…` : one;
}

function isUrlElicitation(site: Site): boolean {
  const params = site.params;
  if (!params || !Node.isObjectLiteralExpression(params)) return false;
  const mode = params.getProperty('mode');
  return !!mode && Node.isPropertyAssignment(mode) && /^['"`]url['"`]$/.test(mode.getInitializer()?.getText() ?? '');
}

/** `elicitInput` (v1 Server, v2 ctx.mcpReq) validated accepted content against requestedSchema; generic senders did not. */
function validatesContent(site: Site): boolean {
  if (site.shape === 'server-method' || site.shape === 'ctx-method') return true;
  if (site.shape === 'alias-call' && Node.isCallExpression(site.node)) {
    const callee = site.node.getExpression();
    const decl = Node.isIdentifier(callee) ? callee.getSymbol()?.getDeclarations()[0] : undefined;
    return /elicitInput/.test(decl?.getText() ?? 'elicitInput');
  }
  return false;
}

/**
 * Reads the per-request client capabilities: a call of the generated helper, which reads the
 * 2026-07-28 envelope and, given `server` (a side-effect-free expression for the server the legacy
 * code asked through), falls back to what a 2025-era client declared at initialize. The typed
 * envelope read is written out only where the file already has a binding of the helper's name.
 */
export function capabilitiesExpression(env: EmitEnv, server?: string): string {
  if (!env.names.has(CAPABILITIES_EXPORT)) {
    env.capabilityImports.add(CAPABILITIES_EXPORT);
    return `${CAPABILITIES_EXPORT}(${env.ctx}${server ? `, ${server}` : ''})`;
  }
  env.values.add(TARGET.clientCapabilitiesMetaKey);
  const envelope = env.ts
    ? `(${env.ctx}.mcpReq.envelope as Record<string, ClientCapabilities | undefined> | undefined)?.[${TARGET.clientCapabilitiesMetaKey}]`
    : `${env.ctx}.mcpReq.envelope?.[${TARGET.clientCapabilitiesMetaKey}]`;
  if (env.ts) env.types.add('ClientCapabilities');
  return server ? `(${envelope} ?? ${server}.getClientCapabilities())` : envelope;
}


/**
 * The server whose `getClientCapabilities()` is the fallback for a site called on a low-level
 * server (`mcp.server.elicitInput`, `this.server.createMessage`): 2025-era clients served through the SDK's legacy shim carry no
 * envelope, and without this fallback a client lacking the capability would get the shim's error
 * instead of the legacy one that the handler's own fail-open path expects. Only receivers that are
 * plain property chains rooted in `this`, a parameter or a binding outside the handler, so the
 * expression is side-effect free and in scope wherever the check is emitted.
 */
export function legacyCapabilitiesFallback(site: Site): string | undefined {
  if (site.shape !== 'server-method' || !Node.isCallExpression(site.node)) return undefined;
  const callee = site.node.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const receiver = callee.getExpression();
  const text = receiver.getText();
  if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(text)) return undefined;
  // A receiver typed by the project's own slice of the server (`interface Wired { elicitInput(...) }`) may not declare it.
  if (!mayHaveClientCapabilities(receiver)) return undefined;
  let root: Node = receiver;
  while (Node.isPropertyAccessExpression(root)) root = root.getExpression();
  if (Node.isThisExpression(root)) return text;
  if (!Node.isIdentifier(root)) return undefined;
  const fn = site.node.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a));
  const declarations = root.getSymbol()?.getDeclarations() ?? [];
  if (declarations.length === 0) return undefined;
  const safe = declarations.every((d) => Node.isParameterDeclaration(d) || !fn || !d.getAncestors().includes(fn));
  return safe ? text : undefined;
}

function mayHaveClientCapabilities(receiver: Node): boolean {
  let type;
  try {
    type = receiver.getType();
  } catch {
    return true;
  }
  if (type.isAny() || type.isUnknown()) return true;
  return type.getNonNullableType().getProperty('getClientCapabilities') !== undefined;
}

/**
 * How the request's capability is checked before asking (the legacy SDK threw when the client had
 * not declared it, and the handler's own fallback for such a client expects that error): the
 * embedded request is handed through the generated `requireClientCapability`, which throws that
 * error first. Where the file already binds that name, the check is written out before the ask.
 */
function capabilityCheck(env: EmitEnv, capability: 'elicitation' | 'sampling' | 'roots', errorKey: string, capsName: () => string, site?: Site): { lines: string[]; wrap: (builder: string) => string } {
  const fallback = site ? legacyCapabilitiesFallback(site) : undefined;
  if (!env.names.has(REQUIRE_CAPABILITY_EXPORT)) {
    env.capabilityImports.add(REQUIRE_CAPABILITY_EXPORT);
    const name = quote(errorKey);
    return { lines: [], wrap: (builder) => `${REQUIRE_CAPABILITY_EXPORT}(${env.ctx}, ${name}, ${builder}${fallback ? `, ${fallback}` : ''})` };
  }
  const caps = capsName();
  const declared = errorKey === 'elicitation.url' ? `${caps}.elicitation?.url` : `${caps}.${capability}`;
  const read = capabilitiesExpression(env, fallback);
  return {
    lines: [`const ${caps} = ${read};`, `if (${caps} && !${declared}) throw new Error(${quote(MISSING_CAPABILITY_ERRORS[errorKey] ?? 'Client does not support this request')});`],
    wrap: (builder) => builder,
  };
}

/** A read plan's builder and capability check, from the unchecked builder. */
function checked(env: EmitEnv, builder: string, capability: 'elicitation' | 'sampling' | 'roots', errorKey: string, base: string, site?: Site): { builder: string; capabilityCheck: string[] } {
  const check = capabilityCheck(env, capability, errorKey, () => env.names.take(`${base}Capabilities`), site);
  return { builder: check.wrap(builder), capabilityCheck: check.lines };
}

/** A call of the generated answer reader `reader` (imported under its local name, which a file binding the name changes). */
function readerCall(env: EmitEnv, reader: AnswerReader, args: string[]): string {
  env.answerReaders.used.add(reader);
  return `${env.answerReaders.locals.get(reader) ?? reader}(${args.join(', ')})`;
}

/**
 * Read plan for `site` answered under `keyExpr` (a string literal or a variable holding the key).
 * `base` names the generated locals (`<base>Request`, `<base>Capabilities`).
 */
export function planRead(site: Site, keyExpr: string, base: string, env: EmitEnv): ReadPlan {
  const info = LEGACY_REQUESTS[site.method];
  env.values.add(TARGET.inputRequired);
  const prelude: string[] = [];
  switch (info.kind) {
    case 'elicitation': {
      const hoisted = env.requests?.get(site);
      const request = hoisted ?? env.names.take(`${base}Request`);
      const params = paramsText(site)!;
      if (isUrlElicitation(site)) {
        env.types.add('ElicitRequestURLParams');
        prelude.push(env.ts ? `const ${request}: ElicitRequestURLParams = ${params};` : `const ${request} = ${params};`);
        return {
          prelude,
          read: readerCall(env, ANSWER_READERS.elicitation, [env.ctx, keyExpr, request]),
          ...checked(env, `${TARGET.inputRequired}.elicitUrl({ message: ${request}.message, url: ${request}.url })`, 'elicitation', 'elicitation.url', base, site),
        };
      }
      env.types.add('ElicitRequestFormParams');
      if (!hoisted) {
        prelude.push(env.ts ? `const ${request}: ElicitRequestFormParams = ${params};` : `const ${request} = ${params};`);
      }
      // `sendRequest(..., ElicitResultSchema)` checked the result shape only, not requestedSchema: so does the migrated handler.
      const read = validatesContent(site) ? readerCall(env, ANSWER_READERS.elicitation, [env.ctx, keyExpr, request]) : readerCall(env, ANSWER_READERS.elicitResult, [env.ctx, keyExpr]);
      return { prelude, read, ...checked(env, `${TARGET.inputRequired}.elicit(${request})`, 'elicitation', 'elicitation', base, site) };
    }
    case 'sampling': {
      const params = paramsText(site)!;
      const hoisted = env.requests?.get(site);
      const request = hoisted ?? env.names.take(`${base}Request`);
      env.types.add('CreateMessageRequestParams');
      if (!hoisted) {
        prelude.push(env.ts ? `const ${request}: CreateMessageRequestParams = ${params};` : `const ${request} = ${params};`);
      }
      return {
        prelude,
        read: readerCall(env, ANSWER_READERS.sampling, [env.ctx, keyExpr]),
        ...checked(env, `${TARGET.inputRequired}.createMessage(${request})`, 'sampling', 'sampling', base, site),
      };
    }
    case 'roots':
      return { prelude, read: readerCall(env, ANSWER_READERS.roots, [env.ctx, keyExpr]), ...checked(env, `${TARGET.inputRequired}.listRoots()`, 'roots', 'roots', base, site) };
  }
}

/**
 * `throw new UrlElicitationRequiredError([{ message, url, ... }])`: the URL elicitations it carries,
 * or why they cannot be read (the first entry that is not a literal, in order).
 */
export function readUrlElicitations(site: Site): Array<{ message: string; url: string }> | string {
  const node = site.node;
  const created = Node.isThrowStatement(node) ? node.getExpression() : node;
  if (!created || !Node.isNewExpression(created)) return 'UrlElicitationRequiredError is not constructed in the throw statement';
  const list = created.getArguments()[0];
  if (!list || !Node.isArrayLiteralExpression(list)) return 'UrlElicitationRequiredError elicitations are not an array literal';
  const entries: Array<{ message: string; url: string }> = [];
  for (const element of list.getElements()) {
    if (!Node.isObjectLiteralExpression(element)) return 'URL elicitation entry is not an object literal';
    const prop = (name: string): string | undefined => {
      const p = element.getProperty(name);
      if (p && Node.isPropertyAssignment(p)) return p.getInitializerOrThrow().getText();
      if (p && Node.isShorthandPropertyAssignment(p)) return p.getName();
      return undefined;
    };
    const message = prop('message');
    if (message === undefined) return 'URL elicitation entry has no literal `message`';
    const url = prop('url');
    if (url === undefined) return 'URL elicitation entry has no literal `url`';
    entries.push({ message, url });
  }
  return entries;
}

/** The URL elicitations of a throw planning checked (readUrlElicitations). */
export function urlElicitations(site: Site): Array<{ message: string; url: string }> {
  const entries = readUrlElicitations(site);
  return typeof entries === 'string' ? unplanned(entries) : entries;
}
