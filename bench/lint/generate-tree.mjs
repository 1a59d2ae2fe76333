#!/usr/bin/env node
/**
 * Seeded generator of a TypeScript source tree for the lint and codemod benchmarks: N ordinary
 * modules of realistic size that import each other (services, models, utilities, HTTP handlers,
 * a few look-alikes with MCP-ish names), and about `mcpRatio` of MCP server modules written
 * against the v1 SDK with legacy server-to-client requests in varied shapes (helpers taking the
 * server, try/catch with fail-open defaults, sequential requests, capability checks, low-level
 * handlers, v2 push style).
 *
 *   node bench/lint/generate-tree.mjs [--files 2000] [--seed 42] [--dir bench/out/trees/2000-seed42] [--mcp-ratio 0.025]
 *
 * Same arguments → byte-identical tree (own PRNG, no Date/Math.random).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** mulberry32: small, fast, good enough for picking shapes. */
function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  };
}

const DOMAINS = ['billing', 'orders', 'users', 'inventory', 'shipping', 'search', 'reports', 'auth', 'catalog', 'notifications', 'analytics', 'payments', 'support', 'media', 'scheduling', 'pricing'];
const NOUNS = ['Account', 'Invoice', 'Order', 'Customer', 'Product', 'Shipment', 'Ticket', 'Report', 'Session', 'Item', 'Coupon', 'Refund', 'Warehouse', 'Vendor', 'Subscription', 'Event'];
const VERBS = ['load', 'save', 'validate', 'compute', 'normalize', 'format', 'merge', 'fetch', 'sync', 'resolve', 'apply', 'build', 'parse', 'score', 'filter', 'group'];
const FIELDS = ['id', 'name', 'createdAt', 'updatedAt', 'status', 'amount', 'currency', 'email', 'count', 'tags', 'ownerId', 'region', 'priority', 'notes', 'version', 'total'];
const TYPES = ['string', 'number', 'boolean', 'string[]', 'Date', 'Record<string, number>', 'number | null'];

const cap = (s) => s[0].toUpperCase() + s.slice(1);

