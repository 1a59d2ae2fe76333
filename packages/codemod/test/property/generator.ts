/**
 * fast-check generator of legacy v1 tool handlers: 1-4 server-to-client requests of the three
 * kinds, nested at random in if/else, switch, try/catch/finally, bounded loops and helper
 * functions, with counted side effects (`effect('...')`) between them. `printCase` turns a
 * generated tree into the source of a v1 server module following the fixtures convention
 * (`export function createServer()`).
 */
import fc from 'fast-check';

export type RequestKind = 'elicit' | 'sample' | 'roots';

export type Stmt =
  /** `const rN = await <request>; out.push(<summary of rN>)` */
  | { t: 'req'; kind: RequestKind; via: 'server' | 'extra' }
  | { t: 'effect' }
  /** `if (args.flag)` or, when an answer is in scope, a condition on the latest answer. */
  | { t: 'if'; onAnswer: boolean; then: Stmt[]; else: Stmt[] }
  | { t: 'switch'; cases: [Stmt[], Stmt[], Stmt[]] }
  | { t: 'try'; body: Stmt[]; handler: Stmt[]; fin: Stmt[] | null }
  | { t: 'loop'; n: 1 | 2; body: Stmt[] }
  /** The body moves into a module-level `async function helperN(server, extra, out, args)`. */
  | { t: 'helper'; body: Stmt[] };

export interface GeneratedCase {
  body: Stmt[];
}

export function countRequests(stmts: Stmt[]): number {
  let n = 0;
  for (const s of stmts) {
    switch (s.t) {
      case 'req':
        n++;
        break;
      case 'if':
        n += countRequests(s.then) + countRequests(s.else);
        break;
      case 'switch':
        n += s.cases.reduce((a, c) => a + countRequests(c), 0);
        break;
      case 'try':
        n += countRequests(s.body) + countRequests(s.handler) + countRequests(s.fin ?? []);
        break;
      case 'loop':
      case 'helper':
        n += countRequests(s.body);
        break;
    }
  }
  return n;
}

const kind = fc.constantFrom<RequestKind>('elicit', 'sample', 'roots');

const { block } = fc.letrec<{ stmt: Stmt; block: Stmt[] }>((tie) => ({
  stmt: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: fc.record({ t: fc.constant('req' as const), kind, via: fc.constantFrom<'server' | 'extra'>('server', 'server', 'extra') }), weight: 4 },
    { arbitrary: fc.constant({ t: 'effect' as const }), weight: 3 },
    { arbitrary: fc.record({ t: fc.constant('if' as const), onAnswer: fc.boolean(), then: tie('block') as fc.Arbitrary<Stmt[]>, else: tie('block') as fc.Arbitrary<Stmt[]> }), weight: 2 },
    {
      arbitrary: fc.record({ t: fc.constant('switch' as const), cases: fc.tuple(tie('block'), tie('block'), tie('block')) as fc.Arbitrary<[Stmt[], Stmt[], Stmt[]]> }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        t: fc.constant('try' as const),
        body: tie('block') as fc.Arbitrary<Stmt[]>,
        handler: tie('block') as fc.Arbitrary<Stmt[]>,
        fin: fc.option(tie('block') as fc.Arbitrary<Stmt[]>, { nil: null }),
      }),
      weight: 2,
    },
    { arbitrary: fc.record({ t: fc.constant('loop' as const), n: fc.constantFrom<1 | 2>(1, 2), body: tie('block') as fc.Arbitrary<Stmt[]> }), weight: 1 },
    { arbitrary: fc.record({ t: fc.constant('helper' as const), body: tie('block') as fc.Arbitrary<Stmt[]> }), weight: 2 },
  ) as fc.Arbitrary<Stmt>,
  block: fc.array(tie('stmt') as fc.Arbitrary<Stmt>, { minLength: 0, maxLength: 4, depthIdentifier: 'block' }),
}));

/** A handler body with 1-4 requests in it (statically). */
export const caseArbitrary: fc.Arbitrary<GeneratedCase> = block
  .filter((b) => {
    const n = countRequests(b);
    return n >= 1 && n <= 4;
  })
  .map((body) => ({ body }));

// ---------------------------------------------------------------------------------------------
// Printing

interface PrintContext {
  /** Prefix of helper names, unique per case within a module. */
  prefix: string;
  nextReq: number;
  nextEffect: number;
  nextHelper: number;
  helpers: string[];
}

interface Scope {
  /** Names and kinds of answers declared in enclosing blocks of the current function. */
  answers: Array<{ name: string; kind: RequestKind }>;
}

const ELICIT_SCHEMA = "{ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }";

function requestCall(kind: RequestKind, via: 'server' | 'extra', id: number): string {
  if (via === 'server') {
    switch (kind) {
      case 'elicit':
        return `server.server.elicitInput({ message: 'q${id}', requestedSchema: ${ELICIT_SCHEMA} })`;
      case 'sample':
        return `server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'p${id}' } }], maxTokens: 50 })`;
      case 'roots':
        return 'server.server.listRoots()';
    }
  }
  switch (kind) {
    case 'elicit':
      return `extra.sendRequest({ method: 'elicitation/create', params: { message: 'q${id}', requestedSchema: ${ELICIT_SCHEMA} } }, ElicitResultSchema)`;
    case 'sample':
      return `extra.sendRequest({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'p${id}' } }], maxTokens: 50 } }, CreateMessageResultSchema)`;
    case 'roots':
      return `extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema)`;
  }
}

