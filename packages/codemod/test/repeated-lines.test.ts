/**
 * Readable output: a reviewer merges the generated code and maintains it afterwards, so the
 * migration should not write the same statement out again and again. Across the fixture outputs,
 * this counts the non-trivial lines (30+ characters, trimmed) that an output repeats more often
 * than its input did: each occurrence beyond the input's own count (at least one) is one repeated
 * line. Lines under 30 characters (closing braces, `} else {`, short returns) are not counted:
 * repeating them says nothing about the generated structure.
 *
 * A line the input repeated in its legacy form counts as the input's: where the input has the same
 * line or block of lines twice (two subclasses' `async execute(): Promise<CallToolResult> {`, two
 * switch cases asking the same two questions), each copy is migrated once, and the migrated line
 * appears once per copy. A line diff finds what each output line was rewritten from: the block of
 * input lines between the same two unchanged lines, and in it the line most like it (at least half
 * its words shared, the legacy signature of a migrated one). Occurrences rewritten from one block,
 * or one line, are allowed as many times as the input has it, never more than they occur.
 *
 * A handler's ask is the input's too when the input declared it the same way twice: two handlers
 * each writing `const reply = await <…createMessage(…)…>` (with different arguments, or a different
 * timeout wrapper around the call) migrate to the same read line `const reply = readSampling(ctx,
 * 'reply');` and the same `inputRequired` line, because those lines carry only the declared name,
 * the request method and the key named after it (keys stay per handler: a key must not depend on the
 * file's other handlers, and the conformance scenarios expect `user_name` from the variable). The
 * request's arguments, which differ, go to the `replyRequest` line, which is counted as any other.
 * So a line made of nothing but a name and a method is allowed as many times as the input declares
 * that name from that method, never more: a third copy, or a copy for a name or method the input
 * declared once, still counts.
 *
 * A helper kept as written for a caller outside request handlers (a listener) and the copy of it
 * the output declares for its handlers (after helper-copy.ts's note "A copy of `f` for the request
 * handlers that call it") both hold the helper's own statements: the copy has to run what the helper
 * runs (its guard, what it makes of the answer), now for the handlers, and sharing those would mean
 * cutting the user's helper into pieces. So a line of the input's helper that the copy holds counts
 * as the input's once more per copy. The requests' parameters are not among them: the helper and the
 * copy build those through one function (shared-request.ts), and a parameter line written in both
 * still counts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CASES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/cases');
const MIN_LENGTH = 30;

/**
 * Repeats the migration needs, named with the fixture and why, so the figure below is 0 and any
 * other repeat fails. The history of the figure: 230 when this test was written; 13 -> 19 with the
 * handler's own copy of a helper whose other callers pass no context (gone when both call one
 * function typed by overloads); 6 -> 3 when sibling functions stopped sharing generated lines
 * (generated names per function, helper parameters and requests named after what they ask,
 * exclusive branches sharing one key) and a line the input repeated in its legacy form counted as
 * the input's; 3 -> 1 when an ask the input declared the same way in two handlers counted as the
 * input's (behaviour-request-timeout's two `reply` handlers); 1 -> 0 when a helper kept for a
 * caller outside handlers and its handlers' copy called one function for the request's parameters
 * (reach-helper-tool-and-timer's `messages:` line, engine/rewrite/shared-request.ts); the copy
 * declared for a helper's handlers (reach-helper-copy-for-handler) repeats none either: its request
 * is shared the same way, and the helper's own statements it must run count as the input's.
 */
const NEEDED: Array<{ fixture: string; line: string; why: string }> = [];

function lineCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.length >= MIN_LENGTH) counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return counts;
}

function trimmedLines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.trim());
}

/**
 * For each output line, the input block it was rewritten from (its lines joined), or undefined for
 * a line the diff keeps unchanged or inserts where no input line was: a longest common subsequence
 * of the two line lists pairs the unchanged lines, and each run of output lines between two of them
 * replaces the run of input lines between the same two.
 */
function rewrittenFrom(input: string[], output: string[]): Array<{ block: string; line?: string } | undefined> {
  const n = input.length;
  const m = output.length;
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = input[i] === output[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const origin: Array<{ block: string; line?: string } | undefined> = new Array(m).fill(undefined);
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && input[i] === output[j]) {
      i++;
      j++;
      continue;
    }
    const [from, to] = [i, j];
    while ((i < n || j < m) && !(i < n && j < m && input[i] === output[j])) {
      if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) i++;
      else j++;
    }
    const replaced = input.slice(from, i);
    const block = replaced.join('\n');
    if (i > from) for (let k = to; k < j; k++) origin[k] = { block, line: mostLike(output[k]!, replaced) };
  }
  return origin;
}

