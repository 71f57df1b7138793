/**
 * Catalog structure search, api side: exact (by standard InChIKey, in the store), substructure
 * and similarity (a `catalog_search` call answered by the chemistry side's index: the api's own
 * threads in the inline mode, a worker process in the distributed mode). Used by
 * `POST /api/search`, by the structure operators inside a Lomkit search, and by the MCP tool
 * `search_catalog`.
 */
import type { JobRunner } from '../../../../shared/jobs/types.ts';
import type { SearchArgs } from '../../../../shared/structure-search/contract.ts';
import { AppError } from '../../../../shared/errors.ts';
import { Lru } from '../../../../shared/extdb/lru.ts';
import type { CatalogStore, Doc, Filter } from '../../store/types.ts';
import type { FilterInput } from '../../schema/types.ts';

export const INCHIKEY = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/;
/** Hits beyond the page a first-page scan lists while the exact matches are looked up beside it (`page`). */
const EXACT_SLACK = 4;
/**
 * Query InChIKeys kept (`queryKey`): the key of a query is the same every time, and a thread
 * computes it in about 0.5 ms of RDKit's InChI, beside the scan of the same request on two
 * cores. Every page of a query after the first asks it again, and so does each repeat of a
 * common query.
 */
const KEY_CACHE = 1024;

export interface StructureQuery {
  type: 'exact' | 'substructure' | 'similarity';
  query: string;
  /** SMILES or SMARTS; absent: SMILES when it parses as SMILES, else SMARTS. */
  query_type?: 'smiles' | 'smarts';
  use_chirality?: boolean;
  threshold?: number;
}

/** What the chemistry side answers for `catalog_search` (`SearchAnswer`, shared/structure-search/contract.ts). */
export interface ScanAnswer {
  ids: number[];
  scores?: number[];
  total: number | null;
  more: boolean;
}

export interface StructureHits {
  ids: number[];
  scores?: number[];
  total: number | null;
  more: boolean;
}

/** Who answers a `catalog_search` call: by default one call on the runner; a sharded index merges one per shard (shards.ts). */
export type ScanCall = (args: SearchArgs) => Promise<ScanAnswer>;

export class StructureSearch {
  private readonly call: ScanCall;

  constructor(
    private readonly runner: JobRunner,
    readonly store: CatalogStore,
    call?: ScanCall,
  ) {
    this.call = call ?? ((args) => this.runner.runTask('catalog_search', 'catalog_search', args));
  }

  private readonly keys = new Lru<string, string>(KEY_CACHE);

  /** The standard InChIKey of a query (an InChIKey as it is; SMILES or a molblock read on a thread, 422 when unreadable; the last KEY_CACHE kept). */
  async queryKey(query: string, queryType: 'smiles' | 'smarts' = 'smiles'): Promise<string> {
    const text = query.trim();
    if (INCHIKEY.test(text)) return text;
    const id = `${queryType}\u0000${text}`;
    const kept = this.keys.get(id);
    if (kept !== undefined) return kept;
    const key = (await this.runner.runTask('catalog_search', 'catalog_query_key', { query: text, query_type: queryType })).inchikey;
    this.keys.set(id, key);
    return key;
  }

  /** The store filter of an exact query: the whole InChIKey, or its skeleton block without chirality. */
  async exactFilter(query: string, useChirality = true, queryType: 'smiles' | 'smarts' = 'smiles'): Promise<Filter> {
    return keyFilter(await this.queryKey(query, queryType), useChirality);
  }

  /** Molecules with this InChIKey (`useChirality`) or its first block, lowest id first. */
  async idsForKey(key: string, useChirality: boolean): Promise<number[]> {
    const docs = await this.store.find('molecules', keyFilter(key, useChirality), { fields: ['id'], sort: [{ field: 'id', dir: 1, nulls: 'last' }] });
    return docs.map((d) => d.id);
  }

  /** Exact-match ids, lowest first. */
  async exactIds(query: string, useChirality = true, queryType?: 'smiles' | 'smarts'): Promise<number[]> {
    return this.idsForKey(await this.queryKey(query, queryType), useChirality);
  }

  private scan(q: StructureQuery & { type: 'substructure' | 'similarity' }, offset: number, limit: number, extra: { count?: boolean; exclude?: number[]; order?: 'id' | 'similarity' } = {}): Promise<ScanAnswer> {
    return this.call({
      type: q.type,
      query: q.query,
      query_type: q.query_type ?? (q.type === 'similarity' ? 'smiles' : 'auto'),
      use_chirality: !!q.use_chirality,
      threshold: q.threshold ?? 0.7,
      offset,
      limit,
      ...extra,
    });
  }

