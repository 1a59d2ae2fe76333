/**
 * Phase and loop forms: each request's parameters are written once per handler, above the phase switch, and
 * every round that asks (the first ask, a re-ask) or validates the answer names them. Parameters
 * that read nothing the handler's body declares or changes become a `const`; parameters that read
 * the body's locals become a small function of those locals, called where the legacy code built
 * them (so they are evaluated exactly where they were before).
 */
import { Node, SyntaxKind, type Identifier } from 'ts-morph';
import { LEGACY_REQUESTS } from '@mcp-mrtr/surface';
import type { Site } from '../model.js';
import { nameableType } from './live.js';
import { firstEffect } from './purity.js';
import type { RequestPoint } from './points.js';
import type { NameAllocator } from './emit.js';
import { baseName } from './emit-point.js';
import { indentOf } from '../text-edits.js';

/** `text` (the parameters, written at a statement indented `from`) moved to one indented `to`: its continuation lines follow (a multi-line template keeps its text). */
function outdented(params: Node, text: string, from: string, to: string): string {
  if (from.length <= to.length || !from.startsWith(to)) return text;
  if (params.getDescendants().some((d) => (Node.isTemplateExpression(d) || Node.isNoSubstitutionTemplateLiteral(d)) && d.getText().includes('\n'))) return text;
  const extra = from.slice(to.length);
  return text.split('\n').map((l, i) => (i > 0 && l.startsWith(extra) ? l.slice(extra.length) : l)).join('\n');
}

export interface HoistedRequests {
  /** Declarations to emit above the phase switch. */
  lines: string[];
  /** For each hoisted site, the expression that yields its parameters where the request was built. */
  expressions: Map<Site, string>;
}

const PARAMS_TYPE: Record<string, string> = { elicitation: 'ElicitRequestFormParams', sampling: 'CreateMessageRequestParams' };

/** The names `params` reads, resolved: identifiers declared inside `params` itself are left out. */
function referencedIdentifiers(params: Node): Identifier[] {
  const ids = Node.isIdentifier(params) ? [params] : params.getDescendantsOfKind(SyntaxKind.Identifier);
  return ids.filter((id) => {
    const parent = id.getParent();
    if (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id) return false;
    if (Node.isPropertyAssignment(parent) && parent.getNameNode() === id) return false;
    if ((Node.isParameterDeclaration(parent) || Node.isBindingElement(parent) || Node.isVariableDeclaration(parent)) && parent.getNameNode() === id) return false;
    return true;
  });
}

function declarationOf(id: Identifier): Node | undefined {
  const parent = id.getParent();
  const symbol = Node.isShorthandPropertyAssignment(parent) ? parent.getValueSymbol() : id.getSymbol();
  return symbol?.getDeclarations()[0];
}

function isPrimitive(id: Identifier): boolean {
  const type = id.getType();
  return type.isString() || type.isNumber() || type.isBoolean() || type.isLiteral() || type.isBooleanLiteral();
}

function within(node: Node, root: Node): boolean {
  return node.getStart() >= root.getStart() && node.getEnd() <= root.getEnd();
}

function isAccessBase(id: Identifier): boolean {
  const parent = id.getParent();
  return (Node.isPropertyAccessExpression(parent) || Node.isElementAccessExpression(parent)) && parent.getExpression() === id;
}

/**
 * Whether `id` names one of the handler's own parameters (or a binding destructured from them) that
 * its body never changes: then the value is the same above the phase switch as where the request was
 * built. Anything else (a module binding other code may change while the handler awaits) is read
 * where the request was built, through a function.
 */
function isFixedParameter(id: Identifier, fn: Node, body: Node, params: Node): boolean {
  const decl = declarationOf(id);
  if (!decl || within(decl, body) || !within(decl, fn)) return false;
  if (!(Node.isParameterDeclaration(decl) || Node.isBindingElement(decl))) return false;
  return !changedIn(body, id.getText(), params);
}

