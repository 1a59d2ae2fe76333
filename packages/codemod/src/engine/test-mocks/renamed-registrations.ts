/**
 * Unit tests that hand a register function a fake server (`{ tool: vi.fn() }`) and read the handler
 * it registered from the mock's calls. The official v1-to-v2 transforms rename the code's
 * `server.tool(...)` / `resource(...)` / `prompt(...)` to `registerTool` / `registerResource` /
 * `registerPrompt`, with `(name, config, handler)` arguments, and leave the test's fake as it was:
 * the registration no longer reaches the mock and the test fails (`server.registerTool is not a
 * function`). Each such fake member, in a test file that imports a module the run renamed it in, is
 * a flagged test-mock site with a marker above it.
 */
import { ts } from 'ts-morph';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import { markerComment } from '../markers.js';
import type { SiteResult } from '../../types.js';

/** The v1 registration methods the upgrade renames, with their v2 names. */
export const RENAMED_REGISTRATIONS: Readonly<Record<string, string>> = { tool: 'registerTool', resource: 'registerResource', prompt: 'registerPrompt' };

/** A test double made by a mocking library. */
const MOCK_MAKER = /^(?:vi|jest)\.fn\b|^sinon\.(?:stub|spy|fake)\b/;

export const RENAMED_REGISTRATION_ADVICE =
  "rename the fake's member to the v2 method and read the handler from its (name, config, handler) arguments (the handler is the third, the input schema is config.inputSchema), or register on a real McpServer and call the tool through a Client";

/** The registration methods `original` called that `output` calls by their v2 names: what the upgrade renamed in a file. */
export function renamedRegistrations(original: string, output: string): string[] {
  return Object.entries(RENAMED_REGISTRATIONS)
    .filter(([v1, v2]) => new RegExp(`\\.${v1}\\s*\\(`).test(original) && output.includes(`.${v2}(`))
    .map(([v1]) => v1);
}

interface FakeMember {
  name: string;
  /** Start of the property, in the text it was found in. */
  start: number;
  line: number;
  column: number;
}

/** Properties of object literals named after a renamed method whose value is a mock (`tool: vi.fn()`). */
function fakeMembers(file: string, text: string, renamed: ReadonlySet<string>): FakeMember[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: FakeMember[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && ts.isObjectLiteralExpression(node.parent)) {
      const name = ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : undefined;
      if (name !== undefined && renamed.has(name) && MOCK_MAKER.test(node.initializer.getText(source))) {
        const start = node.getStart(source);
        const { line, character } = source.getLineAndCharacterOfPosition(start);
        found.push({ name, start, line: line + 1, column: character + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The fake members of a test file as flagged sites (lines of `original`; of `output` when the two
 * hold a different number of them), and `output` with a marker above each one not yet marked.
 * `where`: the modules the test imports that the run renamed the method in, for the reason.
 */
export function renamedRegistrationSites(file: string, original: string, output: string, renamed: ReadonlyMap<string, string[]>): { sites: SiteResult[]; output: string } {
  const names = new Set(renamed.keys());
  const inOutput = fakeMembers(file, output, names);
  if (inOutput.length === 0) return { sites: [], output };
  const inOriginal = fakeMembers(file, original, names);
  const at = inOriginal.length === inOutput.length ? inOriginal : inOutput;
  const sites = inOutput.map((member, i): SiteResult => {
    const v2 = RENAMED_REGISTRATIONS[member.name]!;
    const modules = renamed.get(member.name)!.join(', ');
    return {
      line: at[i]!.line,
      column: at[i]!.column,
      method: 'test-mock',
      status: 'flagged',
      reason: `test fake member \`${member.name}\` stands in for McpServer's \`${member.name}\`, which the v1-to-v2 upgrade renamed to \`${v2}\` (called with (name, config, handler)) in ${modules}, which this test imports: the registration no longer reaches the mock, so the test fails`,
      advice: RENAMED_REGISTRATION_ADVICE,
    };
  });
  // markers bottom-up, so the earlier positions hold
  let text = output;
  for (let i = inOutput.length - 1; i >= 0; i--) {
    const lineStart = text.lastIndexOf('\n', inOutput[i]!.start - 1) + 1;
    const previousLine = text.slice(text.lastIndexOf('\n', Math.max(lineStart - 2, 0)) + 1, lineStart);
    if (previousLine.includes(TODO_MARKER)) continue;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    text = `${text.slice(0, lineStart)}${indent}${markerComment(sites[i]!.reason!, RENAMED_REGISTRATION_ADVICE)}${eol}${text.slice(lineStart)}`;
  }
  return { sites, output: text };
}
