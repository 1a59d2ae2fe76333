/**
 * Finds unit-test mocks of the legacy server-to-client requests (`sendRequest: vi.fn()`,
 * `vi.spyOn(server.server, 'elicitInput')`, `jest.fn()`, hand-written fakes like
 * `sendRequest: async () => ({ action: 'accept' })`, assigned mocks) in test files.
 */
import { CTX_MCPREQ_METHOD_TO_LEGACY, SERVER_METHOD_TO_LEGACY, type LegacyMethod } from '@mcp-mrtr/surface';
import { ts } from 'ts-morph';
import { unwrapTsExpression } from '../find/resolve.js';
import { scriptKindOf } from '../script-kind.js';

/** Test-runner mocking entry points (not MCP API: the runners' own names). */
const MOCK_FACTORIES = new Set(['fn', 'spyOn', 'mock', 'stub', 'fake']);
export const MOCK_NAMESPACES = new Set(['vi', 'jest', 'sinon', 'mock', 't', 'td']);
const TEST_FILE_NAME = /(^|[/\\])(__tests__|__mocks__|tests?)[/\\]|\.(test|spec)\.[cm]?[jt]sx?$/;
const TEST_RUNNER_MODULES = ['vitest', '@jest/globals', 'jest', 'node:test', 'mocha', 'sinon', 'bun:test', 'ava', 'tap'];

const SEND_REQUEST = 'sendRequest';

/** Legacy request method → wire method, for every mockable name. */
export function mockedMethod(name: string): LegacyMethod | 'generic' | undefined {
  if (name === SEND_REQUEST) return 'generic';
  return SERVER_METHOD_TO_LEGACY[name] ?? CTX_MCPREQ_METHOD_TO_LEGACY[name];
}

export function looksLikeTestFile(file: string, text: string): boolean {
  if (TEST_FILE_NAME.test(file)) return true;
  return TEST_RUNNER_MODULES.some((m) => text.includes(`'${m}'`) || text.includes(`"${m}"`));
}

/** `vi.fn` → { namespace: 'vi', name: 'fn' }; `spyOn` → { name: 'spyOn' }. */
export function directCallee(call: ts.CallExpression): { namespace?: string; name?: string } {
  const callee = call.expression;
  if (ts.isPropertyAccessExpression(callee)) {
    return { namespace: ts.isIdentifier(callee.expression) ? callee.expression.text : undefined, name: callee.name.text };
  }
  if (ts.isIdentifier(callee)) return { name: callee.text };
  return {};
}

/** Like `directCallee`, through chained configuration: `vi.fn().mockResolvedValue(...)` → `vi.fn`. */
function calleeParts(call: ts.CallExpression): { namespace?: string; name?: string } {
  const callee = call.expression;
  if (ts.isPropertyAccessExpression(callee) && ts.isCallExpression(callee.expression)) return calleeParts(callee.expression);
  return directCallee(call);
}

function isMockCall(expr: ts.Expression): boolean {
  const e = unwrapTsExpression(expr);
  if (!ts.isCallExpression(e)) return false;
  const { namespace, name } = calleeParts(e);
  if (!name || !MOCK_FACTORIES.has(name)) return false;
  return namespace === undefined || MOCK_NAMESPACES.has(namespace);
}

function isFunctionValue(expr: ts.Expression): boolean {
  const e = unwrapTsExpression(expr);
  return ts.isArrowFunction(e) || ts.isFunctionExpression(e);
}

function propertyName(name: ts.PropertyName | ts.MemberName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name)) return name.text;
  return undefined;
}

export type MockShape =
  /** `{ sendRequest: vi.fn() }`, `{ elicitInput: async () => ... }`, `{ async sendRequest() {} }`: a fake context or server */
  | 'fake-member'
  /** `vi.spyOn(target, 'elicitInput')`, `sinon.stub(target, 'createMessage')` */
  | 'spy'
  /** `server.server.elicitInput = vi.fn()` */
  | 'assigned';

export interface MockMatch {
  node: ts.Node;
  /** The mocked member: `elicitInput`, `sendRequest`, ... */
  name: string;
  /** For the report: `vi.spyOn`, `mock function`, `fake implementation`, `assigned mock`. */
  how: string;
  shape: MockShape;
}

/**
 * The last few parses, by file and text: one test file's stage parses the same text four to five
 * times (its original and pre-mock texts, then the rewritten text; the same text when the file had
 * nothing to rewrite), which was a fifth of a scan of a large non-MCP tree. Nothing changes a parsed
 * tree or its matches (each caller gets its own copy of the list), so a repeated parse is the same.
 * A handful of entries: the repeats come from one file at a time.
 */
const PARSES_KEPT = 4;
const parses = new Map<string, { sourceFile: ts.SourceFile; matches: readonly MockMatch[] }>();

/** Finds the legacy-request mocks in one test file, in source order. */
export function findTestMockNodes(file: string, text: string): { sourceFile: ts.SourceFile; matches: MockMatch[] } {
  const key = `${file}\0${text}`;
  let parsed = parses.get(key);
  if (parsed) parses.delete(key);
  else parsed = parseTestMocks(file, text);
  parses.set(key, parsed);
  if (parses.size > PARSES_KEPT) parses.delete(parses.keys().next().value!);
  return { sourceFile: parsed.sourceFile, matches: [...parsed.matches] };
}

function parseTestMocks(file: string, text: string): { sourceFile: ts.SourceFile; matches: MockMatch[] } {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKindOf(file));
  const matches: MockMatch[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node)) {
      const name = propertyName(node.name);
      if (name && mockedMethod(name) && (isMockCall(node.initializer) || isFunctionValue(node.initializer))) {
        matches.push({ node, name, how: isMockCall(node.initializer) ? 'mock function' : 'fake implementation', shape: 'fake-member' });
      }
    } else if (ts.isMethodDeclaration(node) && ts.isObjectLiteralExpression(node.parent)) {
      const name = propertyName(node.name);
      if (name && mockedMethod(name)) matches.push({ node, name, how: 'fake implementation', shape: 'fake-member' });
    } else if (ts.isCallExpression(node)) {
      const { namespace, name } = directCallee(node);
      const target = node.arguments[1];
      if (
        (name === 'spyOn' || name === 'stub' || name === 'replace') &&
        (namespace === undefined || MOCK_NAMESPACES.has(namespace)) &&
        target &&
        ts.isStringLiteralLike(target) &&
        mockedMethod(target.text)
      ) {
        matches.push({ node, name: target.text, how: `${namespace ? `${namespace}.` : ''}${name}`, shape: 'spy' });
      }
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const left = node.left;
      if (ts.isPropertyAccessExpression(left) && mockedMethod(left.name.text) && (isMockCall(node.right) || isFunctionValue(node.right))) {
        matches.push({ node, name: left.name.text, how: 'assigned mock', shape: 'assigned' });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return { sourceFile, matches };
}
