/**
 * The writes of an import, row by row (run.ts feeds the rows in file order): molecules upserted
 * by the InChIKey derived from their structure, citations by DOI, organisms by IRI then name,
 * collections by title, each row's links; the per-file memo of what was written; the summary.
 */
import { derivedFields } from '../mutate/derived.ts';
import { recordDefaults, type NewDoc } from '../schema/resources.ts';
import { nextIdentifier } from '../store/open.ts';
import type { CatalogStore, CollectionName, Doc, LinkField } from '../store/types.ts';
import { AppError } from '../../../shared/errors.ts';
import { DeriveCache } from './derive-cache.ts';
import { refreshMoleculeCounts, touchedNone } from '../mutate/counts.ts';
import type { ImportOptions } from './run.ts';
import type { CitationSeed, CollectionSeed, ImportRow, MoleculeSeed, OrganismSeed } from './types.ts';
import { knownTaxonomy } from './types.ts';

type Kind = 'molecules' | 'organisms' | 'citations' | 'collections';
type Counts = Record<Kind | 'links', number>;

export interface ImportSummary {
  rows: number;
  created: Counts;
  updated: Counts;
  /** Rows not imported, with the reason: the first LISTED of them (`rejected_count` counts all). */
  rejected: { row: number; reason: string }[];
  rejected_count: number;
  /** Rows imported with a remark, e.g. the file's InChIKey differs from the derived one (the first LISTED). */
  warnings: { row: number; message: string }[];
  warnings_count: number;
}

/** Rejected rows and warnings listed in a summary (a job record is rewritten as it goes: it stays small). */
export const LISTED = 1000;

const zero = (): Counts => ({ molecules: 0, organisms: 0, citations: 0, collections: 0, links: 0 });

export const emptySummary = (): ImportSummary => ({ rows: 0, created: zero(), updated: zero(), rejected: [], rejected_count: 0, warnings: [], warnings_count: 0 });

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** Fields of `seed` that are set there and empty on `doc`. */
function missing(doc: Doc, seed: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(seed).filter(([k, v]) => !blank(v) && blank(doc[k])));
}

export class Importer {
  readonly summary: ImportSummary = emptySummary();
  private readonly ids = new Map<string, number>();
  private readonly links = new Set<string>();
  /** Per organism id, its fields known to be set (fillOrganism). */
  private readonly organismFields = new Map<number, Set<string>>();
  readonly touched = touchedNone();
  private readonly cache: DeriveCache;

  constructor(private readonly store: CatalogStore, private readonly opts: ImportOptions) {
    this.cache = new DeriveCache(opts.derive, { many: opts.deriveMany, chunk: opts.chunk, retryForMs: opts.retryForMs, signal: opts.signal, onRetry: opts.onRetry });
    if (opts.resume) this.summary = structuredClone(opts.resume.summary);
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
      this.reject(row, typeof d.detail === 'string' ? d.detail : JSON.stringify(d.detail));
      return undefined;
    }
    if (m.standard_inchi_key && m.standard_inchi_key !== d.standard_inchi_key) {
      this.summary.warnings_count++;
      if (this.summary.warnings.length < LISTED) this.summary.warnings.push({ row, message: `InChIKey in the file ${m.standard_inchi_key} differs from the derived ${d.standard_inchi_key}; the derived key is used` });
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

  private reject(row: number, reason: string) {
    this.summary.rejected_count++;
    if (this.summary.rejected.length < LISTED) this.summary.rejected.push({ row, reason });
  }

  /** Waits for a structure's derivation (outside the lock); errors surface here, not in `row`. */
  async cached(structure: string): Promise<void> {
    const d = this.cache.get(structure);
    this.cache.flush();
    await d;
  }

  /** Starts deriving a row's structure; the row's own write awaits it later. */
  prefetch(r: ImportRow): void {
    if (r.molecule && !r.problem) void this.cache.get(r.molecule.canonical_smiles);
  }

  async row(r: ImportRow): Promise<void> {
    this.summary.rows++;
    if (r.problem) {
      this.reject(r.row, r.problem);
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

  /** `molecule_count` of what the file touched; after a resume, of every organism and collection. */
  async refreshCounts(all: boolean): Promise<void> {
    if (all) {
      for (const doc of await this.store.find('organisms', {}, { fields: ['id'] })) this.touched.organism_ids.add(doc.id);
      for (const doc of await this.store.find('collections', {}, { fields: ['id'] })) this.touched.collection_ids.add(doc.id);
    }
    return this.store.exclusive(() => refreshMoleculeCounts(this.store, this.touched));
  }
}

