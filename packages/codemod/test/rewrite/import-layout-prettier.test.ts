/**
 * The imports the engine writes are laid out as prettier (the repository's pinned devDependency)
 * prints them: formatting the engine's output with the same options leaves its import lines as
 * they are, at prettier's default width and at a configured one.
 */
import * as prettier from 'prettier';
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { ensureNamedImports, mergeNamedImports } from '../../src/engine/rewrite/imports.js';

const SERVER = '@modelcontextprotocol/server';

const CASES: Array<{ name: string; text: string; values: string[]; types: string[] }> = [
  { name: 'an import extended past the width', text: `import { McpServer } from '${SERVER}';\n`, values: ['inputRequired', 'isInputRequiredResult'], types: ['ElicitRequestFormParams', 'ServerContext'] },
  { name: 'an import extended within it', text: `import { McpServer } from '${SERVER}';\n`, values: ['inputRequired'], types: [] },
  { name: 'a new import', text: "import { z } from 'zod';\n", values: ['inputRequired', 'McpServer'], types: ['CallToolResult', 'InputRequiredResult'] },
  { name: 'a default import beside the names', text: `import Server, { McpServer } from '${SERVER}';\n`, values: ['inputRequired'], types: ['CallToolResult', 'InputRequiredResult'] },
  { name: 'a type-only import folded in', text: `import { McpServer } from '${SERVER}';\nimport type { Tool, ServerResult } from '${SERVER}';\n`, values: ['inputRequired'], types: ['CallToolResult'] },
];

function importLines(text: string): string[] {
  return text.match(/^import\b[\s\S]*?;$/gm) ?? [];
}

describe('imports the engine writes, formatted by prettier', () => {
  for (const printWidth of [80, 100]) {
    for (const c of CASES) {
      it(`${c.name} (print width ${printWidth}): prettier changes no import`, async () => {
        const project = new Project({ useInMemoryFileSystem: true });
        project.getFileSystem().writeFileSync('/proj/.prettierrc.json', JSON.stringify({ printWidth, singleQuote: true }));
        const file = project.createSourceFile('/proj/src/a.ts', `${c.text}\nexport const used = 1;\n`);
        ensureNamedImports(file, SERVER, c.values, c.types, 'ts');
        mergeNamedImports(file, SERVER);
        const ours = file.getFullText();
        const formatted = await prettier.format(ours, { parser: 'typescript', printWidth, singleQuote: true });
        expect(importLines(ours)).toEqual(importLines(formatted));
      });
    }
  }
});
