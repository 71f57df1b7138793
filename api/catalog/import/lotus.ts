/**
 * Column mappings of the shipped LOTUS / COCONUT files (api/catalog/data/README.md describes
 * them; the import README lists each mapping). Each `is*` test recognises a file by its header.
 */
import type { CitationSeed, CollectionSeed, OrganismSeed, OrganismTaxonomy, RowMapper } from './types.ts';
import { normalizeDoi, taxonId, text, wikidataId } from './types.ts';

const has = (header: string[], ...cols: string[]) => cols.every((c) => header.includes(c));

// --- lotus_sample_1000.tsv (LOTUS frozen-metadata export) ---------------------------------

export const isLotusExport = (h: string[]) => has(h, 'structure_inchikey', 'structure_smiles', 'organism_name');

const LINEAGE: [string, string][] = [
  ['organism_taxonomy_10varietas', 'variety'],
  ['organism_taxonomy_09species', 'species'],
  ['organism_taxonomy_08genus', 'genus'],
  ['organism_taxonomy_07tribe', 'tribe'],
  ['organism_taxonomy_06family', 'family'],
  ['organism_taxonomy_05order', 'order'],
  ['organism_taxonomy_04class', 'class'],
  ['organism_taxonomy_03phylum', 'phylum'],
  ['organism_taxonomy_02kingdom', 'kingdom'],
  ['organism_taxonomy_01domain', 'domain'],
];

/**
 * Rank from the name's form, for names that match no lineage column (LOTUS resolved the
 * lineage under an accepted synonym): infraspecific markers, else a binomial is a species.
 */
export function rankFromName(name: string): string | null {
  if (/\svar\.\s/.test(name)) return 'variety';
  if (/\ssubsp\.\s/.test(name)) return 'subspecies';
  if (/\sf\.\s/.test(name)) return 'form';
  if (/^[A-Z][a-z-]+ [a-z][a-z-]+$/.test(name)) return 'species';
  return null;
}

/** The deepest lineage column that equals the organism name gives its rank. */
export function lotusExportRank(v: Record<string, string>, name: string): string | null {
  for (const [col, rank] of LINEAGE) if (text(v[col]) === name) return rank;
  return rankFromName(name);
}

/** Lineage and ids of a LOTUS export row (`NA` = absent); the Wikidata id from `organism_wikidata`. */
export function lotusExportTaxonomy(v: Record<string, string>): OrganismTaxonomy {
  const t: OrganismTaxonomy = {};
  for (const [col, rank] of LINEAGE) t[rank as keyof OrganismTaxonomy] = text(v[col]) as never;
  t.ncbi_id = taxonId(v.organism_taxonomy_ncbiid);
  t.gbif_id = taxonId(v.organism_taxonomy_gbifid);
  t.ott_id = taxonId(v.organism_taxonomy_ottid);
  t.wikidata_id = wikidataId(text(v.organism_wikidata));
  return t;
}

/** Every LOTUS export row comes from LOTUS (the export names no source database). */
export const LOTUS_COLLECTION: CollectionSeed = {
  title: 'LOTUS',
  identifier: 'lotus',
  url: 'https://lotus.naturalproducts.net',
  description: 'LOTUS natural products occurrence database (structure-organism-reference triplets, CC0), doi:10.5281/zenodo.5794106',
};

export const lotusExport: RowMapper = (v) => {
  const smiles = text(v.structure_smiles) ?? text(v.structure_smiles_2D);
  const orgName = text(v.organism_name);
  const doi = normalizeDoi(v.reference_doi);
  return {
    ...(smiles
      ? {
          molecule: {
            canonical_smiles: smiles,
            name: text(v.structure_nameTraditional),
            iupac_name: text(v.structure_nameIupac),
            ...(text(v.structure_inchikey) ? { standard_inchi_key: text(v.structure_inchikey)! } : {}),
            ...(text(v.structure_inchi) ? { standard_inchi: text(v.structure_inchi)! } : {}),
          },
        }
      : { problem: 'no structure (structure_smiles is empty)' }),
    ...(orgName ? { organism: { name: orgName, iri: text(v.organism_wikidata), rank: lotusExportRank(v, orgName), taxonomy: lotusExportTaxonomy(v) } } : {}),
    ...(doi ? { citation: { doi, title: null, authors: null, citation_text: null } } : {}),
    collection: LOTUS_COLLECTION,
  };
};

// --- lotus_manually_validated_413.tsv --------------------------------------------------------

export const isLotusValidated = (h: string[]) => has(h, 'structureCleanedSmiles', 'organismCleaned', 'referenceCleanedDoi');

/** Taxon page of an id in the taxonomy authority LOTUS resolved the name with. */
const AUTHORITY_IRI: Record<string, (id: string) => string> = {
  NCBI: (id) => `https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=${id}`,
  ITIS: (id) => `https://www.itis.gov/servlet/SingleRpt/SingleRpt?search_topic=TSN&search_value=${id}`,
  'GBIF Backbone Taxonomy': (id) => `https://www.gbif.org/species/${id}`,
  'World Register of Marine Species': (id) => `https://www.marinespecies.org/aphia.php?p=taxdetails&id=${id}`,
  'The Interim Register of Marine and Nonmarine Genera': (id) => `https://www.irmng.org/aphia.php?p=taxdetails&id=${id}`,
  'Index Fungorum': (id) => `https://www.indexfungorum.org/names/NamesRecord.asp?RecordID=${id}`,
  'Database of Vascular Plants of Canada (VASCAN)': (id) => `https://data.canadensys.net/vascan/taxon/${id}`,
};

/**
 * Lineage field ← the authority's rank names (lower-cased), first present wins: NCBI says
 * superkingdom for the domain, ITIS says division for a plant phylum.
 */
