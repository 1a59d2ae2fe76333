/**
 * Pieces the handler emitters share (write-once in emit-handler.ts, the phase switch in
 * emit-phases.ts, the loop in emit-loop.ts): the per-file edit accumulator, capability-check
 * rewriting, re-indenting moved code, scoping a replacement inside a `case` clause and the end of
 * the phase switch.
 */
import { Node } from 'ts-morph';
import type { RequestPoint } from './points.js';
import { quote } from './text.js';
import { capabilitiesExpression, type AnswerReaders, type EmitEnv, type NameAllocator } from './emit.js';
import type { TextEdit } from '../text-edits.js';

/** Per-file accumulation of edits and of the names the generated code imports. */
export interface FileWork {
  edits: TextEdit[];
  values: Set<string>;
  types: Set<string>;
  /** Names imported from the generated client-capabilities module. */
  capabilityImports: Set<string>;
  /** The generated answer readers the file calls, under their local names. */
  answerReaders: AnswerReaders;
  needsState: boolean;
  names: NameAllocator;
  /** Explanatory comments already written once in this file (not repeated in each handler). */
  explained?: Set<string>;
}

/** `comment` the first time the file needs it, nothing after that. */
export function explainOnce(fw: FileWork, comment: string): string[] {
  fw.explained ??= new Set();
  if (fw.explained.has(comment)) return [];
  fw.explained.add(comment);
  return [comment];
}

/** `a`, `this.server`, `mcp.server`: property chains whose evaluation has no effect. */
const PLAIN_CHAIN = /^(this|[A-Za-z_$][\w$]*)(\.[A-Za-z_$][\w$]*)*$/;

export function capabilityEdits(root: Node, env: EmitEnv, exclude: Node[]): TextEdit[] {
  const edits: TextEdit[] = [];
  root.forEachDescendant((node, traversal) => {
    if (exclude.includes(node)) return traversal.skip();
    if (!Node.isCallExpression(node)) return;
    const callee = node.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'getClientCapabilities') return;
    // A plain receiver (`server.server`, `this.server`) is handed to the helper, which calls it only
    // when the request has no envelope; any other call stays as written behind the helper's result.
    const receiver = callee.getExpression().getText();
    const plain = !callee.hasQuestionDotToken() && !node.hasQuestionDotToken() && node.getArguments().length === 0 && PLAIN_CHAIN.test(receiver);
    const text = plain ? capabilitiesExpression(env, receiver) : `(${capabilitiesExpression(env)} ?? ${node.getText()})`;
    edits.push({ start: node.getStart(), end: node.getEnd(), text });
    traversal.skip();
  });
  return edits;
}

export function reindent(node: Node, text: string, extra: string): string {
  const multilineTemplate = node.getDescendants().some((d) => (Node.isTemplateExpression(d) || Node.isNoSubstitutionTemplateLiteral(d)) && d.getText().includes('\n'));
  if (multilineTemplate) return text;
  return text.split('\n').map((l, i) => (i === 0 || l.trim() === '' ? l : extra + l)).join('\n');
}

/**
 * A point directly in a `case` clause whose replacement declares names of its own gets a block, so
 * the names stay out of the other clauses' scope (and `no-case-declarations` stays quiet).
 */
export function caseScoped(point: Pick<RequestPoint, 'statement'>, lines: string[], indent: string): string {
  const parent = point.statement.getParent();
  const inCase = parent && (Node.isCaseClause(parent) || Node.isDefaultClause(parent));
  // `if (x) await ask(...);` / `else return helper(...);`: the branch is one statement, its replacement several.
  const ifBranch = !!parent && Node.isIfStatement(parent);
  if (!ifBranch && (!inCase || Node.isVariableStatement(point.statement) || !lines.some((l) => /^(const|let|var) /.test(l)))) return lines.join(`\n${indent}`);
  const template = point.statement.getDescendants().some((d) => (Node.isTemplateExpression(d) || Node.isNoSubstitutionTemplateLiteral(d)) && d.getText().includes('\n'));
  const inner = lines.map((l) => (template ? l : l.split('\n').join('\n  ')));
  return `{\n${indent}  ${inner.join(`\n${indent}  `)}\n${indent}}`;
}

export function pascal(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z]/.test(joined) ? joined : `Handler${joined}`;
}

/**
 * After the last phase block (of the phase form and of the loop form): only sealed state whose
 * phase this handler does not have gets here, minted by another version of it (a deployment that
 * changed its questions, or its form, while a round was in flight). It fails with an error naming
 * the handler.
 */
export function unknownPhaseLines(fw: FileWork, method: string, name: string | undefined): string[] {
  return [
    ...explainOnce(fw, `// Sealed state with a phase this handler does not have was minted by another version of it.`),
    `throw new Error(${quote(`requestState phase unknown to ${method}:${name ?? ''}`)});`,
  ];
}
