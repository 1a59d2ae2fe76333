/**
 * v1 SDK APIs that the v2 SDK has in no form: the experimental tasks API (task stores, message
 * queues, `experimental.tasks.registerToolTask`, the `@modelcontextprotocol/sdk/experimental`
 * modules, low-level handlers of the task methods `tasks/get` / `tasks/result` / `tasks/list` /
 * `tasks/cancel`). v2 took tasks out of the core protocol into an extension, and
 * `@modelcontextprotocol/server` has no task store or task-based tool registration. The official
 * upgrade deletes their imports and leaves the code that uses them, which no longer compiles, and
 * an upgrade by hand means dropping the feature. A file that uses one stays on v1 together with
 * every file it shares SDK objects with (run/v1-hold-back.ts), and its requests are not migrated:
 * the MRTR form needs v2.
 */
import { LEGACY_SDK_PACKAGE, LOW_LEVEL_REGISTRATION, TASK_REQUEST_METHODS, TASK_REQUEST_SCHEMA_TO_METHOD } from '@mcp-mrtr/surface';
import { Node, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';

export interface V1OnlyUse {
  /** 1-based, in the text the file had when it was searched (its v1 text). */
  line: number;
  column: number;
  /** What the file uses, for a reason: "imports `@modelcontextprotocol/sdk/experimental/tasks`". */
  what: string;
  snippet: string;
}

/** Said of every use: why it has no v2 form. */
export const V1_ONLY_API_NAME = 'the v1 tasks API';
export const V1_ONLY_API_WHY = 'the v2 SDK has no tasks API: tasks left the core protocol for an extension, and @modelcontextprotocol/server has no task store, no task-based tool registration and no handlers for the task methods';

const EXPERIMENTAL_MODULE = `${LEGACY_SDK_PACKAGE}/experimental`;
/** Server options that only the v1 tasks API reads. */
const TASK_OPTIONS = new Set(['taskStore', 'taskMessageQueue']);
const SERVER_CLASSES = new Set(['McpServer', 'Server']);
/** Words a file using none of the APIs never contains (a cheap test before the walk). */
const MENTIONS = new RegExp(`experimental|\\btask(Store|MessageQueue)\\b|${[...Object.keys(TASK_REQUEST_SCHEMA_TO_METHOD), ...TASK_REQUEST_METHODS].join('|')}`);

/** The uses of a v1-only API in a file's text, in source order. */
export function v1OnlyApiUses(sourceFile: SourceFile): V1OnlyUse[] {
  const text = sourceFile.getFullText();
  if (!MENTIONS.test(text)) return [];
  const uses: V1OnlyUse[] = [];
  const add = (node: Node, what: string) => {
    const { line, column } = sourceFile.getLineAndColumnAtPos(node.getStart());
    const lineText = text.slice(text.lastIndexOf('\n', node.getStart() - 1) + 1, text.indexOf('\n', node.getStart()) < 0 ? text.length : text.indexOf('\n', node.getStart())).trim();
    uses.push({ line, column, what, snippet: lineText.length > 80 ? `${lineText.slice(0, 77)}...` : lineText });
  };
  sourceFile.forEachDescendant((node) => {
    if ((Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) && isModuleSpecifier(node) && isExperimentalModule(node.getLiteralValue())) {
      add(node.getParent()!, `loads \`${node.getLiteralValue()}\``);
    } else if (Node.isPropertyAccessExpression(node) && node.getName() === 'tasks') {
      const inner = node.getExpression();
      if (Node.isPropertyAccessExpression(inner) && inner.getName() === 'experimental') add(node, `uses \`${abbreviate(node.getText())}\``);
    } else if ((Node.isPropertyAssignment(node) || Node.isShorthandPropertyAssignment(node)) && TASK_OPTIONS.has(node.getName()) && isServerOptions(node.getParent())) {
      add(node, `passes the \`${node.getName()}\` server option`);
    } else if (Node.isCallExpression(node)) {
      const method = taskHandlerMethod(node);
      if (method) add(node, `registers a low-level \`${method}\` handler (\`${abbreviate(node.getExpression().getText())}(${abbreviate(node.getArguments()[0]!.getText())}, …)\`)`);
    }
  });
  return uses;
}

/**
 * The task method a `setRequestHandler(…)` call registers a handler for: its first argument a v1
 * task request schema (`GetTaskRequestSchema`, also as `types.GetTaskRequestSchema`) or the
 * method's name.
 */
function taskHandlerMethod(call: CallExpression): string | undefined {
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== LOW_LEVEL_REGISTRATION) return undefined;
  const first = call.getArguments()[0];
  if (!first) return undefined;
  if (Node.isStringLiteral(first) || Node.isNoSubstitutionTemplateLiteral(first)) return TASK_REQUEST_METHODS.includes(first.getLiteralValue()) ? first.getLiteralValue() : undefined;
  const name = Node.isIdentifier(first) ? first.getText() : Node.isPropertyAccessExpression(first) ? first.getName() : undefined;
  return name !== undefined && Object.hasOwn(TASK_REQUEST_SCHEMA_TO_METHOD, name) ? TASK_REQUEST_SCHEMA_TO_METHOD[name] : undefined;
}

function isExperimentalModule(specifier: string): boolean {
  return specifier === EXPERIMENTAL_MODULE || specifier.startsWith(`${EXPERIMENTAL_MODULE}/`) || specifier === `${EXPERIMENTAL_MODULE}.js`;
}

/** An import or export's specifier, `require()` / `import()` / a test runner's module mock argument, or an `import('…')` type. */
function isModuleSpecifier(node: Node): boolean {
  const parent = node.getParent();
  if (!parent) return false;
  if (Node.isImportDeclaration(parent) || Node.isExportDeclaration(parent) || Node.isExternalModuleReference(parent)) return true;
  if (Node.isCallExpression(parent)) return parent.getArguments()[0] === node;
  return Node.isLiteralTypeNode(parent) && parent.getParentIfKind(SyntaxKind.ImportType) !== undefined;
}

/** The options object passed to `new McpServer(…)` / `new Server(…)`. */
function isServerOptions(node: Node | undefined): boolean {
  if (!node || !Node.isObjectLiteralExpression(node)) return false;
  const call = node.getParent();
  if (!call || !Node.isNewExpression(call) || !call.getArguments().includes(node)) return false;
  const callee = call.getExpression();
  const name = Node.isIdentifier(callee) ? callee.getText() : Node.isPropertyAccessExpression(callee) ? callee.getName() : '';
  return SERVER_CLASSES.has(name);
}

function abbreviate(text: string): string {
  const flat = text.replace(/\s+/g, '');
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
