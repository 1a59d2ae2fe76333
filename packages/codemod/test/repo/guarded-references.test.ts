/**
 * The language service throws on some names it cannot resolve when asked for their references. One
 * guarded lookup, find/resolve.ts `referencesOf`, turns that into "unknown", and each caller says
 * what an unknown set of references means for its decision; a direct `findReferencesAsNodes` call
 * elsewhere would end the file's migration with the exception instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../cli/helpers.js';

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('reference lookups', () => {
  it('go through referencesOf alone', () => {
    const src = path.join(packageRoot, 'src');
    const direct = sourceFiles(src)
      .filter((file) => file !== path.join(src, 'engine/find/resolve.ts'))
      .flatMap((file) => fs.readFileSync(file, 'utf8').split('\n').flatMap((text, i) => (/\.findReferences(AsNodes)?\(/.test(text) ? [`${path.relative(src, file)}:${i + 1}`] : [])));
    expect(direct).toEqual([]);
  });
});
