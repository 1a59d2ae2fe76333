/**
 * v1 CommonJS files (`require('@modelcontextprotocol/sdk/...')`): the official v1-to-v2 codemod
 * upgrades ES imports only, so such a file would keep requiring the v1 SDK. Rewriting its handlers
 * to MRTR would mix v2 code with v1 imports: the file is left as it was and its sites are flagged.
 */
import { LEGACY_SDK_PACKAGE } from '@mcp-mrtr/surface';
import type { Reach } from './model.js';

export const V1_COMMONJS_REASON =
  "v1 CommonJS require() imports are not upgraded by the official codemod: convert the file to ESM imports or to @modelcontextprotocol/server's CJS entry first";

export const V1_COMMONJS_ADVICE =
  "replace require('@modelcontextprotocol/sdk/...') with ES imports (or require('@modelcontextprotocol/server')), then run the migration again";

const V1_REQUIRE = new RegExp(`\\brequire\\s*\\(\\s*(['"\`])${LEGACY_SDK_PACKAGE.replace('/', '\\/')}(/[^'"\`]*)?\\1\\s*\\)`);

export function requiresV1Sdk(text: string): boolean {
  return V1_REQUIRE.test(text);
}

/** True when the site or a handler reaching it lives in a file of `v1CommonJsFiles`. */
export function touchesV1CommonJs(reach: Reach, v1CommonJsFiles: ReadonlySet<string>): boolean {
  if (v1CommonJsFiles.size === 0) return false;
  if (v1CommonJsFiles.has(reach.site.sourceFile.getFilePath())) return true;
  return reach.handlers.some((h) => v1CommonJsFiles.has(h.handler.sourceFile.getFilePath()));
}
