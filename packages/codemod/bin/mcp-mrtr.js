#!/usr/bin/env node
// The `mcp-mrtr` command. Committed (not built) so that `npm ci` in a checkout can link it before
// anything is built; the CLI itself is dist/cli.js.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (existsSync(cli)) {
  await import(cli.href);
} else {
  process.stderr.write(`mcp-mrtr: not built yet (${cli.pathname} is missing): run \`npm run build\` in the repository first.\n`);
  process.exitCode = 2;
}
