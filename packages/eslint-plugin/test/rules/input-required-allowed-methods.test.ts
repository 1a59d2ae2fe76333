import { describe } from 'vitest';
import rule from '../../src/rules/input-required-allowed-methods.js';
import { CANONICAL_OUTPUT } from '../helpers/snippets.js';
import { asTesterRule, jsTester, tsTester } from '../helpers/rule-tester.js';

const IMPORT = `import { McpServer, ResourceTemplate, completable, inputRequired } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 'x', version: '1' });\n`;
const ASK = `inputRequired({ inputRequests: { q: inputRequired.elicit({ message: 'q', requestedSchema: {} }) } })`;

const shared = {
  valid: [
    IMPORT + `server.registerTool('t', {}, async (args, ctx) => ${ASK});`,
    IMPORT + `server.registerPrompt('p', {}, async () => { return ${ASK}; });`,
    IMPORT + `server.registerResource('r', 'x://r', {}, async () => ${ASK});`,
    IMPORT + `server.registerResource('r', new ResourceTemplate('x://{id}', { list: undefined }), {}, async (uri) => ${ASK});`,
    IMPORT + `server.server.setRequestHandler('tools/call', async () => ${ASK});`,
    IMPORT + `server.server.setRequestHandler(CallToolRequestSchema, async () => ({ resultType: 'input_required', requestState: s }));`,
    // helper reached from a tool handler
    IMPORT + `function askName() { return ${ASK}; }\nserver.registerTool('t', {}, async () => askName());`,
    // helper whose callers live in other modules: not claimed
    IMPORT + `export function askName() { return ${ASK}; }`,
    // module-level constant, reused by handlers
    IMPORT + `export const ASK_NAME = ${ASK};`,
    // look-alike: a string mentioning input_required, an unrelated resultType
    `console.log('input_required'); const r = { resultType: 'complete' }; setTimeout(() => r, 1);`,
  ],
  invalid: [
    { code: IMPORT + `server.server.setRequestHandler(ListToolsRequestSchema, async () => ${ASK});`, errors: [{ messageId: 'notMrtrHandler' }] },
    { code: IMPORT + `server.server.setRequestHandler('tools/list', async () => ({ resultType: 'input_required', requestState: 's' }));`, errors: [{ messageId: 'notMrtrHandler' }] },
    { code: IMPORT + `server.registerResource('r', new ResourceTemplate('x://{id}', { list: async () => ${ASK}, complete: { id: async () => ${ASK} } }), {}, async () => ({ contents: [] }));`, errors: [{ messageId: 'notMrtrHandler' }, { messageId: 'notMrtrHandler' }] },
    { code: IMPORT + `server.registerPrompt('p', { argsSchema: { lang: completable(z.string(), async () => ${ASK}) } }, async () => ({ messages: [] }));`, errors: [{ messageId: 'notMrtrHandler' }] },
    { code: IMPORT + `server.server.oninitialized = () => { ${ASK}; };`, errors: [{ messageId: 'notMrtrHandler' }] },
    { code: IMPORT + `setTimeout(() => ${ASK}, 10);`, errors: [{ messageId: 'notMrtrHandler' }] },
    { code: IMPORT + `server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => ${ASK});`, errors: [{ messageId: 'notMrtrHandler' }] },
    { code: IMPORT + `client.setRequestHandler('elicitation/create', async () => ${ASK});`, errors: [{ messageId: 'notMrtrHandler' }] },
    // helper reached only from a non-MRTR request handler
    { code: IMPORT + `function ask() { return ${ASK}; }\nserver.server.setRequestHandler('prompts/list', async () => ask());`, errors: [{ messageId: 'notMrtrHandler', line: 3 }] },
    // aliased import
    { code: `import { inputRequired as ir } from '@modelcontextprotocol/server';\nsetInterval(() => ir({ requestState: 's' }), 5);`, errors: [{ messageId: 'notMrtrHandler' }] },
  ],
};

describe('input-required-allowed-methods', () => {
  tsTester.run('typescript', asTesterRule(rule), { valid: [...shared.valid, CANONICAL_OUTPUT], invalid: shared.invalid });
  jsTester.run('javascript', asTesterRule(rule), shared);
});
