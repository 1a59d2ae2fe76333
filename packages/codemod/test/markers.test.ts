import { describe, expect, it } from 'vitest';
import { balancedParentheses, markerComment } from '../src/engine/markers.js';

describe('marker text', () => {
  it('keeps parentheses that pair up, so quoted code reads as code', () => {
    expect(markerComment('server.connect(new StdioServerTransport()) serves the 2025 era only (stdio)', 'serve with serveStdio(createServer)')).toBe(
      '// @mcp-mrtr-todo(server.connect(new StdioServerTransport()) serves the 2025 era only (stdio)): serve with serveStdio(createServer)',
    );
  });

  it('turns a parenthesis without its pair into a bracket, so the marker closes where the reason ends', () => {
    expect(balancedParentheses('a) b (c')).toBe('a] b [c');
    expect(balancedParentheses('f(x)) and (y')).toBe('f(x)] and [y');
    expect(markerComment('a list: 1) first')).toBe('// @mcp-mrtr-todo(a list: 1] first)');
  });

  it('writes one line and never closes a block comment', () => {
    expect(markerComment('first line\n  second */ line')).toBe('// @mcp-mrtr-todo(first line second * / line)');
  });
});
