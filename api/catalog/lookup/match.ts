/**
 * Bulk look-up: one answer row per query, in input order (duplicates answered once, repeated).
 * Each distinct query is matched once, by kind, with batched store queries:
 *
 * - identifiers and whole InChIKeys: `$in` on the indexed `identifier` / `standard_inchi_key`,
 *   IN_CHUNK at a time, the answer's fields fetched by the same query;
 * - first InChIKey blocks: an indexed prefix range per block, `[block-, block.)` (as
 *   search/coconut/text.ts inchikeySearch), BLOCKS_IN_FLIGHT at a time;
 * - SMILES: the standard InChIKey from the chemistry threads (task `catalog_inchikeys`, as an
 *   exact structure search computes it), then as whole keys; a SMILES RDKit cannot read is
 *   `unreadable`;
 * - names: `name` or `iupac_name` equal to the query ignoring case (the store's `containing`,
 *   keeping the hits equal to the text), NAMES_IN_FLIGHT at a time.
 *
 * A query matching one molecule is `found` (with its fields), several `ambiguous` (their
 * identifiers, up to LIST_MAX, in `matches`), none `not found`.
 */
import type { JobRunner } from '../../../shared/jobs/types.ts';
import { csvRow, fieldValue } from '../export/format.ts';
import { molecules, stored } from '../schema/resources.ts';
import type { CatalogStore, Doc } from '../store/types.ts';
import { classify, type KindOption, type QueryKind } from './input.ts';
import { batched, lanes } from '../batches.ts';

export type LookupStatus = 'found' | 'ambiguous' | 'not found' | 'unreadable';

export interface LookupRow {
  input: string;
  kind: QueryKind;
  status: LookupStatus;
  match_count: number;
  /** Identifiers of the matches (at most LIST_MAX). */
  matches: string[];
  /** The chosen fields of the molecule, for a `found` row; null otherwise. */
  molecule: Record<string, unknown> | null;
}

/** Standard InChIKeys of SMILES, `null` for one that cannot be read. */
export type InchiKeys = (smiles: string[]) => Promise<(string | null)[]>;

export interface LookupDeps {
  store: CatalogStore;
  inchikeys: InchiKeys;
  signal?: AbortSignal;
  /** Told how many input rows are answered so far. */
  onProgress?: (rows: number) => void;
}

export const IN_CHUNK = 5000;
export const LIST_MAX = 100;
const BLOCKS_IN_FLIGHT = 8;
const NAMES_IN_FLIGHT = 8;
/** SMILES per `catalog_inchikeys` task, and tasks in flight. */
const SMILES_BATCH = 250;
const SMILES_IN_FLIGHT = 4;

/** InChIKeys from the chemistry threads, in batches (a SMILES that faults alone comes back null). */
export function runnerInchikeys(runner: JobRunner): InchiKeys {
  return batched((smiles) => runner.runTask('catalog_lookup', 'catalog_inchikeys', { smiles }), SMILES_BATCH, SMILES_IN_FLIGHT);
}

/** Stored fields to fetch for the answer's `fields` (and the identifier of every match). */
function projection(fields: string[]): string[] {
  const out = new Set(['identifier']);
  for (const f of fields) {
    if (f === 'id') continue;
    if (Object.hasOwn(molecules.fields, f)) out.add(stored(molecules, f));
    else out.add('properties');
  }
  return [...out];
}

interface Match {
  /** Ids of the matching molecules (all of them). */
  ids: number[];
}