function words(line: string): Set<string> {
  return new Set(line.match(/[A-Za-z_$][\w$]*/g) ?? []);
}

/** The line of `candidates` sharing the most words with `line` (a Dice coefficient of 1/2 or more), if any. */
function mostLike(line: string, candidates: string[]): string | undefined {
  const own = words(line);
  let best: { line: string; score: number } | undefined;
  for (const candidate of candidates) {
    const other = words(candidate);
    const shared = [...own].filter((w) => other.has(w)).length;
    const score = own.size + other.size === 0 ? 0 : (2 * shared) / (own.size + other.size);
    if (score >= 0.5 && (!best || score > best.score)) best = { line: candidate, score };
  }
  return best?.line;
}

/** How many times `block` (lines joined by newlines) occurs as consecutive lines of `lines`. */
function blockCount(lines: string[], block: string): number {
  const size = block.split('\n').length;
  let count = 0;
  for (let k = 0; k + size <= lines.length; k++) if (lines.slice(k, k + size).join('\n') === block) count++;
  return count;
}

/** The request method each generated read helper and `inputRequired` builder stands for, by its legacy name. */
const LEGACY_METHOD: Record<string, string> = {
  readSampling: 'createMessage',
  readElicitation: 'elicitInput',
  readElicitResult: 'elicitInput',
  readRoots: 'listRoots',
  createMessage: 'createMessage',
  elicit: 'elicitInput',
};

/**
 * The ask a generated line is made of, as `name method`, when the line carries nothing else: the
 * read line `const reply = readSampling(ctx, 'reply');` or the ask line `return inputRequired({
 * inputRequests: { reply: requireClientCapability(ctx, 'sampling', inputRequired.createMessage(replyRequest), server.server) } });`.
 * A line with anything more (state to carry, arguments of a request function) is not one.
 */
export function askOf(line: string): string | undefined {
  const read = /^const (\w+) = (read\w+)\(ctx, '\w+'\);$/.exec(line);
  if (read && LEGACY_METHOD[read[2]!]) return `${read[1]} ${LEGACY_METHOD[read[2]!]}`;
  const ask = /^return inputRequired\(\{ inputRequests: \{ \w+: requireClientCapability\(ctx, '\w+', inputRequired\.(\w+)\((\w+)Request\)(?:, [\w.]+)?\) \} \}\);$/.exec(line);
  if (ask && LEGACY_METHOD[ask[1]!]) return `${ask[2]} ${LEGACY_METHOD[ask[1]!]}`;
  return undefined;
}

/**
 * How many times the input declares each name from a request method, as `name method`: a
 * `const|let|var NAME = await …` statement (to its end: a `;` or line break outside brackets) that
 * calls `.createMessage(`, `.elicitInput(` or `.listRoots(`.
 */
export function legacyAsks(input: string): Map<string, number> {
  const asks = new Map<string, number>();
  for (const m of input.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=\s*await\b/g)) {
    const statement = statementFrom(input, m.index + m[0].length);
    const method = /\.(createMessage|elicitInput|listRoots)\s*\(/.exec(statement)?.[1];
    if (method) asks.set(`${m[1]} ${method}`, (asks.get(`${m[1]} ${method}`) ?? 0) + 1);
  }
  return asks;
}

/** The text from `start` to the end of its statement: a `;`, or a line break after some text, outside brackets. */
function statementFrom(text: string, start: number): string {
  let depth = 0;
  for (let k = start; k < text.length; k++) {
    const c = text[k]!;
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    if (depth < 0 || (depth === 0 && (c === ';' || (c === '\n' && text.slice(start, k).trim() !== '')))) return text.slice(start, k);
  }
  return text.slice(start);
}

/** The note helper-copy.ts writes above the copy of a helper it declares for the helper's handlers. */
const COPY_NOTE = /^\/\/ A copy of `([A-Za-z_$][\w$]*)` for the request handlers that call it;/;

