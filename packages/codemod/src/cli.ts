#!/usr/bin/env node
/**
 * The `mcp-mrtr` binary: cli/main.ts run on this process's arguments, directory and streams. Its
 * usage, commands and exit codes are described there.
 */
import { hideBin } from 'yargs/helpers';
import { EXIT_REFUSED, main } from './cli/main.js';
import { limitHeapGrowth } from './heap-growth.js';
import { TOOL_NAME } from './version.js';

limitHeapGrowth();
main(hideBin(process.argv)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${TOOL_NAME}: crashed: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = EXIT_REFUSED;
  },
);
