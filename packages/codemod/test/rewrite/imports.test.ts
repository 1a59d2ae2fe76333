import { Project, type SourceFile } from 'ts-morph';
import { describe, expect, it, vi } from 'vitest';
import { dropUnusedImports, ensureNamedImports, ensureNamedImportsOf, layoutGeneratedImports, mergeNamedImports } from '../../src/engine/rewrite/imports.js';
import { upgradeV1Source } from '../../src/engine/upgrade.js';

const SERVER = '@modelcontextprotocol/server';

/** A file in an in-memory project, with other files (a prettier configuration) beside it. */
function fileOf(text: string, others: Record<string, string> = {}, name = '/proj/src/a.ts'): SourceFile {
  const project = new Project({ useInMemoryFileSystem: true });
  for (const [file, content] of Object.entries(others)) project.getFileSystem().writeFileSync(file, content);
  return project.createSourceFile(name, text);
}

function merged(text: string): string {
  const file = fileOf(text);
  mergeNamedImports(file, SERVER);
  return file.getFullText();
}

/** The file after the rewrite's import of `values` and `types` from the server package. */
function ensured(text: string, values: string[], types: string[] = [], others: Record<string, string> = {}, name?: string): string {
  const file = fileOf(text, others, name);
  ensureNamedImports(file, SERVER, values, types, name?.endsWith('.cjs') ? 'cjs' : 'ts');
  return file.getFullText();
}

const REST = "import { z } from 'zod';\n";

describe('mergeNamedImports', () => {
  it('folds a type-only import of the package into its value import, sorted, each name once', () => {
    const out = merged(`import { inputRequired, McpServer } from '${SERVER}';\nimport type { Tool, CallToolResult, McpServer as M } from '${SERVER}';\n${REST}`);
    expect(out).toBe(`import {\n  type CallToolResult,\n  inputRequired,\n  McpServer,\n  type McpServer as M,\n  type Tool,\n} from '${SERVER}';\n${REST}`);
  });

  it('leaves imports with a comment, a namespace or another module as written', () => {
    const text = `import { McpServer } from '${SERVER}';\n// the tool table's types\nimport type { Tool } from '${SERVER}';\nimport * as sdk from '${SERVER}';\nimport type { Other } from 'other';\n`;
    expect(merged(text)).toBe(text);
  });
});

