/**
 * natprod's own dumps read back (docs/catalog.md, Dumps): `molecules-full.csv` (every molecule
 * and property field, then the provenance columns `organisms`, `organism_ncbi_ids`,
 * `citation_dois`, `collections`) and `molecules-2d.sdf` (the default fields and the provenance
 * columns as SD items). Values as the export writes them (api/catalog/export/format.ts): lists
 * joined with `; `, provenance joined with `|`, booleans `true`/`false`, a text cell that starts
 * with `=`, `+`, `-`, `@`, TAB or CR prefixed with `'` (formula injection defused; the `'` is dropped here).
 *
 * The identifiers are kept (authority `file`: kept when free, a clash rejects the row), so a dump
 * imported into an empty catalog gives the same molecules, links, classes and properties.
 */
import { rankFromName } from './lotus.ts';
import { CLASS_COLUMNS, COCONUT_ID, LIST_COLUMNS, PROPERTY_COLUMNS, type PropertyValue } from './coconut.ts';
import type { CitationSeed, CollectionSeed, MoleculeSeed, OrganismSeed, RowMapper } from './types.ts';
import { normalizeDoi, taxonId, text } from './types.ts';
import type { DerivedMolecule } from '../../../shared/chem/catalog/ports.ts';

/** The dump's columns that say a file is one (full CSV or 2D SDF). */
export const isNatprodDump = (h: string[]) => ['identifier', 'canonical_smiles', 'organisms', 'organism_ncbi_ids', 'citation_dois', 'collections'].every((c) => h.includes(c));

/** A cell as written, without the `'` that defused a formula. */
function cell(v: string | undefined): string | null {
  const t = text(v);
  return t && /^'[=+\-@\t\r]/.test(t) ? t.slice(1) : t;
}

const list = (v: string | undefined) => (cell(v)?.split('; ').map((s) => s.trim()).filter(Boolean) ?? []);
const piped = (v: string | undefined) => (cell(v) === null ? [] : cell(v)!.split('|'));

const NUMBER = /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i;

function property(col: string, v: string | undefined): PropertyValue {
  const t = cell(v);
  if (t === null) return null;
  if (LIST_COLUMNS.has(col)) return list(v);
  if (t === 'true' || t === 'false') return t === 'true';
  if (CLASS_COLUMNS.has(col) || col === 'molecular_formula' || col === 'murcko_framework') return t;
  return NUMBER.test(t) ? Number(t) : t;
}

/** The molecule columns of a derivation; with every property column, a full dump's row carries a whole one. */
const DERIVED_COLUMNS = ['standard_inchi', 'standard_inchi_key', 'canonical_smiles', 'sugar_free_smiles', 'has_stereo', 'murko_framework'];

/**
 * The row's own derivation when the file has every column of one (`molecules-full.csv`) and the
 * row fills the identity cells: the importer takes it instead of deriving again, checking a sample
 * (carried.ts). A row without them (a lite file, an SD file, an empty cell) is derived as any other.
 */
function carriedDerivation(v: Record<string, string>, smiles: string, properties: Record<string, PropertyValue>): DerivedMolecule | undefined {
  if (!DERIVED_COLUMNS.every((c) => c in v) || !PROPERTY_COLUMNS.every((c) => c in v || `properties.${c}` in v)) return undefined;
  const inchi = cell(v.standard_inchi);
  const key = cell(v.standard_inchi_key);
  const stereo = cell(v.has_stereo);
  if (!inchi || !key || (stereo !== 'true' && stereo !== 'false') || smiles.includes('M  END')) return undefined;
  return {
    standard_inchi: inchi,
    standard_inchi_key: key,
    canonical_smiles: smiles,
    sugar_free_smiles: cell(v.sugar_free_smiles),
    has_stereo: stereo === 'true',
    murcko_framework: cell(v.murko_framework),
    properties: Object.fromEntries(PROPERTY_COLUMNS.map((c) => [c, properties[c] ?? null])) as unknown as DerivedMolecule['properties'],
  };
}

export const natprodDumpRow: RowMapper = (v) => {
  const smiles = cell(v.canonical_smiles) ?? (v.molblock?.includes('M  END') ? v.molblock : null);
  if (!smiles) return { problem: 'no structure' };
  const identifier = cell(v.identifier);
  const properties: Record<string, PropertyValue> = {};
  for (const c of PROPERTY_COLUMNS) {
    const col = c in v ? c : `properties.${c}` in v ? `properties.${c}` : undefined;
    if (col === undefined) continue;
    const p = property(c, v[col]);
    if (p !== null) properties[c] = p;
  }
  const carried = carriedDerivation(v, smiles, properties);
  const molecule: MoleculeSeed = {
    canonical_smiles: smiles,
    name: cell(v.name),
    iupac_name: cell(v.iupac_name),
    ...(identifier && COCONUT_ID.test(identifier) ? { identifier } : {}),
    ...(cell(v.standard_inchi_key) ? { standard_inchi_key: cell(v.standard_inchi_key)! } : {}),
    ...('cas' in v ? { cas: list(v.cas) } : {}),
    ...('synonyms' in v ? { synonyms: list(v.synonyms) } : {}),
    ...(Object.keys(properties).length ? { properties } : {}),
    ...(carried ? { carried } : {}),
  };
  const ncbi = piped(v.organism_ncbi_ids);
  const organisms: OrganismSeed[] = piped(v.organisms).map((name, i) => ({
    name, iri: null, rank: rankFromName(name), ...(taxonId(ncbi[i]) ? { taxonomy: { ncbi_id: taxonId(ncbi[i]) } } : {}),
  })).filter((o) => o.name);
  const citations: CitationSeed[] = piped(v.citation_dois).map((d) => ({ doi: normalizeDoi(d), title: null, authors: null, citation_text: null })).filter((c) => c.doi);
  const collections: CollectionSeed[] = piped(v.collections).filter(Boolean).map((title) => ({ title, identifier: null, url: null, description: null }));
  return { molecule, organisms, citations, collections, authority: 'file' };
};
