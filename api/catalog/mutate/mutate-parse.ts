/**
 * Mutate request validation (docs/spec/catalog-api.md §2.6.2): Laravel error keys and messages, attribute values
 * checked against the field types (attributes.ts), relation operations parsed recursively. Produces the
 * operations that mutate.ts derives, authorises and writes.
 */
import type { DerivedMolecule } from '../../../shared/chem/catalog/ports.ts';
import { RESOURCES, relation, type RelationDef, type ResourceDef } from '../schema/resources.ts';
import type { CatalogStore, CollectionName } from '../store/types.ts';
import { Errors, type CatalogUser } from '../schema/types.ts';
import { checkReportWrites } from '../reports/reports.ts';
import { checkUserWrites } from '../auth/users.ts';
import { attributes } from './attributes.ts';

type Rec = Record<string, unknown>;
const isObj = (v: unknown): v is Rec => !!v && typeof v === 'object' && !Array.isArray(v);

export const REL_OPS = ['create', 'update', 'attach', 'detach', 'toggle', 'sync'];
/** Operations that act on existing records: `key` is required. */
const KEYED = ['update', 'attach', 'detach', 'toggle', 'sync'];
/** What Laravel's `boolean` rule accepts. */
const BOOLEAN = [true, false, 0, 1, '0', '1'];
/** Laravel's notion of an empty value (`prohibited` lets these through). */
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) ? !v.length : isObj(v) && !Object.keys(v).length);

/** `attributes` would be ignored by attach and detach, so Lomkit prohibits them there. */
function prohibitedAttributes(item: Rec, p: string, e: Errors) {
  const op = item.operation;
  if ((op === 'attach' || op === 'detach') && !isEmpty(item.attributes)) e.add(`${p}.attributes`, `The ${p}.attributes field is prohibited when ${p}.operation is ${op}.`);
}

/**
 * `pivot`: no relation declares pivot fields (links are id lists on the molecule, with nothing
 * beside them), so any pivot value is refused by name rather than accepted and dropped.
 */
function pivot(item: Rec, p: string, e: Errors) {
  const v = item.pivot;
  if (isEmpty(v)) return;
  if (item.operation === 'detach') return e.add(`${p}.pivot`, `The ${p}.pivot field is prohibited when ${p}.operation is detach.`);
  if (!isObj(v) && !Array.isArray(v)) return e.add(`${p}.pivot`, `The ${p}.pivot field must be an array.`);
  for (const pk of Object.keys(v)) e.add(`${p}.pivot`, `The ${pk} key is not valid for the ${p}.pivot field.`);
}

/** Levels of relation operations inside relation operations (`relations` within `relations`). */
export const MAX_RELATION_DEPTH = 10;

/** What creates or updates records of one resource: a top-level operation or a relation operation. */
interface Writes {
  /** Error-key prefix, e.g. `mutate.0` or `mutate.0.relations.organisms.1`. */
  path: string;
  /** Resource whose records this creates or updates. */
  target: ResourceDef;
  operation: string;
  /** Stored field → value. */
  attributes: Rec;
  relations: RelOp[];
  /** Set by mutate.ts when `attributes` carries a structure of a molecule. */
  derived?: DerivedMolecule;
}

export interface RelOp extends Writes {
  rel: RelationDef;
  keys: number[];
  without_detaching: boolean;
}

export interface Op extends Writes {
  index: number;
  operation: 'create' | 'update';
  key?: number;
}

async function existing(store: CatalogStore, coll: CollectionName, keys: number[]): Promise<Set<number>> {
  return new Set((await store.find(coll, { id: { $in: keys } }, { fields: ['id'] })).map((d) => d.id));
}

