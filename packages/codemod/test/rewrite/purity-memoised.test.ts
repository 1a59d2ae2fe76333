/**
 * Lazy singletons before a request (engine/rewrite/memoised.ts): a call that fills a cache held
 * outside it only while that cache is unset does nothing new when the code re-runs on a later
 * round, so it is not an effect. Any other write, an effect outside the guarded path, or a cache
 * that other code clears keeps the call an effect.
 */
import { describe, expect, it } from 'vitest';
import { Project, SyntaxKind } from 'ts-morph';
import { firstEffect } from '../../src/engine/rewrite/purity.js';

const PRELUDE = `
interface Conn { query(q: string): Promise<string[]> }
declare function openConnection(url: string): Promise<Conn>;
declare function makeClient(token: string): Conn;
declare function audit(line: string): void;
`;

/** The first effect of `handler`'s body, with `module` declared before it in the same file. */
function effectOf(module: string, handler: string): string | undefined {
  const source = `${PRELUDE}\n${module}\nasync function handler(token: string, region: string) {\n${handler}\n}`;
  const file = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true } }).createSourceFile('f.ts', source);
  const fn = file.getFunctionOrThrow('handler');
  return firstEffect(fn.getBody()!.getChildSyntaxListOrThrow().getChildren(), fn)?.description;
}

