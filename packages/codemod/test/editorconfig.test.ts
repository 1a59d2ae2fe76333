import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as prettier from 'prettier';
import { InMemoryFileSystemHost } from 'ts-morph';
import { afterAll, describe, expect, it } from 'vitest';
import { editorconfigOptionsFor } from '../src/engine/editorconfig.js';
import { prettierLayoutFor, type PrettierLayout } from '../src/engine/formatter-options.js';

function files(entries: Record<string, string>, dirs: string[] = []): InMemoryFileSystemHost {
  const host = new InMemoryFileSystemHost();
  for (const [file, text] of Object.entries(entries)) host.writeFileSync(file, text);
  for (const dir of dirs) host.mkdirSync(dir);
  return host;
}

describe('editorconfigOptionsFor', () => {
  it('maps the properties prettier honours: max_line_length, indent_style, indent_size, tab_width, quote_type', () => {
    const ini = '[*]\nmax_line_length = 120\nindent_style = space\nindent_size = 4\nquote_type = double\ncharset = utf-8\n';
    expect(editorconfigOptionsFor('/p/src/a.ts', files({ '/p/.editorconfig': ini }))).toEqual({ printWidth: 120, useTabs: false, tabWidth: 4, singleQuote: false });
    expect(editorconfigOptionsFor('/p/a.ts', files({ '/p/.editorconfig': '[*]\nindent_style = tab\ntab_width = 8\nmax_line_length = off\n' }))).toEqual({ useTabs: true, tabWidth: 8, printWidth: Number.POSITIVE_INFINITY });
    // nothing prettier reads: no options
    expect(editorconfigOptionsFor('/p/a.ts', files({ '/p/.editorconfig': '[*]\ncharset = utf-8\ntrim_trailing_whitespace = true\n' }))).toBeUndefined();
    expect(editorconfigOptionsFor('/p/a.ts', files({}))).toBeUndefined();
  });

  it('applies every section matching the file, later over earlier and the nearer file over the farther, up to root = true', () => {
    const outer = 'root = true\n[*]\nmax_line_length = 100\nindent_size = 2\nindent_style = space\n[*.md]\nmax_line_length = off\n';
    const inner = '[*.{ts,mts}]\nmax_line_length = 140\n[lib/**.ts]\nindent_size = 4\n[/top.ts]\nquote_type = single\n';
    const host = files({ '/.editorconfig': '[*]\nquote_type = double\n', '/p/.editorconfig': outer, '/p/pkg/.editorconfig': inner });
    expect(editorconfigOptionsFor('/p/pkg/src/a.ts', host)).toEqual({ printWidth: 140, useTabs: false, tabWidth: 2 });
    expect(editorconfigOptionsFor('/p/pkg/lib/deep/b.ts', host)).toEqual({ printWidth: 140, useTabs: false, tabWidth: 4 });
    expect(editorconfigOptionsFor('/p/pkg/top.ts', host)).toEqual({ printWidth: 140, useTabs: false, tabWidth: 2, singleQuote: true });
    // a `/` anchors the glob at its file's directory; a name without one matches at any depth
    expect(editorconfigOptionsFor('/p/pkg/src/top.ts', host)).toEqual({ printWidth: 140, useTabs: false, tabWidth: 2 });
    expect(editorconfigOptionsFor('/p/readme.js', host)).toEqual({ printWidth: 100, useTabs: false, tabWidth: 2 });
  });

  it("stops at the work tree's root, and drops a file with a line it cannot parse", () => {
    const host = files({ '/.editorconfig': '[*]\nmax_line_length = 100\n', '/p/src/a.ts': '' }, ['/p/.git']);
    expect(editorconfigOptionsFor('/p/src/a.ts', host)).toBeUndefined();
    expect(editorconfigOptionsFor('/q/a.ts', host)).toEqual({ printWidth: 100 });
    expect(editorconfigOptionsFor('/q/a.ts', files({ '/.editorconfig': '[*]\nmax_line_length = 100\nnot a property\n' }))).toBeUndefined();
  });
});

