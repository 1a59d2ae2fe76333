import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { CTX_MCPREQ_READS, TARGET } from '@mcp-mrtr/surface';
import { enclosingFunction, findProperty, getPropertyName, getStaticString, outerParent, resolveConstInit, textHasAny, unwrap } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { getMcpContextResolver } from '../utils/mcp-context.js';
import {
  answerReaderOf,
  isInputRequiredCall,
  isInputResponsesMember,
  isRawInputRequiredObject,
  resultSpecOf,
} from '../utils/mrtr-results.js';

type MessageId = 'requestedNeverRead' | 'readNeverRequested' | 'useRequestedKey';

interface KeyUse {
  key: string;
  node: TSESTree.Node;
}

/** Requests and reads of one handler (or one function outside handlers). */
interface Group {
  requests: KeyUse[];
  reads: KeyUse[];
  /** A request key this rule cannot see (computed, spread, built elsewhere). */
  dynamicRequest: boolean;
  /** A read this rule cannot see (computed key, responses passed on or enumerated). */
  dynamicRead: boolean;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

export default createRule<[], MessageId>({
  name: 'consistent-input-keys',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require every key requested in inputRequests to be read, and every key read from inputResponses to be requested, within the same handler',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      requestedNeverRead:
        'inputRequests key "{{key}}" is requested but this handler never reads it (inputResponse/acceptedContent/inputResponses["{{key}}"]): the client is asked for nothing, or a read uses another key.',
      readNeverRequested:
        'Input response key "{{key}}" is read but this handler never requests it in inputRequests ({{requested}}): the answer can never arrive.',
      useRequestedKey: 'Read "{{key}}" instead.',
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    if (!textHasAny(sourceCode.text, [TARGET.inputRequestsField]) || !textHasAny(sourceCode.text, [TARGET.inputResponse, TARGET.inputResponsesField, TARGET.acceptedContent])) return {};
    const resolver = getMcpContextResolver(sourceCode);
    const groups = new Map<TSESTree.Node, Group>();

    function groupOf(node: TSESTree.Node): Group {
      const owner = resolver.lexicalHandlerOf(node)?.fn ?? enclosingFunction(node) ?? sourceCode.ast;
      let group = groups.get(owner);
      if (!group) {
        group = { requests: [], reads: [], dynamicRequest: false, dynamicRead: false };
        groups.set(owner, group);
      }
      return group;
    }

    function collectRequests(node: TSESTree.CallExpression | TSESTree.ObjectExpression): void {
      const group = groupOf(node);
      const spec = resultSpecOf(sourceCode, node);
      if (!spec) {
        group.dynamicRequest = true;
        return;
      }
      const prop = findProperty(spec, TARGET.inputRequestsField);
      if (!prop) {
        if (spec.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement)) group.dynamicRequest = true;
        return;
      }
      const entries = resolveConstInit(sourceCode, prop.value);
      if (entries?.type !== AST_NODE_TYPES.ObjectExpression) {
        group.dynamicRequest = true;
        return;
      }
      for (const entry of entries.properties) {
        const key = entry.type === AST_NODE_TYPES.Property && (!entry.computed || getStaticString(entry.key) !== undefined) ? getPropertyName(entry) : undefined;
        if (key === undefined || entry.type !== AST_NODE_TYPES.Property) group.dynamicRequest = true;
        else group.requests.push({ key, node: entry.key });
      }
    }

    function addRead(at: TSESTree.Node, key: string | undefined, keyNode: TSESTree.Node | undefined): void {
      const group = groupOf(at);
      if (key === undefined || !keyNode) group.dynamicRead = true;
      else group.reads.push({ key, node: keyNode });
    }

    return {
      CallExpression(node) {
        if (isInputRequiredCall(sourceCode, node)) {
          collectRequests(node);
          return;
        }
        if (answerReaderOf(sourceCode, node)) addRead(node, getStaticString(node.arguments[1]), node.arguments[1]);
      },
      ObjectExpression(node) {
        if (isRawInputRequiredObject(node)) collectRequests(node);
      },
      MemberExpression(node) {
        if (!isInputResponsesMember(node)) return;
        const parent = outerParent(node);
        // `responses.key` / `responses['key']`
        if (parent?.type === AST_NODE_TYPES.MemberExpression && unwrap(parent.object) === node) {
          addRead(parent, getPropertyName(parent), parent.property);
          return;
        }
        // handed to inputResponse/acceptedContent: the call records the read
        if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] && unwrap(parent.arguments[0]) === node && answerReaderOf(sourceCode, parent)) return;
        // passed on, aliased, enumerated: reads this rule cannot see
        groupOf(node).dynamicRead = true;
      },
      'ObjectPattern > Property'(node: TSESTree.Property) {
        if (getPropertyName(node) === CTX_MCPREQ_READS.inputResponses) groupOf(node).dynamicRead = true;
      },
      'Program:exit'() {
        for (const group of groups.values()) {
          const requested = new Set(group.requests.map((r) => r.key));
          const read = new Set(group.reads.map((r) => r.key));
          if (group.reads.length > 0 && !group.dynamicRead) {
            for (const req of group.requests) {
              if (!read.has(req.key)) context.report({ node: req.node, messageId: 'requestedNeverRead', data: { key: req.key } });
            }
          }
          if (group.requests.length > 0 && !group.dynamicRequest) {
            const unread = [...requested].filter((k) => !read.has(k));
            for (const use of group.reads) {
              if (requested.has(use.key)) continue;
              const near = [...requested].filter((k) => editDistance(k, use.key) <= 2);
              const candidates = near.length > 0 ? near : unread.length === 1 ? unread : [];
              const keyNode = use.node;
              const isDotProperty = keyNode.parent?.type === AST_NODE_TYPES.MemberExpression && !keyNode.parent.computed;
              context.report({
                node: keyNode,
                messageId: 'readNeverRequested',
                data: { key: use.key, requested: [...requested].map((k) => `"${k}"`).join(', ') },
                suggest: candidates
                  .filter((k) => !isDotProperty || /^[A-Za-z_$][\w$]*$/.test(k))
                  .map((k) => ({
                    messageId: 'useRequestedKey' as const,
                    data: { key: k },
                    fix: (fixer) => {
                      if (isDotProperty) return fixer.replaceText(keyNode, k);
                      const raw = sourceCode.getText(keyNode);
                      const quote = raw[0] === '"' || raw[0] === '`' ? raw[0] : "'";
                      return fixer.replaceText(keyNode, `${quote}${k}${quote}`);
                    },
                  })),
              });
            }
          }
        }
      },
    };
  },
});
