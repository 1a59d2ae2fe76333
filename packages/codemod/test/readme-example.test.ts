/**
 * The README shows fixture files verbatim (a `<!-- fixture: <file> -->` comment, then a fenced
 * block): the before/after a reader sees is what the engine writes. `UPDATE_FIXTURES=1` copies the
 * current fixture files into the README after a regeneration.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const README = path.join(ROOT, 'README.md');
const CASES = path.join(ROOT, 'fixtures/cases');
const BLOCK = /<!-- fixture: ([\w.-]+) -->\n```(\w*)\n([\s\S]*?)```\n/g;

describe('README examples', () => {
  it('each fixture block in README.md equals its file in fixtures/cases', () => {
    const readme = fs.readFileSync(README, 'utf8');
    const blocks = [...readme.matchAll(BLOCK)];
    expect(blocks.map((b) => b[1])).toEqual(['wizard-dependent-elicitations.input.ts', 'wizard-dependent-elicitations.output.ts']);
    if (process.env.UPDATE_FIXTURES === '1') {
      const updated = readme.replace(BLOCK, (_all, file: string, lang: string) => `<!-- fixture: ${file} -->\n\`\`\`${lang}\n${fs.readFileSync(path.join(CASES, file), 'utf8')}\`\`\`\n`);
      if (updated !== readme) fs.writeFileSync(README, updated);
      return;
    }
    for (const [, file, , text] of blocks) expect(text, `README block for ${file} (UPDATE_FIXTURES=1 copies the fixture in)`).toBe(fs.readFileSync(path.join(CASES, file!), 'utf8'));
  });
});
