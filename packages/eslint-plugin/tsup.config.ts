import { defineConfig } from 'tsup';

// ESLint configs are often CommonJS: `require('@mcp-mrtr/eslint-plugin')` must return the plugin
// itself (not `{ default: plugin }`), hence cjsInterop.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  cjsInterop: true,
  splitting: true,
});
