/**
 * Column mapping for files that are not one of the shipped LOTUS/COCONUT layouts: columns are
 * recognised by common names (case-insensitive, `-`/space = `_`), first match wins. See the
 * import README for the list.
 */
import type { OrganismTaxonomy, RowMapper } from './types.ts';
import { knownTaxonomy, normalizeDoi, taxonId, text, wikidataId } from './types.ts';

const LINEAGE = ['domain', 'kingdom', 'phylum', 'class', 'order', 'family', 'tribe', 'genus', 'species', 'variety'] as const;

export const GENERIC_COLUMNS = {
  structure: ['canonical_smiles', 'smiles', 'isomeric_smiles', 'structure_smiles', 'structure', 'molblock', 'molfile'],
  name: ['name', 'molecule_name', 'compound_name', 'common_name', 'title'],
  iupac_name: ['iupac_name', 'iupac'],
  inchikey: ['standard_inchi_key', 'inchikey', 'inchi_key'],
  inchi: ['standard_inchi', 'inchi'],
  organism: ['organism', 'organism_name', 'species', 'taxon'],
  organism_iri: ['organism_iri', 'organism_url', 'organism_wikidata', 'taxon_iri'],
  organism_rank: ['organism_rank', 'rank', 'taxon_rank'],
  organism_domain: ['organism_domain', 'domain', 'superkingdom', 'organism_taxonomy_01domain'],
  organism_kingdom: ['organism_kingdom', 'kingdom', 'organism_taxonomy_02kingdom'],
  organism_phylum: ['organism_phylum', 'phylum', 'division', 'organism_taxonomy_03phylum'],
  organism_class: ['organism_class', 'class', 'organism_taxonomy_04class'],
  organism_order: ['organism_order', 'order', 'organism_taxonomy_05order'],
  organism_family: ['organism_family', 'family', 'organism_taxonomy_06family'],
  organism_tribe: ['organism_tribe', 'tribe', 'organism_taxonomy_07tribe'],
  organism_genus: ['organism_genus', 'genus', 'organism_taxonomy_08genus'],
  organism_species: ['organism_species', 'species', 'organism_taxonomy_09species'],
  organism_variety: ['organism_variety', 'variety', 'varietas', 'organism_taxonomy_10varietas'],
  organism_ncbi_id: ['organism_ncbi_id', 'ncbi_id', 'ncbi_taxid', 'ncbi_taxon_id', 'taxid', 'organism_taxonomy_ncbiid'],
  organism_gbif_id: ['organism_gbif_id', 'gbif_id', 'gbif_taxon_key', 'organism_taxonomy_gbifid'],
  organism_ott_id: ['organism_ott_id', 'ott_id', 'organism_taxonomy_ottid'],
  organism_wikidata_id: ['organism_wikidata_id', 'wikidata_id'],
  doi: ['doi', 'citation_doi', 'reference_doi'],
  citation_title: ['citation_title', 'reference_title', 'article_title'],
  citation_authors: ['citation_authors', 'authors'],
  citation_text: ['citation', 'citation_text', 'reference'],
  collection: ['collection', 'collection_title', 'database', 'source_database'],
} as const;

type Role = keyof typeof GENERIC_COLUMNS;

const norm = (s: string) => s.trim().toLowerCase().replace(/[\s-]+/g, '_');

export function isStructureColumn(name: string): boolean {
  return (GENERIC_COLUMNS.structure as readonly string[]).includes(norm(name));
}

/** Which header column plays each role (undefined when none does). */
export function resolveColumns(header: string[]): Partial<Record<Role, string>> {
  const byNorm = new Map(header.map((h) => [norm(h), h]));
  const out: Partial<Record<Role, string>> = {};
  for (const role of Object.keys(GENERIC_COLUMNS) as Role[]) {
    const hit = GENERIC_COLUMNS[role].find((c) => byNorm.has(c));
    if (hit) out[role] = byNorm.get(hit);
  }
  return out;
}

/**
 * A mapper for a generic header. `structureOverride` supplies the structure for SDF records
 * (their molblock) when no data item holds one.
 */
export function genericMapper(header: string[]): RowMapper {
  const col = resolveColumns(header);
  const get = (v: Record<string, string>, role: Role) => (col[role] ? text(v[col[role]!]) : null);
  return (v) => {
    // A molblock's line layout matters (its first line may be blank): never trim one.
    const raw = col.structure ? v[col.structure] : undefined;
    const structure = raw !== undefined && raw.includes('\n') && raw.trim() !== '' ? raw : get(v, 'structure');
    const organism = get(v, 'organism');
    const doi = col.doi ? normalizeDoi(v[col.doi]) : null;
    const citationTitle = get(v, 'citation_title');
    const citationText = get(v, 'citation_text');
    const collection = get(v, 'collection');
    const inchikey = get(v, 'inchikey');
    const inchi = get(v, 'inchi');
    const iri = get(v, 'organism_iri');
    const found: OrganismTaxonomy = {};
    for (const r of LINEAGE) found[r] = get(v, `organism_${r}`);
    found.ncbi_id = taxonId(get(v, 'organism_ncbi_id') ?? undefined);
    found.gbif_id = taxonId(get(v, 'organism_gbif_id') ?? undefined);
    found.ott_id = taxonId(get(v, 'organism_ott_id') ?? undefined);
    found.wikidata_id = wikidataId(get(v, 'organism_wikidata_id')) ?? wikidataId(iri);
    const taxonomy = knownTaxonomy(found);
    return {
      ...(structure
        ? {
            molecule: {
              canonical_smiles: structure,
              // With no name column, `title` may name the molecule; never the collection's title.
              name: get(v, 'name'),
              iupac_name: get(v, 'iupac_name'),
              ...(inchikey ? { standard_inchi_key: inchikey } : {}),
              ...(inchi ? { standard_inchi: inchi } : {}),
            },
          }
        : { problem: `no structure (none of the columns ${GENERIC_COLUMNS.structure.join(', ')} has a value)` }),
      ...(organism
        ? { organism: { name: organism, iri, rank: get(v, 'organism_rank')?.toLowerCase() ?? null, ...(Object.keys(taxonomy).length ? { taxonomy } : {}) } }
        : {}),
      ...(doi || citationTitle || citationText
        ? { citation: { doi, title: citationTitle, authors: get(v, 'citation_authors'), citation_text: citationText } }
        : {}),
      ...(collection ? { collection: { title: collection, identifier: null, url: null, description: null } } : {}),
    };
  };
}
