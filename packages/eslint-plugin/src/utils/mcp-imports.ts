/**
 * Values a file takes from MCP packages, traced by typescript-eslint's `ReferenceTracker` rather than
 * by reading import statements by hand: named imports under any alias, namespace imports
 * (`mcp.StdioServerTransport`), `require(...)` destructured or read as a member, and `const` copies
 * of any of them, each resolved through the file's scopes (a shadowing local is not the import).
 */
import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { MCP_PACKAGE_PREFIX, SERVER_CLASSES } from '@mcp-mrtr/surface';
import { getCalleeName, getPropertyName, unwrap } from './ast.js';

type Source = Readonly<TSESLint.SourceCode>;
type Tracker = InstanceType<typeof ASTUtils.ReferenceTracker>;
/** typescript-eslint declares the tracker's own TraceMap / FoundReference types without exporting them. */
type TraceMap = Parameters<Tracker['iterateEsmReferences']>[0];
type FoundReference = ReturnType<Tracker['iterateEsmReferences']> extends IterableIterator<infer R> ? R : never;
/**
 * The tracker typescript-eslint hands out is @eslint-community/eslint-utils' (^4.9.1, which has
 * `iteratePropertyReferences`: the references reached from one expression); its declaration omits it.
 */
type PropertyTracker = Tracker & { iteratePropertyReferences(node: TSESTree.Node, traceMap: TraceMap): IterableIterator<FoundReference> };

/**
 * What to trace inside each MCP module: export name → `{ [ASTUtils.ReferenceTracker.CONSTRUCT]: info }` (or
 * `CALL`, `READ`, nested member names), `info` coming back on each reference found.
 */
export type ExportTraceMap = TraceMap;

export interface McpReference<T> {
  /** The `new` / call expression, or the member / identifier read. */
  readonly node: TSESTree.Node;
  readonly info: T;
}

const isMcpModule = (specifier: unknown): specifier is string => typeof specifier === 'string' && specifier.startsWith(MCP_PACKAGE_PREFIX);

/** The MCP module specifiers the file imports (`ReferenceTracker` matches ES modules by exact specifier). */
function importedMcpModules(sourceCode: Source): string[] {
  const modules = new Set<string>();
  for (const statement of sourceCode.ast.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration && isMcpModule(statement.source.value)) modules.add(statement.source.value);
  }
  return [...modules];
}

/**
 * `require('@modelcontextprotocol/…')` calls. `ReferenceTracker.iterateCjsReferences` only sees a
 * `require` the config declares as a global, and TypeScript configs seldom declare Node's globals
 * (typescript-eslint advises turning `no-undef` off), so an undeclared `require` counts too: a
 * reference no scope of the file resolves.
 */
function mcpRequireCalls(sourceCode: Source): TSESTree.CallExpression[] {
  const globalScope = sourceCode.scopeManager!.globalScope!;
  const declared = globalScope.set.get('require');
  const references = [...globalScope.through, ...(declared && declared.defs.length === 0 ? declared.references : [])];
  const calls: TSESTree.CallExpression[] = [];
  for (const { identifier } of references) {
    const call = identifier.parent;
    if (identifier.name !== 'require' || call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== identifier || !call.arguments[0]) continue;
    if (isMcpModule(ASTUtils.getStringIfConstant(call.arguments[0], sourceCode.getScope(call)))) calls.push(call);
  }
  return calls;
}

/**
 * Every reference `exports` asks for, to an export of any MCP module the file imports or requires.
 * `T` is the type of the `info` values the caller put in `exports`.
 */
export function mcpExportReferences<T = true>(sourceCode: Source, exports: ExportTraceMap): McpReference<T>[] {
  const modules = importedMcpModules(sourceCode);
  const requires = mcpRequireCalls(sourceCode);
  if (modules.length === 0 && requires.length === 0) return [];
  const tracker = new ASTUtils.ReferenceTracker(sourceCode.scopeManager!.globalScope!) as PropertyTracker;
  // ESM: a namespace import is the module itself, not a CommonJS default export
  const traceMap = Object.fromEntries(modules.map((module) => [module, { [ASTUtils.ReferenceTracker.ESM]: true, ...exports }]));
  const found = [...tracker.iterateEsmReferences(traceMap), ...requires.flatMap((call) => [...tracker.iteratePropertyReferences(call, exports)])];
  return found.map((ref) => ({ node: ref.node, info: ref.info as T }));
}

const serverConstructions = new WeakMap<TSESTree.Program, ReadonlySet<TSESTree.Node>>();

/**
 * `new McpServer(…)` / `new Server(…)`: the class named as the SDK names it (whatever module it
 * comes from: a project may re-export the SDK's classes), or an MCP package's server class under
 * another name (`import { Server as LowLevel }`, `const { McpServer: S } = require(…)`).
 */
export function isServerConstruction(sourceCode: Source, node: TSESTree.NewExpression): boolean {
  if ((SERVER_CLASSES as readonly string[]).includes(getCalleeName(node) ?? '')) return true;
  let traced = serverConstructions.get(sourceCode.ast);
  if (!traced) {
    const exports = Object.fromEntries(SERVER_CLASSES.map((name) => [name, { [ASTUtils.ReferenceTracker.CONSTRUCT]: true }]));
    traced = new Set(mcpExportReferences(sourceCode, exports).map((ref) => ref.node));
    serverConstructions.set(sourceCode.ast, traced);
  }
  return traced.has(node);
}

const tracedCalls = new WeakMap<TSESTree.Program, Map<string, ReadonlySet<TSESTree.Node>>>();

/** Calls an MCP import traces to `path` (`['inputRequired']`, `['inputRequired', 'elicit']`), once per file and path. */
function tracedMcpCalls(sourceCode: Source, path: readonly [string, ...string[]]): ReadonlySet<TSESTree.Node> {
  let perFile = tracedCalls.get(sourceCode.ast);
  if (!perFile) {
    perFile = new Map();
    tracedCalls.set(sourceCode.ast, perFile);
  }
  const key = path.join('.');
  let calls = perFile.get(key);
  if (!calls) {
    const exports = path.reduceRight<TraceMap>((inner, name) => ({ [name]: inner }), { [ASTUtils.ReferenceTracker.CALL]: true } as unknown as TraceMap);
    calls = new Set(mcpExportReferences(sourceCode, exports).map((ref) => ref.node));
    perFile.set(key, calls);
  }
  return calls;
}

/** `inputRequired(…)` for `['inputRequired']`, `inputRequired.elicit(…)` for `['inputRequired', 'elicit']`, as written. */
function calleeSpellsPath(call: TSESTree.CallExpression, path: readonly [string, ...string[]]): boolean {
  let node = unwrap(call.callee);
  for (let i = path.length - 1; i > 0; i--) {
    if (node.type !== AST_NODE_TYPES.MemberExpression || getPropertyName(node) !== path[i]) return false;
    node = unwrap(node.object);
  }
  return node.type === AST_NODE_TYPES.Identifier && node.name === path[0];
}

/**
 * Does `call` call the MCP export at `path`? Either spelled with the export's own name (however it
 * came into scope: a project may re-export the SDK's functions from a module of its own), or
 * reached from an MCP import or require under another name (`import { inputRequired as ir }`,
 * `mcp.inputRequired(…)` through a namespace, `const { inputRequired: ask } = require(…)`).
 */
export function callsMcpExport(sourceCode: Source, call: TSESTree.CallExpression, path: readonly [string, ...string[]]): boolean {
  return calleeSpellsPath(call, path) || tracedMcpCalls(sourceCode, path).has(call);
}