describe('ensureNamedImports: line length', () => {
  it('keeps an extended import on its line while it fits 80 characters, and breaks it one name per line past them, as prettier does', () => {
    expect(ensured(`import { McpServer } from '${SERVER}';\n${REST}`, ['inputRequired'])).toBe(`import { inputRequired, McpServer } from '${SERVER}';\n${REST}`);
    expect(ensured(`import { McpServer } from '${SERVER}';\n${REST}`, ['inputRequired'], ['ElicitRequestFormParams'])).toBe(
      `import {\n  type ElicitRequestFormParams,\n  inputRequired,\n  McpServer,\n} from '${SERVER}';\n${REST}`,
    );
  });

  it('without a prettier configuration, allows the length of the longest one-line import the file already has', () => {
    const own = "import { appendFile, copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';\n"; // 111 characters
    const out = ensured(`import { McpServer } from '${SERVER}';\n${own}`, ['inputRequired'], ['ElicitRequestFormParams']);
    expect(out).toBe(`import { type ElicitRequestFormParams, inputRequired, McpServer } from '${SERVER}';\n${own}`); // 102 characters
    expect(ensured(`import { McpServer } from '${SERVER}';\n${own}`, ['inputRequired', 'isInputRequiredResult'], ['ElicitRequestFormParams'])).toMatch(/^import \{\n  type ElicitRequestFormParams,\n/);
  });

  it("takes the print width, indentation and trailing comma from the project's prettier configuration", () => {
    const text = `import { McpServer } from '${SERVER}';\n${REST}`;
    const wide = { '/proj/.prettierrc.json': JSON.stringify({ printWidth: 120 }) };
    expect(ensured(text, ['inputRequired'], ['ElicitRequestFormParams'], wide)).toBe(`import { type ElicitRequestFormParams, inputRequired, McpServer } from '${SERVER}';\n${REST}`);
    const narrow = { '/proj/package.json': JSON.stringify({ name: 'p', prettier: { printWidth: 40, tabWidth: 4, trailingComma: 'none' } }) };
    expect(ensured(text, ['inputRequired'], [], narrow)).toBe(`import {\n    inputRequired,\n    McpServer\n} from '${SERVER}';\n${REST}`);
    const yaml = { '/proj/.prettierrc': 'printWidth: 40\nuseTabs: true\noverrides:\n  - files: "*.md"\n    options:\n      printWidth: 200\n' };
    expect(ensured(text, ['inputRequired'], [], yaml)).toBe(`import {\n\tinputRequired,\n\tMcpServer,\n} from '${SERVER}';\n${REST}`);
  });

  it("follows a prettier override for the file and, with no prettier configuration, the .editorconfig's section for it", () => {
    const text = `import { McpServer } from '${SERVER}';\n${REST}`;
    const broken = `import {\n  type ElicitRequestFormParams,\n  inputRequired,\n  McpServer,\n} from '${SERVER}';\n${REST}`;
    const oneLine = `import { type ElicitRequestFormParams, inputRequired, McpServer } from '${SERVER}';\n${REST}`;
    const override = { '/proj/.prettierrc.json': JSON.stringify({ overrides: [{ files: 'src/**/*.ts', options: { printWidth: 120 } }] }) };
    expect(ensured(text, ['inputRequired'], ['ElicitRequestFormParams'], override)).toBe(oneLine);
    expect(ensured(text, ['inputRequired'], ['ElicitRequestFormParams'], override, '/proj/lib/a.ts')).toBe(broken);
    const editorconfig = { '/proj/.editorconfig': '[*.ts]\nmax_line_length = 120\nindent_style = tab\n[*.md]\nmax_line_length = 40\n' };
    expect(ensured(text, ['inputRequired'], ['ElicitRequestFormParams'], editorconfig)).toBe(oneLine);
    expect(ensured(text, ['inputRequired', 'isInputRequiredResult'], ['ElicitRequestFormParams', 'ServerContext'], editorconfig)).toMatch(/^import \{\n\ttype ElicitRequestFormParams,\n/);
    // an .editorconfig without a width leaves the file's own rule: its longest one-line import (111 characters) still fits
    const own = "import { appendFile, copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';\n";
    const tabsOnly = { '/proj/.editorconfig': '[*]\nindent_style = tab\n' };
    expect(ensured(`import { McpServer } from '${SERVER}';\n${own}`, ['inputRequired'], ['ElicitRequestFormParams'], tabsOnly)).toBe(`import { type ElicitRequestFormParams, inputRequired, McpServer } from '${SERVER}';\n${own}`);
  });

  it('never breaks a list of one name, however long', () => {
    const text = `${REST}`;
    const out = ensured(text, ['aVeryLongExportedNameThatNoPrintWidthOfEightyCharactersCouldHold']);
    expect(out).toBe(`${REST}import { aVeryLongExportedNameThatNoPrintWidthOfEightyCharactersCouldHold } from '${SERVER}';\n`);
  });

  it('keeps a list the file wrote one name per line so, with its own indentation and trailing comma', () => {
    const text = `import {\n    McpServer,\n    type Tool\n} from '${SERVER}';\n`;
    expect(ensured(text, ['inputRequired'])).toBe(`import {\n    inputRequired,\n    McpServer,\n    type Tool\n} from '${SERVER}';\n`);
  });

  it("writes a new import with the file's quotes and semicolons, broken when it is too long", () => {
    const text = 'import { z } from "zod"\n';
    expect(ensured(text, ['inputRequired', 'McpServer'])).toBe(`${text}import { inputRequired, McpServer } from "${SERVER}"\n`);
    expect(ensured(text, ['inputRequired', 'isInputRequiredResult', 'McpServer'], ['ServerContext'])).toBe(
      `${text}import {\n  inputRequired,\n  isInputRequiredResult,\n  McpServer,\n  type ServerContext,\n} from "${SERVER}"\n`,
    );
  });

  it('breaks a require pattern it extends the same way, at the start of its line', () => {
    const text = `const { McpServer } = require('${SERVER}');\nconst { z } = require('zod');\n`;
    expect(ensured(text, ['inputRequired', 'isInputRequiredResult'], [], {}, '/proj/src/a.cjs')).toBe(
      `const {\n  inputRequired,\n  isInputRequiredResult,\n  McpServer,\n} = require('${SERVER}');\nconst { z } = require('zod');\n`,
    );
  });
});

describe('ensureNamedImports: order', () => {
  const wide = { '/proj/.prettierrc.json': JSON.stringify({ printWidth: 200 }) };

  it("sorts like the file's own lists: values before types where the file puts them so", () => {
    const text = `import { McpServer, type Tool } from '${SERVER}';\nimport { CallToolResultSchema, type CallToolRequest } from 'other';\n`;
    expect(ensured(text, ['inputRequired'], ['CallToolResult'], wide)).toBe(
      `import { inputRequired, McpServer, type CallToolResult, type Tool } from '${SERVER}';\nimport { CallToolResultSchema, type CallToolRequest } from 'other';\n`,
    );
  });

  it('upper case before lower case where the file sorts by code point', () => {
    const text = `import { McpServer } from '${SERVER}';\nimport { Zebra, apple } from 'other';\n`;
    expect(ensured(text, ['inputRequired'], [], wide)).toBe(`import { McpServer, inputRequired } from '${SERVER}';\nimport { Zebra, apple } from 'other';\n`);
  });

  it('adds the names last where the file keeps its lists in no order', () => {
    const text = `import { McpServer, type Tool } from '${SERVER}';\nimport { zeta, alpha } from 'other';\n`;
    expect(ensured(text, ['inputRequired'], [], wide)).toBe(`import { McpServer, type Tool, inputRequired } from '${SERVER}';\nimport { zeta, alpha } from 'other';\n`);
  });
});

describe('ensureNamedImportsOf', () => {
  const requests = [
    { specifier: './mcp-request-state.js', values: ['argumentsDigest', 'requestStateCodec'], types: [] },
    { specifier: '../shared/mcp-client-capabilities.js', values: ['requireClientCapability'], types: [] },
    { specifier: SERVER, values: ['inputRequired'], types: [] },
    { specifier: './mcp-input-responses.js', values: ['readElicitResult', 'readRoots'], types: [] },
  ];
  const text = `import { McpServer } from '${SERVER}';\n${REST}\nnew McpServer();\n`;

  it('writes what one ensureNamedImports per module in turn writes, the new imports in one edit of the file', () => {
    const one = fileOf(text);
    for (const r of requests) ensureNamedImports(one, r.specifier, r.values, r.types, 'ts');
    const batched = fileOf(text);
    let edits = 0;
    batched.onModified(() => edits++);
    ensureNamedImportsOf(batched, requests, 'ts');
    expect(batched.getFullText()).toBe(one.getFullText());
    expect(batched.getFullText()).toContain(`import { z } from 'zod';\nimport { argumentsDigest, requestStateCodec } from './mcp-request-state.js';\nimport { requireClientCapability } from '../shared/mcp-client-capabilities.js';\nimport { readElicitResult, readRoots } from './mcp-input-responses.js';\n`);
    // the server import extended in place, the three new ones appended together
    expect(edits).toBe(2);
  });

  it('writes two requests of one module once, with the names of both (the test-mock stage asks once per driven call)', () => {
    const codec = { specifier: './mcp-request-state.js', values: ['requestStateCodec'], types: [] };
    const twice = fileOf(text);
    ensureNamedImportsOf(twice, [codec, { ...codec, values: ['argumentsDigest', 'requestStateCodec'] }, codec], 'ts');
    const once = fileOf(text);
    ensureNamedImportsOf(once, [{ ...codec, values: ['requestStateCodec', 'argumentsDigest'] }], 'ts');
    expect(twice.getFullText()).toBe(once.getFullText());
    expect(twice.getFullText().match(/from '\.\/mcp-request-state\.js'/g)).toHaveLength(1);
    const cjs = fileOf(`const { McpServer } = require('${SERVER}');\n`, {}, '/proj/src/a.cjs');
    ensureNamedImportsOf(cjs, [codec, codec], 'cjs');
    expect(cjs.getFullText().match(/require\('\.\/mcp-request-state\.js'\)/g)).toHaveLength(1);
  });

  it('takes a file without imports, or a CommonJS one, one module at a time, with the same text', () => {
    for (const [source, flavour, name] of [
      ['new McpServer();\n', 'ts', '/proj/src/a.ts'],
      [`const { McpServer } = require('${SERVER}');\nnew McpServer();\n`, 'cjs', '/proj/src/a.cjs'],
    ] as const) {
      const one = fileOf(source, {}, name);
      for (const r of requests) ensureNamedImports(one, r.specifier, r.values, r.types, flavour);
      const batched = fileOf(source, {}, name);
      ensureNamedImportsOf(batched, requests, flavour);
      expect(batched.getFullText()).toBe(one.getFullText());
    }
  });
});

describe('dropUnusedImports', () => {
  it('puts a broken list left with one name back on one line', () => {
    const file = fileOf(`import {\n  McpServer,\n  StdioServerTransport,\n} from '${SERVER}';\nnew McpServer();\n`);
    dropUnusedImports(file, ['StdioServerTransport']);
    expect(file.getFullText()).toBe(`import { McpServer } from '${SERVER}';\nnew McpServer();\n`);
  });

  it('keeps a name used outside the imports (JSDoc included, under its alias), drops one used only by imports', () => {
    const file = fileOf(
      `import { ElicitResultSchema, ListRootsResultSchema as Roots, CreateMessageResultSchema } from '${SERVER}';\nexport { CreateMessageResultSchema as C2 } from '${SERVER}';\n/** @see {Roots} */\nexport const x = 1;\n`,
    );
    dropUnusedImports(file, ['ElicitResultSchema', 'ListRootsResultSchema', 'CreateMessageResultSchema']);
    expect(file.getFullText()).toBe(`import { ListRootsResultSchema as Roots, CreateMessageResultSchema } from '${SERVER}';\nexport { CreateMessageResultSchema as C2 } from '${SERVER}';\n/** @see {Roots} */\nexport const x = 1;\n`);
  });

  it("reads the file's identifiers once, without a ts-morph node for each: every later edit of the file would walk them", () => {
    const file = fileOf(`import { ElicitResultSchema, ListRootsResultSchema } from '${SERVER}';\nconst a = 1, b = a, c = b;\n`);
    const walk = vi.spyOn(file, 'getDescendantsOfKind');
    dropUnusedImports(file, ['ElicitResultSchema', 'ListRootsResultSchema']);
    expect(file.getFullText()).toBe('const a = 1, b = a, c = b;\n');
    expect(walk).not.toHaveBeenCalled();
  });
});

describe('the v1-to-v2 upgrade', () => {
  it("puts the imports it merges in the file's order and breaks them past the print width; imports it leaves alone stay", () => {
    const own = "import { readFile } from 'node:fs/promises';\n";
    const file = fileOf(
      [
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
        'import {\n  CallToolResult,\n  ServerNotification,\n  ServerRequest,\n} from "@modelcontextprotocol/sdk/types.js";',
        own + "const server = new McpServer({ name: 'x', version: '1' });",
        'export type T = [ServerRequest, ServerNotification, CallToolResult, typeof readFile];',
        '',
      ].join('\n'),
    );
    upgradeV1Source(file, 'server');
    expect(file.getFullText()).toContain(`import {\n  CallToolResult,\n  McpServer,\n  ServerNotification,\n  ServerRequest,\n} from '${SERVER}';\n${own}`);
  });
});

describe('layoutGeneratedImports', () => {
  const MODULE = "import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';\nconst { acceptedContent, fromJsonSchema, inputResponse } = require('@modelcontextprotocol/server');\nexport const x = 1;\n";

  it("breaks a generated module's long imports at prettier's width, not at its own long lines", () => {
    const module = fileOf(MODULE, {}, '/proj/src/mcp-request-state.ts');
    layoutGeneratedImports(module);
    expect(module.getFullText()).toBe(
      "import {\n  createCipheriv,\n  createDecipheriv,\n  createHash,\n  hkdfSync,\n  randomBytes,\n} from 'node:crypto';\nconst {\n  acceptedContent,\n  fromJsonSchema,\n  inputResponse,\n} = require('@modelcontextprotocol/server');\nexport const x = 1;\n",
    );
  });

  it("keeps them on one line within the project's configured width", () => {
    const module = fileOf(MODULE, { '/proj/.prettierrc.json': JSON.stringify({ printWidth: 120 }) }, '/proj/src/mcp-request-state.ts');
    layoutGeneratedImports(module);
    expect(module.getFullText()).toBe(MODULE);
  });
});
