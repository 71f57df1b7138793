/**
 * Loads an import file into the catalog store: molecules upserted by InChIKey (derived from the
 * structure, not taken from the file), citations by DOI, organisms by IRI then name, collections
 * by title; each row links its molecule to its organism, citation and collection, and
 * `molecule_count` is recomputed for every organism and collection the file touched.
 *
 * Existing organisms, citations and collections are never overwritten: the import only fills
 * their empty fields. An existing molecule gets its derived fields (InChI, SMILES, stereo flag,
 * framework, properties) refreshed and its empty name fields filled. A row that cannot be read
 * or whose structure does not parse is rejected with its reason; the rest still import.
 */
import { stat } from 'node:fs/promises';
import { tracking } from '../audit/audit.ts';
import { derivedFields, type Derive } from '../mutate/derived.ts';
import { recordDefaults, type NewDoc } from '../schema/resources.ts';
import { nextIdentifier } from '../store/open.ts';
import type { CatalogStore, CollectionName, Doc, LinkField } from '../store/types.ts';
import { AppError } from '../../../shared/errors.ts';
import { DeriveCache } from './derive-cache.ts';
import { refreshMoleculeCounts, touchedNone } from '../mutate/counts.ts';
import { fileText, formatOf, parseDelimited, parseSdf } from './parse.ts';
import type { CitationSeed, CollectionSeed, ImportRow, MoleculeSeed, OrganismSeed } from './types.ts';
import { knownTaxonomy } from './types.ts';

export interface ImportProgress {
  row: number;
  /** Bytes of the file read so far (compressed bytes for .gz) and its size. */
  bytes: number;
  totalBytes: number;
}

export interface ImportOptions {
  derive: Derive;
  onProgress?: (p: ImportProgress) => void;
  /** Status of newly created molecules; imported sources are curated, so APPROVED by default. */
  status?: 'DRAFT' | 'INREVIEW' | 'APPROVED';
  /**
   * Rows whose structure is derived ahead of the row being written (default 4), so that several
   * worker threads derive while the store writes. Rows are still written in file order.
   */
  lookahead?: number;
  /** Stops the import between rows (the rows written so far stay; re-importing is idempotent). */
  signal?: AbortSignal;
  /** Who imports, for the audit trail (absent: the command line or the demo seed, `user_id` null). */
  user?: { id: number };
}

type Kind = 'molecules' | 'organisms' | 'citations' | 'collections';
type Counts = Record<Kind | 'links', number>;

export interface ImportSummary {
  rows: number;
  created: Counts;
  updated: Counts;
  rejected: { row: number; reason: string }[];
  /** Rows imported with a remark, e.g. the file's InChIKey differs from the derived one. */
  warnings: { row: number; message: string }[];
}

const zero = (): Counts => ({ molecules: 0, organisms: 0, citations: 0, collections: 0, links: 0 });

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** Fields of `seed` that are set there and empty on `doc`. */
function missing(doc: Doc, seed: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(seed).filter(([k, v]) => !blank(v) && blank(doc[k])));
}

class Importer {
  readonly summary: ImportSummary = { rows: 0, created: zero(), updated: zero(), rejected: [], warnings: [] };
  private readonly ids = new Map<string, number>();
  private readonly links = new Set<string>();
  /** Per organism id, its fields known to be set (fillOrganism). */
  private readonly organismFields = new Map<number, Set<string>>();
  readonly touched = touchedNone();
  private readonly cache: DeriveCache;

  constructor(private readonly store: CatalogStore, private readonly opts: ImportOptions) {
    this.cache = new DeriveCache(opts.derive);
  }

  /** Finds by `field` = `value`, inserting `seed` or filling its empty fields; memoised per file. */
  private async upsertBy(coll: Kind, field: string, value: unknown, seed: Record<string, unknown>) {
    const key = `${coll}\u0000${field}\u0000${String(value)}`;
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const existing = await this.store.findOne(coll as CollectionName, { [field]: value });
    let id: number;
    if (existing) {
      id = existing.id;
      const fill = missing(existing, seed);
      if (Object.keys(fill).length) {
        await this.store.update(coll, id, fill);
        this.summary.updated[coll]++;
      }
    } else {
      const clean = Object.fromEntries(Object.entries(seed).filter(([, v]) => v !== undefined));
      id = (await this.store.insert(coll, { ...recordDefaults(coll), ...clean, [field]: value })).id;
      this.summary.created[coll]++;
    }
    this.ids.set(key, id);
    return id;
  }

