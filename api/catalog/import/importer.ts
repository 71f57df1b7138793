/**
 * (Over 300 lines on purpose: one row's writes, molecules with and without a file's identifier, organisms, citations, collections and links, share the per-file memo and summary of one class.)
 *
 * The writes of an import, row by row (run.ts feeds the rows in file order): molecules upserted
 * by the InChIKey derived from their structure, citations by DOI, organisms by IRI then name,
 * collections by title, each row's links; the per-file memo of what was written; the summary.
 */
import { derivedFields } from '../mutate/derived.ts';
import { recordDefaults, type NewDoc } from '../schema/resources.ts';
import { nextIdentifier } from '../store/open.ts';
import { familyIdentifier } from '../mutate/identifiers.ts';
import { ownKeptFields } from '../mutate/molecule-fields.ts';
import type { CatalogStore, CollectionName, Doc, LinkField } from '../store/types.ts';
import { AppError } from '../../../shared/errors.ts';
import { DeriveCache, type Derived } from './derive-cache.ts';
import { CarriedRows, SAMPLE_EVERY } from './carried.ts';
import { refreshMoleculeCounts, touchedNone } from '../mutate/counts.ts';
import type { ImportOptions } from './run.ts';
import type { DerivedMolecule } from '../../../shared/chem/catalog/ports.ts';
import { moleculesSchema } from '../schema/molecules.ts';
import { COCONUT_COLLECTION, mergeProperties, storedProperties } from './coconut.ts';
import { Identities, identifierNumber, revokedByRelease } from './identity.ts';
import type { CitationSeed, CollectionSeed, ImportRow, MoleculeSeed, OrganismSeed } from './types.ts';
import { knownTaxonomy } from './types.ts';