/** The request methods whose argument lists hold a request's parameters. */
const REQUEST_CALL = /\.(?:elicitInput|createMessage|listRoots|requestSampling|sendRequest|request)\s*\(/g;

/** The lines of the function whose declaration starts at line `at`, to the line where its braces close. */
function functionLines(lines: string[], at: number): string[] {
  let depth = 0;
  for (let k = at; k < lines.length; k++) {
    for (const c of lines[k]!) depth += c === '{' ? 1 : c === '}' ? -1 : 0;
    if (depth <= 0 && k > at) return lines.slice(at, k + 1);
  }
  return lines.slice(at);
}

/** The helper `name`'s lines in `input` (`function name(` or `const name = `), without those inside a request's arguments. */
function helperOwnLines(input: string, name: string): Set<string> {
  const lines = input.split(/\r?\n/);
  const at = lines.findIndex((l) => new RegExp(`\\b(?:function\\s+${name}\\s*\\(|(?:const|let)\\s+${name}\\s*=)`).test(l));
  if (at < 0) return new Set();
  const text = functionLines(lines, at).join('\n');
  const inRequest = new Set<number>();
  for (const m of text.matchAll(REQUEST_CALL)) {
    const open = m.index + m[0].length;
    const args = statementFrom(text, open);
    const first = text.slice(0, open).split('\n').length - 1;
    const last = text.slice(0, open + args.length).split('\n').length - 1;
    // the lines the arguments run over, not the call's own first line (`const a = await x.elicitInput({`)
    for (let k = first + 1; k <= last; k++) inRequest.add(k);
  }
  return new Set(text.split('\n').map((l, k) => (inRequest.has(k) ? '' : l.trim())).filter((l) => l.length >= MIN_LENGTH));
}

/** For each line of a helper the output declares a copy of (COPY_NOTE), how many copies hold it: the helper's own code the copy must run. */
export function copiedHelperLines(input: string, output: string): Map<string, number> {
  const lines = output.split(/\r?\n/);
  const copied = new Map<string, number>();
  lines.forEach((line, k) => {
    const helper = COPY_NOTE.exec(line.trim())?.[1];
    if (!helper) return;
    const own = helperOwnLines(input, helper);
    for (const l of new Set(functionLines(lines, k + 1).map((x) => x.trim()))) if (own.has(l)) copied.set(l, (copied.get(l) ?? 0) + 1);
  });
  return copied;
}

/** Lines `output` repeats beyond what `input` had, with how many extra occurrences each. */
export function repeatedLines(input: string, output: string): Array<{ line: string; extra: number }> {
  const before = lineCounts(input);
  const inputLines = trimmedLines(input);
  const outputLines = trimmedLines(output);
  const origins = rewrittenFrom(inputLines, outputLines);
  const asks = legacyAsks(input);
  const copied = copiedHelperLines(input, output);
  const repeated: Array<{ line: string; extra: number }> = [];
  for (const [line, count] of lineCounts(output)) {
    let allowed = Math.max(1, before.get(line) ?? 0) + (before.has(line) ? (copied.get(line) ?? 0) : 0);
    if (count > allowed) {
      const perBlock = new Map<string, number>();
      const perLine = new Map<string, number>();
      outputLines.forEach((l, k) => {
        const origin = origins[k];
        if (l !== line || origin === undefined) return;
        perBlock.set(origin.block, (perBlock.get(origin.block) ?? 0) + 1);
        if (origin.line !== undefined) perLine.set(origin.line, (perLine.get(origin.line) ?? 0) + 1);
      });
      for (const [block, times] of perBlock) allowed = Math.max(allowed, Math.min(times, blockCount(inputLines, block)));
      for (const [from, times] of perLine) allowed = Math.max(allowed, Math.min(times, blockCount(inputLines, from)));
      const ask = askOf(line);
      if (ask !== undefined) allowed = Math.max(allowed, Math.min(count, asks.get(ask) ?? 0));
    }
    if (count > allowed) repeated.push({ line, extra: count - allowed });
  }
  return repeated;
}

function fixturePairs(): Array<{ name: string; input: string; output: string }> {
  const files = fs.readdirSync(CASES);
  return files.flatMap((file) => {
    const m = /^(.*)\.output\.(ts|mts|js|mjs|cjs)$/.exec(file);
    if (!m) return [];
    const input = files.find((f) => f.startsWith(`${m[1]}.input.`));
    return input ? [{ name: m[1]!, input: path.join(CASES, input), output: path.join(CASES, file) }] : [];
  });
}

describe('repeated lines in generated code', () => {
  it('counts a line the output repeats beyond the input, and nothing the input already repeated', () => {
    const stmt = 'const confirmationRequest = buildTheRequest(args);';
    expect(repeatedLines('', `${stmt}\n${stmt}\n${stmt}\n}\n}\n`)).toEqual([{ line: stmt, extra: 2 }]);
    expect(repeatedLines(`${stmt}\n${stmt}\n`, `  ${stmt}\n${stmt}\n`)).toEqual([]);
    expect(repeatedLines(`${stmt}\n${stmt}\n`, `${stmt}\n${stmt}\n${stmt}\n`)).toEqual([{ line: stmt, extra: 1 }]);
  });

  it('counts a line rewritten from a block the input repeats once per copy of the block, and no more', () => {
    const legacy = 'async execute(): Promise<CallToolResult> {';
    const migrated = 'async execute(ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> {';
    const copies = (sig: string): string => `class A {\n${sig}\nreturn a;\n}\nclass B {\n${sig}\nreturn b;\n}\n`;
    expect(repeatedLines(copies(legacy), copies(migrated))).toEqual([]);
    // each copy rewritten with its own body: the signature is still the input's line, migrated once per copy
    const bodies = (sig: string, a: string, b: string): string => `class A {\n${sig}\n${a}\n}\nclass B {\n${sig}\n${b}\n}\n`;
    expect(repeatedLines(bodies(legacy, 'return await this.confirm(one);', 'return await this.confirm(two);'), bodies(migrated, 'return this.confirm(one, ctx);', 'return this.confirm(two, ctx);'))).toEqual([]);
    // the same block in the input once, the rewritten line twice: the second is a repeat
    expect(repeatedLines(`class A {\n${legacy}\nreturn a;\n}\n`, `class A {\n${migrated}\n${migrated}\nreturn a;\n}\n`)).toEqual([{ line: migrated, extra: 1 }]);
    // two different legacy lines rewritten to one line: each is a line the input did not repeat
    const other = 'async execute(): Promise<GetPromptResult> {';
    expect(repeatedLines(`class A {\n${legacy}\nreturn a;\n}\nclass B {\n${other}\nreturn b;\n}\n`, copies(migrated))).toEqual([{ line: migrated, extra: 1 }]);
  });

  it('counts an ask the input declared the same way in two handlers once per declaration, and no more', () => {
    const legacy = (name: string, method: string, text: string): string => `const ${name} = await withTimeout(\n  server.server.${method}({ messages: [{ role: 'user', content: { type: 'text', text: '${text}' } }] }),\n  30_000,\n);`;
    const read = "const reply = readSampling(ctx, 'reply');";
    const ask = "return inputRequired({ inputRequests: { reply: requireClientCapability(ctx, 'sampling', inputRequired.createMessage(replyRequest), server.server) } });";
    const migrated = (text: string): string => `const replyRequest = { messages: [{ role: 'user', content: { type: 'text', text: '${text}' } }] };\n${read}\nif (reply === undefined) {\n${ask}\n}`;
    const handlers = (...bodies: string[]): string => bodies.map((b, k) => `server.registerTool('t${k}', async () => {\n${b}\nreturn done(reply);\n});`).join('\n');
    // two handlers, each declaring `reply` from createMessage with its own request: the input's
    expect(repeatedLines(handlers(legacy('reply', 'createMessage', 'headline'), legacy('reply', 'createMessage', 'tagline')), handlers(migrated('headline'), migrated('tagline')))).toEqual([]);
    // a third copy the input did not declare still counts
    expect(repeatedLines(handlers(legacy('reply', 'createMessage', 'headline'), legacy('reply', 'createMessage', 'tagline')), handlers(migrated('headline'), migrated('tagline'), migrated('slogan')))).toEqual(
      expect.arrayContaining([{ line: read, extra: 1 }, { line: ask, extra: 1 }]),
    );
    // another name or another method in the second handler: the repeated lines are the migration's
    // (the elicitation written without the wrapper: a line the input repeats counts as the input's by the rule above)
    for (const second of [legacy('answer', 'createMessage', 'tagline'), "const reply = await server.server.elicitInput({ message: 'tagline', requestedSchema });"]) {
      expect(repeatedLines(handlers(legacy('reply', 'createMessage', 'headline'), second), handlers(migrated('headline'), migrated('tagline')))).toEqual([
        { line: read, extra: 1 },
        { line: ask, extra: 1 },
      ]);
    }
    // one declaration, its read line written twice (say once per phase): a repeat
    expect(repeatedLines(handlers(legacy('reply', 'createMessage', 'headline')), handlers(`${migrated('headline')}\n${read}`))).toEqual([{ line: read, extra: 1 }]);
  });

  it("reads an ask from a line made of nothing but a name and a method, and a declaration's method to its statement's end", () => {
    expect(askOf("const reply = readSampling(ctx, 'reply');")).toBe('reply createMessage');
    expect(askOf("return inputRequired({ inputRequests: { name: requireClientCapability(ctx, 'elicitation', inputRequired.elicit(nameRequest)) } });")).toBe('name elicitInput');
    // carrying state or a request function's arguments: the line is more than the ask
    expect(askOf("return inputRequired({ inputRequests: { name: requireClientCapability(ctx, 'elicitation', inputRequired.elicit(nameRequest(purpose))) } });")).toBeUndefined();
    expect(askOf("return inputRequired({ inputRequests: { name: requireClientCapability(ctx, 'elicitation', inputRequired.elicit(nameRequest)) }, requestState: await mint(state) });")).toBeUndefined();
    const input = "const a = await Promise.race([\n  server.server.createMessage(params),\n  timeout,\n]);\nconst b = await fetchIt();\nserver.server.elicitInput(x);\nlet c: Reply = await ctx.mcpReq.elicitInput(y);";
    expect([...legacyAsks(input)]).toEqual([
      ['a createMessage', 1],
      ['c elicitInput', 1],
    ]);
  });

  it("counts the lines of a helper that its handlers' copy must run as the input's, but not its request's parameters", () => {
    const guard = "if (service === 'docs') return 'static';";
    const param = 'message: `Deploy ${service} to the target of choice?`,';
    const body = (name: string, ask: string): string => `async function ${name}(server: McpServer, service: string) {\n  ${guard}\n  ${ask}\n  return answer;\n}`;
    const literal = `{\n    ${param}\n  }`;
    const legacy = (request: string): string => body('chooseTarget', `const answer = await server.server.elicitInput(${request});`);
    const copy = (request: string): string => body('chooseTargetForHandlers', `const answer = readElicitation(ctx, answerKey, ${request});`);
    const input = `${legacy(literal)}\n`;
    const note = "// A copy of `chooseTarget` for the request handlers that call it; `chooseTarget` above still does what it did for its callers outside request handlers.";
    // the guard in the helper and in its copy: the input's; the request built by one function
    expect(repeatedLines(input, `${legacy('chooseTargetRequest(service)')}\n\n${note}\n${copy('chooseTargetRequest(service)')}\n`)).toEqual([]);
    // the request's parameters written out in both still count
    expect(repeatedLines(input, `${legacy(literal)}\n\n${note}\n${copy(literal)}\n`)).toEqual([{ line: param, extra: 1 }]);
    // without the note, or with a note naming another function, the guard twice is a repeat
    const other = note.replace('`chooseTarget` for', '`pickTarget` for');
    for (const n of ['', other]) expect(repeatedLines(input, `${legacy('r(service)')}\n\n${n}\n${copy('r(service)')}\n`)).toEqual([{ line: guard, extra: 1 }]);
    // a third copy of the guard, outside the copy, still counts
    expect(repeatedLines(input, `${legacy('r(service)')}\n\n${note}\n${copy('r(service)')}\n${guard}\n`)).toEqual([{ line: guard, extra: 1 }]);
  });

  it('across fixtures/cases outputs: 0, beside the repeats the migration needs', () => {
    const pairs = fixturePairs();
    expect(pairs.length).toBeGreaterThan(50);
    const perFile = pairs
      .map((p) => ({ name: p.name, repeated: repeatedLines(fs.readFileSync(p.input, 'utf8'), fs.readFileSync(p.output, 'utf8')) }))
      .filter((f) => f.repeated.length > 0);
    const isNeeded = (fixture: string, line: string): boolean => NEEDED.some((n) => n.fixture === fixture && n.line === line);
    const needed = perFile.flatMap((f) => f.repeated.filter((r) => isNeeded(f.name, r.line)).map((r) => `${f.name}: ${r.line}`));
    const unexplained = perFile.map((f) => ({ ...f, repeated: f.repeated.filter((r) => !isNeeded(f.name, r.line)) })).filter((f) => f.repeated.length > 0);
    const total = unexplained.reduce((sum, f) => sum + f.repeated.reduce((s, r) => s + r.extra, 0), 0);
    const detail = unexplained.map((f) => `${f.name}:\n${f.repeated.map((r) => `  +${r.extra} ${r.line}`).join('\n')}`).join('\n');
    console.log(`repeated non-trivial lines: ${total} in ${unexplained.length} outputs, besides ${needed.length} the migration needs`);
    expect(total, detail).toBe(0);
    // a needed repeat that went away leaves its entry: remove it
    expect(needed.sort()).toEqual(NEEDED.map((n) => `${n.fixture}: ${n.line}`).sort());
  });
});
