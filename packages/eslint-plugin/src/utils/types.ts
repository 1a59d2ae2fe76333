/**
 * Optional type information: used when the parser was given a TypeScript program, ignored otherwise.
 * Every caller must stay correct when these helpers return undefined.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';

interface ProgramServices {
  program: ts.Program;
  esTreeNodeToTSNodeMap: { get(node: TSESTree.Node): ts.Node };
}

/** Parser services with a type checker, or undefined (espree, or typescript-eslint without a project). */
export function getProgramServices(sourceCode: Readonly<TSESLint.SourceCode>): ProgramServices | undefined {
  const services = sourceCode.parserServices as Partial<ProgramServices> | undefined;
  if (!services?.program || !services.esTreeNodeToTSNodeMap) return undefined;
  return services as ProgramServices;
}

const ANY_OR_UNKNOWN = 1 | 2; // ts.TypeFlags.Any | ts.TypeFlags.Unknown

/**
 * Names of the (union member) types of an expression: class/interface/alias symbol names.
 * Undefined when there is no type checker or the type says nothing (any, unknown, error).
 */
export function getTypeNames(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string[] | undefined {
  const services = getProgramServices(sourceCode);
  if (!services) return undefined;
  const tsNode = services.esTreeNodeToTSNodeMap.get(node);
  if (!tsNode) return undefined;
  const checker = services.program.getTypeChecker();
  const type = checker.getTypeAtLocation(tsNode);
  const parts = type.isUnion() ? type.types : [type];
  const names: string[] = [];
  for (const part of parts) {
    if (part.flags & ANY_OR_UNKNOWN) return undefined;
    const name = part.aliasSymbol?.getName() ?? part.getSymbol()?.getName();
    if (name && name !== '__type' && name !== '__object') names.push(name);
  }
  return names.length > 0 ? names : undefined;
}

/** The type checker and the ESTree → TypeScript node map, or undefined without type information. */
export function typeServices(context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>) {
  const services = getProgramServices(context.sourceCode);
  if (!services) return undefined;
  return {
    checker: services.program.getTypeChecker(),
    tsNode: (node: TSESTree.Node) => services.esTreeNodeToTSNodeMap.get(node),
  };
}