/** The `relations` map of an operation on resource `r` (recursively for nested relations). */
async function relOps(r: ResourceDef, raw: unknown, k: string, e: Errors, store: CatalogStore, depth = 0): Promise<RelOp[]> {
  if (raw === undefined || (Array.isArray(raw) && !raw.length)) return [];
  // Each level is a recursion here and in mutate.ts: thousands of levels would exhaust the stack.
  if (depth >= MAX_RELATION_DEPTH) {
    e.add(k, `The ${k} field is nested too deeply: relation operations nest at most ${MAX_RELATION_DEPTH} levels.`);
    return [];
  }
  if (!isObj(raw)) {
    e.add(k, `The ${k} field must be an array.`);
    return [];
  }
  const out: RelOp[] = [];
  for (const [name, val] of Object.entries(raw)) {
    const rel = relation(r, name);
    if (!rel) {
      e.add(k, `The ${name} key is not valid for the ${k} field.`);
      continue;
    }
    const items = rel.kind === 'HasOne' ? [[`${k}.${name}`, val]] : Array.isArray(val) ? val.map((v, n) => [`${k}.${name}.${n}`, v]) : [[`${k}.${name}`, val]];
    const target = RESOURCES[rel.target];
    for (const [p, item] of items as [string, unknown][]) {
      if (!isObj(item)) {
        e.add(p, `The ${p} field must be an array.`);
        continue;
      }
      const op = item.operation as string;
      const allowed = rel.storage === 'embedded' ? ['create', 'update'] : REL_OPS;
      // An invalid operation is reported with the item's other errors (Laravel runs every rule).
      if (op === undefined || op === null) e.add(`${p}.operation`, `The ${p}.operation field is required.`);
      else if (!allowed.includes(op)) e.add(`${p}.operation`, `The selected ${p}.operation is invalid.`);
      const keys = item.key === undefined || item.key === null ? [] : Array.isArray(item.key) ? item.key : [item.key];
      if (op === 'create' && item.key !== undefined) e.add(`${p}.key`, `The ${p}.key field is prohibited when ${p}.operation is create.`);
      if (KEYED.includes(op) && rel.storage !== 'embedded' && !keys.length) e.add(`${p}.key`, `The ${p}.key field is required when ${p}.operation is ${op}.`);
      if (keys.some((x) => !Number.isInteger(x))) e.add(`${p}.key`, `The selected ${p}.key is invalid.`);
      else if (rel.storage !== 'embedded' && keys.length) {
        const have = await existing(store, target.collection!, keys as number[]);
        if (keys.some((x) => !have.has(x as number))) e.add(`${p}.key`, `The selected ${p}.key is invalid.`);
      }
      prohibitedAttributes(item, p, e);
      const wd = item.without_detaching;
      if (wd !== undefined && op !== 'sync') e.add(`${p}.without_detaching`, `The ${p}.without_detaching field is prohibited unless ${p}.operation is in sync.`);
      else if (wd !== undefined && wd !== null && !BOOLEAN.includes(wd as never)) e.add(`${p}.without_detaching`, `The ${p}.without_detaching field must be true or false.`);
      pivot(item, p, e);
      // Nested relation operations act on the records this operation creates, updates or links.
      const nested = await relOps(target, item.relations, `${p}.relations`, e, store, depth + 1);
      out.push({
        path: p,
        target,
        rel,
        operation: op,
        keys: keys as number[],
        attributes: attributes(target, item.attributes, `${p}.attributes`, e),
        relations: nested,
        without_detaching: wd === true || wd === 1 || wd === '1',
      });
    }
  }
  return out;
}

/** Validates a whole mutate body; throws the collected 422 before anything is derived or written. */
export async function parseMutate(r: ResourceDef, body: unknown, store: CatalogStore, user?: CatalogUser): Promise<Op[]> {
  const e = new Errors();
  const raw = isObj(body) ? body.mutate : undefined;
  if (raw === undefined || raw === null || (Array.isArray(raw) && !raw.length)) e.add('mutate', 'The mutate field is required.');
  else if (!Array.isArray(raw)) e.add('mutate', 'The mutate field must be an array.');
  e.throwIfAny();
  const ops: Op[] = [];
  for (const [n, item] of (raw as unknown[]).entries()) {
    const k = `mutate.${n}`;
    const o = isObj(item) ? item : {};
    // Every rule of the item runs, as in Laravel: a bad operation does not hide a missing key.
    if (o.operation === undefined || o.operation === null) e.add(`${k}.operation`, `The ${k}.operation field is required.`);
    else if (o.operation !== 'create' && o.operation !== 'update') e.add(`${k}.operation`, `The selected ${k}.operation is invalid.`);
    if (o.operation === 'update' && o.key === undefined) e.add(`${k}.key`, `The ${k}.key field must be present when ${k}.operation is update.`);
    else if (KEYED.includes(o.operation as string) && (o.key === undefined || o.key === null)) e.add(`${k}.key`, `The ${k}.key field is required when ${k}.operation is ${o.operation}.`);
    if (o.operation === 'create' && o.key !== undefined) e.add(`${k}.key`, `The ${k}.key field is prohibited when ${k}.operation is create.`);
    prohibitedAttributes(o, k, e);
    if (o.operation !== 'create' && o.key !== undefined && o.key !== null) {
      if (!Number.isInteger(o.key) || !(await existing(store, r.collection!, [o.key as number])).size) e.add(`${k}.key`, `The selected ${k}.key is invalid.`);
    }
    ops.push({
      path: k,
      target: r,
      index: n,
      operation: o.operation as Op['operation'],
      key: o.key as number | undefined,
      attributes: attributes(r, o.attributes, `${k}.attributes`, e),
      relations: await relOps(r, o.relations, `${k}.relations`, e, store),
    });
  }
  if (r.name === 'users') await checkUserWrites(ops, store, e);
  if (r.name === 'reports') await checkReportWrites(ops, store, e, user);
  e.throwIfAny();
  return ops;
}

/** Every operation of a request, depth first: top-level ones and their (nested) relation operations. */
export function* allWrites(ops: (Op | RelOp)[]): Generator<Op | RelOp> {
  for (const op of ops) {
    yield op;
    yield* allWrites(op.relations);
  }
}
