/**
 * The catalog's monoisotopic masses in memory, sorted, for MS dereplication (api side): per net
 * formal charge (0, +1, -1; other charges are not searched) a Float64Array of masses ascending and
 * the molecule ids beside them, so a mass window is two binary searches (about a microsecond at
 * 100,000 molecules) instead of a store query.
 *
 * Masses are the molecules' `properties.exact_molecular_weight` (RDKit's ExactMolWt of the stored
 * structure, electrons counted) with `properties.formal_charge`; placeholders and molecules
 * without a mass are left out.
 *
 * **Staying current.** The index is built on first use. The store given to `observeMassWrites`
 * tells it every molecule write made through it once the write succeeded (insert, insertMany,
 * upsert, update, replace, remove, setProperties): the written ids are marked, and the next search
 * first re-reads just those molecules and merges them in (linear in the catalog, about a
 * millisecond at 100,000), so a write acknowledged before a search is always seen. A write
 * by another process on the same DATA_DIR (the import CLI), which the embedded store reports
 * through `onExternalChange`, makes the next search rebuild the whole index. With MongoDB, writes
 * made by other processes directly in the database are not reported: they reach the index at the
 * next write through this process, or at restart (the structure-search index has the same limit).
 */
import type { CatalogStore, CollectionName, Doc } from '../../store/types.ts';

const PAGE = 5000;
const FIELDS = ['is_placeholder', 'properties.exact_molecular_weight', 'properties.formal_charge'];
/** The net formal charges indexed: neutral molecules, and singly charged ones for [M]+ and [M]-. */
export const INDEXED_CHARGES = [0, 1, -1] as const;

interface Sorted {
  masses: Float64Array;
  ids: Float64Array;
}

const EMPTY: Sorted = { masses: new Float64Array(0), ids: new Float64Array(0) };

/** The entry of one molecule document: its mass and charge, or null when it is not indexed. */
function entryOf(d: Doc): { mass: number; charge: number } | null {
  if (d.is_placeholder === true) return null;
  const p = d.properties as Record<string, unknown> | null | undefined;
  const mass = p?.exact_molecular_weight;
  if (typeof mass !== 'number' || !Number.isFinite(mass) || mass <= 0) return null;
  const fc = p?.formal_charge;
  const charge = typeof fc === 'number' && Number.isFinite(fc) ? fc : 0;
  if (!(INDEXED_CHARGES as readonly number[]).includes(charge)) return null;
  return { mass, charge };
}

/** Entries sorted by mass, then id. */
function sortEntries(entries: { id: number; mass: number }[]): Sorted {
  entries.sort((x, y) => x.mass - y.mass || x.id - y.id);
  const masses = new Float64Array(entries.length);
  const ids = new Float64Array(entries.length);
  entries.forEach((e, i) => {
    masses[i] = e.mass;
    ids[i] = e.id;
  });
  return { masses, ids };
}

