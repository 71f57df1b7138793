/**
 * COCONUT's monthly downloads, as its export writes them (Steinbeck-Lab/coconut, branch
 * development, `resources/scripts/python/exports/`: `query_with_collection.sql`,
 * `query_without_collection.sql`, `generate_exports.py`):
 *
 * - `coconut_csv-MM-YYYY.csv` (full): `FULL_COLUMNS`, Python's `csv.writer` over psycopg2 values:
 *   NULL empty, booleans `True`/`False`, floats as Python prints them, `organisms` (distinct names),
 *   `collections` (titles), `dois`, `synonyms` and `cas` joined with `|`, each sorted;
 * - `coconut_csv_lite-MM-YYYY.csv`: `LITE_COLUMNS` (COCONUT's own numeric `id` and `annotation_level`);
 * - `coconut_sdf_2d-MM-YYYY.sdf`: RDKit's SDWriter, one record per full-CSV row whose SMILES RDKit
 *   reads, every full column as a data item, a missing value written `nan` (pandas read the CSV
 *   with `dtype=str`); `coconut_sdf_2d_lite-MM-YYYY.sdf`: only the `identifier` item;
 * - each zipped alone (`.zip`, ZIP_DEFLATED).
 *
 * Only active molecules with an identifier are exported, parents with stereo variants left out.
 */
import { rankFromName } from './lotus.ts';
import type { CitationSeed, CollectionSeed, MoleculeSeed, OrganismSeed, RowMapper } from './types.ts';
import { normalizeDoi, text } from './types.ts';

/** Descriptor and class columns, in the order of the export's SELECT. */
export const PROPERTY_COLUMNS = [
  'total_atom_count', 'heavy_atom_count', 'molecular_weight', 'exact_molecular_weight', 'molecular_formula',
  'alogp', 'topological_polar_surface_area', 'rotatable_bond_count', 'hydrogen_bond_acceptors', 'hydrogen_bond_donors',
  'hydrogen_bond_acceptors_lipinski', 'hydrogen_bond_donors_lipinski', 'lipinski_rule_of_five_violations',
  'aromatic_rings_count', 'qed_drug_likeliness', 'formal_charge', 'fractioncsp3', 'number_of_minimal_rings',
  'van_der_walls_volume', 'contains_sugar', 'contains_ring_sugars', 'contains_linear_sugars', 'murcko_framework',
  'np_likeness', 'chemical_class', 'chemical_sub_class', 'chemical_super_class', 'direct_parent_classification',
  'np_classifier_pathway', 'np_classifier_superclass', 'np_classifier_class', 'np_classifier_is_glycoside',
] as const;

const MOLECULE_COLUMNS = ['identifier', 'canonical_smiles', 'standard_inchi', 'standard_inchi_key', 'name', 'iupac_name'];

/** `coconut_csv` (query_with_collection.sql). */
export const FULL_COLUMNS = [...MOLECULE_COLUMNS, ...PROPERTY_COLUMNS, 'organisms', 'collections', 'dois', 'synonyms', 'cas'];
/** `coconut_csv_lite` (query_without_collection.sql: `SELECT *` of its first CTE). */
export const LITE_COLUMNS = ['id', ...MOLECULE_COLUMNS, 'annotation_level', ...PROPERTY_COLUMNS];

/**
 * The class columns: COCONUT's ClassyFire and NPClassifier results. natprod derives its own
 * (shared/chem/catalog/classes.ts); a label the file carries is taken over it (it is the published
 * classifiers' own output), an empty one leaves the derived label.
 */
export const CLASS_COLUMNS = new Set<string>([
  'chemical_class', 'chemical_sub_class', 'chemical_super_class', 'direct_parent_classification',
  'np_classifier_pathway', 'np_classifier_superclass', 'np_classifier_class', 'np_classifier_is_glycoside',
]);
const INTS = new Set<string>([
  'total_atom_count', 'heavy_atom_count', 'rotatable_bond_count', 'hydrogen_bond_acceptors', 'hydrogen_bond_donors',
  'hydrogen_bond_acceptors_lipinski', 'hydrogen_bond_donors_lipinski', 'lipinski_rule_of_five_violations',
  'aromatic_rings_count', 'formal_charge', 'number_of_minimal_rings',
]);
const BOOLS = new Set<string>(['contains_sugar', 'contains_ring_sugars', 'contains_linear_sugars', 'np_classifier_is_glycoside']);
/** NPClassifier's levels: lists in COCONUT (jsonb arrays since 2025, which Python's csv writes as `['A', 'B']`; plain text before). */
export const LIST_COLUMNS = new Set<string>(['np_classifier_pathway', 'np_classifier_superclass', 'np_classifier_class']);
const STRINGS = new Set<string>(['molecular_formula', 'murcko_framework', 'chemical_class', 'chemical_sub_class', 'chemical_super_class', 'direct_parent_classification']);

