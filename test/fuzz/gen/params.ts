/**
 * Argument values for every parameter of every chemistry operation, from the registry's own zod
 * schemas (as JSON Schema, the same document /openapi.json and MCP tools/list publish): valid
 * values, edges, wrong types, out-of-range numbers, over-long strings, and domain-specific junk
 * for the structure-bearing parameters.
 */
import type { OpDef } from '../../../shared/ops/types.ts';
import { argsJsonSchema } from '../../../api/openapi/index.ts';
import type { Rng } from '../prng.ts';
import { anyStructure, brokenMolblock, formula, nameLike, randomAlphabet, selfiesJunk, structureList, validMolblock, validSmiles } from './structures.ts';
import { NUMBER_STRINGS, hostileJson, hostileString, operatorObject } from './values.ts';

export type Prop = { type?: string; enum?: string[]; minimum?: number; maximum?: number; minLength?: number; maxLength?: number; anyOf?: Prop[]; default?: unknown };

const schemas = new Map<string, Record<string, Prop>>();
export function propsOf(op: OpDef): Record<string, Prop> {
  let p = schemas.get(op.name);
  if (!p) schemas.set(op.name, (p = argsJsonSchema(op).properties as Record<string, Prop>));
  return p;
}

/**
 * Operations whose cost grows steeply with the size of a valid structure (seconds for a natural
 * product, minutes near the heavy-atom limit): fuzzed with small valid structures and with the
 * hostile ones that are refused at once, so that their time limits are not what a run measures.
 */
const HEAVY = new Set(['generate_3d_coordinates', 'depict_3d_molecule_depict_3D_get', 'standardize_tautomer', 'enumerate_stereoisomers', 'generate_collection_preprocessing']);

const BOOL_STRINGS = ['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', 'TRUE', 'False', 't', 'n', 'maybe', '2', '-1', '', ' ', 'null', 'truee'];

const RANGE_STRINGS = ['0-10', '-5-5', '10-0', '0-0', '', ' ', '5', 'a-b', '---', '1e309-1', '-1e309--1', '0-10-20', '.5-.6', '0 - 10', 'NaN-NaN', '0-Infinity'];

/** A value for a domain parameter (the structure-bearing and other free-text ones), as a string. */
function domainString(rng: Rng, op: OpDef, key: string): string | undefined {
  switch (key) {
    case 'smiles':
      if (op.name === 'generate_multiple_descriptors' || op.name === 'generate_bitsimilarity_similarity') return structureList(rng);
      if (op.name === 'filter_molecules') return structureList(rng, rng.pick(['\n', '\r\n', ',', ' ']));
      return anyStructure(rng, HEAVY.has(op.name));
    case 'input_text':
      return rng.weighted<() => string>([[6, () => anyStructure(rng)], [3, () => nameLike(rng)], [2, () => selfiesJunk(rng)], [1, () => validMolblock(rng)], [1, () => brokenMolblock(rng)]])();
    case 'molblock':
      return rng.weighted<() => string>([[4, () => validMolblock(rng)], [6, () => brokenMolblock(rng)], [2, () => anyStructure(rng)]])();
    case 'identifier':
      return rng.weighted<() => string>([[3, () => nameLike(rng)], [2, () => validSmiles(rng)], [2, () => anyStructure(rng)], [1, () => rng.pick(['CID', '0', '-5', '2244', 'InChI=1S/CH4/h1H4', '50-00-0'])]])();
    case 'jobid':
      return rng.pick(['x', '0', '00000000-0000-0000-0000-000000000000', 'chemclass:AAAA', '..', '%2e%2e', 'a'.repeat(200), 'a'.repeat(201), '\u0000', 'job id', '$where', '__proto__', '1.2.3']);
    case 'molecular_formula':
      return formula(rng);
    case 'highlight':
      return rng.weighted<() => string>([[3, () => rng.pick(['COSN', 'c1ccccc1', 'C=O', '[OH]', '[#6]', '*', '[$([OH])]', ''])], [2, () => randomAlphabet(rng, rng.size(40))], [1, () => '[$('.repeat(rng.pick([5, 50, 300])) + 'C' + ')]'.repeat(rng.pick([5, 50, 300]))], [1, () => hostileString(rng).slice(0, 1200)]])();
    case 'bad_substructures':
      return rng.pick(['1,2,3,4,5,7,9', '', '0', '99', '1,,2', 'a,b', '-1', '1,2,3,4,5,6,7,8,9,10,11,12,13,14', ' ', '1'.repeat(41)]);
    case 'qedscore':
    case 'sascore':
    case 'nplikeness':
      return rng.pick(RANGE_STRINGS);
    case 'filename':
      return rng.pick(['paper.pdf', '', '../../etc/passwd', 'a'.repeat(1025), 'x\u0000y.pdf', 'ü.pdf', '.pdf', 'con.pdf']);
    case 'pdf_base64':
      return rng.pick(['', 'JVBERi0=', 'not base64!', '====', 'JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSPj4Kc3RyZWFtCg==', 'A'.repeat(1000)]);
  }
  return undefined;
}

