import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: { index: 'src/index.ts', cli: 'src/cli.ts', 'cli-main': 'src/cli/main.ts', demo: 'src/demo.ts' },
    format: ['esm'],
    dts: { entry: { index: 'src/index.ts' } },
    clean: true,
    target: 'node20',
  },
  {
    entry: { jscodeshift: 'src/jscodeshift.ts' },
    format: ['cjs'],
    target: 'node20',
    outExtension: () => ({ js: '.cjs' }),
  },
]);