export type PropertyValue = string | number | boolean | string[] | null;

/** `['A', "B's"]` (a Python list as `str()` prints it) or `["A"]` (JSON) → its strings; anything else is one string. */
export function listValue(t: string): string[] {
  if (!t.startsWith('[')) return [t];
  const out: string[] = [];
  for (const m of t.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)) {
    const s = (m[1] ?? m[2]).replace(/\\(.)/g, '$1').trim();
    if (s) out.push(s);
  }
  return out;
}

/** COCONUT's identifiers: `CNP` + 7 digits, a parent of stereo variants `.0`, its variants `.1`, `.2` … */
export const COCONUT_ID = /^CNP\d{7}(\.\d+)?$/;

/** Every molecule of a COCONUT download is linked to this collection: it says where the row came from. */
export const COCONUT_COLLECTION: CollectionSeed = {
  title: 'COCONUT',
  identifier: 'coconut',
  url: 'https://coconut.naturalproducts.net',
  description: 'COCONUT download files (COlleCtion of Open Natural prodUcTs, https://coconut.naturalproducts.net, data CC BY 4.0)',
};

const same = (header: string[], cols: string[]) => header.length === cols.length && cols.every((c, i) => header[i] === c);
export const isCoconutFull = (h: string[]) => same(h, FULL_COLUMNS);
export const isCoconutLite = (h: string[]) => same(h, LITE_COLUMNS);
/** SD data items of `coconut_sdf_2d` (every full column) or its lite form (`identifier` only). */
export const isCoconutSdf = (keys: string[]) => same(keys, FULL_COLUMNS) || same(keys, ['identifier']);

/**
 * A header that looks like a COCONUT download (its identifier, structure and most descriptor
 * columns) but is neither layout: what differs, so that such a file is refused rather than read
 * by the generic mapping (which would ignore its identifiers). Undefined for any other header.
 */
export function coconutHeaderProblem(h: string[]): string | undefined {
  const props = PROPERTY_COLUMNS.filter((c) => h.includes(c)).length;
  if (!h.includes('identifier') || !h.includes('canonical_smiles') || props < PROPERTY_COLUMNS.length / 2) return undefined;
  if (h.includes('citation_dois') || h.includes('organism_ncbi_ids')) return undefined; // natprod's own dump
  const want = h.includes('annotation_level') || h[0] === 'id' ? LITE_COLUMNS : FULL_COLUMNS;
  const missing = want.filter((c) => !h.includes(c));
  const unknown = h.filter((c) => !want.includes(c));
  const order = !missing.length && !unknown.length ? ' (the columns are out of order)' : '';
  return `The header looks like COCONUT's ${want === LITE_COLUMNS ? 'coconut_csv_lite' : 'coconut_csv'} but is not its layout${order}: ${[
    missing.length ? `missing ${missing.join(', ')}` : '', unknown.length ? `unexpected ${unknown.join(', ')}` : '',
  ].filter(Boolean).join('; ')}. Nothing was imported.`;
}

/** A value as COCONUT wrote it: empty (CSV) or `nan` (SDF, pandas) is missing. */
function value(v: string | undefined): string | null {
  const t = text(v);
  return t === null || t === 'nan' || t === 'None' ? null : t;
}

/** `a|b|c` → its distinct non-empty parts, in order. */
export function joined(v: string | undefined): string[] {
  const t = value(v);
  return t ? [...new Set(t.split('|').map((s) => s.trim()).filter((s) => s && s !== 'nan'))] : [];
}

/** A property column's value typed as natprod stores it; `undefined` when it does not read as its type. */
export function propertyValue(col: string, v: string | undefined): PropertyValue | undefined {
  const t = value(v);
  if (t === null) return null;
  if (STRINGS.has(col)) return t;
  if (LIST_COLUMNS.has(col)) {
    const l = listValue(t);
    return l.length ? l : null;
  }
  if (BOOLS.has(col)) return t === 'True' || t === 'true' || t === 't' ? true : t === 'False' || t === 'false' || t === 'f' ? false : undefined;
  const n = Number(t);
  if (!Number.isFinite(n) || (INTS.has(col) && !Number.isInteger(n))) return undefined;
  return n;
}

