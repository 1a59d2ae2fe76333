import pkg from '../package.json' with { type: 'json' };

export const TOOL_NAME = 'mcp-mrtr';
export const VERSION: string = pkg.version;