describe('lazy singletons before a request', () => {
  it('early return on a filled cache, then fill: not an effect', () => {
    const m = `let conn: Conn | undefined;\nasync function getConn(): Promise<Conn> {\n  if (conn) return conn;\n  audit('connecting');\n  conn = await openConnection('db://x');\n  return conn;\n}`;
    expect(effectOf(m, `const c = await getConn();\nvoid c;`)).toBeUndefined();
  });

  it('fill inside `if (!client)`, `== null` and a Map keyed by a parameter: not effects', () => {
    expect(effectOf(`let client: Conn | null = null;\nfunction getClient(token: string): Conn {\n  if (!client) {\n    client = makeClient(token);\n  }\n  return client;\n}`, `getClient(token);`)).toBeUndefined();
    expect(effectOf(`let client: Conn | null = null;\nfunction getClient(token: string): Conn {\n  if (client == null) client = makeClient(token);\n  return client;\n}`, `getClient(token);`)).toBeUndefined();
    const byRegion = `const clients = new Map<string, Conn>();\nfunction clientFor(region: string): Conn {\n  if (clients.has(region)) return clients.get(region)!;\n  const c = makeClient(region);\n  clients.set(region, c);\n  return c;\n}`;
    expect(effectOf(byRegion, `clientFor(region);`)).toBeUndefined();
    const alias = `const clients = new Map<string, Conn>();\nfunction clientFor(region: string): Conn {\n  const hit = clients.get(region);\n  if (hit) return hit;\n  const c = makeClient(region);\n  clients.set(region, c);\n  return c;\n}`;
    expect(effectOf(alias, `clientFor(region);`)).toBeUndefined();
  });

  it('a memoiser calling another memoiser first: not an effect', () => {
    const m = `let base: Conn | undefined;\nfunction getBase(): Conn {\n  if (!base) base = makeClient('t');\n  return base;\n}\nlet wrapped: Conn | undefined;\nfunction getWrapped(): Conn {\n  getBase();\n  if (!wrapped) wrapped = makeClient('w');\n  return wrapped;\n}`;
    expect(effectOf(m, `getWrapped();`)).toBeUndefined();
  });

  it('a counter, or a write outside the guarded path, stays an effect', () => {
    expect(effectOf(`let calls = 0;\nfunction count(): number {\n  calls++;\n  return calls;\n}`, `count();`)).toBe('count()');
    expect(effectOf(`let client: Conn | undefined;\nlet used = 0;\nfunction getClient(): Conn {\n  used = used + 1;\n  if (!client) client = makeClient('t');\n  return client;\n}`, `getClient();`)).toBe('getClient()');
    // the log line runs on every call, not only while the cache is unset
    expect(effectOf(`let client: Conn | undefined;\nfunction getClient(): Conn {\n  audit('get');\n  if (!client) client = makeClient('t');\n  return client;\n}`, `getClient();`)).toBe('getClient()');
    // the guarded path writes something besides its cache (the function's contract is to fill one cache)
    expect(effectOf(`let client: Conn | undefined;\nlet made = 0;\nfunction getClient(): Conn {\n  if (!client) {\n    made++;\n    client = makeClient('t');\n  }\n  return client;\n}`, `getClient();`)).toBe('getClient()');
  });

  it('a fill that may leave the cache unset, or a cache cleared elsewhere, stays an effect', () => {
    // the filled value may be undefined: the next call would open another connection
    expect(effectOf(`let conn: Conn | undefined;\ndeclare function maybe(): Conn | undefined;\nfunction getConn(): Conn | undefined {\n  if (!conn) conn = maybe();\n  return conn;\n}`, `getConn();`)).toBe('getConn()');
    // a return (or throw) between the effect and the fill leaves the cache unset after the effect
    expect(effectOf(`let conn: Conn | undefined;\nfunction getConn(flag: boolean): Conn | undefined {\n  if (conn) return conn;\n  audit('connecting');\n  if (flag) return undefined;\n  conn = makeClient('t');\n  return conn;\n}`, `getConn(true);`)).toBe('getConn(true)');
    expect(effectOf(`let conn: Conn | undefined;\nfunction getConn(flag: boolean): Conn {\n  if (!conn) {\n    audit('connecting');\n    if (flag) throw new Error('offline');\n    conn = makeClient('t');\n  }\n  return conn;\n}`, `getConn(true);`)).toBe('getConn(true)');
    // filled only on one branch
    expect(effectOf(`let conn: Conn | undefined;\nfunction getConn(flag: boolean): Conn | undefined {\n  if (!conn) {\n    if (flag) conn = makeClient('t');\n  }\n  return conn;\n}`, `getConn(true);`)).toBe('getConn(true)');
    // the handler (or any other code) clears it: the next round would build it again
    const cleared = `let client: Conn | undefined;\nfunction getClient(): Conn {\n  if (!client) client = makeClient('t');\n  return client;\n}\nfunction reset(): void {\n  client = undefined;\n}`;
    expect(effectOf(cleared, `getClient();`)).toBe('getClient()');
    const destructured = `let client: Conn | undefined;\nfunction getClient(): Conn {\n  if (!client) client = makeClient('t');\n  return client;\n}\nfunction swap(next: Conn[]): void {\n  [client] = next;\n}`;
    expect(effectOf(destructured, `getClient();`)).toBe('getClient()');
    const mapCleared = `const clients = new Map<string, Conn>();\nfunction clientFor(region: string): Conn {\n  if (clients.has(region)) return clients.get(region)!;\n  const c = makeClient(region);\n  clients.set(region, c);\n  return c;\n}\nexport function dropAll(): void { clients.clear(); }`;
    expect(effectOf(mapCleared, `clientFor(region);`)).toBe('clientFor(region)');
    // a cache in a factory's closure: the factory may run again per connection or per request
    expect(effectOf(`function makeGetter(): () => Conn {
  let client: Conn | undefined;
  return () => {
    if (!client) client = makeClient('t');
    return client;
  };
}
const getClient = makeGetter();`, `getClient();`)).toBe('getClient()');
    // a `const` holds no cache; a key the function reassigns does not name one entry
    expect(effectOf(`const clients = new Map<string, Conn>();\nfunction clientFor(region: string): Conn {\n  region = region.trim();\n  if (clients.has(region)) return clients.get(region)!;\n  const c = makeClient(region);\n  clients.set(region, c);\n  return c;\n}`, `clientFor(region);`)).toBe('clientFor(region)');
  });

  it('a cache that another guarded path resets is no cache', () => {
    // getB's cache is cleared by getA's first call (through dropB): getB would build again on the next round
    const m = `let b: Conn | undefined;\nfunction getB(): Conn {\n  if (!b) b = makeClient('b');\n  return b;\n}\nfunction dropB(): void {\n  b = undefined;\n}\nlet a: Conn | undefined;\nfunction getA(): Conn {\n  if (!a) {\n    dropB();\n    a = makeClient('a');\n  }\n  return a;\n}`;
    expect(effectOf(m, `getB();\ngetA();`)).toBe('getB()');
    // a write of the cache that may unset it, even inside the guarded path
    expect(effectOf(`let c: Conn | null = null;\nfunction getC(): Conn | null {\n  if (!c) {\n    c = makeClient('c');\n    c = null;\n  }\n  return c;\n}`, `getC();`)).toBe('getC()');
    // a key check that resets other caches (a client change drops every service built on it)
    const keyed = `let last: Conn | null = null;\nlet docs: Conn | null = null;\nfunction clearAll(): void {\n  docs = null;\n  last = null;\n}\nfunction check(c: Conn): void {\n  if (last !== c) {\n    clearAll();\n    last = c;\n  }\n}\nfunction getDocs(c: Conn): Conn {\n  check(c);\n  if (!docs) docs = makeClient('d');\n  return docs;\n}`;
    expect(effectOf(keyed, `getDocs(makeClient(token));`)).toBeDefined();
  });
});
