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

/**
 * Re-assembles a file from a (possibly rewritten) body in the original's conventions. A file whose
 * lines end both ways keeps each line's own ending where the line is still there: rewriting every
 * line to the file's usual ending would show every untouched line as changed.
 */
export function joinSource(source: DecodedSource, body: string): string {
  const eol = source.crlf ? '\r\n' : '\n';
  const crlfs = countCrlf(source.body);
  const mixed = crlfs > 0 && crlfs < countLf(source.body);
  const text = mixed ? withOriginalEndings(source.body, body, eol) : source.crlf ? body.replace(/\r?\n/g, '\r\n') : body;
  return (source.bom ? '\uFEFF' : '') + source.shebang + text;
}

/** How far ahead in the original a line of the new text is looked for. */
const LINE_LOOKAHEAD = 400;

/**
 * `body` with each of its lines that is a line of `original` (the same text, found in order) ended
 * as it was there, and every other line with `eol`. Lines are matched from both ends first, then in
 * order within a window.
 */
export function withOriginalEndings(original: string, body: string, eol: string): string {
  const old = original.split('\n');
  const oldText = old.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  // the ending of old line i (none for the last, which has no line break after it)
  const oldEol = old.map((line, i) => (i === old.length - 1 ? '' : line.endsWith('\r') ? '\r\n' : '\n'));
  const lines = body.split(/\r?\n/);
  const endings: string[] = lines.map((_, i) => (i === lines.length - 1 ? '' : eol));
  let head = 0;
  while (head < lines.length - 1 && head < old.length - 1 && lines[head] === oldText[head]) {
    endings[head] = oldEol[head]!;
    head++;
  }
  let tail = 1;
  while (tail < lines.length - head && tail < old.length - head && lines[lines.length - 1 - tail] === oldText[old.length - 1 - tail]) {
    endings[lines.length - 1 - tail] = oldEol[old.length - 1 - tail]!;
    tail++;
  }
  let from = head;
  for (let i = head; i < lines.length - tail; i++) {
    for (let j = from; j < Math.min(old.length - tail, from + LINE_LOOKAHEAD); j++) {
      if (oldText[j] !== lines[i]) continue;
      endings[i] = oldEol[j]!;
      from = j + 1;
      break;
    }
  }
  return lines.map((line, i) => line + endings[i]).join('');
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
