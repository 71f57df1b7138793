/**
 * Candidate selection for the embedded store's queries. nedb picks candidates from one index
 * only, the first equality it meets (not the most selective), and none at all under `$and` or
 * `$or`: a condition on an unindexed field, or an `$or`, reads every document through its
 * matcher (about 1 µs each: 100 ms for 100,000 molecules on a busy core). The planner instead
 * looks at every part of a filter that an index (nedb's) or a column (embedded-columns.ts) can
 * answer, starts from the one with the fewest documents, and leaves what remains of the filter
 * to the caller's matcher (a compiled predicate, embedded-match.ts) on those candidates only. An
 * `$and` member is planned like a filter of its own; an `$or` is answered as the union of its
 * branches' exact answers when every branch can be planned.
 *
 * A plan's documents are nedb's live documents: read them, never change them. The lists it
 * returns are its own (safe to sort).
 */
import type { Column } from './embedded-columns.ts';
import type { Doc, Filter } from './types.ts';

/** The part of a nedb index the planner reads. */
export interface NedbIndex {
  getMatching(value: unknown): Doc[];
  getBetweenBounds(query: Record<string, unknown>): Doc[];
}

export interface PlanSources {
  index(field: string): NedbIndex | undefined;
  column(field: string): Column | undefined;
  /** A predicate deciding as nedb's matcher does. */
  matcher(filter: Filter): (doc: Doc) => boolean;
  /** Every document of the collection (a scan beats thousands of index look-ups). */
  all?: () => Doc[];
}

/**
 * One index look-up (a nedb tree search, then de-duplication) costs about as much as testing
 * this many documents with a compiled predicate: an `$in` with more values than the documents
 * over this is answered by a scan of the collection (allDocs, listed once per write).
 */
const LOOKUP_COST = 100;

/** Candidates (a superset of the matches) and the filter still to check on them (null: none). */
export interface Plan {
  docs: Doc[];
  rest: Filter | null;
}

/** One part of a filter (a top-level key, or a member of its `$and`) that can give candidates. */
interface Option {
  size: number;
  /** The candidates are exactly the documents matching this part. */
  exact: boolean;
  part: { key: string } | { and: number };
  take: () => Doc[];
}

const RANGE = ['$gt', '$gte', '$lt', '$lte'];
const isPrimitive = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v));
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof RegExp) && !(v instanceof Date);

/** The usable part of one field condition: equality values or numeric/string bounds. */
function usable(v: unknown): { values?: unknown[]; bounds?: Record<string, number | string>; exact: boolean } | null {
  if (isPrimitive(v)) return { values: [v], exact: true };
  if (!isObj(v)) return null;
  const ops = Object.keys(v);
  if (Array.isArray(v.$in) && v.$in.every(isPrimitive)) return { values: v.$in, exact: ops.length === 1 };
  const rangeOps = ops.filter((k) => RANGE.includes(k));
  if (!rangeOps.length) return null;
  const bounds = Object.fromEntries(rangeOps.map((k) => [k, v[k]])) as Record<string, number | string>;
  const kinds = new Set(Object.values(bounds).map((b) => typeof b));
  if (kinds.size !== 1 || !(kinds.has('number') || kinds.has('string'))) return null;
  if (Object.values(bounds).some((b) => typeof b === 'number' && Number.isNaN(b))) return null;
  return { bounds, exact: rangeOps.length === ops.length };
}

function fieldOption(key: string, v: unknown, src: PlanSources): Option | null {
  const u = usable(v);
  if (!u) return null;
  const part = { key };
  const idx = src.index(key);
  if (idx && u.values && u.values.length > 1 && src.all && u.values.length * LOOKUP_COST > src.all().length) {
    // e.g. the molecules of the thousands of organisms under a kingdom (taxon queries)
    const all = src.all();
    const test = src.matcher({ [key]: { $in: u.values } });
    return { size: all.length, exact: u.exact, part, take: () => all.filter(test) };
  }
  if (idx) {
    const docs = u.values ? (u.values.length === 1 ? idx.getMatching(u.values[0]) : idx.getMatching(u.values)) : [...new Set(idx.getBetweenBounds(u.bounds!))];
    return { size: docs.length, exact: u.exact, part, take: () => docs.slice() };
  }
  if (u.bounds && Object.values(u.bounds).some((b) => typeof b !== 'number')) return null;
  const col = src.column(key);
  if (!col) return null;
  if (u.values) return { size: col.countEqual(u.values), exact: u.exact, part, take: () => col.equal(u.values!) };
  const bounds = u.bounds as Record<string, number>;
  return { size: col.countRange(bounds), exact: u.exact, part, take: () => col.range(bounds) };
}

/** The documents matching `filter` exactly, or null when it cannot be planned. */
function exactly(filter: Filter, src: PlanSources): Doc[] | null {
  const p = planFilter(filter, src);
  if (!p) return null;
  if (!p.rest) return p.docs;
  const keep = src.matcher(p.rest);
  return p.docs.filter(keep);
}

/** `filter` without the parts answered exactly; `$and` members that were planned leave their own rest. */
function remaining(filter: Filter, keys: Set<string>, andRests: Map<number, Filter | null>): Filter | null {
  const out: Filter = {};
  for (const [k, v] of Object.entries(filter)) {
    if (keys.has(k)) continue;
    if (k === '$and' && Array.isArray(v) && andRests.size) {
      const members = v.flatMap((m, i) => (andRests.has(i) ? (andRests.get(i) ? [andRests.get(i)] : []) : [m]));
      if (members.length) out.$and = members;
      continue;
    }
    out[k] = v;
  }
  return Object.keys(out).length ? out : null;
}

/** A plan for `filter`, or null when no index or column narrows it. */
export function planFilter(filter: Filter, src: PlanSources): Plan | null {
  const options: Option[] = [];
  const andPlans = new Map<number, Plan>();
  for (const [key, v] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(v)) {
      v.forEach((member, i) => {
        const p = isObj(member) ? planFilter(member, src) : null;
        if (!p) return;
        andPlans.set(i, p);
        options.push({ size: p.docs.length, exact: p.rest === null, part: { and: i }, take: () => p.docs });
      });
    } else if (key === '$or' && Array.isArray(v) && v.length) {
      const branches: Doc[][] = [];
      for (const b of v) {
        const docs = isObj(b) ? exactly(b, src) : null;
        if (!docs) break;
        branches.push(docs);
      }
      if (branches.length === v.length) {
        const union = branches.length === 1 ? branches[0] : [...new Set(branches.flat())];
        options.push({ size: union.length, exact: true, part: { key }, take: () => union });
      }
    } else if (!key.startsWith('$')) {
      const o = fieldOption(key, v, src);
      if (o) options.push(o);
    }
  }
  if (!options.length) return null;
  const best = options.reduce((x, y) => (y.size < x.size ? y : x));
  const doneKeys = new Set<string>();
  const andRests = new Map<number, Filter | null>();
  if ('key' in best.part) {
    if (best.exact) doneKeys.add(best.part.key);
  } else andRests.set(best.part.and, andPlans.get(best.part.and)!.rest);
  const docs = best.take();
  return { docs, rest: remaining(filter, doneKeys, andRests) };
}
