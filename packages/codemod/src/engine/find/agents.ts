/**
 * Requests sent by an agent class rather than the MCP SDK server: `this.elicitInput(...)` in a
 * subclass of the `agents` package's `McpAgent` (or on a value of such a class). The agent sends
 * the request over its own connection, so the rewrite cannot turn it into an input_required
 * round: these sites are reported and flagged, never rewritten.
 */
import { Node } from 'ts-morph';
import { AGENT_BASE_CLASS, AGENT_PACKAGE } from '@mcp-mrtr/surface';
import { declarationOf, safeType, unwrapExpression } from './resolve.js';

export interface AgentReceiver {
  /** The project class whose instance sends the request. */
  className: string;
  /** Whether the checker resolved `McpAgent` (false: the `agents` package is not installed). */
  typeKnown: boolean;
}

/** The agent class an expression holds an instance of, when it is an `McpAgent` subclass. */
export function agentReceiverOf(expr: Node | undefined, depth = 0): AgentReceiver | undefined {
  const node = unwrapExpression(expr);
  if (!node || depth > 4) return undefined;
  if (Node.isThisExpression(node)) {
    const cls = node.getFirstAncestor((a) => Node.isClassDeclaration(a) || Node.isClassExpression(a));
    return cls ? agentClass(cls, 0) : undefined;
  }
  if (!Node.isIdentifier(node)) return undefined;
  const decl = declarationOf(node);
  // `const agent = this`
  if (decl && Node.isVariableDeclaration(decl)) {
    const init = unwrapExpression(decl.getInitializer());
    if (init && (Node.isThisExpression(init) || Node.isIdentifier(init))) return agentReceiverOf(init, depth + 1);
  }
  // a parameter or variable whose type is a project class: `(agent: MyMCP) => ...`
  const symbol = safeType(node)?.getSymbol();
  const cls = symbol?.getDeclarations().find((d) => Node.isClassDeclaration(d));
  return cls ? agentClass(cls, 0) : undefined;
}

function agentClass(cls: Node, depth: number): AgentReceiver | undefined {
  if (depth > 5 || !(Node.isClassDeclaration(cls) || Node.isClassExpression(cls))) return undefined;
  const heritage = cls.getExtends()?.getExpression();
  if (!heritage) return undefined;
  const className = cls.getName() ?? 'anonymous class';
  const base = Node.isPropertyAccessExpression(heritage) ? heritage.getNameNode() : heritage;
  if (!Node.isIdentifier(base)) return undefined;
  const decl = declarationOf(base);
  const fromAgents = (d: Node | undefined) => {
    if (!d) return false;
    const file = d.getSourceFile().getFilePath();
    if (file.includes(`/node_modules/${AGENT_PACKAGE}/`)) return true;
    const imp = d.getFirstAncestor((a) => Node.isImportDeclaration(a));
    return imp !== undefined && Node.isImportDeclaration(imp) && moduleIsAgents(imp.getModuleSpecifierValue());
  };
  if (base.getText() === AGENT_BASE_CLASS && (!decl || fromAgents(decl))) {
    return { className, typeKnown: decl !== undefined && decl.getSourceFile().getFilePath().includes(`/node_modules/${AGENT_PACKAGE}/`) };
  }
  // a project base class between the subclass and McpAgent
  if (decl && (Node.isClassDeclaration(decl) || Node.isClassExpression(decl)) && !decl.getSourceFile().getFilePath().includes('/node_modules/')) {
    const inner = agentClass(decl, depth + 1);
    return inner ? { className, typeKnown: inner.typeKnown } : undefined;
  }
  return undefined;
}

function moduleIsAgents(specifier: string): boolean {
  return specifier === AGENT_PACKAGE || specifier.startsWith(`${AGENT_PACKAGE}/`);
}

/** The reason an agent-sent request is flagged. */
export function agentObstacle(receiverText: string, agent: AgentReceiver, method: string): string {
  const typeNote = agent.typeKnown ? '' : ` (the \`${AGENT_PACKAGE}\` package's types are not installed, so the checker cannot see the method's type)`;
  return (
    `\`${receiverText}.${method}(...)\` is sent by the agent class \`${agent.className}\` (an \`${AGENT_BASE_CLASS}\` from \`${AGENT_PACKAGE}\`), not by the MCP SDK server${typeNote}: ` +
    `MRTR needs the tool handler to return input_required, which this codemod does not write for an agent class; migrate it by hand`
  );
}