describe('prettierLayoutFor with an .editorconfig', () => {
  it('uses the .editorconfig alone when no prettier configuration applies, marked so', () => {
    expect(prettierLayoutFor('/p/src/a.ts', files({ '/p/.editorconfig': '[*.ts]\nmax_line_length = 110\nquote_type = double\n' }))).toEqual({ printWidth: 110, singleQuote: false, onlyEditorconfig: true });
    expect(prettierLayoutFor('/p/src/a.js', files({ '/p/.editorconfig': '[*.ts]\nmax_line_length = 110\n' }))).toBeUndefined();
  });

  it("puts the prettier configuration's options and matching overrides over the .editorconfig's, as prettier does", () => {
    const host = files({
      '/p/.editorconfig': '[*]\nmax_line_length = 110\nindent_style = tab\n',
      '/p/.prettierrc.json': JSON.stringify({ useTabs: false, overrides: [{ files: 'src/**', options: { printWidth: 90 } }] }),
    });
    expect(prettierLayoutFor('/p/src/a.ts', host)).toEqual({ printWidth: 90, useTabs: false });
    expect(prettierLayoutFor('/p/bin/b.ts', host)).toEqual({ printWidth: 110, useTabs: false });
  });
});

describe('prettierLayoutFor agrees with prettier.resolveConfig', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A project on disk (its own work tree) with `entries`; the layout options prettier itself resolves for each of `targets`, beside the engine's. */
  async function both(entries: Record<string, string>, targets: string[]): Promise<Array<{ target: string; prettier: PrettierLayout; engine: PrettierLayout }>> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-formatter-config-'));
    made.push(dir);
    fs.mkdirSync(path.join(dir, '.git'));
    for (const [file, text] of Object.entries(entries)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    const keys = ['printWidth', 'tabWidth', 'useTabs', 'semi', 'singleQuote', 'trailingComma'] as const;
    return Promise.all(
      targets.map(async (target) => {
        const file = path.join(dir, target);
        const resolved = ((await prettier.resolveConfig(file, { editorconfig: true, useCache: false })) ?? {}) as Record<string, unknown>;
        const fromPrettier = Object.fromEntries(keys.filter((k) => resolved[k] !== undefined).map((k) => [k, resolved[k]])) as PrettierLayout;
        const { onlyEditorconfig: _, ...engine } = prettierLayoutFor(file) ?? {};
        return { target, prettier: fromPrettier, engine };
      }),
    );
  }

  it('for overrides, excludeFiles and .editorconfig sections on a real project', async () => {
    const results = await both(
      {
        '.editorconfig': 'root = true\n[*]\nindent_style = space\nindent_size = 4\n[*.{ts,mts}]\nmax_line_length = 130\nquote_type = single\n[test/**]\nmax_line_length = off\n',
        'packages/a/.prettierrc.yaml': 'semi: false\noverrides:\n  - files: ["*.test.ts"]\n    options:\n      printWidth: 150\n  - files: src/gen/**\n    excludeFiles: src/gen/keep.ts\n    options:\n      useTabs: true\n      trailingComma: none\n',
        'packages/b/package.json': JSON.stringify({ name: 'b', prettier: { printWidth: 100, overrides: [{ files: '.*.ts', options: { singleQuote: false } }] } }),
        'packages/c/.editorconfig': '[lib/*.ts]\nindent_style = tab\ntab_width = 3\n',
      },
      [
        'packages/a/src/index.ts',
        'packages/a/src/index.test.ts',
        'packages/a/src/gen/tools.ts',
        'packages/a/src/gen/keep.ts',
        'packages/b/src/.config.ts',
        'packages/b/src/server.js',
        'packages/c/lib/x.ts',
        'packages/c/lib/deep/y.mts',
        'test/z.ts',
        'scripts/run.js',
      ],
    );
    for (const { target, prettier: expected, engine } of results) expect({ target, layout: engine }).toEqual({ target, layout: expected });
  });
});
