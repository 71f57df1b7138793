/**
 * The keys of COCONUT's filter language (`type: "filters"`) and where natprod finds their data.
 *
 * Source: the filter map of COCONUT (Steinbeck-Lab/coconut, `getFilterMap()` in app/Helper.php,
 * MIT licence; snapshot 5563dbd, 2026-06-22), key → COCONUT's `properties` column, and the key
 * list of its API documentation (app/Providers/RestDocumentationServiceProvider.php). The table
 * below is natprod's own: COCONUT's key and column names, natprod's field for each, and how its
 * values are read. Where COCONUT's column does not exist (`ro5v`, `org`, `cite`: its query then
 * fails with a database error), natprod maps the key onto the data the key is named for; keys
 * whose data natprod does not keep (`fragments`, `fws`) are refused with a 422 that says so.
 */

/**
 * How a key's value is read:
 * - `number`: a range `a..b` (either end may be left open) or one number;
 * - `boolean`: `true` or `false`;
 * - `class`: text matched, ignoring case, spaces, `+`, `-`, `_` and punctuation, anywhere in the
 *   field's value (COCONUT's `ILIKE '%value%'` on its hyphenated class names);
 * - `formula`: one molecular formula, equal after normalisation (formula.ts);
 * - `collections`: `+`-joined source names, every one required (a collection's title or identifier);
 * - `organisms` / `citations`: text found in an organism's name, a citation's DOI or title.
 */
export type FilterKind = 'number' | 'boolean' | 'class' | 'formula' | 'collections' | 'organisms' | 'citations';

export interface FilterKey {
  /** COCONUT's column name for the key (as its map spells it). */
  coconut: string;
  kind: FilterKind;
  /** natprod's stored field (molecules; `properties.` for the properties record). */
  field?: string;
  /** Set when natprod keeps no data for the key: the 422's reason. */
  unsupported?: string;
}

const p = (coconut: string, kind: FilterKind, field = coconut): FilterKey => ({ coconut, kind, field: `properties.${field}` });

export const FILTER_KEYS: Readonly<Record<string, FilterKey>> = {
  mf: p('molecular_formula', 'formula'),
  mw: p('molecular_weight', 'number'),
  emw: p('exact_molecular_weight', 'number'),
  hac: p('heavy_atom_count', 'number'),
  tac: p('total_atom_count', 'number'),
  arc: p('aromatic_rings_count', 'number'),
  rbc: p('rotatable_bond_count', 'number'),
  mrc: p('number_of_minimal_rings', 'number'),
  fc: p('formal_charge', 'number'),
  cs: p('contains_sugar', 'boolean'),
  crs: p('contains_ring_sugars', 'boolean'),
  cls: p('contains_linear_sugars', 'boolean'),
  np: p('np_likeness', 'number'),
  qed: p('qed_drug_likeliness', 'number'),
  alogp: p('alogp', 'number'),
  topopsa: p('topological_polar_surface_area', 'number'),
  fcsp3: p('fractioncsp3', 'number'),
  fragments: { coconut: 'fragments', kind: 'class', unsupported: 'natprod keeps no fragment lists of molecules' },
  fws: { coconut: 'fragments_with_sugar', kind: 'class', unsupported: 'natprod keeps no fragment lists of molecules' },
  hba: p('hydrogen_bond_acceptors', 'number'),
  hbd: p('hydrogen_bond_donors', 'number'),
  // COCONUT names a column it does not have; the one rule-of-five count there is is this one.
  ro5v: p('rule_of_5_violations', 'number', 'lipinski_rule_of_five_violations'),
  lhba: p('hydrogen_bond_acceptors_lipinski', 'number'),
  lhbd: p('hydrogen_bond_donors_lipinski', 'number'),
  lro5v: p('lipinski_rule_of_five_violations', 'number'),
  vdwv: p('van_der_walls_volume', 'number'),
  ds: { coconut: 'found_in_databases', kind: 'collections', field: 'collection_ids' },
  class: p('chemical_class', 'class'),
  subclass: p('chemical_sub_class', 'class'),
  superclass: p('chemical_super_class', 'class'),
  parent: p('direct_parent_classification', 'class'),
  np_class: p('np_classifier_class', 'class'),
  np_superclass: p('np_classifier_superclass', 'class'),
  np_pathway: p('np_classifier_pathway', 'class'),
  np_glycoside: p('np_classifier_is_glycoside', 'boolean'),
  // COCONUT's map names columns that do not exist (`organism`, `ciatation`): natprod reads the links.
  org: { coconut: 'organism', kind: 'organisms', field: 'organism_ids' },
  cite: { coconut: 'ciatation', kind: 'citations', field: 'citation_ids' },
};
