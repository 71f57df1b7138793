/**
 * The embedded store's substring index (`CatalogStore.containing`): per collection and field
 * list, every value of those fields lower-cased and joined into one string, NUL between values.
 * A search is `indexOf` over that string (V8's string search, a few milliseconds for 100,000
 * names where a scan through nedb's matcher takes tens), each occurrence mapped back to its
 * value by binary search. Built on first use and kept until the collection is written or
 * reloaded, like the sorted orders (sorted-orders.ts).
 */
import type { Doc, TextHit } from './types.ts';

const SEP = '\u0000';

interface Built {
  version: number;
  docs: Doc[];
  text: string;
  /** Start offset of each value in `text`, plus one sentinel past the end. */
  starts: Int32Array;
  /** The document (index into `docs`) and the field (index into the field list) of each value. */
  doc: Int32Array;
  field: Uint16Array;
}

/** The strings at a path (a string, or the strings of a list); what `containing` compares. */
export function valuesAt(doc: Doc, path: string[]): string[] {
  let cur: unknown = doc;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return [];
    cur = (cur as Record<string, unknown>)[p];
  }
  if (typeof cur === 'string') return [cur];
  if (Array.isArray(cur)) return cur.filter((v): v is string => typeof v === 'string');
  return [];
}

function build(docs: Doc[], fields: string[], version: number): Built {
  const paths = fields.map((f) => f.split('.'));
  const parts: string[] = [];
  const starts: number[] = [];
  const doc: number[] = [];
  const field: number[] = [];
  let pos = 0;
  docs.forEach((d, di) => {
    paths.forEach((p, k) => {
      for (const v of valuesAt(d, p)) {
        const low = v.toLowerCase();
        starts.push(pos);
        doc.push(di);
        field.push(k);
        parts.push(low, SEP);
        pos += low.length + 1;
      }
    });
  });
  starts.push(pos);
  return { version, docs, text: parts.join(''), starts: Int32Array.from(starts), doc: Int32Array.from(doc), field: Uint16Array.from(field) };
}

/** Index of the value holding offset `p` (the last start ≤ p). */
function valueAt(starts: Int32Array, p: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= p) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function copy(v: unknown): unknown {
  return v !== null && typeof v === 'object' ? structuredClone(v) : v;
}

export class TextIndexes {
  private readonly versions = new Map<string, number>();
  private readonly cache = new Map<string, Built>();

  constructor(private readonly max = 8) {}

  /** Forgets a collection's indexes (after a write or a reload): dropped, so they hold no replaced documents. */
  invalidate(coll: string): void {
    this.versions.set(coll, (this.versions.get(coll) ?? 0) + 1);
    for (const key of this.cache.keys()) if (key.startsWith(`${coll}${SEP}`)) this.cache.delete(key);
  }

  search(coll: string, all: () => Doc[], fields: string[], text: string, extra: string[] = []): TextHit[] {
    const key = `${coll}${SEP}${fields.join(SEP)}`;
    const version = this.versions.get(coll) ?? 0;
    let b = this.cache.get(key);
    if (!b || b.version !== version) {
      b = build(all(), fields, version);
      if (this.cache.size >= this.max) this.cache.clear();
      this.cache.set(key, b);
    }
    const q = text.toLowerCase();
    const best = new Map<number, number>();
    const note = (di: number, rank: number) => {
      const cur = best.get(di);
      if (cur === undefined || rank < cur) best.set(di, rank);
    };
    if (q.includes(SEP)) return [];
    if (q === '') {
      for (let e = 0; e < b.doc.length; e++) note(b.doc[e], b.starts[e] + 1 === b.starts[e + 1] ? b.field[e] : fields.length + b.field[e]);
    } else {
      let p = b.text.indexOf(q);
      while (p !== -1) {
        const e = valueAt(b.starts, p);
        const end = b.starts[e + 1] - 1;
        // The first occurrence in a value decides: only one at its start can make it an exact match.
        note(b.doc[e], p === b.starts[e] && p + q.length === end ? b.field[e] : fields.length + b.field[e]);
        p = b.text.indexOf(q, end + 1);
      }
    }
    const hits: TextHit[] = [];
    for (const [di, rank] of best) {
      const d = b.docs[di];
      const hit: TextHit = { id: d.id, rank };
      for (const f of extra) hit[f] = copy(d[f]);
      hits.push(hit);
    }
    return hits;
  }
}
