/**
 * Chemistry operations over REST (every operation, every prefix, query strings encoded well and
 * badly, text and JSON bodies with wrong media types) and over MCP Streamable HTTP (tools/call
 * with mistyped arguments, unknown tools, broken JSON-RPC envelopes).
 */
import { OPERATIONS } from '../../../shared/ops/index.ts';
import type { OpDef } from '../../../shared/ops/types.ts';
import type { Rng } from '../prng.ts';
import type { Case } from '../types.ts';
import { jsonArgs, restArgs } from './params.ts';
import { hostileJson, pct, pollutedJsonText } from './values.ts';
import { structureSearch } from './catalog.ts';

/** Operations that may ask a service this fuzz server cannot reach (503 is then a fair answer). */
export const EXTERNAL_OPS = new Set(['retrieve_extdb_smiles', 'generate_smiles', 'generate_chemclass_classifications', 'retrieve_chemclass_results']);

const PREFIXES = ['', '', '/latest', '/v1'];
const PLAIN = /^[\x21-\x7e]*$/;

function encodeValue(rng: Rng, v: string): string {
  const r = rng.float();
  // Sent unencoded where the request line allows it: '#', '&', '+', '%' then mean what they mean.
  if (r < 0.05 && PLAIN.test(v)) return v;
  if (r < 0.08) return pct(v) + rng.pick(['%', '%E0%A4%A', '%zz', '%C0%AF', '%ED%A0%80', '%FF', '%00']);
  return pct(v);
}

export function queryString(rng: Rng, args: [string, string][]): string {
  if (!args.length) return '';
  return '?' + args.map(([k, v]) => `${pct(k)}=${encodeValue(rng, v)}`).join('&');
}

/**
 * How often each operation is drawn: every one regularly, the 3D ones (seconds of work for any
 * molecule beyond a few atoms) and the tautomer enumeration less often, so that a run spends its
 * time on hostile inputs rather than on legitimate heavy work.
 */
const OP_WEIGHT: Record<string, number> = { generate_3d_coordinates: 0.3, depict_3d_molecule_depict_3D_get: 0.3, standardize_tautomer: 0.5, generate_structures: 0.6 };
const weighted = (ops: readonly OpDef[]) => ops.map((op) => [OP_WEIGHT[op.name] ?? 1, op] as const);
const restOps = weighted(OPERATIONS.filter((op) => op.body?.kind !== 'multipart'));
const mcpOps = weighted(OPERATIONS);

function pathOf(rng: Rng, op: OpDef): string {
  const path = op.path.replace(/\{(\w+)\}/g, () => pct(rng.pick(['x', '0', 'chemclass:AAAA', '..', 'a'.repeat(150), '%', ' ', '\u00e9'])));
  return rng.pick(PREFIXES) + path;
}

export function chemRest(rng: Rng, op: OpDef = rng.weighted(restOps)): Case {
  const args = restArgs(rng, op);
  const async = op.mode === 'quick' && rng.bool(0.04);
  if (async) args.push(['async', 'true']);
  const base: Omit<Case, 'req'> = { target: 'chem:rest', label: op.name, external: EXTERNAL_OPS.has(op.name), follow: op.mode === 'long' || async };
  let method: string = op.method;
  if (rng.bool(0.02)) method = rng.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
  if (op.body?.kind !== 'text' || method !== 'POST') {
    return { ...base, req: { method, path: pathOf(rng, op) + queryString(rng, args) } };
  }
  // POST with a text field: raw text/plain, JSON {field: ...}, or a body in the wrong media type.
  const field = op.body.field;
  const main = args.find(([k]) => k === field)?.[1] ?? '';
  const rest = args.filter(([k]) => k !== field);
  const path = pathOf(rng, op) + queryString(rng, rest);
  return rng.weighted<() => Case>([
    [5, () => ({ ...base, req: { method, path, headers: { 'content-type': rng.pick(['text/plain', 'text/plain; charset=utf-8', 'text/plain; charset=latin1']) }, body: main } })],
    [4, () => ({ ...base, req: { method, path, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...jsonArgs(rng, op) }) } })],
    [1, () => ({ ...base, req: { method, path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(hostileJson(rng)) } })],
    [1, () => ({ ...base, req: { method, path, headers: { 'content-type': 'application/json' }, body: pollutedJsonText(rng, { [field]: main }) } })],
    [1, () => ({ ...base, req: { method, path, headers: { 'content-type': rng.pick(['application/xml', 'application/octet-stream', 'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=x', 'text/csv', 'application/json; charset=utf-16', '', 'garbage']) }, body: main } })],
    [1, () => ({ ...base, req: { method, path, headers: { 'content-type': 'application/json' }, body: rng.pick(['', '{', '{"smiles":', 'null', '[]', '"CCO"', '1', '\ufeff{}', '{"molblock":"CCO"} trailing', '{"a":1,"a":2}']) } })],
    [1, () => ({ ...base, req: { method, path } })],
  ])();
}