/** Answers the queries (see the module comment). */
export async function lookup(queries: string[], opts: { fields: string[]; kind: KindOption }, deps: LookupDeps): Promise<LookupRow[]> {
  const { store, signal } = deps;
  const fields = projection(opts.fields);
  const classified = queries.map((q) => classify(q, opts.kind));

  // Distinct keys per kind, and how many input rows each answers (for progress).
  const rowsOf = new Map<string, number>();
  const keyOf = (k: QueryKind, key: string) => `${k}\u0000${key}`;
  const byKind = new Map<QueryKind, Set<string>>();
  for (const c of classified) {
    const id = keyOf(c.kind, c.key);
    rowsOf.set(id, (rowsOf.get(id) ?? 0) + 1);
    let set = byKind.get(c.kind);
    if (!set) byKind.set(c.kind, (set = new Set()));
    set.add(c.key);
  }
  const distinct = (k: QueryKind) => [...(byKind.get(k) ?? [])];

  let answered = 0;
  const done = (k: QueryKind, key: string) => {
    answered += rowsOf.get(keyOf(k, key)) ?? 0;
  };
  const report = () => deps.onProgress?.(answered);
  const matches = new Map<string, Match>();
  const unreadable = new Set<string>();
  const docs = new Map<number, Doc>();
  for (const k of ['empty', 'unknown'] as const) for (const key of distinct(k)) (unreadable.add(keyOf(k, key)), done(k, key));
  report();

  /** `$in` on an indexed field, IN_CHUNK values a query; each doc is kept with the answer's fields. */
  const byValues = async (field: string, values: string[], onMatch: (value: string, id: number) => void) => {
    for (let i = 0; i < values.length; i += IN_CHUNK) {
      signal?.throwIfAborted();
      const chunk = values.slice(i, i + IN_CHUNK);
      const found = await store.find('molecules', { [field]: { $in: chunk } }, { fields: [...new Set([...fields, field])] });
      for (const d of found) {
        docs.set(d.id, d as Doc);
        onMatch((d as Doc)[field] as string, d.id);
      }
    }
  };
  const add = (id: string, molecule: number) => {
    let m = matches.get(id);
    if (!m) matches.set(id, (m = { ids: [] }));
    if (!m.ids.includes(molecule)) m.ids.push(molecule);
  };

  // Identifiers.
  const identifiers = distinct('identifier');
  await byValues('identifier', identifiers, (v, id) => add(keyOf('identifier', v), id));
  for (const key of identifiers) done('identifier', key);
  report();

  // SMILES → InChIKeys (threads), then whole keys together with the InChIKey queries.
  const smiles = distinct('smiles');
  const smilesKeys = smiles.length ? await deps.inchikeys(smiles) : [];
  signal?.throwIfAborted();
  const smilesOfKey = new Map<string, string[]>();
  smiles.forEach((s, i) => {
    const key = smilesKeys[i];
    if (!key) {
      unreadable.add(keyOf('smiles', s));
      done('smiles', s);
      return;
    }
    const list = smilesOfKey.get(key);
    if (list) list.push(s);
    else smilesOfKey.set(key, [s]);
  });
  const keys = distinct('inchikey');
  const allKeys = [...new Set([...keys, ...smilesOfKey.keys()])];
  await byValues('standard_inchi_key', allKeys, (v, id) => {
    add(keyOf('inchikey', v), id);
    for (const s of smilesOfKey.get(v) ?? []) add(keyOf('smiles', s), id);
  });
  for (const key of keys) done('inchikey', key);
  for (const list of smilesOfKey.values()) for (const s of list) done('smiles', s);
  report();

  // First blocks: an indexed range each.
  const blocks = distinct('inchikey_block');
  const pending = new Set<number>();
  await lanes(
    blocks.length,
    BLOCKS_IN_FLIGHT,
    async (i) => {
      const b = blocks[i];
      const hits = await store.find('molecules', { standard_inchi_key: { $gte: `${b}-`, $lt: `${b}.` } }, { fields: ['identifier'] });
      for (const h of hits) {
        add(keyOf('inchikey_block', b), h.id);
        if (!docs.has(h.id)) pending.add(h.id);
      }
      done('inchikey_block', b);
      if (i % 500 === 0) report();
    },
    signal,
  );

  // Names: equal to name or iupac_name, ignoring case.
  const names = distinct('name');
  await lanes(
    names.length,
    NAMES_IN_FLIGHT,
    async (i) => {
      const n = names[i];
      const hits = await store.containing('molecules', ['name', 'iupac_name'], n, []);
      for (const h of hits) {
        if (h.rank >= 2) continue; // contains the text, is not equal to it
        add(keyOf('name', n), h.id);
        if (!docs.has(h.id)) pending.add(h.id);
      }
      done('name', n);
      if (i % 200 === 0) report();
    },
    signal,
  );
  report();

  // The fields of the molecules matched by range or name, by id.
  const ids = [...pending];
  for (let i = 0; i < ids.length; i += IN_CHUNK) {
    signal?.throwIfAborted();
    for (const d of await store.find('molecules', { id: { $in: ids.slice(i, i + IN_CHUNK) } }, { fields })) docs.set(d.id, d as Doc);
  }

  return classified.map((c, i): LookupRow => {
    const id = keyOf(c.kind, c.key);
    const base = { input: queries[i], kind: c.kind };
    if (unreadable.has(id)) return { ...base, status: 'unreadable', match_count: 0, matches: [], molecule: null };
    const m = matches.get(id);
    const hit = (m?.ids ?? []).map((x) => docs.get(x)).filter((d): d is Doc => !!d);
    if (!hit.length) return { ...base, status: 'not found', match_count: 0, matches: [], molecule: null };
    hit.sort((a, b) => a.id - b.id);
    const listed = hit.slice(0, LIST_MAX).map((d) => (typeof d.identifier === 'string' && d.identifier ? d.identifier : String(d.id)));
    if (hit.length > 1) return { ...base, status: 'ambiguous', match_count: hit.length, matches: listed, molecule: null };
    const doc = hit[0];
    return { ...base, status: 'found', match_count: 1, matches: listed, molecule: Object.fromEntries(opts.fields.map((f) => [f, fieldValue(doc, f)])) };
  });
}

/** The look-up's own columns, before the molecule's fields. */
export const LOOKUP_COLUMNS = ['input', 'kind', 'status', 'match_count', 'matches'];

/**
 * The CSV header of a look-up answer: the look-up's columns, then the fields; a field named like
 * one of those (the molecule's `status`) is headed `molecule.<field>`.
 */
export const csvHeader = (fields: string[]) => csvRow([...LOOKUP_COLUMNS, ...fields.map((f) => (LOOKUP_COLUMNS.includes(f) ? `molecule.${f}` : f))]);

/** The answer as CSV text, 1,000 rows a chunk (ambiguous rows: identifiers joined by `|`). */
export function* csvChunks(rows: LookupRow[], fields: string[]): Generator<string> {
  let out = csvHeader(fields);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    out += csvRow([r.input, r.kind, r.status, r.match_count, r.matches.join('|'), ...fields.map((f) => (r.molecule ? r.molecule[f] : null))]);
    if ((i + 1) % 1000 === 0) {
      yield out;
      out = '';
    }
  }
  if (out) yield out;
}