/** Whether the handler's body writes `name` or a property of it, or calls a method on it (anything but a read). */
function changedIn(body: Node, name: string, except: Node): boolean {
  for (const id of body.getDescendantsOfKind(SyntaxKind.Identifier)) {
    if (id.getText() !== name || within(id, except)) continue;
    let target: Node = id;
    while (Node.isPropertyAccessExpression(target.getParent()) && (target.getParent() as Node & { getExpression(): Node }).getExpression() === target) target = target.getParent()!;
    const use = target.getParent();
    if (Node.isBinaryExpression(use) && use.getLeft() === target && /=$/.test(use.getOperatorToken().getText()) && !/^[=!<>]=+$/.test(use.getOperatorToken().getText())) return true;
    if ((Node.isPrefixUnaryExpression(use) || Node.isPostfixUnaryExpression(use)) && /\+\+|--/.test(use.getText())) return true;
    // A method call on a primitive (`name.toLowerCase()`) changes nothing; on an object it may.
    if (Node.isCallExpression(use) && use.getExpression() === target && target !== id && !isPrimitive(id)) return true;
  }
  return false;
}

interface LocalParameter {
  name: string;
  type?: string;
  /** What the call passes: the local, or the property chain the parameter stands for. */
  argument: string;
}

const RESERVED = new Set('break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await arguments eval undefined'.split(' '));

/** `invoice.id` / `dates.content?.from!` read at `id`: the longest property chain it is the base of (not a method's callee), or undefined when it is written. */
function readChain(id: Identifier): Node | undefined | 'written' {
  let chain: Node = id;
  for (;;) {
    const parent = chain.getParent();
    if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === chain) chain = parent;
    else if (Node.isNonNullExpression(parent)) chain = parent;
    else break;
  }
  const use = chain.getParent();
  // `a.b.format()`: the method keeps its receiver, so the chain is the receiver.
  if (Node.isCallExpression(use) && use.getExpression() === chain && chain !== id) chain = (chain as Node & { getExpression(): Node }).getExpression();
  if (Node.isNonNullExpression(chain)) chain = chain.getExpression();
  if (chain === id) return undefined;
  const target = chain.getParent();
  if (Node.isBinaryExpression(target) && target.getLeft() === chain && /=$/.test(target.getOperatorToken().getText()) && !/^[=!<>]=+$/.test(target.getOperatorToken().getText())) return 'written';
  if (Node.isPrefixUnaryExpression(target) || Node.isPostfixUnaryExpression(target) || Node.isDeleteExpression(target)) return 'written';
  return chain;
}

/** The last property of a chain (`dates.content?.from` → `from`), and all of them (`datesContentFrom`). */
function chainNames(chain: Node): [string, string] {
  const parts = chain.getText().split(/\?\.|\.|!/).filter((p) => p !== '');
  return [parts[parts.length - 1]!, parts.map((p, i) => (i === 0 ? p : p.charAt(0).toUpperCase() + p.slice(1))).join('')];
}

/** The type a chain reads; the checker leaves out the `undefined` that an optional link (`basicInfo.content?.title`) adds. */
function chainType(chain: Node): string | undefined {
  const text = nameableType(chain);
  if (text === undefined) return undefined;
  const optional = chain.getDescendantsOfKind(SyntaxKind.QuestionDotToken).length > 0 || Node.isPropertyAccessExpression(chain) && chain.hasQuestionDotToken();
  return optional && !/\bundefined\b/.test(text) ? `${text} | undefined` : text;
}

/**
 * The handler's locals the parameters read, as parameters of the request's function, and the
 * parameters' text written over them. A local read through a property chain (`dates.content.from`,
 * `invoice.id`) passes the chain: a guard on `dates.content` narrows the chain where the request is
 * built, which a parameter holding `dates` would not keep. A local read whole (or indexed) is passed
 * as itself when its declared type is the type the request reads. Undefined when one cannot be passed.
 */
