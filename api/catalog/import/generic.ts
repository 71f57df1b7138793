/**
 * Column mapping for files that are not one of the shipped LOTUS/COCONUT layouts: columns are
 * recognised by common names (case-insensitive, `-`/space = `_`), first match wins. See the
 * import README for the list.
 */
import type { RowMapper } from './types.ts';
import { normalizeDoi, text } from './types.ts';

export const GENERIC_COLUMNS = {
  structure: ['canonical_smiles', 'smiles', 'isomeric_smiles', 'structure_smiles', 'structure', 'molblock', 'molfile'],
  name: ['name', 'molecule_name', 'compound_name', 'common_name', 'title'],
  iupac_name: ['iupac_name', 'iupac'],
  inchikey: ['standard_inchi_key', 'inchikey', 'inchi_key'],
  inchi: ['standard_inchi', 'inchi'],
  organism: ['organism', 'organism_name', 'species', 'taxon'],
  organism_iri: ['organism_iri', 'organism_url', 'organism_wikidata', 'taxon_iri'],
  organism_rank: ['organism_rank', 'rank', 'taxon_rank'],
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
        ? { organism: { name: organism, iri: get(v, 'organism_iri'), rank: get(v, 'organism_rank')?.toLowerCase() ?? null } }
        : {}),
      ...(doi || citationTitle || citationText
        ? { citation: { doi, title: citationTitle, authors: get(v, 'citation_authors'), citation_text: citationText } }
        : {}),
      ...(collection ? { collection: { title: collection, identifier: null, url: null, description: null } } : {}),
    };
  };
}
