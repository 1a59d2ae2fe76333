/**
 * The vitest and jest config edits that give a project's test runs the state key
 * (engine/test-state-key.ts): vitest's `test.setupFiles` and jest's `setupFiles` (in jest.config.*
 * or package.json's "jest") get the setup file in every shape written out in the file, the rest of
 * the text unchanged; a config the edit cannot see into is refused with the reason.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { namesSetupFile, setupFileName, setupFileText, withJestSetupFile, withJestSetupFileInPackageJson, withSetupFile } from '../src/engine/test-state-key.js';

const REF = './mcp-request-state-key.test-setup.ts';
const edit = (text: string, file = 'vitest.config.ts') => withSetupFile(file, text, REF);

describe('test.setupFiles gets the setup file', () => {
  it('added to defineConfig({ test: { ... } }) on a line of its own', () => {
    const text = `import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({\n  test: {\n    globals: true,\n  },\n});\n`;
    expect(edit(text)).toEqual({ text: `import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({\n  test: {\n    setupFiles: ['${REF}'],\n    globals: true,\n  },\n});\n` });
  });

  it('a config without test options gets them; an empty test object gets the property', () => {
    expect(edit(`export default { plugins: [] };\n`)).toEqual({ text: `export default { test: { setupFiles: ['${REF}'] }, plugins: [] };\n` });
    expect(edit(`export default defineConfig({ test: {} });\n`)).toEqual({ text: `export default defineConfig({ test: { setupFiles: ['${REF}'] } });\n` });
  });

  it('appended to a list or a single file already there, kept first', () => {
    expect(edit(`export default { test: { setupFiles: ['./a.ts'] } };\n`)).toEqual({ text: `export default { test: { setupFiles: ['./a.ts', '${REF}'] } };\n` });
    expect(edit(`export default { test: { setupFiles: [] } };\n`)).toEqual({ text: `export default { test: { setupFiles: ['${REF}'] } };\n` });
    expect(edit(`export default { test: { setupFiles: './a.ts' } };\n`)).toEqual({ text: `export default { test: { setupFiles: ['./a.ts', '${REF}'] } };\n` });
  });

  it('module.exports and a satisfies / as wrapper', () => {
    expect(edit(`module.exports = { test: { environment: 'node' } };\n`, 'vitest.config.cjs')).toEqual({ text: `module.exports = { test: { setupFiles: ['${REF}'], environment: 'node' } };\n` });
    expect(edit(`export default ({ test: { environment: 'node' } }) satisfies UserConfig;\n`)).toEqual({ text: `export default ({ test: { setupFiles: ['${REF}'], environment: 'node' } }) satisfies UserConfig;\n` });
  });

  it('a config built by a function, a variable or mergeConfig, or computed setupFiles: refused with the reason', () => {
    expect(edit(`export default defineConfig(() => ({ test: {} }));\n`)).toEqual({ refused: expect.stringMatching(/^its default export is not a config object written out in the file/) });
    expect(edit(`const config = { test: {} };\nexport default config;\n`)).toHaveProperty('refused');
    expect(edit(`export default mergeConfig(base, { test: {} });\n`)).toHaveProperty('refused');
    expect(edit(`export default { test: shared };\n`)).toEqual({ refused: 'its `test` options are not an object written out in the file' });
    expect(edit(`export default { test: { setupFiles: files } };\n`)).toEqual({ refused: 'its `test.setupFiles` is computed, not a list written out in the file' });
  });
});

describe('jest setupFiles gets the setup file, named from <rootDir>', () => {
  const SETUP = '/p/mcp-request-state-key.test-setup.cjs';
  const jest = (text: string, file = '/p/jest.config.js') => withJestSetupFile(file, text, SETUP);

  it('module.exports, export default and a typed const exported: the top-level setupFiles', () => {
    expect(jest(`module.exports = {\n  testEnvironment: 'node',\n};\n`)).toEqual({ text: `module.exports = {\n  setupFiles: ['<rootDir>/mcp-request-state-key.test-setup.cjs'],\n  testEnvironment: 'node',\n};\n` });
    expect(jest(`export default { setupFiles: ['./env.js'] };\n`, '/p/jest.config.mjs')).toEqual({ text: `export default { setupFiles: ['./env.js', '<rootDir>/mcp-request-state-key.test-setup.cjs'] };\n` });
    const typed = `import type { Config } from 'jest';\n\nconst config: Config = { preset: 'ts-jest' };\n\nexport default config;\n`;
    expect(jest(typed, '/p/jest.config.ts')).toEqual({ text: typed.replace(`{ preset`, `{ setupFiles: ['<rootDir>/mcp-request-state-key.test-setup.cjs'], preset`) });
  });

  it('a rootDir written out moves the reference: jest resolves setupFiles against it', () => {
    expect(jest(`module.exports = { rootDir: 'src' };\n`)).toEqual({ text: `module.exports = { setupFiles: ['<rootDir>/../mcp-request-state-key.test-setup.cjs'], rootDir: 'src' };\n` });
    expect(jest(`module.exports = { rootDir: base };\n`)).toEqual({ refused: 'its `rootDir` is computed' });
  });

  it('refused: a function, projects (each has its own setupFiles), a const changed afterwards, computed setupFiles', () => {
    expect(jest(`module.exports = async () => ({ verbose: true });\n`)).toHaveProperty('refused');
    expect(jest(`module.exports = { projects: ['<rootDir>/a'] };\n`)).toEqual({ refused: 'it lists `projects`, each with its own setupFiles' });
    expect(jest(`const config = { verbose: true };\nconfig.setupFiles = ['./a.js'];\nmodule.exports = config;\n`)).toHaveProperty('refused');
    expect(jest(`module.exports = { setupFiles: files };\n`)).toEqual({ refused: 'its `setupFiles` is computed, not a list written out in the file' });
  });

  it('package.json "jest": appended to its setupFiles, the rest and the indentation kept; refused without an object', () => {
    const manifest = `{\n    "name": "p",\n    "jest": {\n        "setupFiles": ["./a.js"]\n    }\n}\n`;
    expect(withJestSetupFileInPackageJson('/p/package.json', manifest, SETUP)).toEqual({ text: `{\n    "name": "p",\n    "jest": {\n        "setupFiles": [\n            "./a.js",\n            "<rootDir>/mcp-request-state-key.test-setup.cjs"\n        ]\n    }\n}\n` });
    expect(withJestSetupFileInPackageJson('/p/package.json', `{ "jest": "./jest.json" }`, SETUP)).toEqual({ refused: 'it has no "jest" config object' });
    expect(withJestSetupFileInPackageJson('/p/package.json', `{ "jest": { "projects": [] } }`, SETUP)).toHaveProperty('refused');
  });

  it('the jest setup file is CommonJS and sets the key when node runs it (jest requires setupFiles)', () => {
    expect(setupFileName('/p/jest.config.ts')).toBe('mcp-request-state-key.test-setup.cjs');
    expect(setupFileName('/p/package.json')).toBe('mcp-request-state-key.test-setup.cjs');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-jest-setup-'));
    try {
      const file = path.join(dir, setupFileName('/p/jest.config.js'));
      fs.writeFileSync(file, setupFileText('MY_KEY', true));
      // "type": "module" beside it: a .cjs file is CommonJS whatever the package says
      fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
      const env = { ...process.env };
      delete env.MY_KEY;
      const key = execFileSync(process.execPath, ['-e', `require(${JSON.stringify(file)}); process.stdout.write(process.env.MY_KEY)`], { env, encoding: 'utf8' });
      expect(Buffer.from(key, 'base64url').length).toBe(32);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the setup file', () => {
  it('sets the key only when the environment has none, from random bytes; no key is written into it', () => {
    const text = setupFileText('MY_KEY');
    expect(text).toContain(`import { randomBytes } from 'node:crypto';`);
    expect(text).toContain(`process.env.MY_KEY ||= randomBytes(32).toString('base64url');`);
    expect(text.split('\n').filter((l) => !l.startsWith(' *') && !l.startsWith('/**')).join('\n')).not.toMatch(/['"][A-Za-z0-9+/_-]{32,}['"]/);
  });

  it('TypeScript beside a TypeScript config, an ES module otherwise; a later run sees it named', () => {
    expect(setupFileName('/p/vitest.config.mts')).toBe('mcp-request-state-key.test-setup.ts');
    expect(setupFileName('/p/vitest.config.js')).toBe('mcp-request-state-key.test-setup.mjs');
    expect(namesSetupFile(`export default { test: { setupFiles: ['${REF}'] } };`)).toBe(true);
    expect(namesSetupFile(`export default { test: {} };`)).toBe(false);
  });
});