function scalarFor(rng: Rng, op: OpDef, key: string, p: Prop): string {
  const domain = domainString(rng, op, key);
  if (domain !== undefined) return domain;
  if (p.anyOf) return scalarFor(rng, op, key, rng.pick(p.anyOf));
  if (p.enum) {
    return rng.weighted<() => string>([
      [6, () => rng.pick(p.enum!)],
      [1, () => rng.pick(p.enum!).toUpperCase()],
      [1, () => rng.pick(['cdk', 'openbabel', 'indigo', 'png', 'jpg', 'xml', 'auto', 'iupac', 'none'])],
      [1, () => hostileString(rng)],
    ])();
  }
  switch (p.type) {
    case 'boolean':
      return rng.pick(BOOL_STRINGS);
    case 'integer':
    case 'number': {
      const lo = p.minimum ?? -1e6;
      const hi = p.maximum ?? 1e6;
      const small = p.type === 'integer' ? Math.min(hi, lo + 5) : Math.min(hi, lo + 1);
      return rng.weighted<() => string>([
        [5, () => String(p.type === 'integer' ? rng.int(lo, small) : lo + rng.float() * (small - lo))],
        [2, () => String(rng.pick([lo, hi]))],
        [2, () => String(rng.pick([lo - 1, hi + 1, lo - 0.5, hi + 0.5]))],
        [3, () => rng.pick(NUMBER_STRINGS)],
      ])();
    }
    case 'string': {
      const max = p.maxLength ?? 100_000;
      return rng.weighted<() => string>([
        [4, () => randomAlphabet(rng, Math.min(max, rng.size(50)))],
        [1, () => 'x'.repeat(Math.min(max + 1, 110_000))],
        [2, () => hostileString(rng)],
      ])();
    }
  }
  return hostileString(rng);
}

/** Keys and values that no operation declares: must be ignored or refused, never crash anything. */
export function unknownParam(rng: Rng): [string, string] {
  const key = rng.pick(['$where', '__proto__', 'constructor', 'constructor[prototype][x]', '__proto__[polluted]', 'toString', 'hasOwnProperty', 'smiles[]', 'smiles[0]', 'a'.repeat(1000), '', ' ', 'async', 'callback', 'format', 'X', '%00', 'toolkit ']);
  return [key, rng.bool(0.5) ? hostileString(rng).slice(0, 2000) : '1'];
}

/** Arguments as query-string values (REST): every value a string; some omitted, some unknown added. */
export function restArgs(rng: Rng, op: OpDef): [string, string][] {
  const out: [string, string][] = [];
  const props = propsOf(op);
  for (const [key, p] of Object.entries(props)) {
    if (key === 'pdf_base64') continue;
    const r = rng.float();
    if (r < (key === 'smiles' || key === 'input_text' || key === 'molblock' ? 0.04 : 0.45)) continue; // omitted: defaults, or "Field required"
    out.push([key, scalarFor(rng, op, key, p)]);
    if (rng.bool(0.03)) out.push([key, scalarFor(rng, op, key, p)]); // repeated: an array in the parsed query
  }
  if (rng.bool(0.15)) out.push(unknownParam(rng));
  return out;
}

/** Arguments as JSON values (MCP, JSON bodies): typed, mistyped, operator objects, arrays, nulls. */
export function jsonArgs(rng: Rng, op: OpDef): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = propsOf(op);
  for (const [key, p] of Object.entries(props)) {
    const r = rng.float();
    if (r < (key === 'smiles' || key === 'input_text' || key === 'molblock' || key === 'pdf_base64' ? 0.04 : 0.45)) continue;
    const s = scalarFor(rng, op, key, p);
    out[key] = rng.weighted<() => unknown>([
      [10, () => (p.type === 'integer' || p.type === 'number' ? (Number.isFinite(Number(s)) && s.trim() !== '' ? Number(s) : s) : p.type === 'boolean' ? (s === 'true' ? true : s === 'false' ? false : s) : s)],
      [1, () => operatorObject(rng)],
      [1, () => [s]],
      [1, () => null],
      [1, () => hostileJson(rng)],
    ])();
  }
  if (rng.bool(0.15)) {
    const [k, v] = unknownParam(rng);
    // An own property even for `__proto__`, so that JSON.stringify writes it.
    Object.defineProperty(out, k, { value: rng.bool() ? v : hostileJson(rng), enumerable: true, configurable: true, writable: true });
  }
  return out;
}
