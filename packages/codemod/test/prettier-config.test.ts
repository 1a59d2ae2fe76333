import { InMemoryFileSystemHost } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { prettierLayoutFor } from '../src/engine/formatter-options.js';
import { findPrettierConfigDir } from '../src/engine/prettier-config.js';

function files(entries: Record<string, string>, dirs: string[] = []): InMemoryFileSystemHost {
  const host = new InMemoryFileSystemHost();
  for (const [file, text] of Object.entries(entries)) host.writeFileSync(file, text);
  for (const dir of dirs) host.mkdirSync(dir);
  return host;
}

describe('prettierLayoutFor', () => {
  it('reads the nearest configuration upwards: .prettierrc.json, a YAML .prettierrc, package.json "prettier"', () => {
    expect(prettierLayoutFor('/p/src/tools/a.ts', files({ '/p/.prettierrc.json': '{ "printWidth": 120, "semi": false, "trailingComma": "none" }' }))).toEqual({ printWidth: 120, semi: false, trailingComma: 'none' });
    expect(prettierLayoutFor('/p/src/a.ts', files({ '/p/.prettierrc': 'printWidth: 100 # wide\nsingleQuote: true\ntabWidth: 4\n' }))).toEqual({ printWidth: 100, singleQuote: true, tabWidth: 4 });
    expect(prettierLayoutFor('/p/src/a.ts', files({ '/p/package.json': JSON.stringify({ name: 'p', prettier: { useTabs: true } }) }))).toEqual({ useTabs: true });
  });

  it('applies the overrides whose files match the file, with prettier\'s globs: a name at any depth, a path from the configuration, excludeFiles', () => {
    const yaml = 'printWidth: 90\noverrides:\n  - files: "*.md"\n    options:\n      printWidth: 200\n  - files: ["src/**/*.ts"]\n    excludeFiles: "src/legacy/**"\n    options:\n      printWidth: 120\n      semi: false\n';
    const host = files({ '/p/.prettierrc.yaml': yaml });
    expect(prettierLayoutFor('/p/src/tools/a.ts', host)).toEqual({ printWidth: 120, semi: false });
    expect(prettierLayoutFor('/p/src/legacy/b.ts', host)).toEqual({ printWidth: 90 });
    expect(prettierLayoutFor('/p/scripts/c.ts', host)).toEqual({ printWidth: 90 });
    // a glob without a slash matches the name at any depth; later overrides win over earlier ones
    const json = JSON.stringify({ singleQuote: false, overrides: [{ files: '*.ts', options: { singleQuote: true, printWidth: 100 } }, { files: ['*.test.ts', '.*.ts'], options: { printWidth: 140 } }] });
    expect(prettierLayoutFor('/p/src/deep/a.ts', files({ '/p/.prettierrc.json': json }))).toEqual({ singleQuote: true, printWidth: 100 });
    expect(prettierLayoutFor('/p/src/deep/a.test.ts', files({ '/p/package.json': JSON.stringify({ prettier: JSON.parse(json) }) }))).toEqual({ singleQuote: true, printWidth: 140 });
    expect(prettierLayoutFor('/p/src/.hidden.ts', files({ '/p/.prettierrc': json }))).toEqual({ singleQuote: true, printWidth: 140 });
  });

  it("gives prettier's defaults for a configuration it does not read (JavaScript, a shared config's name), nothing where there is none", () => {
    expect(prettierLayoutFor('/p/src/a.ts', files({ '/p/prettier.config.mjs': 'export default { printWidth: 120 };\n' }))).toEqual({});
    expect(prettierLayoutFor('/p/src/a.ts', files({ '/p/package.json': JSON.stringify({ prettier: '@acme/prettier-config' }) }))).toEqual({});
    expect(prettierLayoutFor('/p/src/a.ts', files({ '/p/package.json': '{}' }))).toBeUndefined();
  });

  it("stops at the work tree's root", () => {
    const host = files({ '/.prettierrc.json': '{ "printWidth": 100 }', '/p/src/a.ts': '' }, ['/p/.git']);
    expect(findPrettierConfigDir('/p/src', host)).toBeUndefined();
    expect(findPrettierConfigDir('/q/src', host)).toBe('/');
  });
});