/** One row of any COCONUT layout (csv full or lite, sdf full or lite). */
export const coconutRow: RowMapper = (v) => {
  // the molblock as it is: its first line (the title) may be empty
  const smiles = value(v.canonical_smiles) ?? (v.molblock?.includes('M  END') ? v.molblock : null);
  const identifier = value(v.identifier);
  if (!identifier) return { problem: 'no identifier (COCONUT\'s files give every molecule one)' };
  if (!COCONUT_ID.test(identifier)) return { problem: `identifier ${JSON.stringify(identifier)} is not COCONUT's (CNP + 7 digits, optionally .N)` };
  if (!smiles) return { problem: `${identifier}: no structure` };
  const properties: Record<string, PropertyValue> = {};
  const bad: string[] = [];
  for (const c of PROPERTY_COLUMNS) {
    if (!(c in v)) continue;
    const p = propertyValue(c, v[c]);
    if (p === undefined) bad.push(`${c}=${JSON.stringify(v[c])}`);
    else if (p !== null) properties[c] = p;
  }
  if (bad.length) return { problem: `${identifier}: unreadable values ${bad.join(', ')}` };
  const level = value(v.annotation_level);
  const molecule: MoleculeSeed = {
    canonical_smiles: smiles,
    name: value(v.name),
    iupac_name: value(v.iupac_name),
    identifier,
    ...(value(v.standard_inchi_key) ? { standard_inchi_key: value(v.standard_inchi_key)! } : {}),
    ...(value(v.standard_inchi) ? { standard_inchi: value(v.standard_inchi)! } : {}),
    ...('cas' in v ? { cas: joined(v.cas) } : {}),
    ...('synonyms' in v ? { synonyms: joined(v.synonyms) } : {}),
    ...(level !== null && /^\d+$/.test(level) ? { annotation_level: Number(level) } : {}),
    ...(Object.keys(properties).length ? { properties } : {}),
  };
  const organisms: OrganismSeed[] = joined(v.organisms).map((name) => ({ name, iri: null, rank: rankFromName(name) }));
  const citations: CitationSeed[] = joined(v.dois).map((d) => ({ doi: normalizeDoi(d), title: null, authors: null, citation_text: null }));
  const collections: CollectionSeed[] = [COCONUT_COLLECTION, ...joined(v.collections).map((title) => ({ title, identifier: null, url: null, description: null }))];
  return { molecule, organisms, citations: citations.filter((c) => c.doi), collections, authority: 'coconut' };
};

/** Whether a file's descriptor agrees with natprod's (numbers within COCONUT's 2-decimal rounding). */
function agrees(file: PropertyValue, derived: unknown): boolean {
  if (typeof file === 'number' && typeof derived === 'number') return Math.abs(file - derived) <= 0.011 + 1e-3 * Math.abs(derived);
  return JSON.stringify(file) === JSON.stringify(derived);
}

/**
 * The properties to store: natprod's derivation, with the file's value of each descriptor that
 * agrees with it (COCONUT's rounding kept) and the file's class columns (COCONUT runs ClassyFire
 * and NPClassifier themselves; natprod's rules approximate them). `differ` lists the descriptors
 * that disagree (`name: file … , derived …`), which keep the derived value.
 */
export function mergeProperties(derived: Record<string, unknown>, file: Record<string, PropertyValue>): { properties: Record<string, unknown>; differ: string[] } {
  const properties = { ...derived };
  const differ: string[] = [];
  for (const [k, v] of Object.entries(file)) {
    if (v === null || v === undefined || v === '' || (Array.isArray(v) && !v.length)) continue;
    if (CLASS_COLUMNS.has(k) || derived[k] === undefined || derived[k] === null || agrees(v, derived[k])) properties[k] = v;
    else differ.push(`${k}: file ${JSON.stringify(v)}, derived ${JSON.stringify(derived[k])}`);
  }
  return { properties, differ };
}

/** The COCONUT property columns a stored molecule has (none for a new one). */
export function storedProperties(doc: Record<string, unknown> | undefined): Record<string, PropertyValue> {
  const p = (doc?.properties ?? {}) as Record<string, PropertyValue>;
  return Object.fromEntries(PROPERTY_COLUMNS.filter((c) => p[c] !== undefined && p[c] !== null).map((c) => [c, p[c]]));
}