const VALIDATED_RANKS: [keyof OrganismTaxonomy, string[]][] = [
  ['domain', ['domain', 'superkingdom']],
  ['kingdom', ['kingdom']],
  ['phylum', ['phylum', 'division']],
  ['class', ['class']],
  ['order', ['order']],
  ['family', ['family']],
  ['tribe', ['tribe']],
  ['genus', ['genus']],
  ['species', ['species']],
  ['variety', ['variety', 'varietas']],
];

/** The authority's id of the organism, as the id field its authority fills (NCBI, GBIF). */
const AUTHORITY_ID: Record<string, 'ncbi_id' | 'gbif_id'> = { NCBI: 'ncbi_id', 'GBIF Backbone Taxonomy': 'gbif_id' };

/**
 * Rank, IRI and lineage from the `|`-separated parallel lists of taxa, ranks and ids that the
 * taxonomy authority gave; the rank and IRI at the position of the name itself.
 */
export function validatedOrganism(v: Record<string, string>): OrganismSeed | undefined {
  const name = text(v.organismCleaned);
  if (!name) return undefined;
  const taxa = (v.organismCleaned_dbTaxoTaxonomy ?? '').split('|');
  const ranks = (v.organismCleaned_dbTaxoTaxonRanks ?? '').split('|').map((r) => r.trim().toLowerCase());
  const ids = (v.organismCleaned_dbTaxoTaxonIds ?? '').split('|');
  const at = taxa.lastIndexOf(name);
  const rank = at >= 0 ? text(ranks[at]) ?? null : rankFromName(name);
  const id = at >= 0 ? text(ids[at]) : null;
  const authority = text(v.organismCleaned_dbTaxo) ?? '';
  const iriOf = AUTHORITY_IRI[authority];
  const taxonomy: OrganismTaxonomy = {};
  for (const [field, names] of VALIDATED_RANKS) {
    const k = names.map((n) => ranks.indexOf(n)).find((i) => i >= 0);
    taxonomy[field] = (k === undefined ? null : text(taxa[k])) as never;
  }
  if (AUTHORITY_ID[authority]) taxonomy[AUTHORITY_ID[authority]] = taxonId(id ?? undefined);
  return { name, rank, iri: id && iriOf ? iriOf(id) : null, taxonomy };
}

/** "Surname (1980). Title. Journal. https://doi.org/..." from whatever parts are present. */
export function validatedCitation(v: Record<string, string>): CitationSeed | undefined {
  const doi = normalizeDoi(v.referenceCleanedDoi);
  const title = text(v.referenceCleanedTitle);
  if (!doi && !title) return undefined;
  const author = text(v.referenceCleaned_author);
  const year = text(v.referenceCleaned_date)?.slice(0, 4) ?? null;
  const journal = text(v.referenceCleaned_journal);
  const head = [author, year ? `(${year})` : null].filter(Boolean).join(' ');
  const parts = [head, title, journal, doi ? `https://doi.org/${doi}` : null].filter((p): p is string => !!p);
  return { doi, title, authors: author, citation_text: parts.map((p) => p.replace(/\.$/, '')).join('. ') };
}

export function lotusValidated(sources: Map<string, CollectionSeed>): RowMapper {
  return (v) => {
    const smiles = text(v.structureCleanedSmiles);
    const db = text(v.database_name);
    const organism = validatedOrganism(v);
    const citation = validatedCitation(v);
    return {
      ...(smiles
        ? {
            molecule: {
              canonical_smiles: smiles,
              name: text(v.structureCleaned_nameTraditional),
              iupac_name: text(v.structureCleaned_nameIupac),
              ...(text(v.structureCleanedInchikey3D) ? { standard_inchi_key: text(v.structureCleanedInchikey3D)! } : {}),
              ...(text(v.structureCleanedInchi) ? { standard_inchi: text(v.structureCleanedInchi)! } : {}),
            },
          }
        : { problem: 'no structure (structureCleanedSmiles is empty)' }),
      ...(organism ? { organism } : {}),
      ...(citation ? { citation } : {}),
      // A source missing from the source table keeps its LOTUS name as the title.
      ...(db ? { collection: sources.get(db) ?? { title: db, identifier: db, url: null, description: null } } : {}),
    };
  };
}

// --- lotus_source_databases.csv and coconut_collections.csv (collections only) --------------

export const isLotusSources = (h: string[]) => has(h, 'identifier', 'title', 'legacy_code', 'website_url');

export function lotusSourceCollection(v: Record<string, string>): CollectionSeed | undefined {
  const title = text(v.title);
  if (!title) return undefined;
  const facts = [text(v.type), text(v.status), text(v.license_status)?.replace(/^license_/, 'licence ')].filter(Boolean);
  return {
    title,
    identifier: text(v.identifier),
    url: text(v.website_url) ?? text(v.article_url),
    description: `LOTUS source database${facts.length ? ` (${facts.join(', ')})` : ''}`,
  };
}

export const lotusSources: RowMapper = (v) => {
  const collection = lotusSourceCollection(v);
  return collection ? { collection } : { problem: 'no title' };
};

export const isCoconutCollections = (h: string[]) => has(h, 'coconut_collection_id', 'title');

export const coconutCollections: RowMapper = (v) => {
  const title = text(v.title);
  if (!title) return { problem: 'no title' };
  return {
    collection: {
      title,
      identifier: text(v.coconut_collection_id) ? `coconut:${text(v.coconut_collection_id)}` : null,
      url: null,
      description: 'COCONUT collection (COCONUT, https://coconut.naturalproducts.net, data CC BY 4.0)',
    },
  };
};
