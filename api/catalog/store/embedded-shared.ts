/**
 * One copy of each value of the fields whose values repeat across documents (the schema's
 * `repeats`: a molecule's status, its ClassyFire and NPClassifier labels), shared by every
 * document the embedded store holds in memory. JSON.parse and nedb's copies give each document
 * its own copy of "APPROVED" or "Aspidospermatan-type alkaloids"; at 700,000 molecules those
 * copies were a few hundred bytes a molecule. Strings are immutable, so sharing them changes no
 * value; nedb's copies of a document (deepCopy, modify) keep the shared string.
 *
 * Applied to the documents read from a file and to what is written (inserts, `$set` values), so
 * the table holds the distinct values of those fields only (a few thousand labels).
 *
 * Likewise within a document, for the pairs of fields the schema marks `sameAs`: a molecule's
 * sugar-free SMILES is its canonical SMILES unless it has sugars (98 % of the benchmark set), and
 * its properties repeat its Murcko framework; when the two are equal the document holds one
 * string (about 100 bytes a molecule, 70 MB at 700,000).
 *
 * And whole lists of a few ids (`lists`: a molecule's organism, citation and collection ids): a
 * list's array costs about 56 bytes even with one id, and most lists repeat (a collection's
 * molecules, an organism's). A document read from the file, or given a list by a `$set`, gets the
 * table's frozen copy of its list, never the caller's array, so a caller's array is never frozen
 * (an inserted document keeps nedb's own copy until the next load); the frozen copy makes any
 * write into a live document's list throw instead of changing every document that shares it
 * (nedb copies a document before it modifies it). 700,000 molecules of the benchmark set: 100 MB
 * less (1,349 distinct lists).
 */
type Rec = Record<string, unknown>;

/** Longer lists are rarely repeated: each would cost a table entry for nothing. */
const MAX_SHARED_LIST = 8;

export class SharedValues {
  private readonly table = new Map<string, string>();
  private readonly paths: string[][];
  private readonly pairs: [string[], string[]][];
  private readonly lists: string[][];
  private readonly listTable = new Map<string, readonly unknown[]>();

  constructor(paths: string[], pairs: [string, string][] = [], lists: string[] = []) {
    this.paths = paths.map((p) => p.split('.'));
    this.pairs = pairs.map(([a, b]) => [a.split('.'), b.split('.')]);
    this.lists = lists.map((p) => p.split('.'));
  }

  /** Distinct values kept. */
  get size(): number {
    return this.table.size;
  }

  get empty(): boolean {
    return this.paths.length === 0 && this.pairs.length === 0 && this.lists.length === 0;
  }

  private one(v: unknown): unknown {
    if (typeof v !== 'string') return v;
    const kept = this.table.get(v);
    if (kept !== undefined) return kept;
    this.table.set(v, v);
    return v;
  }

  /** Replaces, in place, the values at the paths by their shared copies (a list's strings one by one). */
  share(doc: Rec): void {
    for (const path of this.paths) {
      let cur: unknown = doc;
      for (let i = 0; i < path.length - 1 && cur; i++) cur = (cur as Rec)[path[i]!];
      if (!cur || typeof cur !== 'object') continue;
      const last = path[path.length - 1]!;
      const v = (cur as Rec)[last];
      if (typeof v === 'string') (cur as Rec)[last] = this.one(v);
      else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) v[i] = this.one(v[i]);
    }
    for (const [a, b] of this.pairs) {
      const holder = parentOf(doc, a);
      const va = holder?.[a[a.length - 1]!];
      if (typeof va !== 'string') continue;
      const vb = parentOf(doc, b)?.[b[b.length - 1]!];
      if (vb === va) holder![a[a.length - 1]!] = vb;
    }
    for (const path of this.lists) {
      const holder = parentOf(doc, path);
      const last = path[path.length - 1]!;
      const v = holder?.[last];
      if (Array.isArray(v) && v.length <= MAX_SHARED_LIST) holder![last] = this.list(v);
    }
  }

  /** The table's frozen copy of a list of primitives (another list is returned as it is). */
  private list(v: unknown[]): unknown {
    if (!v.every((x) => x === null || typeof x !== 'object')) return v;
    // (JSON keeps 1 and "1" apart)
    const key = JSON.stringify(v);
    let kept = this.listTable.get(key);
    if (!kept) this.listTable.set(key, (kept = Object.freeze(v.slice())));
    return kept;
  }

  /**
   * The same for a `$set`: each key is a path (`properties.chemical_class`) or a whole record
   * (`properties`); a `sameAs` pair is shared when the `$set` holds both.
   */
  shareSet(set: Rec): void {
    const wrapped: Rec = {};
    const at: [string, Rec, string][] = [];
    for (const [k, v] of Object.entries(set)) {
      const path = k.split('.');
      let cur = wrapped;
      for (const p of path.slice(0, -1)) cur = (cur[p] ??= {}) as Rec;
      cur[path[path.length - 1]!] = v;
      at.push([k, cur, path[path.length - 1]!]);
    }
    this.share(wrapped);
    for (const [k, holder, last] of at) set[k] = holder[last];
  }
}

/** The record holding the last step of `path` in `doc`, if there is one. */
export function parentOf(doc: Rec | undefined, path: string[]): Rec | undefined {
  let cur: unknown = doc;
  for (let i = 0; i < path.length - 1; i++) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Rec)[path[i]!];
  }
  return cur && typeof cur === 'object' ? (cur as Rec) : undefined;
}