function readLocals(params: Node, body: Node, ts: boolean): { parameters: LocalParameter[]; text: string } | undefined {
  const whole = new Map<string, Identifier>();
  const chains: Array<{ local: string; chain: Node }> = [];
  for (const id of referencedIdentifiers(params)) {
    const decl = declarationOf(id);
    if (!decl || !within(decl, body) || within(decl, params)) continue;
    const chain = isAccessBase(id) ? readChain(id) : undefined;
    if (chain === 'written') return undefined;
    if (chain) chains.push({ local: id.getText(), chain });
    else if (!whole.has(id.getText())) {
      if (ts) {
        // The declared type and the type where the request reads it must agree: a narrowed local
        // (`string | undefined` checked before the request) would not fit a parameter of either type in every round.
        const declName = (decl as Node & { getNameNode?: () => Node }).getNameNode?.();
        const typeText = nameableType(id);
        if (!declName || typeText === undefined || nameableType(declName) !== typeText) return undefined;
      }
      whole.set(id.getText(), id);
    }
  }
  const found: Array<LocalParameter & { at: number; nodes: Node[] }> = [...whole].map(([name, id]) => ({ name, type: ts ? nameableType(id) : undefined, argument: name, at: id.getStart(), nodes: [] }));
  const passed = chains.filter((c) => !whole.has(c.local));
  const outside = referencedIdentifiers(params).filter((id) => !passed.some((c) => within(id, c.chain))).map((id) => id.getText());
  const taken = new Set([...outside, ...whole.keys()]);
  for (const { chain } of passed) {
    const same = found.find((f) => f.nodes.length > 0 && f.argument === chain.getText());
    if (same) {
      same.nodes.push(chain);
      continue;
    }
    const name = chainNames(chain).find((n) => !taken.has(n) && !RESERVED.has(n));
    const type = ts ? chainType(chain) : undefined;
    if (name === undefined || (ts && type === undefined)) return undefined;
    taken.add(name);
    found.push({ name, type, argument: chain.getText(), at: chain.getStart(), nodes: [chain] });
  }
  found.sort((a, b) => a.at - b.at);
  const edits = found.flatMap((f) => f.nodes.map((n) => ({ start: n.getStart() - params.getStart(), end: n.getEnd() - params.getStart(), text: f.name }))).sort((a, b) => b.start - a.start);
  let text = params.getText();
  for (const e of edits) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return { parameters: found.map(({ name, type, argument }) => ({ name, type, argument })), text };
}

/**
 * The hoisted parameters of the handler's direct requests (form elicitations and sampling with a
 * literal parameter object). A request left out (URL elicitation, parameters read from a variable,
 * a local whose type cannot be written, an `await` inside) is built where it was, as before.
 */
export function hoistRequests(points: RequestPoint[], body: Node, fn: Node, ts: boolean, names: NameAllocator, base: string): HoistedRequests {
  const lines: string[] = [];
  const expressions = new Map<Site, string>();
  for (const point of points) {
    if (point.kind !== 'direct' && point.kind !== 'parallel') continue;
    point.sites.forEach((site, i) => {
      const params = site.params;
      const type = PARAMS_TYPE[LEGACY_REQUESTS[site.method].kind];
      if (!params || !type || !Node.isObjectLiteralExpression(params)) return;
      if (/^['"`]url['"`]$/.test((params.getProperty('mode') as Node & { getInitializer?: () => Node | undefined } | undefined)?.getInitializer?.()?.getText() ?? '')) return;
      if (params.getDescendantsOfKind(SyntaxKind.AwaitExpression).length > 0 || params.getDescendantsOfKind(SyntaxKind.YieldExpression).length > 0) return;
      if (params.getDescendants().some((d) => Node.isIdentifier(d) && d.getText() === 'arguments')) return;
      const read = readLocals(params, body, ts);
      if (!read) return;
      const locals = read.parameters;
      const name = names.take(`${baseName(point.keys[i]!)}Request`);
      const returns = ts ? `: ${type}` : '';
      const text = outdented(params, read.text, indentOf(point.statement), base);
      const fixed = locals.length === 0 && firstEffect([params], fn) === undefined && referencedIdentifiers(params).every((id) => isFixedParameter(id, fn, body, params));
      if (fixed) {
        lines.push(`const ${name}${returns} = ${text};`);
        expressions.set(site, name);
      } else {
        const parameters = locals.map((l) => (l.type ? `${l.name}: ${l.type}` : l.name)).join(', ');
        lines.push(`const ${name} = (${parameters})${returns} => (${text});`);
        expressions.set(site, `${name}(${locals.map((l) => l.argument).join(', ')})`);
      }
    });
  }
  return { lines, expressions };
}
