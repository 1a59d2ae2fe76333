/**
 * Reading source files safely: binary and non-UTF-8 detection, BOM, shebang and line-ending
 * bookkeeping so that the output keeps the original's conventions.
 */

export interface DecodedSource {
  /** Text handed to the parser: no BOM, shebang line removed. */
  body: string;
  bom: boolean;
  /** The shebang line including its line break, or ''. */
  shebang: string;
  crlf: boolean;
}

/** `text`: the whole file as decoded (BOM and shebang included), the same string as the bytes' UTF-8 reading. */
export type DecodeResult = { ok: true; text: string; source: DecodedSource } | { ok: false; error: string };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeSource(bytes: Uint8Array): DecodeResult {
  const probe = bytes.subarray(0, Math.min(bytes.length, 8000));
  if (probe.includes(0)) return { ok: false, error: 'binary file (contains NUL bytes): not a source file' };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, error: 'not valid UTF-8: re-encode the file as UTF-8 to migrate it' };
  }
  return { ok: true, text, source: splitSource(text) };
}

export function splitSource(text: string): DecodedSource {
  let body = text;
  const bom = body.startsWith('\uFEFF');
  if (bom) body = body.slice(1);
  let shebang = '';
  if (body.startsWith('#!')) {
    const end = body.indexOf('\n');
    shebang = end < 0 ? body : body.slice(0, end + 1);
    body = end < 0 ? '' : body.slice(end + 1);
  }
  const crlf = countCrlf(body) * 2 > countLf(body);
  return { body, bom, shebang, crlf };
}

/** Re-assembles a file from a (possibly rewritten) body in the original's conventions. */
export function joinSource(source: DecodedSource, body: string): string {
  let text = body;
  if (source.crlf) text = text.replace(/\r?\n/g, '\r\n');
  return (source.bom ? '\uFEFF' : '') + source.shebang + text;
}

function countLf(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function countCrlf(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\r\n'); i >= 0; i = text.indexOf('\r\n', i + 2)) n++;
  return n;
}

/**
 * The quote a file's module specifiers use most (`from '…'`, `require('…')`), single on a tie or
 * when it has none: what code written into the file spells its strings with.
 */
export function moduleQuote(text: string): "'" | '"' {
  const singles = (text.match(/\bfrom\s+'/g) ?? []).length + (text.match(/require\('/g) ?? []).length;
  const doubles = (text.match(/\bfrom\s+"/g) ?? []).length + (text.match(/require\("/g) ?? []).length;
  return doubles > singles ? '"' : "'";
}
