/** Source discovery shared by the parse floor and the tree statistics (same rules as the tools: no node_modules, no .d.ts). */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = /\.(?:[mc]?[tj]s|[tj]sx)$/;
const DECLARATION = /\.d\.[mc]?ts$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'build', 'coverage']);

export function listSourceFiles(dir) {
  const out = [];
  const visit = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) visit(join(d, entry.name));
      } else if (SOURCE.test(entry.name) && !DECLARATION.test(entry.name)) {
        out.push(join(d, entry.name));
      }
    }
  };
  visit(dir);
  return out.sort();
}