type Kind = 'molecules' | 'organisms' | 'citations' | 'collections';
/** The ids of what a row links its molecule to. */
interface RowLinks {
  organisms: number[];
  citations: number[];
  collections: number[];
}
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
  /** Molecules revoked because a whole COCONUT release left them out (only with `revokeAbsent`). */
  revoked?: number;
  /** Rows loaded with the derivation the file carries (carried.ts), and how many of them were derived again to check it. */
  carried?: number;
  sampled?: number;
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
  private readonly carriedRows: CarriedRows;
  /** Derivations started by `prefetch` for rows that carry one, by row. */
  private readonly started = new Map<number, Promise<Derived>>();
  private readonly identities: Identities;
  /** The largest `CNP` number kept from the file, and how far the identifier counter was raised. */
  private maxKept = 0;
  private raisedTo = 0;
  private coconutId: number | undefined;

  constructor(private readonly store: CatalogStore, private readonly opts: ImportOptions) {
    this.cache = new DeriveCache(opts.derive, { many: opts.deriveMany, fingerprints: opts.fingerprintMany, chunk: opts.chunk, retryForMs: opts.retryForMs, signal: opts.signal, onRetry: opts.onRetry });
    if (opts.resume) this.summary = structuredClone(opts.resume.summary);
    this.carriedRows = new CarriedRows(
      opts.sampleEvery ?? SAMPLE_EVERY,
      this.summary,
      (structure) => this.cache.get(structure),
      (smiles) => this.cache.fingerprints(smiles),
      (row, message) => this.warn(row, message),
    );
    this.identities = new Identities(store, (d) => this.fromCoconut(d));
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

  private warn(row: number, message: string) {
    this.summary.warnings_count++;
    if (this.summary.warnings.length < LISTED) this.summary.warnings.push({ row, message });
  }

  private async molecule(r: ImportRow, m: MoleculeSeed, links: () => Promise<RowLinks>): Promise<number | undefined> {
    const row = r.row;
    const d = await this.derivation(r, m);
    if (d instanceof AppError) {
      this.reject(row, typeof d.detail === 'string' ? d.detail : JSON.stringify(d.detail));
      return undefined;
    }
    if (m.standard_inchi_key && m.standard_inchi_key !== d.standard_inchi_key) {
      this.warn(row, `InChIKey in the file ${m.standard_inchi_key} differs from the derived ${d.standard_inchi_key}; the derived key is used`);
    }
    const derived = derivedFields(d);
    if (m.identifier) return this.identified(r, m, d, derived, links);
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
      if (!existing.identifier) await this.store.update('molecules', id, { identifier: await familyIdentifier(this.store, { id, ...derived }) });
      this.summary.updated.molecules++;
    } else {
      id = await this.create({ name: m.name, iupac_name: m.iupac_name, ...derived, identifier: await familyIdentifier(this.store, derived) }, { ...d.properties }, await links());
    }
    if (existing) await this.store.setProperties(id, { ...d.properties });
    this.ids.set(key, id);
    return id;
  }

  /**
   * A new molecule: the declared defaults (COCONUT's), with the import's status over them (imported
   * sources are curated), written whole in one insert, its properties record and its row's links
   * included (a store write per part was most of an import's store time: each rewrote and
   * re-indexed the whole document).
   */
  private async create(fields: Record<string, unknown>, properties: Record<string, unknown>, links: RowLinks): Promise<number> {
    const status = this.opts.status ?? 'APPROVED';
    const lists = { organism_ids: [...new Set(links.organisms)], citation_ids: [...new Set(links.citations)], collection_ids: [...new Set(links.collections)] };
    const props = { ...properties, id: await this.store.nextCounter('id:properties') };
    const whole: Record<string, unknown> = { ...recordDefaults('molecules'), status, active: status === 'APPROVED', ...fields, properties: props, ...lists };
    // The kept fields as the refresh at the end computes them, so that it rewrites only the
    // molecules a later row changed, not every new one.
    Object.assign(whole, ownKeptFields(whole));
    const doc = await this.store.insert('molecules', whole as NewDoc<'molecules'>);
    this.summary.created.molecules++;
    for (const [field, ids] of Object.entries(lists)) {
      for (const id of ids) this.links.add(`${field}:${doc.id}:${id}`);
      this.summary.created.links += ids.length;
    }
    return doc.id;
  }

  /**
   * A row that names its molecule (COCONUT's downloads, natprod's dump): the identifier is kept
   * (identity.ts decides which molecule it is), and the file's fields replace the stored ones:
   * re-importing a newer release updates the molecule in place, its audit entries naming the import.
   */
  private async identified(r: ImportRow, m: MoleculeSeed, d: DerivedMolecule, derived: Record<string, unknown>, links: () => Promise<RowLinks>): Promise<number | undefined> {
    const identifier = m.identifier!;
    const res = await this.identities.resolve(r.row, identifier, d.standard_inchi_key, r.authority ?? 'file', m.canonical_smiles.includes('M  END'));
    if (res.kind === 'reject') {
      this.reject(r.row, res.reason);
      return undefined;
    }
    if (res.note) this.warn(r.row, res.note);
    const key = `molecules\u0000identifier\u0000${identifier}`;
    const seen = this.ids.get(key);
    if (seen !== undefined) return seen;
    if (res.remint) {
      await this.store.update('molecules', res.remint.id, { identifier: await nextIdentifier(this.store) });
      this.summary.updated.molecules++;
    }
    // A file without property columns (a lite file) keeps what an earlier file gave, where it still agrees.
    const given = m.properties ?? storedProperties(res.doc);
    const { properties, differ } = mergeProperties({ ...d.properties }, given);
    if (differ.length && m.properties) this.warn(r.row, `${identifier}: the file's properties differ from natprod's derivation, the derived values are kept: ${differ.join('; ')}`);
    const fields: Record<string, unknown> = { ...(res.keepStructure ? {} : derived), identifier };
    if (m.name) fields.name = m.name;
    if (m.iupac_name) fields.iupac_name = m.iupac_name;
    if (m.cas?.length) fields.cas = m.cas;
    if (m.synonyms?.length && 'synonyms' in moleculesSchema.fields) fields.synonyms = m.synonyms;
    if (m.annotation_level !== undefined) fields.annotation_level = m.annotation_level;
    let id: number;
    if (res.doc) {
      id = res.doc.id;
      const before = res.doc;
      const changed = Object.keys(fields).filter((k) => k !== 'fingerprints' && JSON.stringify(before[k] ?? null) !== JSON.stringify(fields[k] ?? null));
      const propsChanged = !res.keepStructure && Object.keys(properties).some((k) => JSON.stringify((before.properties as Record<string, unknown> | undefined)?.[k] ?? null) !== JSON.stringify(properties[k] ?? null));
      if (changed.length || propsChanged) {
        await this.store.update('molecules', id, fields);
        this.summary.updated.molecules++;
      }
      if (before.status === 'REVOKED' && r.authority === 'coconut') {
        if (await revokedByRelease(this.store, id)) {
          const status = this.opts.status ?? 'APPROVED';
          await this.store.update('molecules', id, { status, active: status === 'APPROVED' });
          if (!changed.length && !propsChanged) this.summary.updated.molecules++;
          this.warn(r.row, `${identifier} was revoked when an earlier COCONUT release left it out; this file lists it again: ${status} again`);
        } else this.warn(r.row, `${identifier} was revoked here by a curator and is active in COCONUT's file: its status is left as it is`);
      }
      if (!res.keepStructure) await this.store.setProperties(id, properties);
    } else {
      id = await this.create(fields, res.keepStructure ? {} : properties, await links());
    }
    const n = identifierNumber(identifier);
    if (n !== undefined && n > this.maxKept) this.maxKept = n;
    this.ids.set(key, id);
    return id;
  }

  /**
   * Moves the identifier counter past the largest identifier kept, so that an identifier minted
   * later (by this import or any write) never takes one COCONUT gave.
   */
  async raiseIdentifierCounter(): Promise<void> {
    if (this.maxKept <= this.raisedTo) return;
    await this.store.nextCounter('molecule_identifier', this.maxKept + 1);
    this.raisedTo = this.maxKept;
  }

  /** Whether a stored molecule came from COCONUT's files (linked to the COCONUT collection). */
  private async fromCoconut(doc: Doc): Promise<boolean> {
    this.coconutId ??= (await this.store.findOne('collections', { title: COCONUT_COLLECTION.title }))?.id;
    return this.coconutId !== undefined && ((doc.collection_ids as number[] | undefined) ?? []).includes(this.coconutId);
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

  /** A row's derivation: the one `prefetch` started for it, or the structure's (memoised). */
  private derivation(r: ImportRow, m: MoleculeSeed): Promise<Derived> {
    const started = this.started.get(r.row);
    if (!started) return this.cache.get(m.canonical_smiles);
    this.started.delete(r.row);
    return started;
  }

  /** Waits for a row's derivation (outside the lock); errors surface here, not in `row`. */
  async ready(r: ImportRow): Promise<void> {
    if (!r.molecule || r.problem) return;
    const d = this.started.get(r.row) ?? this.cache.get(r.molecule.canonical_smiles);
    this.cache.flush();
    await d;
  }

  /** Starts a row's derivation (the file's own, checked on a sample, or RDKit's); the row's write awaits it later. */
  prefetch(r: ImportRow): void {
    if (!r.molecule || r.problem) return;
    const carried = r.molecule.carried && this.carriedRows.start(r.row, r.molecule.canonical_smiles, r.molecule.carried);
    if (carried) {
      carried.catch(() => undefined);
      this.started.set(r.row, carried);
    } else void this.cache.get(r.molecule.canonical_smiles);
  }

  async row(r: ImportRow): Promise<void> {
    this.summary.rows++;
    if (r.problem) {
      this.reject(r.row, r.problem);
      return;
    }
    // The row's organisms, citations and collections are written when the molecule needs their ids
    // (a new molecule is inserted with its links), and not at all when its structure is rejected.
    let found: Promise<RowLinks> | undefined;
    const links = () => (found ??= this.rowLinks(r));
    const mol = r.molecule ? await this.molecule(r, r.molecule, links) : undefined;
    if (r.molecule && mol === undefined) return;
    const { organisms, citations, collections } = await links();
    for (const o of organisms) this.touched.organism_ids.add(o);
    for (const c of collections) this.touched.collection_ids.add(c);
    if (mol === undefined) return;
    // Its organism_count, annotation level and stereo family are refreshed at the end (mutate/counts.ts).
    this.touched.molecules.add(mol);
    for (const o of organisms) await this.link(mol, 'organism_ids', o);
    for (const c of citations) await this.link(mol, 'citation_ids', c);
    for (const c of collections) await this.link(mol, 'collection_ids', c);
  }

  /** The ids of a row's organisms, citations and collections, found or created: one of each (LOTUS), or several (COCONUT's `|`-joined columns). */
  private async rowLinks(r: ImportRow): Promise<RowLinks> {
    const organisms: number[] = [];
    for (const o of [...(r.organism ? [r.organism] : []), ...(r.organisms ?? [])]) organisms.push(await this.organism(o));
    const citations: number[] = [];
    for (const c of [...(r.citation ? [r.citation] : []), ...(r.citations ?? [])]) {
      const id = await this.citation(c);
      if (id !== undefined) citations.push(id);
    }
    const collections: number[] = [];
    for (const c of [...(r.collection ? [r.collection] : []), ...(r.collections ?? [])]) collections.push(await this.collection(c));
    return { organisms, citations, collections };
  }

  /** Counts and kept fields of what the file touched (`molecule_count`, the molecules' own); after a resume, of everything. */
  async refreshCounts(all: boolean): Promise<void> {
    if (all) {
      for (const doc of await this.store.find('organisms', {}, { fields: ['id'] })) this.touched.organism_ids.add(doc.id);
      for (const doc of await this.store.find('collections', {}, { fields: ['id'] })) this.touched.collection_ids.add(doc.id);
      for (const doc of await this.store.find('molecules', {}, { fields: ['id'] })) this.touched.molecules.add(doc.id);
    }
    return this.store.exclusive(() => refreshMoleculeCounts(this.store, this.touched));
  }
}

