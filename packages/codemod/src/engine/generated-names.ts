/**
 * File and variable names of what the run generates, apart from the code that writes it: the text
 * report (and so the CLI's start-up for `--help` and usage errors) needs the names without loading
 * ts-morph through the writers.
 */
export const STATE_MODULE_BASENAME = 'mcp-request-state';

/** The test setup file that gives a test run a random state key. Not `${STATE_MODULE_BASENAME}.*`: the report tells the state modules by that name. */
export const TEST_SETUP_BASENAME = `${STATE_MODULE_BASENAME}-key.test-setup`;

/** Name of the variable that holds the keys a server still accepts but no longer mints with. */
export function previousKeyEnv(keyEnv: string): string {
  return `${keyEnv}_PREVIOUS`;
}
