/**
 * The `behaviour` section of `fixtures/cases/<case>.case.json`: scripted calls and the answers a
 * client gives to every server-to-client request. The same script drives the legacy peer (which
 * receives push requests) and the 2026-07-28 peer (which fulfils `input_required` rounds), so
 * answers are consumed in order, one queue per request kind.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

export type CapabilityName = 'elicitation' | 'sampling' | 'roots';
export const ALL_CAPABILITIES: readonly CapabilityName[] = ['elicitation', 'sampling', 'roots'];

export interface ElicitAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

/** A full `CreateMessageResult`, or `{ "text": "..." }` as shorthand for an assistant text reply. */
export type SamplingAnswer =
  | { text: string; model?: string }
  | { role: 'assistant'; content: { type: 'text'; text: string }; model: string; stopReason?: string };

export interface RootsAnswer {
  roots: { uri: string; name?: string }[];
}

export interface ScenarioAnswers {
  elicitation?: ElicitAnswer[];
  sampling?: SamplingAnswer[];
  roots?: RootsAnswer[];
}

export interface Scenario {
  name: string;
  /** Capabilities the client declares; default: all three. `[]` = a client that can answer nothing. */
  capabilities?: CapabilityName[];
  answers?: ScenarioAnswers;
}

export interface BehaviourCall {
  type: 'tool' | 'prompt' | 'resource';
  /** Tool or prompt name. */
  name?: string;
  /** Resource URI (type "resource"). */
  uri?: string;
  /** Tool arguments or prompt arguments (strings). */
  arguments?: Record<string, unknown>;
  scenarios: Scenario[];
}

export interface BehaviourSpec {
  calls: BehaviourCall[];
}

export interface BehaviourCase {
  name: string;
  inputPath: string;
  outputPath: string;
  spec: BehaviourSpec;
}

const INPUT_EXTENSIONS = ['ts', 'js', 'mjs', 'cjs'];

export function discoverBehaviourCases(casesDir: string): BehaviourCase[] {
  const cases: BehaviourCase[] = [];
  for (const file of readdirSync(casesDir).sort()) {
    if (!file.endsWith('.case.json')) continue;
    const name = file.slice(0, -'.case.json'.length);
    const json = JSON.parse(readFileSync(join(casesDir, file), 'utf8')) as { behaviour?: unknown };
    if (json.behaviour === undefined) continue;
    const ext = INPUT_EXTENSIONS.find((e) => existsSync(join(casesDir, `${name}.input.${e}`)));
    if (!ext) throw new Error(`${file}: has a behaviour section but no ${name}.input.{${INPUT_EXTENSIONS.join(',')}}`);
    cases.push({
      name,
      inputPath: join(casesDir, `${name}.input.${ext}`),
      outputPath: join(casesDir, `${name}.output.${ext}`),
      spec: parseBehaviourSpec(json.behaviour, file),
    });
  }
  return cases;
}

/**
 * Cases whose output migrates something (calls `inputRequired`, comments aside) but whose case.json has no
 * behaviour section: every fixture the codemod migrates needs a behaviour test.
 */
export function casesMissingBehaviour(casesDir: string): string[] {
  const missing: string[] = [];
  for (const file of readdirSync(casesDir).sort()) {
    const m = /^(.*)\.output\.(ts|js|mjs|cjs)$/.exec(file);
    if (!m) continue;
    const code = readFileSync(join(casesDir, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    if (!/\binputRequired\s*[(.]/.test(code)) continue;
    const caseJson = join(casesDir, `${m[1]}.case.json`);
    const spec = existsSync(caseJson) ? (JSON.parse(readFileSync(caseJson, 'utf8')) as { behaviour?: unknown; behaviourTest?: string }) : {};
    // a case that cannot follow the createServer() convention names the test that runs it instead
    const coveredElsewhere = typeof spec.behaviourTest === 'string' && existsSync(join(casesDir, '../..', spec.behaviourTest)) && readFileSync(join(casesDir, '../..', spec.behaviourTest), 'utf8').includes(m[1]!);
    if (spec.behaviour === undefined && !coveredElsewhere) missing.push(m[1]!);
  }
  return missing;
}

export function parseBehaviourSpec(value: unknown, where: string): BehaviourSpec {
  const fail = (msg: string): never => {
    throw new Error(`${where}: behaviour ${msg}`);
  };
  if (!isObject(value) || !Array.isArray(value.calls) || value.calls.length === 0) fail('needs a non-empty "calls" array');
  const spec = value as unknown as BehaviourSpec;
  spec.calls.forEach((call, i) => {
    if (!['tool', 'prompt', 'resource'].includes(call.type)) fail(`calls[${i}].type must be tool | prompt | resource`);
    if (call.type === 'resource' ? typeof call.uri !== 'string' : typeof call.name !== 'string') {
      fail(`calls[${i}] needs ${call.type === 'resource' ? '"uri"' : '"name"'}`);
    }
    if (!Array.isArray(call.scenarios) || call.scenarios.length === 0) fail(`calls[${i}] needs a non-empty "scenarios" array`);
    const names = new Set<string>();
    for (const s of call.scenarios) {
      if (typeof s.name !== 'string' || names.has(s.name)) fail(`calls[${i}]: scenario names must be unique strings`);
      names.add(s.name);
      for (const cap of s.capabilities ?? []) {
        if (!ALL_CAPABILITIES.includes(cap)) fail(`calls[${i}].${s.name}: unknown capability "${cap}"`);
      }
      for (const kind of Object.keys(s.answers ?? {})) {
        if (!ALL_CAPABILITIES.includes(kind as CapabilityName)) fail(`calls[${i}].${s.name}: unknown answer kind "${kind}"`);
      }
    }
  });
  return spec;
}

export function callLabel(call: BehaviourCall): string {
  return call.type === 'resource' ? `resource ${call.uri}` : `${call.type} ${call.name}`;
}

/** The wire result a sampling answer stands for. */
export function samplingResult(answer: SamplingAnswer): Record<string, unknown> {
  if ('text' in answer) {
    return { role: 'assistant', content: { type: 'text', text: answer.text }, model: answer.model ?? 'scripted-model', stopReason: 'endTurn' };
  }
  return { ...answer };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