/** One ordinary module: interfaces, a class, pure functions, async I/O-ish code, imports of earlier modules. */
function ordinaryModule(rng, index, modules) {
  const noun = rng.pick(NOUNS);
  const domain = modules[index].domain;
  const lines = [];
  const imports = new Map();
  const importCount = index === 0 ? 0 : rng.int(1, Math.min(5, index));
  for (let i = 0; i < importCount; i++) {
    const target = modules[rng.int(Math.max(0, index - 200), index - 1)];
    if (target.kind !== 'ordinary') continue;
    const spec = relative(dirname(modules[index].path), target.path).replace(/\.ts$/, '.js');
    imports.set(spec.startsWith('.') ? spec : `./${spec}`, target.exports);
  }
  for (const [spec, names] of imports) lines.push(`import { ${names.join(', ')} } from '${spec}';`);
  if (imports.size) lines.push('');

  const iface = `${noun}${index}`;
  const fields = Array.from({ length: rng.int(4, 10) }, () => rng.pick(FIELDS)).filter((f, i, a) => a.indexOf(f) === i);
  lines.push(`/** ${cap(domain)} ${noun.toLowerCase()} record as stored by the ${domain} service. */`);
  lines.push(`export interface ${iface} {`);
  for (const f of fields) lines.push(`  ${f}${rng.chance(0.3) ? '?' : ''}: ${rng.pick(TYPES)};`);
  lines.push('}', '');
  lines.push(`export type ${iface}Status = ${['draft', 'active', 'archived', 'failed'].map((s) => `'${s}'`).join(' | ')};`, '');

  const exportsList = [iface];
  const fnCount = rng.int(3, 9);
  for (let f = 0; f < fnCount; f++) {
    const verb = rng.pick(VERBS);
    const name = `${verb}${noun}${f}`;
    exportsList.push(name);
    const isAsync = rng.chance(0.4);
    lines.push(`export ${isAsync ? 'async ' : ''}function ${name}(input: ${iface}, options: { strict?: boolean; limit?: number } = {}): ${isAsync ? `Promise<${iface}>` : iface} {`);
    const bodyKind = rng.int(0, 4);
    if (bodyKind === 0) {
      lines.push(`  const limit = options.limit ?? ${rng.int(5, 500)};`);
      lines.push(`  const result = { ...input } as ${iface} & Record<string, unknown>;`);
      lines.push(`  for (let i = 0; i < limit; i++) {`);
      lines.push(`    if (i % ${rng.int(2, 9)} === 0 && options.strict) break;`);
      lines.push(`    result['step' + i] = i * ${rng.int(2, 40)};`);
      lines.push('  }');
      lines.push('  return result;');
    } else if (bodyKind === 1) {
      lines.push(`  switch ((input as { status?: string }).status) {`);
      for (const s of ['draft', 'active', 'archived']) lines.push(`    case '${s}':`, `      return { ...input, notes: '${s} ${noun.toLowerCase()}' } as ${iface};`);
      lines.push('    default:', `      if (options.strict) throw new Error(\`unknown status for ${noun} \${JSON.stringify(input)}\`);`, '      return input;', '  }');
    } else if (bodyKind === 2) {
      lines.push(`  const entries = Object.entries(input).filter(([key, value]) => value !== undefined && key !== 'id');`);
      lines.push('  const sorted = entries.sort(([a], [b]) => a.localeCompare(b));');
      lines.push(`  const summary = sorted.map(([key, value]) => \`\${key}=\${String(value)}\`).join(';');`);
      lines.push(`  return { ...input, notes: summary.slice(0, ${rng.int(20, 200)}) } as ${iface};`);
    } else if (bodyKind === 3) {
      lines.push('  try {');
      lines.push(`    const parsed = JSON.parse(JSON.stringify(input)) as ${iface};`);
      lines.push(`    if (!parsed) throw new TypeError('empty ${noun.toLowerCase()}');`);
      lines.push('    return parsed;');
      lines.push('  } catch (error) {');
      lines.push(`    console.warn('${domain}: could not ${verb} ${noun.toLowerCase()}', error);`);
      lines.push('    return input;');
      lines.push('  }');
    } else {
      lines.push(`  const weights = [${Array.from({ length: rng.int(3, 8) }, () => rng.int(1, 99)).join(', ')}];`);
      lines.push('  const score = weights.reduce((acc, w, i) => acc + w * (i + 1), 0) / weights.length;');
      lines.push(`  return score > ${rng.int(10, 90)} ? { ...input, priority: score } as ${iface} : input;`);
    }
    lines.push('}', '');
  }

  const cls = `${cap(domain)}${noun}Service${index}`;
  exportsList.push(cls);
  lines.push(`export class ${cls} {`);
  lines.push(`  private readonly cache = new Map<string, ${iface}>();`);
  lines.push(`  constructor(private readonly baseUrl: string, private readonly timeoutMs = ${rng.int(1, 30) * 1000}) {}`, '');
  const methodCount = rng.int(2, 6);
  for (let m = 0; m < methodCount; m++) {
    const verb = rng.pick(VERBS);
    lines.push(`  async ${verb}${m}(id: string): Promise<${iface} | undefined> {`);
    lines.push('    const hit = this.cache.get(id);');
    lines.push('    if (hit) return hit;');
    lines.push(`    const response = await fetch(\`\${this.baseUrl}/${domain}/\${encodeURIComponent(id)}\`, { signal: AbortSignal.timeout(this.timeoutMs) });`);
    lines.push('    if (!response.ok) return undefined;');
    lines.push(`    const body = (await response.json()) as ${iface};`);
    lines.push('    this.cache.set(id, body);');
    lines.push('    return body;');
    lines.push('  }', '');
  }
  lines.push('}', '');

  // Ordinary code uses MCP-ish words now and then: session ids, tokens, a chat library's createMessage.
  if (rng.chance(0.04)) {
    lines.push(`const sessions${index} = new Map<string, { startedAt: number }>();`);
    lines.push(`export function touchSession${index}(req: { sessionId: string }): void {`);
    lines.push(`  sessions${index}.set(req.sessionId, { startedAt: Date.now() });`);
    lines.push('}', '');
  }
  if (rng.chance(0.005)) {
    lines.push(`export async function postToChannel${index}(chat: { createMessage(m: { text: string; channel: string }): Promise<void> }, text: string) {`);
    lines.push(`  await chat.createMessage({ text, channel: '${domain}' });`);
    lines.push('}', '');
  }
  return { text: lines.join('\n'), exports: exportsList };
}

