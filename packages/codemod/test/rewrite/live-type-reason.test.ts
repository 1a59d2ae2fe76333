/**
 * A live value the phase form would carry in requestState, whose type is declared in a module its
 * file does not import (and is no plain JSON shape to write out): the reason names the value with
 * its file and line (it is read at the request, here in a helper's module) and says where its type is.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { migrateTempProject, removeTempProjects } from '../temp-project.js';

afterAll(removeTempProjects);

const TYPES = `export interface Draft {
  title: string;
  meta: Record<string, unknown>;
}
`;

const STORE = `import type { Draft } from './types.js';

let current: Draft | null = null;

export const currentDraft = () => current;
export const keep = (draft: Draft) => {
  current = draft;
};
`;

const ROOTS = `import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

export async function insideRoots(server: Server, target: string): Promise<boolean> {
  const { roots } = await server.listRoots();
  return roots.some((root) => target.startsWith(new URL(root.uri).pathname));
}
`;

const TOOLS = `import { writeFile } from 'node:fs/promises';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { currentDraft } from './store.js';
import { insideRoots } from './roots.js';

export function registerTools(mcp: McpServer): void {
  mcp.registerTool('save', { inputSchema: { target: z.string() } }, async ({ target }) => {
    await writeFile('/tmp/save.log', target);
    const draft = currentDraft();
    if (!draft) return { content: [{ type: 'text', text: 'nothing to save' }] };
    if (!(await insideRoots(mcp.server, target))) return { content: [{ type: 'text', text: 'outside the roots' }] };
    await writeFile(target, draft.title);
    return { content: [{ type: 'text', text: 'saved' }] };
  });
}
`;

describe('live value of a type declared in a module its file does not import', () => {
  it('names the value with its file and where its type is declared', async () => {
    const project = await migrateTempProject('live-type', { 'src/types.ts': TYPES, 'src/store.ts': STORE, 'src/roots.ts': ROOTS, 'src/tools.ts': TOOLS });
    const site = project.file('roots.ts')!.sites.find((s) => s.method === 'roots/list')!;
    expect(site.status).toBe('flagged');
    expect(site.reason).toContain(
      'live value `draft` (line 10 of tools.ts) has a type the rewrite cannot name in the state type: its type `Draft` is declared in types.ts, which tools.ts does not import, and is not a plain JSON shape to write out',
    );
  });
});
