/**
 * Large files: every ts-morph manipulation re-parses the whole file, so a 5 MB module with one MCP
 * server in it would cost the upgrade and the rewrite seconds per edit. Top-level statements that
 * have nothing to do with MCP (no surface token, no name the kept statements use) are elided before
 * the file enters the project and spliced back verbatim at the end. Each elided run becomes a
 * comment followed by as many line breaks as it spanned, so line numbers stay those of the original.
 */
import { ts } from 'ts-morph';
import { CANDIDATE_TOKENS, MCP_PACKAGE_PREFIX, MRTR_TOKENS } from '@mcp-mrtr/surface';

/** Files smaller than this are processed whole. */
export const SLICE_THRESHOLD_BYTES = 256 * 1024;

const MARK = 'mcp-mrtr-elided';

export interface SlicedSource {
  body: string;
  /** Original text of each elided run, by index. */
  elided: string[];
}

const RELEVANT = [...CANDIDATE_TOKENS, ...MRTR_TOKENS, MCP_PACKAGE_PREFIX, 'McpServer', 'Server', 'Transport', 'register', 'setRequestHandler', 'setNotificationHandler', 'connect'];

export function sliceLargeSource(fileName: string, body: string): SlicedSource | undefined {
  if (body.length < SLICE_THRESHOLD_BYTES || body.includes(MARK)) return undefined;
  const sf = ts.createSourceFile(fileName, body, ts.ScriptTarget.Latest, false);
  const statements = sf.statements;
  const keep = statements.map((s) => {
    if (ts.isImportDeclaration(s) || ts.isExportDeclaration(s) || ts.isImportEqualsDeclaration(s) || ts.isExportAssignment(s)) return true;
    const text = body.slice(s.getStart(sf), s.end);
    return RELEVANT.some((token) => text.includes(token));
  });
  // Keep, to a fixpoint, every declaration a kept statement mentions (helpers, constants) and every
  // statement that mentions a kept declaration (callers: a timer calling a kept helper must stay
  // visible to the reach stage).
  const names = statements.map((s) => declaredNames(s));
  const ids = statements.map((s) => new Set(body.slice(s.getStart(sf), s.end).match(/[A-Za-z_$][\w$]*/g) ?? []));
  const used = new Set<string>();
  const declared = new Set<string>();
  const absorb = (i: number) => {
    for (const id of ids[i]!) used.add(id);
    for (const n of names[i]!) declared.add(n);
  };
  keep.forEach((k, i) => k && absorb(i));
  let changed = true;
  while (changed) {
    changed = false;
    statements.forEach((_, i) => {
      if (keep[i]) return;
      if (names[i]!.some((n) => used.has(n)) || [...declared].some((n) => ids[i]!.has(n))) {
        keep[i] = true;
        absorb(i);
        changed = true;
      }
    });
  }
  if (keep.every(Boolean)) return undefined;
  let out = '';
  let cursor = 0;
  const elided: string[] = [];
  let i = 0;
  while (i < statements.length) {
    if (keep[i]) {
      i++;
      continue;
    }
    const start = statements[i]!.getStart(sf);
    let j = i;
    while (j + 1 < statements.length && !keep[j + 1]) j++;
    const end = statements[j]!.end;
    const text = body.slice(start, end);
    const breaks = text.split('\n').length - 1;
    out += body.slice(cursor, start) + `/* ${MARK}:${elided.length} */` + '\n'.repeat(breaks);
    elided.push(text);
    cursor = end;
    i = j + 1;
  }
  out += body.slice(cursor);
  return { body: out, elided };
}

/** Puts the elided statements back; undefined when a placeholder went missing (never guess). */
export function unsliceSource(body: string, sliced: SlicedSource): string | undefined {
  let out = body;
  for (let index = sliced.elided.length - 1; index >= 0; index--) {
    const original = sliced.elided[index]!;
    const marker = `/* ${MARK}:${index} */`;
    const at = out.indexOf(marker);
    if (at < 0 || out.indexOf(marker, at + 1) >= 0) return undefined;
    const breaks = original.split('\n').length - 1;
    let end = at + marker.length;
    for (let k = 0; k < breaks && out[end] === '\n'; k++) end++;
    out = out.slice(0, at) + original + out.slice(end);
  }
  return out;
}

function declaredNames(statement: ts.Statement): string[] {
  if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
    return [statement.name.text];
  }
  if (ts.isVariableStatement(statement)) {
    const out: string[] = [];
    const visit = (name: ts.BindingName) => {
      if (ts.isIdentifier(name)) out.push(name.text);
      else for (const element of name.elements) if (!ts.isOmittedExpression(element)) visit(element.name);
    };
    for (const decl of statement.declarationList.declarations) visit(decl.name);
    return out;
  }
  if (ts.isModuleDeclaration(statement) && ts.isIdentifier(statement.name)) return [statement.name.text];
  return [];
}