  /**
   * One page of hits. Substructure: the exact matches first, then the other hits in id order;
   * `count` scans everything for the total, else the scan stops after the page (total null).
   * Similarity: by Tanimoto, best first (ties by id), with scores.
   */
  async page(q: StructureQuery, offset: number, limit: number, count = false): Promise<StructureHits> {
    if (q.type === 'exact') {
      // Exact hits are few (stereoisomers at most): one store call lists them all.
      const all = await this.exactIds(q.query, q.use_chirality ?? true, q.query_type);
      const ids = all.slice(offset, offset + limit);
      return { ids, total: all.length, more: offset + ids.length < all.length };
    }
    if (q.type === 'similarity') return this.scan({ ...q, type: q.type }, offset, limit);
    // A SMARTS query has no InChIKey: nothing is listed first then.
    // Only a query read as SMILES (given so, or auto-detected) has an exact match to list first.
    const exactOf = () => (q.query_type === 'smarts' ? Promise.resolve([] as number[]) : this.exactIds(q.query, !!q.use_chirality, 'smiles').catch(() => [] as number[]));
    if (!count) {
      // The exact matches and the scan at once (the query's InChIKey costs a thread round trip):
      // the scan, not told which hits are exact, lists EXACT_SLACK more hits than the page needs,
      // enough unless more exact matches than that are among them; then as below, one after the other.
      const [exact, scanned] = await Promise.all([exactOf(), this.scan({ ...q, type: q.type }, 0, offset + limit + EXACT_SLACK)]);
      const isExact = new Set(exact);
      const rest = scanned.ids.filter((id) => !isExact.has(id));
      if (!scanned.more || scanned.ids.length - rest.length < EXACT_SLACK) {
        const all = [...exact, ...rest];
        const ids = all.slice(offset, offset + limit);
        return { ids, total: scanned.more ? null : all.length, more: scanned.more || offset + ids.length < all.length };
      }
    }
    const exact = await exactOf();
    const first = exact.slice(offset, offset + limit);
    // A page of exact matches only still asks the scan for one hit (limit 0 would list them all): is there more?
    const want = limit - first.length;
    const rest = await this.scan({ ...q, type: q.type }, Math.max(0, offset - exact.length), Math.max(1, want), { count, exclude: exact });
    const restIds = rest.ids.slice(0, want);
    const total = rest.total === null ? null : rest.total + exact.length;
    return { ids: [...first, ...restIds], total, more: rest.more || rest.ids.length > restIds.length || offset + first.length < exact.length };
  }

  /**
   * COCONUT's substructure order: the exact matches (as in `page`) first, then the other hits by
   * Tanimoto to the query (Morgan, as similarity search), best first, ties by id; the total is
   * always counted. Exact matches are reported with similarity 1 (the same structure). A query
   * that only reads as SMARTS has neither exact matches nor a fingerprint: its hits come by id.
   * `limit` 0: every hit.
   */
  async ranked(q: StructureQuery & { type: 'substructure' }, offset: number, limit: number): Promise<StructureHits> {
    let key: string | null = null;
    if (q.query_type !== 'smarts') {
      try {
        key = await this.queryKey(q.query, 'smiles');
      } catch (e) {
        // Not SMILES: as SMARTS when the caller left the reading open, else the 422 stands.
        if (q.query_type === 'smiles') throw e;
      }
    }
    const exact = key ? await this.idsForKey(key, !!q.use_chirality) : [];
    const first = limit ? exact.slice(offset, offset + limit) : exact.slice(offset);
    const want = limit ? limit - first.length : 0;
    const rest = await this.scan(
      { ...q, query_type: key ? 'smiles' : q.query_type },
      Math.max(0, offset - exact.length),
      limit ? Math.max(1, want) : 0,
      { count: true, exclude: exact, order: key ? 'similarity' : 'id' },
    );
    const restIds = limit ? rest.ids.slice(0, want) : rest.ids;
    const scores = [...first.map(() => 1), ...(rest.scores ? rest.scores.slice(0, restIds.length) : restIds.map(() => 0))];
    return { ids: [...first, ...restIds], scores: key ? scores : undefined, total: (rest.total ?? 0) + exact.length, more: rest.more || offset + first.length < exact.length };
  }

  /** Every hit (for filters inside a catalog search and for exports). */
  async allIds(q: StructureQuery): Promise<StructureHits> {
    if (q.type === 'exact') {
      const ids = await this.exactIds(q.query, q.use_chirality ?? true, q.query_type);
      return { ids, total: ids.length, more: false };
    }
    return this.scan({ ...q, type: q.type }, 0, 0, { count: true });
  }

  /** The resolver of structure operators inside a Lomkit search. */
  readonly resolve = async (f: FilterInput): Promise<Filter> => {
    const value = String(f.value);
    if (f.operator === 'exact') return this.exactFilter(value, f.use_chirality ?? true, f.query_type);
    const type = f.operator === 'similar' ? 'similarity' : 'substructure';
    const hits = await this.allIds({ type, query: value, query_type: f.query_type, use_chirality: f.use_chirality, threshold: f.threshold });
    return { id: { $in: hits.ids } };
  };
}

/** The store filter of molecules with an InChIKey, or (stereo-blind) with its first block. */
function keyFilter(key: string, useChirality: boolean): Filter {
  if (useChirality) return { standard_inchi_key: key };
  const skeleton = key.slice(0, 14);
  // A range on the indexed key: every key with this first block.
  return { standard_inchi_key: { $gte: `${skeleton}-`, $lt: `${skeleton}.` } };
}

/** Documents in the order of `ids`; with `fields`, only those (a page's records: not the fingerprints, which the embedded store would read back from disk). */
export async function docsInOrder(store: CatalogStore, ids: number[], fields?: string[]): Promise<Doc[]> {
  return ids.length ? store.findByIds('molecules', ids, fields) : [];
}

export function assertThreshold(t: unknown): number | undefined {
  if (t === undefined || t === null) return undefined;
  if (typeof t !== 'number' || !Number.isFinite(t) || t < 0 || t > 1) throw new AppError(422, 'threshold must be a number between 0 and 1', 'invalid_input');
  return t;
}
