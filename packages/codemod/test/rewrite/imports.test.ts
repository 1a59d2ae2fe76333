import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { mergeNamedImports } from '../../src/engine/rewrite/imports.js';

function merged(text: string): string {
  const file = new Project({ useInMemoryFileSystem: true }).createSourceFile('/a.ts', text);
  mergeNamedImports(file, '@modelcontextprotocol/server');
  return file.getFullText();
}

describe('mergeNamedImports', () => {
  it('folds a type-only import of the package into its value import, sorted, each name once', () => {
    const out = merged(
      "import { inputRequired, McpServer } from '@modelcontextprotocol/server';\nimport type { Tool, CallToolResult, McpServer as M } from '@modelcontextprotocol/server';\nimport { z } from 'zod';\n",
    );
    expect(out).toBe("import { type CallToolResult, inputRequired, McpServer, type McpServer as M, type Tool } from '@modelcontextprotocol/server';\nimport { z } from 'zod';\n");
  });

  it('leaves imports with a comment, a namespace or another module as written', () => {
    const text =
      "import { McpServer } from '@modelcontextprotocol/server';\n// the tool table's types\nimport type { Tool } from '@modelcontextprotocol/server';\nimport * as sdk from '@modelcontextprotocol/server';\nimport type { Other } from 'other';\n";
    expect(merged(text)).toBe(text);
  });
});