const MCP_SHAPES = ['helper', 'failOpen', 'sequential', 'capabilities', 'lowLevel', 'v2push', 'sampling', 'roots'];

/** One MCP server module (v1 SDK) with legacy requests in the shape `shape`. */
function mcpModule(rng, index, shape) {
  const name = `${rng.pick(DOMAINS)}-server-${index}`;
  const L = [];
  const tool = (toolName, body, args = '{ target: z.string() }') =>
    [`  mcp.registerTool('${toolName}', { description: '${toolName.replace(/_/g, ' ')}', inputSchema: ${args} }, async (args, extra) => {`, ...body.map((l) => `    ${l}`), '  });', ''];
  if (shape === 'lowLevel') {
    L.push(`import { Server } from '@modelcontextprotocol/sdk/server/index.js';`);
    L.push(`import { CallToolRequestSchema, ListToolsRequestSchema, ListRootsResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';`, '');
    L.push('export function createServer() {');
    L.push(`  const server = new Server({ name: '${name}', version: '1.0.0' }, { capabilities: { tools: {} } });`);
    L.push(`  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'scan', description: 'scan roots', inputSchema: { type: 'object' } }] }));`);
    L.push('  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {');
    L.push(`    const roots = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);`);
    L.push(`    const ok = await extra.sendRequest({ method: 'elicitation/create', params: { message: \`Scan \${roots.roots.length} roots?\`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } } }, ElicitResultSchema);`);
    L.push(`    if (ok.action !== 'accept' || !ok.content?.confirm) return { content: [{ type: 'text', text: 'cancelled' }] };`);
    L.push(`    return { content: [{ type: 'text', text: roots.roots.map((r) => r.uri).join('\\n') }] };`);
    L.push('  });');
    L.push('  return server;', '}', '');
    return L.join('\n');
  }
  L.push(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';`);
  L.push(`import type { Server } from '@modelcontextprotocol/sdk/server/index.js';`);
  L.push(`import { z } from 'zod';`, '');
  if (shape === 'helper') {
    L.push('/** Asks the user to confirm; used by several tools. */');
    L.push('async function confirmAction(server: Server, message: string): Promise<boolean> {');
    L.push(`  const result = await server.elicitInput({ message, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm' } }, required: ['confirm'] } });`);
    L.push(`  return result.action === 'accept' && result.content?.confirm === true;`);
    L.push('}', '');
  }
  L.push('export function createServer() {');
  L.push(`  const mcp = new McpServer({ name: '${name}', version: '1.0.0' });`);
  switch (shape) {
    case 'helper':
      L.push(...tool('delete_record', [`if (!(await confirmAction(mcp.server, \`Delete \${args.target}?\`))) return { content: [{ type: 'text', text: 'kept' }] };`, `return { content: [{ type: 'text', text: \`deleted \${args.target}\` }] };`]));
      L.push(...tool('archive_record', [`const ok = await confirmAction(mcp.server, 'Archive?');`, `return { content: [{ type: 'text', text: ok ? 'archived' : 'kept' }] };`]));
      break;
    case 'failOpen':
      L.push(...tool('summarize', [
        `let summary = 'summary unavailable';`,
        'try {',
        `  const r = await mcp.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: \`Summarize \${args.target}\` } }], maxTokens: 200 });`,
        `  if (r.content.type === 'text') summary = r.content.text;`,
        '} catch {',
        '  // clients without sampling: keep the default',
        '}',
        `return { content: [{ type: 'text', text: summary }] };`,
      ]));
      break;
    case 'sequential':
      L.push(...tool('register_user', [
        `const name = await mcp.server.elicitInput({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });`,
        `if (name.action !== 'accept') return { content: [{ type: 'text', text: 'cancelled' }] };`,
        `const city = await mcp.server.elicitInput({ message: \`Hi \${String(name.content?.name)}, your city?\`, requestedSchema: { type: 'object', properties: { city: { type: 'string' } } } });`,
        `return { content: [{ type: 'text', text: \`\${String(name.content?.name)} from \${String(city.content?.city ?? 'nowhere')}\` }] };`,
      ], '{}'));
      break;
    case 'capabilities':
      L.push(...tool('plan_trip', [
        'const caps = mcp.server.getClientCapabilities();',
        `if (!caps?.elicitation) return { content: [{ type: 'text', text: 'default plan' }] };`,
        `const prefs = await mcp.server.elicitInput({ message: 'Preferences?', requestedSchema: { type: 'object', properties: { budget: { type: 'number' } } } });`,
        `return { content: [{ type: 'text', text: JSON.stringify(prefs.content ?? {}) }] };`,
      ]));
      break;
    case 'v2push':
      L.push(...tool('rename', [
        `const answer = await (extra as any).mcpReq?.elicitInput?.({ message: 'New name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });`,
        `return { content: [{ type: 'text', text: String(answer?.content?.name ?? args.target) }] };`,
      ]));
      break;
    case 'sampling':
      L.push(...tool('classify', [
        `const r = await extra.sendRequest({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: args.target } }], maxTokens: 20 } }, (await import('@modelcontextprotocol/sdk/types.js')).CreateMessageResultSchema);`,
        `return { content: [{ type: 'text', text: r.content.type === 'text' ? r.content.text : 'unknown' }] };`,
      ]));
      break;
    case 'roots':
      L.push(...tool('list_workspace', [
        'const { roots } = await mcp.server.listRoots();',
        `return { content: [{ type: 'text', text: roots.map((r) => r.uri).join('\\n') }] };`,
      ], '{}'));
      break;
    default:
      break;
  }
  L.push('  return mcp;', '}', '');
  return L.join('\n');
}

/**
 * Writes the tree and returns what it wrote.
 * @param {{ files?: number, seed?: number, dir: string, mcpRatio?: number }} options
 */
export async function generateTree({ files = 2000, seed = 42, dir, mcpRatio = 0.025 } = {}) {
  if (!dir) throw new Error('generateTree: dir is required');
  const rng = prng(seed);
  const mcpCount = Math.max(1, Math.round(files * mcpRatio));
  const mcpIndexes = new Set();
  while (mcpIndexes.size < Math.min(mcpCount, files)) mcpIndexes.add(rng.int(0, files - 1));

  const modules = [];
  for (let i = 0; i < files; i++) {
    const domain = DOMAINS[i % DOMAINS.length];
    const kind = mcpIndexes.has(i) ? 'mcp' : 'ordinary';
    const sub = Math.floor(i / DOMAINS.length / 25);
    const file = kind === 'mcp' ? `mcp/${domain}-server-${i}.ts` : `${domain}/part${sub}/${domain}-${i}.ts`;
    modules.push({ index: i, domain, kind, path: join('src', file), exports: [] });
  }

  rmSync(join(dir, 'src'), { recursive: true, force: true });
  let bytes = 0;
  let lines = 0;
  const mcpFiles = [];
  let shapeIndex = 0;
  for (const mod of modules) {
    let text;
    if (mod.kind === 'mcp') {
      const shape = MCP_SHAPES[shapeIndex++ % MCP_SHAPES.length];
      text = mcpModule(rng, mod.index, shape);
      mcpFiles.push({ path: mod.path, shape });
    } else {
      const out = ordinaryModule(rng, mod.index, modules);
      mod.exports = out.exports.slice(0, 3);
      text = out.text;
    }
    const full = join(dir, mod.path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    bytes += Buffer.byteLength(text);
    lines += text.split('\n').length;
  }
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: `bench-tree-${files}-${seed}`, private: true, type: 'module', dependencies: { '@modelcontextprotocol/sdk': '1.32.2', zod: '4.6.7' } }, null, 2)}\n`,
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true }, include: ['src'] }, null, 2)}\n`,
  );
  return { dir, files: modules.length, mcpFiles, bytes, lines };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
  const { values } = parseArgs({
    options: { files: { type: 'string', default: '2000' }, seed: { type: 'string', default: '42' }, dir: { type: 'string' }, 'mcp-ratio': { type: 'string', default: '0.025' } },
  });
  const files = Number(values.files);
  const seed = Number(values.seed);
  const dir = values.dir ?? join(root, 'bench/out/trees', `${files}-seed${seed}`);
  const r = await generateTree({ files, seed, dir, mcpRatio: Number(values['mcp-ratio']) });
  console.log(`${r.files} files (${r.mcpFiles.length} MCP servers), ${r.lines} lines, ${(r.bytes / 1024).toFixed(0)} KiB in ${relative(process.cwd(), dir) || '.'}`);
}