let rpcId = 0;
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export function mcpCall(rng: Rng, op: OpDef = rng.weighted(mcpOps)): Case {
  const args = jsonArgs(rng, op);
  const name = rng.bool(0.03) ? rng.pick(['', 'nope', op.name.toUpperCase(), `${op.name} `, '__proto__', 'constructor']) : op.name;
  const params: Record<string, unknown> = { name, arguments: rng.bool(0.05) ? hostileJson(rng) : args };
  if (rng.bool(0.05)) params._meta = { progressToken: rng.pick([1, 'p', null, {}, []]) };
  const msg = { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params };
  return { target: 'mcp:tools/call', label: op.name, mcp: true, external: EXTERNAL_OPS.has(op.name), req: { method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: JSON.stringify(msg) } };
}

/** The catalog's MCP tool `search_catalog` (not in the registry): the arguments of POST /api/search. */
export function mcpSearchCatalog(rng: Rng): Case {
  const raw = String(structureSearch(rng).req.body ?? '{}');
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch {
    args = raw;
  }
  const msg = { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name: 'search_catalog', arguments: args } };
  return { target: 'mcp:tools/call', label: 'search_catalog', mcp: true, req: { method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: JSON.stringify(msg) } };
}

/** JSON-RPC envelopes that are wrong in themselves. */
export function mcpEnvelope(rng: Rng): Case {
  const op = rng.pick(OPERATIONS);
  const good = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: op.name, arguments: { smiles: 'CCO' } } };
  const variants: [number, () => { body: string; headers?: Record<string, string>; label: string; method?: string; path?: string }][] = [
    [2, () => ({ label: 'tools/list', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })],
    [1, () => ({ label: 'initialize', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: rng.pick(['2025-03-26', '1999-01-01', '', 5]), capabilities: rng.pick([{}, null, 'x']), clientInfo: rng.pick([{ name: 'fuzz', version: '1' }, null, {}]) } }) })],
    [1, () => ({ label: 'jsonrpc 1.0', body: JSON.stringify({ ...good, jsonrpc: '1.0' }) })],
    [1, () => ({ label: 'no method', body: JSON.stringify({ jsonrpc: '2.0', id: 1 }) })],
    [1, () => ({ label: 'unknown method', body: JSON.stringify({ ...good, method: rng.pick(['tools/cal', 'resources/list', 'prompts/get', 'completion/complete', '__proto__', 'logging/setLevel', 'ping']) }) })],
    [1, () => ({ label: 'params not object', body: JSON.stringify({ ...good, params: hostileJson(rng) }) })],
    [1, () => ({ label: 'id object', body: JSON.stringify({ ...good, id: rng.pick([{}, [], null, 1.5, 'x'.repeat(10_000), true]) }) })],
    [1, () => ({ label: 'notification', body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })],
    [1, () => ({ label: 'batch', body: JSON.stringify([good, good, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]) })],
    [1, () => ({ label: 'empty batch', body: '[]' })],
    [1, () => ({ label: 'invalid json', body: rng.pick(['', '{', '{"jsonrpc":"2.0",', 'null', '1', '"x"', '{}']) })],
    [1, () => ({ label: 'polluted', body: pollutedJsonText(rng, good) })],
    [1, () => ({ label: 'wrong accept', body: JSON.stringify(good), headers: { 'content-type': 'application/json', accept: rng.pick(['text/html', 'application/json', 'text/event-stream', '*/*', '']) } })],
    [1, () => ({ label: 'wrong content-type', body: JSON.stringify(good), headers: { 'content-type': rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/xml']), accept: MCP_HEADERS.accept } })],
    [1, () => ({ label: 'DELETE /mcp', body: '', method: 'DELETE' })],
    [1, () => ({ label: 'SSE message without session', body: JSON.stringify(good), path: `/mcp/messages/?session_id=${rng.pick(['', 'x', '0'.repeat(32), 'g'.repeat(32), '%00'])}` })],
  ];
  const v = rng.weighted(variants)();
  return { target: 'mcp:envelope', label: v.label, mcp: true, req: { method: v.method ?? 'POST', path: v.path ?? '/mcp', headers: v.headers ?? MCP_HEADERS, body: v.body } };
}
