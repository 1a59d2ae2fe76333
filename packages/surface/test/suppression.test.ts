import { describe, expect, it } from 'vitest';
import { SUPPRESSION_DIRECTIVE, parseSuppression, suppressionCovers } from '../src/index.js';

describe('suppression comments', () => {
  it('parses the directive and its reason from line and block comment text', () => {
    expect(SUPPRESSION_DIRECTIVE).toBe('mcp-mrtr-ignore');
    expect(parseSuppression(' mcp-mrtr-ignore: roots are read once at start-up, 2025 clients only')).toEqual({ reason: 'roots are read once at start-up, 2025 clients only' });
    expect(parseSuppression(' mcp-mrtr-ignore: spans\n * two lines ')).toEqual({ reason: 'spans two lines' });
    expect(parseSuppression('* mcp-mrtr-ignore: jsdoc style ')).toEqual({ reason: 'jsdoc style' });
    expect(parseSuppression(' mcp-mrtr-ignore without a colon')).toEqual({ reason: 'without a colon' });
  });

  it('a directive without a reason parses with no reason; other comments are not directives', () => {
    expect(parseSuppression(' mcp-mrtr-ignore')).toEqual({});
    expect(parseSuppression(' mcp-mrtr-ignore:   ')).toEqual({});
    expect(parseSuppression(' see mcp-mrtr-ignore in the README')).toBeUndefined();
    expect(parseSuppression(' mcp-mrtr-ignored: typo')).toBeUndefined();
    expect(parseSuppression(' @mcp-mrtr-todo(reason): advice')).toBeUndefined();
  });

  it('covers the next line of code (comments in between skipped) or the line it trails', () => {
    const text = [
      '// mcp-mrtr-ignore: a', // 0
      '// @mcp-mrtr-todo(x): y',
      'await a();', // covered
      'await b(); // mcp-mrtr-ignore: b',
      'await c();', // not covered by the trailing comment above
      '',
      '// mcp-mrtr-ignore: d',
      'const x = 1;',
      'await d();', // not covered: code in between
    ].join('\n');
    const at = (needle: string) => text.indexOf(needle);
    const lineOf = (needle: string) => text.lastIndexOf('\n', at(needle)) + 1;
    const comment = (needle: string) => {
      const start = text.lastIndexOf('//', text.indexOf(needle) + 2);
      const end = text.indexOf('\n', start);
      return [start, end === -1 ? text.length : end] as const;
    };
    const [aStart, aEnd] = comment('// mcp-mrtr-ignore: a');
    expect(suppressionCovers(text, aStart, aEnd, lineOf('await a()'))).toBe(true);
    expect(suppressionCovers(text, aStart, aEnd, lineOf('await b()'))).toBe(false);
    const [bStart, bEnd] = comment('// mcp-mrtr-ignore: b');
    expect(suppressionCovers(text, bStart, bEnd, lineOf('await b()'))).toBe(true);
    expect(suppressionCovers(text, bStart, bEnd, lineOf('await c()'))).toBe(false);
    const [dStart, dEnd] = comment('// mcp-mrtr-ignore: d');
    expect(suppressionCovers(text, dStart, dEnd, lineOf('const x'))).toBe(true);
    expect(suppressionCovers(text, dStart, dEnd, lineOf('await d()'))).toBe(false);
  });
});
