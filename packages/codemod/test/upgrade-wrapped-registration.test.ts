/**
 * A project's own wrapper of McpServer's v1 `tool` follows the upgrade's rename of its calls
 * (engine/upgrade-wrapped-registration.ts), the wrapper found behind the casts find/resolve.ts
 * unwrapExpression strips: parentheses, `as`, `!`, `satisfies`, `<T>x`. In-memory files with a
 * stand-in McpServer class (the check reads the receiver's type name).
 */
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { renameWrappedRegistrations } from '../src/engine/upgrade-wrapped-registration.js';

function renamed(wrapper: string): string {
  const text = `class McpServer { tool(...args: any[]): void { void args; } registerTool(...args: any[]): void { void args; } }
const server = new McpServer();
const originalTool = server.tool.bind(server);
(server as any).tool = ${wrapper};
`;
  const file = new Project({ useInMemoryFileSystem: true }).createSourceFile('/server.ts', text);
  renameWrappedRegistrations(file);
  return file.getFullText();
}

const WRAPPER = '(...args: any[]) => { console.log(args[0]); return (originalTool as any)(...args); }';

describe('the wrapper assigned over the registration method', () => {
  it.each([
    ['as written', WRAPPER],
    ['behind `satisfies`', `(${WRAPPER}) satisfies (...args: any[]) => unknown`],
    ['behind `as`', `(${WRAPPER}) as (...args: any[]) => unknown`],
  ])('%s: both references renamed', (_, wrapper) => {
    const out = renamed(wrapper);
    expect(out).toContain('const originalTool = server.registerTool.bind(server);');
    expect(out).toContain('(server as any).registerTool = ');
  });
});
