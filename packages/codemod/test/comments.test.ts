import { describe, expect, it } from 'vitest';
import { ts } from 'ts-morph';
import { migrateSource } from '../src/index.js';
import { restoreComments } from '../src/engine/comments.js';

/** Every comment of a text, indentation-insensitive, in order. */
function commentsOf(text: string): string[] {
  const out: string[] = [];
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia)
      out.push(
        scanner
          .getTokenText()
          .split('\n')
          .map((l) => l.trim())
          .join('\n'),
      );
  }
  return out;
}

const V1_SERVER = `/**
 * Notes server: keeps notes for the session.
 * @module notes
 */

// SDK entry points
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'; // stdio for the CLI
/* result types used by the handlers */
import { CallToolResult, McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const server = new McpServer({ name: 'notes', version: '1.0.0' });

// adding a note: the only write
server.tool('add', 'Adds a note', { text: z.string() }, async ({ text }): Promise<CallToolResult> => {
  // an empty note is a caller error, not a server error
  if (!text) throw new McpError(ErrorCode.InvalidParams, 'empty'); // reject empty notes
  /* the note itself */
  return { content: [{ type: 'text', text }] };
});

await server.connect(new StdioServerTransport());
`;

describe('comments survive the migration', () => {
  it('a v1 file keeps its file-header doc comment, the comments on its imports and inside handlers (upgrade and stdio hosting)', async () => {
    const result = await migrateSource(V1_SERVER, 'notes.ts');
    const output = result.output!;
    expect(output).toContain('serveStdio(createServer);');
    expect(output).toContain(`from '@modelcontextprotocol/server'`);
    // every comment, none lost
    const missing = [...commentsOf(V1_SERVER)];
    for (const c of commentsOf(output)) {
      const at = missing.indexOf(c);
      if (at >= 0) missing.splice(at, 1);
    }
    expect(missing).toEqual([]);
    // ... each where it was: the header first, the import comments on their imports, the handler's in it
    expect(output.startsWith('/**\n * Notes server: keeps notes for the session.\n * @module notes\n */\n\n// SDK entry points\nimport ')).toBe(true);
    // the stdio import became the serveStdio import: its comment stays on it
    expect(output).toMatch(/^import \{ serveStdio \} from '@modelcontextprotocol\/server\/stdio'; \/\/ stdio for the CLI$/m);
    expect(output).toMatch(/\/\/ adding a note: the only write\n\s*server\.registerTool\('add'/);
    expect(output).toMatch(/\/\/ an empty note is a caller error, not a server error\n\s*if \(!text\)/);
    expect(output).toMatch(/'empty'\); \/\/ reject empty notes\n/);
  });
});

describe('restoreComments', () => {
  it('puts a dropped file header back at the top, with its blank line', () => {
    const before = `/**\n * Header.\n */\n\nimport { a } from 'x';\nexport const b = a;\n`;
    const after = `import { a } from "y";\nexport const b = a;\n`;
    expect(restoreComments(before, after, ts.ScriptKind.TS)).toEqual({ text: `/**\n * Header.\n */\n\nimport { a } from "y";\nexport const b = a;\n`, restored: 1, lost: [] });
  });

  it('moves a comment left above the wrong statement back to its import (move mode), leaves it in place otherwise', () => {
    const before = `import { z } from 'zod';\n// result types\nimport type { R } from 'old/types';\n\nexport const s = z;\n`;
    const after = `import { z } from 'zod';\nimport type { R } from 'new';\n\n// result types\nexport const s = z;\n`;
    expect(restoreComments(before, after, ts.ScriptKind.TS, { move: true }).text).toBe(`import { z } from 'zod';\n// result types\nimport type { R } from 'new';\n\nexport const s = z;\n`);
    expect(restoreComments(before, after, ts.ScriptKind.TS).text).toBe(after);
  });

  it('re-indents a block comment to its new place and keeps a trailing comment on its line', () => {
    const before = `function f() {\n  /**\n   * Doc.\n   */\n  return g(); // why g\n}\n`;
    const after = `function f() {\n      return g();\n}\n`;
    expect(restoreComments(before, after, ts.ScriptKind.TS).text).toBe(`function f() {\n      /**\n       * Doc.\n       */\n      return g(); // why g\n}\n`);
  });

  it('never writes into code: a line that now ends inside a template literal gets the comment above it', () => {
    const before = 'const a = f(x), // note\n  t = `a\nb`;\n';
    const after = 'const a = f(x), t = `a\nb`;\n';
    expect(restoreComments(before, after, ts.ScriptKind.TS)).toEqual({ text: '// note\nconst a = f(x), t = `a\nb`;\n', restored: 1, lost: [] });
  });

  it('does not put back the doc comment of code that was removed (an inlined helper) in the final pass', () => {
    const before = `/** Helper doc. */\nfunction helper() { return 1; }\nexport const x = helper();\n`;
    const after = `export const x = 1;\n`;
    expect(restoreComments(before, after, ts.ScriptKind.TS)).toEqual({ text: after, restored: 0, lost: [] });
  });
});