  /**
   * By IRI, then by name. Lineage and ids fill the organism's empty fields, never replace one:
   * the first value seen stays, and a later row of the same organism (in this file too) fills
   * what earlier ones lacked.
   */
  private async organism(o: OrganismSeed): Promise<number> {
    const taxonomy = { ...knownTaxonomy(o.taxonomy) } as Record<string, unknown>;
    const id = await this.organismId(o, taxonomy);
    if (Object.keys(taxonomy).length) await this.fillOrganism(id, taxonomy);
    return id;
  }

  /** Fills the organism's empty taxonomy fields; skips the read when this file already saw them all set. */
  private async fillOrganism(id: number, taxonomy: Record<string, unknown>): Promise<void> {
    const known = this.organismFields.get(id);
    if (known && Object.keys(taxonomy).every((k) => known.has(k))) return;
    const doc = (await this.store.findByIds('organisms', [id]))[0];
    if (!doc) return;
    const fill = missing(doc, taxonomy);
    if (Object.keys(fill).length) {
      await this.store.update('organisms', id, fill);
      this.summary.updated.organisms++;
    }
    this.organismFields.set(id, new Set([...Object.keys(doc).filter((k) => !blank(doc[k])), ...Object.keys(fill)]));
  }

  private async organismId(o: OrganismSeed, taxonomy: Record<string, unknown>): Promise<number> {
    if (o.iri) {
      const byIri = this.ids.get(`organisms\u0000iri\u0000${o.iri}`);
      if (byIri !== undefined) return byIri;
      const hit = await this.store.findOne('organisms', { iri: o.iri });
      if (hit) return this.upsertBy('organisms', 'iri', o.iri, { name: o.name, rank: o.rank, ...taxonomy });
    }
    const id = await this.upsertBy('organisms', 'name', o.name, { iri: o.iri, rank: o.rank, ...taxonomy });
    if (o.iri) this.ids.set(`organisms\u0000iri\u0000${o.iri}`, id);
    return id;
  }

  private citation(c: CitationSeed): Promise<number> | undefined {
    const seed = { title: c.title, authors: c.authors, citation_text: c.citation_text };
    if (c.doi) return this.upsertBy('citations', 'doi', c.doi, seed);
    if (c.title) return this.upsertBy('citations', 'title', c.title, { authors: c.authors, citation_text: c.citation_text });
    return undefined;
  }

  private collection(c: CollectionSeed): Promise<number> {
    return this.upsertBy('collections', 'title', c.title, { identifier: c.identifier, url: c.url, description: c.description });
  }

  private async molecule(row: number, m: MoleculeSeed): Promise<number | undefined> {
    const d = await this.cache.get(m.canonical_smiles);
    if (d instanceof AppError) {
      this.summary.rejected.push({ row, reason: typeof d.detail === 'string' ? d.detail : JSON.stringify(d.detail) });
      return undefined;
    }
    if (m.standard_inchi_key && m.standard_inchi_key !== d.standard_inchi_key) {
      this.summary.warnings.push({ row, message: `InChIKey in the file ${m.standard_inchi_key} differs from the derived ${d.standard_inchi_key}; the derived key is used` });
    }
    const derived = derivedFields(d);
    const key = `molecules\u0000standard_inchi_key\u0000${d.standard_inchi_key}`;
    const seen = this.ids.get(key);
    if (seen !== undefined) {
      // Later rows of the same structure may still bring a name the first row lacked.
      const doc = (await this.store.findByIds('molecules', [seen]))[0];
      const fill = doc ? missing(doc, { name: m.name, iupac_name: m.iupac_name }) : {};
      if (Object.keys(fill).length) await this.store.update('molecules', seen, fill);
      return seen;
    }
    const existing = await this.store.findOne('molecules', { standard_inchi_key: d.standard_inchi_key });
    let id: number;
    if (existing) {
      id = existing.id;
      await this.store.update('molecules', id, { ...derived, ...missing(existing, { name: m.name, iupac_name: m.iupac_name }) });
      if (!existing.identifier) await this.store.update('molecules', id, { identifier: await nextIdentifier(this.store) });
      this.summary.updated.molecules++;
    } else {
      // The declared defaults (COCONUT's), with the import's status over them: imported sources are curated.
      const status = this.opts.status ?? 'APPROVED';
      const doc = await this.store.insert('molecules', {
        ...recordDefaults('molecules'), status, active: status === 'APPROVED',
        name: m.name, iupac_name: m.iupac_name, ...derived,
        identifier: await nextIdentifier(this.store),
      } satisfies NewDoc<'molecules'>);
      id = doc.id;
      this.summary.created.molecules++;
    }
    await this.store.setProperties(id, { ...d.properties });
    this.ids.set(key, id);
    return id;
  }

