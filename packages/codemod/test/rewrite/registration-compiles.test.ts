import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Node, Project, SyntaxKind } from 'ts-morph';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Handler } from '../../src/engine/model.js';
import { registrationTypeError } from '../../src/engine/rewrite/registration-compiles.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-registration-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A schema library shaped like zod 3 (no `~standard.jsonSchema`) at the given version, and a v2-like registerTool that needs it. */
function handlerIn(zodVersion: string, source: string): Handler {
  const root = fs.mkdtempSync(path.join(dir, 'p-'));
  fs.mkdirSync(path.join(root, 'node_modules', 'zod'), { recursive: true });
  fs.writeFileSync(path.join(root, 'node_modules', 'zod', 'package.json'), JSON.stringify({ name: 'zod', version: zodVersion, types: 'index.d.ts' }));
  fs.writeFileSync(
    path.join(root, 'node_modules', 'zod', 'index.d.ts'),
    "export interface ZodObject<T> { readonly '~standard': { validate(value: unknown): unknown }; readonly shape: T }\nexport declare const z: { object<T>(shape: T): ZodObject<T>; string(): string };\n",
  );
  // the project's own v2 server, whose lookup of zod ends at the project's zod 3: the run cannot lend zod 4
  fs.mkdirSync(path.join(root, 'node_modules', '@modelcontextprotocol', 'server'), { recursive: true });
  fs.writeFileSync(path.join(root, 'node_modules', '@modelcontextprotocol', 'server', 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/server', version: '2.0.0', dependencies: { zod: '^4.2.0' } }));
  const file = path.join(root, 'server.ts');
  fs.writeFileSync(file, source);
  const project = new Project({ compilerOptions: { strict: true, module: 99, moduleResolution: 100, target: 9, noEmit: true } });
  const sourceFile = project.addSourceFileAtPath(file);
  const call = sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression).find((c) => c.getExpression().getText() === 'server.registerTool')!;
  const fn = call.getArguments()[2]!;
  expect(Node.isArrowFunction(fn)).toBe(true);
  return { fn, method: 'tools/call', registration: 'registerTool', registrationCall: call, sourceFile };
}

const SERVER = `import { z } from 'zod';
interface StandardSchemaWithJSON<T> { readonly '~standard': { validate(value: unknown): unknown; jsonSchema: { input(): unknown } }; readonly __t?: T }
declare const server: { registerTool<T>(name: string, config: { inputSchema: StandardSchemaWithJSON<T> }, cb: (args: T) => Promise<string>): void };
`;

describe('registrationTypeError', () => {
  it("names the registration error and the project's zod when it is below the range v2 declares", () => {
    const handler = handlerIn('3.25.76', `${SERVER}server.registerTool('summarize', { inputSchema: z.object({ id: z.string() }) }, async (args) => String(args));\n`);
    const reason = registrationTypeError(handler);
    expect(reason).toMatch(/^its registration \(line 4\) does not compile on v2 \(TS\d+: /);
    expect(reason).toContain("the project's zod 3.25.76 is older than v2's schema types need: @modelcontextprotocol/server declares zod ^4.2.0");
    expect(reason).toContain('upgrade zod to a version in ^4.2.0');
  });

  it('leaves a registration error with a recent enough zod to verify (its cause is not known here)', () => {
    expect(registrationTypeError(handlerIn('4.3.0', `${SERVER}server.registerTool('summarize', { inputSchema: z.object({ id: z.string() }) }, async (args) => String(args));\n`))).toBeUndefined();
  });

  it("typechecks the registering file only when the project's zod is below v2's range (the one cause it reports)", () => {
    const source = `${SERVER}server.registerTool('summarize', { inputSchema: z.object({ id: z.string() }) }, async (args) => String(args));\n`;
    const asked = (zodVersion: string) => {
      const handler = handlerIn(zodVersion, source);
      const diagnostics = vi.spyOn(handler.sourceFile.getProject().getProgram().compilerObject, 'getSemanticDiagnostics');
      registrationTypeError(handler);
      return diagnostics.mock.calls.length;
    };
    expect(asked('3.25.76')).toBe(1);
    expect(asked('4.3.0')).toBe(0);
  });

  it('leaves a registration that compiles, and errors inside the callback, to verify', () => {
    const ok = `${SERVER}declare const schema: StandardSchemaWithJSON<{ id: string }>;\nserver.registerTool('summarize', { inputSchema: schema }, async (args) => { const n: number = args.id; return String(n); });\n`;
    expect(registrationTypeError(handlerIn('3.25.76', ok))).toBeUndefined();
  });
});
