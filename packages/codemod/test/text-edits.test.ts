import { describe, expect, it } from 'vitest';
import { applyEdits } from '../src/engine/text-edits.js';
import { scanTestMocks } from '../src/engine/test-mocks/scan.js';

describe('applyEdits (engine/text-edits.ts), the one edit toolkit', () => {
  it('applies edits on original positions, whatever their order in the list', () => {
    const edits = [
      { start: 0, end: 3, text: 'let' },
      { start: 10, end: 11, text: '2' },
    ];
    expect(applyEdits('var a   = 1;', edits)).toBe('let a   = 2;');
    expect(applyEdits('var a   = 1;', [...edits].reverse())).toBe('let a   = 2;');
  });

  it('puts the later of two insertions at one position first', () => {
    expect(applyEdits('ab', [{ start: 1, end: 1, text: 'X' }, { start: 1, end: 1, text: 'Y' }])).toBe('aYXb');
  });

  it('refuses overlapping edits', () => {
    expect(() => applyEdits('abcdef', [{ start: 1, end: 4, text: '' }, { start: 3, end: 5, text: 'z' }])).toThrow('overlapping rewrite edits');
    // an insertion inside a replaced range overlaps it too
    expect(() => applyEdits('abcdef', [{ start: 1, end: 4, text: 'r' }, { start: 2, end: 2, text: 'i' }])).toThrow('overlapping rewrite edits');
  });

  it('takes positions relative to an offset', () => {
    expect(applyEdits('cdef', [{ start: 3, end: 4, text: 'D' }], 2)).toBe('cDef');
  });
});

describe('test-mock markers go through the toolkit', () => {
  it('marks each flagged mock on the line above it, leaving every other line as it was', () => {
    const text = [
      "import { vi } from 'vitest';",
      "import { server } from './server.js';",
      '',
      "vi.spyOn(server.server, 'createMessage').mockImplementation(async (p) => ({ p }) as never);",
      'server.server.elicitInput = vi.fn(async (p: unknown) => ({ action: String(p) }) as never);',
      '',
    ].join('\n');
    const { sites, output } = scanTestMocks('src/server.test.ts', text, { rewrite: false });
    expect(sites.map((s) => [s.line, s.status])).toEqual([
      [4, 'flagged'],
      [5, 'flagged'],
    ]);
    const lines = output.split('\n');
    expect(lines[3]).toMatch(/^\/\/ @mcp-mrtr-todo/);
    expect(lines[4]).toBe(text.split('\n')[3]);
    expect(lines[5]).toMatch(/^\/\/ @mcp-mrtr-todo/);
    expect(lines[6]).toBe(text.split('\n')[4]);
    expect(output.split('\n').filter((l) => !l.includes('@mcp-mrtr-todo')).join('\n')).toBe(text);
  });
});