function summary(kind: RequestKind, name: string, id: number): string {
  switch (kind) {
    case 'elicit':
      return `out.push(\`e${id}:\${${name}.action}:\${String(${name}.content?.name ?? '-')}\`);`;
    case 'sample':
      return `out.push(\`s${id}:\${${name}.model}:\${JSON.stringify(${name}.content)}\`);`;
    case 'roots':
      return `out.push(\`r${id}:\${${name}.roots.map((root) => root.uri).join(',')}\`);`;
  }
}

function condition(stmt: Extract<Stmt, { t: 'if' }>, scope: Scope): string {
  const last = scope.answers[scope.answers.length - 1];
  if (!stmt.onAnswer || !last) return 'args.flag';
  switch (last.kind) {
    case 'elicit':
      return `${last.name}.action === 'accept'`;
    case 'sample':
      return `${last.name}.model === 'model-a'`;
    case 'roots':
      return `${last.name}.roots.length > 1`;
  }
}

function printBlock(stmts: Stmt[], ctx: PrintContext, scope: Scope, indent: string): string {
  const local: Scope = { answers: [...scope.answers] };
  return stmts.map((s) => printStmt(s, ctx, local, indent)).join('\n');
}

function printStmt(stmt: Stmt, ctx: PrintContext, scope: Scope, indent: string): string {
  const inner = indent + '  ';
  switch (stmt.t) {
    case 'req': {
      const id = ctx.nextReq++;
      const name = `r${id}`;
      scope.answers.push({ name, kind: stmt.kind });
      return `${indent}const ${name} = await ${requestCall(stmt.kind, stmt.via, id)};\n${indent}${summary(stmt.kind, name, id)}`;
    }
    case 'effect':
      return `${indent}effect('x${ctx.nextEffect++}');`;
    case 'if': {
      const cond = condition(stmt, scope);
      return `${indent}if (${cond}) {\n${printBlock(stmt.then, ctx, scope, inner)}\n${indent}} else {\n${printBlock(stmt.else, ctx, scope, inner)}\n${indent}}`;
    }
    case 'switch': {
      const [a, b, c] = stmt.cases;
      const deeper = inner + '  ';
      return [
        `${indent}switch (args.mode) {`,
        `${inner}case 0: {`,
        printBlock(a, ctx, scope, deeper),
        `${deeper}break;`,
        `${inner}}`,
        `${inner}case 1: {`,
        printBlock(b, ctx, scope, deeper),
        `${deeper}break;`,
        `${inner}}`,
        `${inner}default: {`,
        printBlock(c, ctx, scope, deeper),
        `${inner}}`,
        `${indent}}`,
      ].join('\n');
    }
    case 'try': {
      const body = printBlock(stmt.body, ctx, scope, inner);
      const handler = printBlock(stmt.handler, ctx, scope, inner);
      const lines = [`${indent}try {`, body, `${indent}} catch {`, `${inner}out.push('caught');`, handler];
      if (stmt.fin) lines.push(`${indent}} finally {`, `${inner}out.push('finally');`, printBlock(stmt.fin, ctx, scope, inner));
      lines.push(`${indent}}`);
      return lines.join('\n');
    }
    case 'loop':
      return `${indent}for (let i = 0; i < ${stmt.n}; i++) {\n${inner}out.push(\`loop:\${i}\`);\n${printBlock(stmt.body, ctx, scope, inner)}\n${indent}}`;
    case 'helper': {
      const id = ctx.nextHelper++;
      const name = `${ctx.prefix}helper${id}`;
      const body = printBlock(stmt.body, ctx, { answers: [] }, '  ');
      ctx.helpers.push(
        `async function ${name}(server: McpServer, extra: Extra, out: string[], args: Args): Promise<void> {\n  out.push('${name}');\n${body}\n}`,
      );
      return `${indent}await ${name}(server, extra, out, args);`;
    }
  }
}

const MODULE_HEADER = (effectsImport: string) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { effect } from '${effectsImport}';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type Args = { flag: boolean; mode: number };
`;

/** Marker comment that opens case `n` in a module (its helpers, then its registration). */
export function caseMarker(n: number): string {
  return `// generated case ${n}`;
}

export function toolName(n: number): string {
  return `prop${n}`;
}

function printCaseBlock(c: GeneratedCase, n: number): string {
  const ctx: PrintContext = { prefix: `c${n}_`, nextReq: 1, nextEffect: 1, nextHelper: 1, helpers: [] };
  const body = printBlock(c.body, ctx, { answers: [] }, '      ');
  return `${caseMarker(n)}
${ctx.helpers.map((h) => `${h}\n\n`).join('')}function registerCase${n}(server: McpServer): void {
  server.registerTool(
    '${toolName(n)}',
    { description: 'generated', inputSchema: { flag: z.boolean(), mode: z.number() } },
    async (args, extra) => {
      const out: string[] = [];
      effect('start');
${body}
      effect('end');
      return { content: [{ type: 'text', text: JSON.stringify(out) }] };
    },
  );
}
`;
}

/**
 * Source of a legacy v1 module holding several generated cases: each case is a tool `prop<n>`
 * registered by its own `registerCase<n>(server)` (the common "register tools on a server passed
 * in" shape), preceded by its helpers. `effectsImport` is relative to the module.
 */
export function printModule(cases: Array<{ n: number; handler: GeneratedCase }>, effectsImport: string): string {
  return `${MODULE_HEADER(effectsImport)}
${cases.map((c) => printCaseBlock(c.handler, c.n)).join('\n')}
export function createServer(): McpServer {
  const server = new McpServer({ name: 'prop', version: '1.0.0' });
${cases.map((c) => `  registerCase${c.n}(server);`).join('\n')}
  return server;
}
`;
}

/** A module with a single case (tool `prop0`), for counterexample fixtures. */
export function printCase(c: GeneratedCase, effectsImport: string): string {
  return printModule([{ n: 0, handler: c }], effectsImport);
}
