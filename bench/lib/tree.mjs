/** Generated trees: which generator, and the project files every tree gets. */
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** plugin-B's seeded generator (shared with the lint bench) when present, else bench/generate.mjs. */
export async function loadGenerator(root) {
  for (const rel of ['lint/generate-tree.mjs', 'generate.mjs']) {
    const file = join(root, 'bench', rel);
    if (!existsSync(file)) continue;
    const mod = await import(pathToFileURL(file).href);
    if (typeof mod.generateTree === 'function') return mod.generateTree;
  }
  throw new Error('no tree generator: expected bench/lint/generate-tree.mjs or bench/generate.mjs exporting generateTree');
}

/** A fresh tree: generated files, a tsconfig (types for the engine), a package.json on the v1 SDK, node_modules linked to the repo's. */
export async function prepareTree({ root, tree, files, seed, generateTree, mcpRatio = 0.025 }) {
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  await generateTree({ files, seed, dir: tree, mcpRatio });
  const tsconfig = join(tree, 'tsconfig.json');
  if (!existsSync(tsconfig)) {
    const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true };
    writeFileSync(tsconfig, `${JSON.stringify({ compilerOptions }, null, 2)}\n`);
  }
  const pkg = join(tree, 'package.json');
  if (!existsSync(pkg)) {
    const manifest = { name: `bench-tree-${files}`, private: true, type: 'module', dependencies: { '@modelcontextprotocol/sdk': '1.32.2', zod: '4.6.7' } };
    writeFileSync(pkg, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  const nodeModules = join(tree, 'node_modules');
  if (!existsSync(nodeModules)) symlinkSync(join(root, 'node_modules'), nodeModules, 'dir');
  return tree;
}
