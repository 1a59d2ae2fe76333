import { describe } from 'vitest';
import rule from '../../src/rules/no-empty-input-required.js';
import { CANONICAL_OUTPUT } from '../helpers/snippets.js';
import { asTesterRule, jsTester, tsTester } from '../helpers/rule-tester.js';

const IMPORT = `import { inputRequired } from '@modelcontextprotocol/server';\n`;

const shared = {
  valid: [
    IMPORT + `inputRequired({ inputRequests: { a: inputRequired.elicit({ message: 'a', requestedSchema: {} }), b: inputRequired.elicitUrl({ message: 'b', url: 'https://x' }), c: inputRequired.createMessage({ messages: [] }), d: inputRequired.listRoots() } });`,
    IMPORT + `inputRequired({ requestState: token });`,
    IMPORT + `inputRequired({ inputRequests: { a: { method: 'elicitation/create', params: {} } }, requestState: s });`,
    IMPORT + `inputRequired(spec);`,
    IMPORT + `inputRequired({ ...base });`,
    IMPORT + `const requests = { r: inputRequired.listRoots() };\ninputRequired({ inputRequests: requests });`,
    IMPORT + `inputRequired({ inputRequests: buildRequests() });`,
    IMPORT + `inputRequired({ inputRequests: { [key]: request } });`,
    `const r = { resultType: 'input_required', inputRequests: { a: { method: 'roots/list' } } };`,
    // error data and nested descriptors are not results
    `throw new SdkError(code, 'unsupported', { resultType: 'input_required', method: m });`,
    `const info = { kind: { resultType: 'input_required' } };`,
    // starts empty, filled under conditions before the return (the SDK's multi-question pattern)
    IMPORT + `export function ask(ctx) {\n  const missing = {};\n  if (!ctx.name) missing.name = inputRequired.elicit({ message: 'Name?', requestedSchema: {} });\n  if (!ctx.roots) missing['roots'] = inputRequired.listRoots();\n  if (Object.keys(missing).length > 0) return inputRequired({ inputRequests: missing });\n  return { content: [] };\n}`,
    IMPORT + `const missing = {};\nObject.assign(missing, pending());\ninputRequired({ inputRequests: missing });`,
    // look-alikes
    `const empty = {}; const result = { resultType: 'complete' }; other({ inputRequests: {} });`,
  ],
  invalid: [
    { code: IMPORT + `inputRequired({});`, errors: [{ messageId: 'empty' }] },
    { code: IMPORT + `inputRequired();`, errors: [{ messageId: 'empty' }] },
    { code: IMPORT + `inputRequired({ inputRequests: undefined, requestState: undefined });`, errors: [{ messageId: 'empty' }] },
    { code: `const r = { resultType: 'input_required' };`, errors: [{ messageId: 'empty' }] },
    { code: `const res = { jsonrpc: '2.0', id: 1, result: { resultType: 'input_required' } };`, errors: [{ messageId: 'empty' }] },
    { code: `handler = () => ({ resultType: 'input_required', inputRequests: {} });`, errors: [{ messageId: 'emptyInputRequests' }] },
    { code: IMPORT + `inputRequired({ inputRequests: {} });`, errors: [{ messageId: 'emptyInputRequests' }] },
    { code: IMPORT + `inputRequired({ inputRequests: {}, requestState: s });`, errors: [{ messageId: 'emptyInputRequests' }] },
    // read but never filled: still empty
    { code: IMPORT + `const missing = {};\nconsole.log(missing.name);\ninputRequired({ inputRequests: missing });`, errors: [{ messageId: 'emptyInputRequests' }] },
    { code: IMPORT + `inputRequired({ inputRequests: { a: { method: 'tools/call', params: {} } } });`, errors: [{ messageId: 'notAnInputRequest' }] },
    { code: IMPORT + `inputRequired({ inputRequests: { a: 'please answer', b: null, c: { message: 'x' } } });`, errors: [{ messageId: 'notAnInputRequest' }, { messageId: 'notAnInputRequest' }, { messageId: 'notAnInputRequest' }] },
    { code: IMPORT + `inputRequired({ inputRequests: { p: inputRequired.ping() } });`, errors: [{ messageId: 'unknownBuilder' }] },
    { code: `const r = { resultType: 'input_required', inputRequests: { x: { method: 'ping' } } };`, errors: [{ messageId: 'notAnInputRequest' }] },
    { code: `import { inputRequired as ir } from '@modelcontextprotocol/server';\nir({});`, errors: [{ messageId: 'empty' }] },
  ],
};

describe('no-empty-input-required', () => {
  tsTester.run('typescript', asTesterRule(rule), {
    valid: [...shared.valid, CANONICAL_OUTPUT],
    invalid: [...shared.invalid, { code: IMPORT + `inputRequired({ inputRequests: {} as InputRequests });`, errors: [{ messageId: 'emptyInputRequests' }] }],
  });
  jsTester.run('javascript', asTesterRule(rule), shared);
});
