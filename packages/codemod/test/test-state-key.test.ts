/**
 * The vitest config edit that gives a project's test runs the state key (engine/test-state-key.ts):
 * `test.setupFiles` gets the setup file in every shape written out in the file, the rest of the
 * text unchanged; a config the edit cannot see into is refused with the reason.
 */
import { describe, expect, it } from 'vitest';
import { namesSetupFile, setupFileName, setupFileText, withSetupFile } from '../src/engine/test-state-key.js';

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
