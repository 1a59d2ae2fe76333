/**
 * Why a type error left by the v1-to-v2 upgrade is there, for the shapes the compiler's first line
 * does not explain and no repair covered:
 *
 * - a low-level `setRequestHandler(method, handler)` whose result v2 rejects: v1 typed every
 *   handler's result as the union of all server result types (a result of another method's shape
 *   passed), v2 types it as its method's own result. The compiler's first line
 *   only says the handler is not assignable; its innermost line names the property that does not
 *   fit (`Property 'blob' is missing in type ...`). No repair: the value's type says it lacks what
 *   v2 requires, and only an unchecked double assertion would silence that, which would also hide
 *   a result that really lacks it.
 * - a property read on a v2 union that only some members have (`result.content.text`, where
 *   `content` is a text, image or audio block): older v1 SDKs gave each block an open index
 *   signature, so the read typed as `unknown`; v2's blocks are closed (and so are
 *   recent v1 SDKs', where the read fails before the upgrade too and is not reported). A read of
 *   an effect-free reference is repaired before it gets here (`engine/union-member-reads.ts`,
 *   `('text' in E ? E.text : undefined)`, kept where the file then typechecks); the reads left
 *   (of a call's result, in an optional chain, written to, or in a use the repaired type does not
 *   fit) have this cause: narrowing on the member (`content.type === 'text'`) decides what the
 *   line does for the others.
 * - a v1 transport (imported from `@modelcontextprotocol/sdk`) handed to `connect` of a server the
 *   migration moved to v2: v2's `Transport` is not v1's. No repair in the run: the file is not one
 *   the run upgrades (an importer outside its paths), and v2's transports are other classes in
 *   other modules, some with other options.
 */
import { Node, type CallExpression, type SourceFile } from 'ts-morph';
import { LEGACY_SDK_PACKAGE, LOW_LEVEL_REGISTRATION } from '@mcp-mrtr/surface';
import { closedUnionRead } from './union-member-reads.js';

/** The result type v2 declares for a method's handler, by method. */
const RESULT_TYPES: Readonly<Record<string, string>> = {
  'prompts/get': 'GetPromptResult',
  'prompts/list': 'ListPromptsResult',
  'resources/read': 'ReadResourceResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'tools/call': 'CallToolResult',
  'tools/list': 'ListToolsResult',
  'completion/complete': 'CompleteResult',
};

const V1_PACKAGE_PATH = new RegExp(`[\\\\/]${LEGACY_SDK_PACKAGE.replace('/', '[\\\\/]')}[\\\\/]`);

export interface UpgradeErrorCause {
  cause: string;
  advice: string;
}

/** The cause of the error at `start` (whose compiler elaboration ends in `innermost`), when its shape is one of the above. */
export function upgradeErrorCause(sourceFile: SourceFile, start: number, innermost: string | undefined): UpgradeErrorCause | undefined {
  const node = sourceFile.getDescendantAtPos(start);
  if (!node) return undefined;
  return handlerResultCause(node, start, innermost) ?? unionMemberCause(node) ?? v1TransportCause(node, start);
}

function unionMemberCause(node: Node): UpgradeErrorCause | undefined {
  const read = closedUnionRead(node);
  if (!read) return undefined;
  const { name, kinds, having } = read;
  const check = kinds.length > 0 ? ` (e.g. \`.type === '${kinds[0]}'\`)` : '';
  return {
    cause: `'${name}' is on ${kinds.length > 0 ? kinds.map((k) => `the '${k}'`).join(', ') : 'some'} member${having > 1 ? 's' : ''} only of this v2 union: older v1 SDKs gave every member an open index signature, which typed this read as unknown; v2's members are closed`,
    advice: `check which member the value is before reading '${name}'${check}: what the line then does for the other members is a decision to make by hand`,
  };
}

/**
 * The compiler's last line for a value that fits neither member of v2's resource contents union
 * (`TextResourceContents | BlobResourceContents`) names one missing property, of the member it tried
 * last (`blob` for a listing entry `{ uri, name }`): read alone it says the value lacks `blob` only.
 * Only those two members require `text` or `blob` beside a `uri` (a text content block missing its
 * `text` has no `uri`, and is left to the compiler's line alone).
 */
const RESOURCE_CONTENTS_MEMBER = /^Property '(text|blob)' is missing in type '\{[^']*\buri\??: /;
const RESOURCE_CONTENTS_NOTE = "; v2's resource contents are text contents (with 'text') or blob contents (with 'blob'), and the compiler names the member it tried last";

function handlerResultCause(node: Node, start: number, innermost: string | undefined): UpgradeErrorCause | undefined {
  const call = node.getFirstAncestor((a): a is CallExpression => Node.isCallExpression(a) && isRegistration(a));
  const [method, handler] = call?.getArguments() ?? [];
  if (!method || !handler || !Node.isStringLiteral(method) || start < handler.getStart() || start >= handler.getEnd()) return undefined;
  if (!Node.isArrowFunction(handler) && !Node.isFunctionExpression(handler)) return undefined;
  // the result, not a parameter, is what v2 rejects
  const expected = handler.getContextualType()?.getCallSignatures()[0]?.getReturnType();
  if (!expected || handler.getReturnType().isAssignableTo(expected)) return undefined;
  const name = method.getLiteralText();
  const resultType = RESULT_TYPES[name] ?? `the result type of '${name}'`;
  const why = innermost ? `: ${innermost}${RESOURCE_CONTENTS_MEMBER.test(innermost) ? RESOURCE_CONTENTS_NOTE : ''}` : '';
  return {
    cause: `v2 checks a '${name}' handler's result against ${resultType}, where v1 accepted the result type of any server method${why}`,
    advice: `make the handler return a ${resultType}: give the value the type it has at run time (the compiler's last line names the property that does not fit); an assertion the compiler accepts only through unknown would hide a result that really lacks it`,
  };
}

function isRegistration(call: CallExpression): boolean {
  const callee = call.getExpression();
  return Node.isPropertyAccessExpression(callee) && callee.getName() === LOW_LEVEL_REGISTRATION;
}

function v1TransportCause(node: Node, start: number): UpgradeErrorCause | undefined {
  const argument = node.getFirstAncestor((a) => Node.isExpression(a) && Node.isCallExpression(a.getParent()) && a.getStart() === start) ?? node;
  const call = argument.getParent();
  if (!call || !Node.isCallExpression(call) || !call.getArguments().includes(argument as never)) return undefined;
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== 'connect') return undefined;
  const symbol = argument.getType().getSymbol();
  const declarations = symbol?.getDeclarations() ?? [];
  if (!symbol || declarations.length === 0 || !declarations.every((d) => V1_PACKAGE_PATH.test(d.getSourceFile().getFilePath()))) return undefined;
  const name = symbol.getName();
  const specifier = node
    .getSourceFile()
    .getImportDeclarations()
    .find((i) => i.getNamedImports().some((n) => n.getName() === name))
    ?.getModuleSpecifierValue();
  return {
    cause: `${name} is the v1 SDK's transport${specifier ? ` (from '${specifier}')` : ''} and the server it connects is a v2 server since the migration: v2's Transport is not v1's`,
    advice: `move this file's transport to the v2 SDK's (the v2 migration guide names each v1 transport's replacement), or keep the server it connects on v1`,
  };
}
