import { InMemoryFileSystemHost } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { findPrettierConfigDir, prettierLayoutFor } from '../src/engine/prettier-config.js';

function files(entries: Record<string, string>, dirs: string[] = []): InMemoryFileSystemHost {
  const host = new InMemoryFileSystemHost();
  for (const [file, text] of Object.entries(entries)) host.writeFileSync(file, text);
  for (const dir of dirs) host.mkdirSync(dir);
  return host;
}

describe('prettierLayoutFor', () => {
  it('reads the nearest configuration upwards: .prettierrc.json, a YAML .prettierrc, package.json "prettier"', () => {
    expect(prettierLayoutFor('/p/src/tools', files({ '/p/.prettierrc.json': '{ "printWidth": 120, "semi": false, "trailingComma": "none" }' }))).toEqual({ printWidth: 120, semi: false, trailingComma: 'none' });
    expect(prettierLayoutFor('/p/src', files({ '/p/.prettierrc': 'printWidth: 100 # wide\nsingleQuote: true\ntabWidth: 4\n' }))).toEqual({ printWidth: 100, singleQuote: true, tabWidth: 4 });
    expect(prettierLayoutFor('/p/src', files({ '/p/package.json': JSON.stringify({ name: 'p', prettier: { useTabs: true } }) }))).toEqual({ useTabs: true });
  });

  it("reads top-level options only: an override's width for other files is not the project's", () => {
    const yaml = 'printWidth: 90\noverrides:\n  - files: "*.md"\n    options:\n      printWidth: 200\n';
    expect(prettierLayoutFor('/p', files({ '/p/.prettierrc.yaml': yaml }))).toEqual({ printWidth: 90 });
    expect(prettierLayoutFor('/p', files({ '/p/.prettierrc.json': JSON.stringify({ overrides: [{ files: '*.ts', options: { printWidth: 200 } }] }) }))).toEqual({});
  });

  it("gives prettier's defaults for a configuration it does not read (JavaScript, a shared config's name), nothing where there is none", () => {
    expect(prettierLayoutFor('/p/src', files({ '/p/prettier.config.mjs': 'export default { printWidth: 120 };\n' }))).toEqual({});
    expect(prettierLayoutFor('/p/src', files({ '/p/package.json': JSON.stringify({ prettier: '@acme/prettier-config' }) }))).toEqual({});
    expect(prettierLayoutFor('/p/src', files({ '/p/package.json': '{}' }))).toBeUndefined();
  });

  it("stops at the work tree's root", () => {
    const host = files({ '/.prettierrc.json': '{ "printWidth": 100 }', '/p/src/a.ts': '' }, ['/p/.git']);
    expect(findPrettierConfigDir('/p/src', host)).toBeUndefined();
    expect(findPrettierConfigDir('/q/src', host)).toBe('/');
  });
});
