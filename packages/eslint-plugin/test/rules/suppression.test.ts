/**
 * `// mcp-mrtr-ignore: <reason>`: the rules that report legacy request sites skip a site a reasoned
 * comment covers, and a directive without a reason is reported (and suppresses nothing).
 */
import { describe } from 'vitest';
import noServerInitiatedRequests from '../../src/rules/no-server-initiated-requests.js';
import noDeprecatedClientFeatures from '../../src/rules/no-deprecated-client-features.js';
import { asTesterRule, jsTester, tsTester } from '../helpers/rule-tester.js';

const V1 = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst mcp = new McpServer({ name: 'x', version: '1' });\n`;
const HOOK = (comment: string) => V1 + `mcp.server.oninitialized = async () => {\n  ${comment}\n  const { roots } = await mcp.server.listRoots();\n  console.log(roots);\n};`;

const cases = {
  valid: [
    HOOK('// mcp-mrtr-ignore: roots are read once at start-up, only 2025 clients connect here'),
    HOOK('/* mcp-mrtr-ignore: block comments work too */'),
    // an @mcp-mrtr-todo marker between the directive and the site is skipped
    HOOK('// mcp-mrtr-ignore: kept on purpose\n  // @mcp-mrtr-todo(called from a lifecycle hook): ask inside a handler'),
    // trailing on the site's line
    V1 + `mcp.server.oninitialized = async () => { await mcp.server.listRoots(); }; // mcp-mrtr-ignore: start-up only`,
    // above the statement: every request in it
    V1 + `mcp.tool('t', {}, async () => {\n  // mcp-mrtr-ignore: both answers are optional extras for 2025 clients\n  const [a, b] = await Promise.all([\n    mcp.server.listRoots(),\n    mcp.server.createMessage({ messages: [], maxTokens: 5 }),\n  ]);\n  return { content: [] };\n});`,
  ],
  invalid: [
    // no reason: reported, and the site is still reported
    { code: HOOK('// mcp-mrtr-ignore'), errors: [{ messageId: 'suppressionWithoutReason', line: 4 }, { messageId: 'legacyRequestOutsideHandler', line: 5 }] },
    { code: HOOK('// mcp-mrtr-ignore:   '), errors: [{ messageId: 'suppressionWithoutReason' }, { messageId: 'legacyRequestOutsideHandler' }] },
    // a reasoned directive covers only the next line of code, not one further down
    { code: V1 + `mcp.server.oninitialized = async () => {\n  // mcp-mrtr-ignore: only the first\n  const first = await mcp.server.listRoots();\n  const second = await mcp.server.listRoots();\n};`, errors: [{ messageId: 'legacyRequestOutsideHandler', line: 6 }] },
    // a trailing directive does not reach the next line
    { code: V1 + `mcp.server.oninitialized = async () => {\n  log(); // mcp-mrtr-ignore: about log\n  await mcp.server.listRoots();\n};`, errors: [{ messageId: 'legacyRequestOutsideHandler', line: 5 }] },
    // a reasonless directive in a file without legacy requests is reported too
    { code: `// mcp-mrtr-ignore\nexport const x = 1;`, errors: [{ messageId: 'suppressionWithoutReason', line: 1 }] },
  ],
};

describe('mcp-mrtr-ignore in no-server-initiated-requests', () => {
  tsTester.run('typescript', asTesterRule(noServerInitiatedRequests), cases);
  jsTester.run('javascript', asTesterRule(noServerInitiatedRequests), cases);
});

describe('mcp-mrtr-ignore in no-deprecated-client-features', () => {
  tsTester.run('typescript', asTesterRule(noDeprecatedClientFeatures), {
    valid: [cases.valid[0]!, cases.valid[4]!],
    invalid: [{ code: HOOK('// mcp-mrtr-ignore'), errors: [{ messageId: 'deprecatedRoots' }] }],
  });
});