/** First index whose mass is ≥ m. */
function lowerBound(masses: Float64Array, m: number): number {
  let lo = 0;
  let hi = masses.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (masses[mid] < m) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class MassIndex {
  private sorted = new Map<number, Sorted>();
  private built = false;
  /** Rebuild everything at the next sync (never built, or another process wrote). */
  private stale = true;
  /** Molecules written through this process since the last sync. */
  private written = new Set<number>();
  /** The sync in progress (syncs run one at a time). */
  private running: Promise<void> | null = null;

  constructor(private readonly store: CatalogStore) {}

  /** Molecules with these ids were written (or deleted); no ids: anything may have changed. */
  changed(ids?: readonly number[]): void {
    if (!ids) this.stale = true;
    else for (const id of ids) this.written.add(id);
  }

  /** Brings the index up to date with every write reported before this call. */
  async sync(): Promise<void> {
    // A sync already running may have taken its snapshot before the latest writes: wait for it, then look again.
    while (this.running) await this.running;
    if (!this.stale && !this.written.size) return;
    this.running = this.apply().finally(() => (this.running = null));
    await this.running;
  }

  private async apply(): Promise<void> {
    if (this.stale || !this.built) {
      this.stale = false;
      this.written.clear();
      try {
        await this.rebuild();
      } catch (e) {
        this.stale = true;
        throw e;
      }
      return;
    }
    const ids = [...this.written];
    this.written.clear();
    try {
      await this.patch(ids);
    } catch (e) {
      for (const id of ids) this.written.add(id);
      throw e;
    }
  }

  private async rebuild(): Promise<void> {
    const byCharge = new Map<number, { id: number; mass: number }[]>(INDEXED_CHARGES.map((c) => [c, []]));
    // One read of three small fields per molecule (paging in id order made the embedded store sort the collection per page).
    for (const d of await this.store.find('molecules', {}, { fields: FIELDS })) {
      const e = entryOf(d);
      if (e) byCharge.get(e.charge)!.push({ id: d.id, mass: e.mass });
    }
    this.sorted = new Map([...byCharge].map(([c, list]) => [c, sortEntries(list)]));
    this.built = true;
  }

  /** Drops the written ids from the sorted arrays and merges their current entries back in. */
  private async patch(ids: number[]): Promise<void> {
    const docs: Doc[] = [];
    for (let i = 0; i < ids.length; i += PAGE) docs.push(...(await this.store.find('molecules', { id: { $in: ids.slice(i, i + PAGE) } }, { fields: FIELDS })));
    const fresh = new Map<number, { id: number; mass: number }[]>(INDEXED_CHARGES.map((c) => [c, []]));
    for (const d of docs) {
      const e = entryOf(d);
      if (e) fresh.get(e.charge)!.push({ id: d.id, mass: e.mass });
    }
    const gone = new Set(ids);
    for (const c of INDEXED_CHARGES) {
      const old = this.sorted.get(c) ?? EMPTY;
      const add = sortEntries(fresh.get(c)!);
      const n = old.masses.length + add.masses.length;
      const masses = new Float64Array(n);
      const out = new Float64Array(n);
      let i = 0;
      let j = 0;
      let k = 0;
      while (i < old.masses.length || j < add.masses.length) {
        if (i < old.masses.length && gone.has(old.ids[i])) {
          i++;
          continue;
        }
        const takeOld = j >= add.masses.length || (i < old.masses.length && (old.masses[i] < add.masses[j] || (old.masses[i] === add.masses[j] && old.ids[i] < add.ids[j])));
        if (takeOld) {
          masses[k] = old.masses[i];
          out[k++] = old.ids[i++];
        } else {
          masses[k] = add.masses[j];
          out[k++] = add.ids[j++];
        }
      }
      this.sorted.set(c, { masses: masses.subarray(0, k), ids: out.subarray(0, k) });
    }
  }

  /** Calls `fn(id, mass)` for each molecule of net formal charge `charge` with lo ≤ mass ≤ hi, ascending by mass. */
  forEachInRange(charge: number, lo: number, hi: number, fn: (id: number, mass: number) => void): void {
    const s = this.sorted.get(charge);
    if (!s || !(lo <= hi)) return;
    for (let i = lowerBound(s.masses, lo); i < s.masses.length && s.masses[i] <= hi; i++) fn(s.ids[i], s.masses[i]);
  }

  /** Molecules indexed, by charge. */
  size(): Record<string, number> {
    return Object.fromEntries(INDEXED_CHARGES.map((c) => [String(c), this.sorted.get(c)?.masses.length ?? 0]));
  }
}

/** Where a store observed by `observeMassWrites` keeps its index (read through any wrapping Proxy). */
export const MASS_INDEX = Symbol('natprod.massIndex');

const ids = (docs: (Doc | null | undefined)[]) => docs.filter((d): d is Doc => !!d).map((d) => d.id);

/**
 * The store, with every molecule write made through it reported to a MassIndex (after the write
 * succeeded), and writes by other processes too where the store reports them. The index is
 * reachable from the returned store, and from any Proxy around it that passes symbol keys through
 * (the structure search's own wrapper does), with `massIndexOf`.
 */
export function observeMassWrites(store: CatalogStore): CatalogStore {
  const index = new MassIndex(store);
  store.onExternalChange?.((coll) => {
    if (coll === 'molecules') index.changed();
  });
  const mol = (coll: CollectionName) => coll === 'molecules';
  const wrapped: Partial<CatalogStore> = {
    async insert(coll: CollectionName, doc: Record<string, unknown>) {
      const out = await store.insert(coll, doc);
      if (mol(coll)) index.changed([out.id]);
      return out;
    },
    async insertMany(coll: CollectionName, docs: Record<string, unknown>[]) {
      const out = await store.insertMany(coll, docs);
      if (mol(coll)) index.changed(ids(out));
      return out;
    },
    async upsert(coll: CollectionName, field: string, value: unknown, set: Record<string, unknown>) {
      const out = await store.upsert(coll, field, value, set);
      if (mol(coll)) index.changed([out.doc.id]);
      return out;
    },
    async update(coll: CollectionName, id: number, set: Record<string, unknown>, unset?: string[]) {
      const out = await store.update(coll, id, set, unset);
      if (mol(coll)) index.changed([id]);
      return out;
    },
    async replace(coll: CollectionName, doc: Doc) {
      await store.replace(coll, doc);
      if (mol(coll)) index.changed([doc.id]);
    },
    async remove(coll: CollectionName, removed: number[]) {
      const n = await store.remove(coll, removed);
      if (mol(coll)) index.changed(removed);
      return n;
    },
    async setProperties(moleculeId: number, props: Record<string, unknown> | null) {
      await store.setProperties(moleculeId, props);
      index.changed([moleculeId]);
    },
  };
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === MASS_INDEX) return index;
      if (typeof key === 'string' && key in wrapped) return wrapped[key as keyof CatalogStore];
      const v = Reflect.get(target, key, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** The MassIndex of a store wrapped by `observeMassWrites`, or undefined. */
export function massIndexOf(store: CatalogStore): MassIndex | undefined {
  const v = (store as unknown as Record<symbol, unknown>)[MASS_INDEX];
  return v instanceof MassIndex ? v : undefined;
}