  private async link(mol: number, field: LinkField, id: number) {
    const k = `${field}:${mol}:${id}`;
    if (this.links.has(k)) return;
    const doc = (await this.store.findByIds('molecules', [mol]))[0];
    const had = ((doc?.[field] as number[] | undefined) ?? []).includes(id);
    if (!had) {
      await this.store.link(mol, field, [id]);
      this.summary.created.links++;
    }
    this.links.add(k);
  }

  /** Waits for a structure's derivation (outside the lock); errors surface here, not in `row`. */
  async cached(structure: string): Promise<void> {
    await this.cache.get(structure);
  }

  /** Starts deriving a row's structure; the row's own write awaits it later. */
  prefetch(r: ImportRow): void {
    if (r.molecule && !r.problem) void this.cache.get(r.molecule.canonical_smiles);
  }

  async row(r: ImportRow): Promise<void> {
    this.summary.rows++;
    if (r.problem) {
      this.summary.rejected.push({ row: r.row, reason: r.problem });
      return;
    }
    const mol = r.molecule ? await this.molecule(r.row, r.molecule) : undefined;
    if (r.molecule && mol === undefined) return;
    const org = r.organism ? await this.organism(r.organism) : undefined;
    const cit = r.citation ? await this.citation(r.citation) : undefined;
    const col = r.collection ? await this.collection(r.collection) : undefined;
    if (org !== undefined) this.touched.organism_ids.add(org);
    if (col !== undefined) this.touched.collection_ids.add(col);
    if (mol === undefined) return;
    if (org !== undefined) await this.link(mol, 'organism_ids', org);
    if (cit !== undefined) await this.link(mol, 'citation_ids', cit);
    if (col !== undefined) await this.link(mol, 'collection_ids', col);
  }

  refreshCounts(): Promise<void> {
    return this.store.exclusive(() => refreshMoleculeCounts(this.store, this.touched));
  }
}

export async function importFile(store: CatalogStore, path: string, opts: ImportOptions): Promise<ImportSummary> {
  const format = formatOf(path);
  const totalBytes = (await stat(path)).size;
  let bytes = 0;
  const chunks = fileText(path, (n) => {
    bytes += n;
  });
  const rows = format === 'sdf' ? parseSdf(chunks) : parseDelimited(chunks, format === 'tsv' ? '\t' : ',');
  // every record a row creates or changes gets its audit entry (`import`), written with the row
  const audited = tracking(store);
  const importer = new Importer(audited, opts);
  const lookahead = Math.max(1, opts.lookahead ?? 4);
  const window: ImportRow[] = [];
  // Derivations run outside the store lock (they are CPU work on worker threads); each row's
  // writes then take the lock once, so a server sharing the store waits only for those.
  const write = async (r: ImportRow) => {
    opts.signal?.throwIfAborted();
    if (r.molecule && !r.problem) await importer.cached(r.molecule.canonical_smiles);
    await store.exclusive(async () => {
      try {
        await importer.row(r);
      } finally {
        await audited.flush(opts.user, 'import');
      }
    });
    opts.onProgress?.({ row: r.row, bytes, totalBytes });
  };
  for await (const r of rows) {
    importer.prefetch(r);
    window.push(r);
    if (window.length >= lookahead) await write(window.shift()!);
  }
  for (const r of window) await write(r);
  await importer.refreshCounts();
  audited.discard(); // counts only: not audited
  opts.onProgress?.({ row: importer.summary.rows, bytes: totalBytes, totalBytes });
  return importer.summary;
}
