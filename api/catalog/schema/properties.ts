/**
 * Properties: COCONUT's `PropertiesResource`, one record per molecule, embedded in the molecule
 * document (`properties`, with its own `id`, given once by `setProperties`) and written through the
 * molecule. `/api/properties` reads them (detail, search); its `molecule_id` is the containing
 * molecule's `id` (`outer`: never stored, so it cannot disagree with the document it lives in). Every path under
 * it is an embedded-store lookup column (embedded-columns.ts); `index` below adds nedb and MongoDB
 * indexes for the selective ones COCONUT's `/api/search` filters on.
 */
import { defineSchema } from './define.ts';

const m = { mongo: 'index' } as const;

export const propertiesSchema = defineSchema({
  name: 'properties',
  collection: null,
  className: 'PropertiesResource',
  doc: 'Computed properties of a molecule (embedded in it): `/api/properties` reads them (detail, search); writes go through the molecule.',
  readOnlyRoute: true,
  fields: {
    id: { type: 'int', doc: 'Its own key, given once.' },
    molecule_id: { type: 'int', outer: 'id', doc: 'The molecule it belongs to (the containing molecule\'s `id`; not stored).' },
    total_atom_count: { type: 'int', index: m, doc: 'Atoms, hydrogens included.' },
    heavy_atom_count: { type: 'int', index: m, doc: 'Non-hydrogen atoms.' },
    molecular_weight: { type: 'number', index: true, export: 7, doc: 'Average molecular weight.' },
    exact_molecular_weight: { type: 'number', index: m, doc: 'Monoisotopic mass.' },
    molecular_formula: { type: 'string', index: true, export: 6, doc: 'Hill formula.' },
    alogp: { type: 'decimal', index: m, doc: 'Crippen logP.' },
    topological_polar_surface_area: { type: 'decimal', index: m, doc: 'TPSA.' },
    rotatable_bond_count: { type: 'int', doc: 'Rotatable bonds.' },
    hydrogen_bond_acceptors: { type: 'int', doc: 'H-bond acceptors.' },
    hydrogen_bond_donors: { type: 'int', doc: 'H-bond donors.' },
    hydrogen_bond_acceptors_lipinski: { type: 'int', doc: 'Lipinski acceptors (N + O).' },
    hydrogen_bond_donors_lipinski: { type: 'int', doc: 'Lipinski donors (NH + OH).' },
    lipinski_rule_of_five_violations: { type: 'int', doc: 'Rule-of-five violations.' },
    aromatic_rings_count: { type: 'int', doc: 'Aromatic rings.' },
    qed_drug_likeliness: { type: 'decimal', index: m, doc: 'QED.' },
    formal_charge: { type: 'int', doc: 'Net formal charge.' },
    fractioncsp3: { type: 'decimal', doc: 'Fraction of sp3 carbons.' },
    number_of_minimal_rings: { type: 'int', doc: 'Smallest set of smallest rings.' },
    van_der_walls_volume: { type: 'decimal', index: m, doc: 'Van der Waals volume (Zhao et al. 2003).' },
    contains_sugar: { type: 'bool', doc: 'Ring or linear sugars.' },
    contains_ring_sugars: { type: 'bool', doc: 'Ring sugars.' },
    contains_linear_sugars: { type: 'bool', doc: 'Linear sugars.' },
    murcko_framework: { type: 'string', sameAs: 'murcko_framework', doc: 'Murcko framework.' },
    np_likeness: { type: 'decimal', index: m, doc: 'NP-likeness score.' },
    chemical_class: { type: 'string', index: m, repeats: true, doc: 'ClassyFire-style class (derived: natprod\'s classifier).' },
    chemical_sub_class: { type: 'string', index: m, repeats: true, doc: 'ClassyFire-style subclass (derived).' },
    chemical_super_class: { type: 'string', index: m, repeats: true, doc: 'ClassyFire-style superclass (derived).' },
    direct_parent_classification: { type: 'string', index: m, repeats: true, doc: 'ClassyFire-style direct parent (derived).' },
    np_classifier_pathway: { type: 'string[]', index: m, repeats: true, doc: 'NPClassifier pathways, every label (COCONUT\'s array; derived; a stored string reads as a one-element list).' },
    np_classifier_superclass: { type: 'string[]', index: m, repeats: true, doc: 'NPClassifier superclasses, every label (array; derived).' },
    np_classifier_class: { type: 'string[]', index: m, repeats: true, doc: 'NPClassifier classes, every label (array; derived).' },
    np_classifier_is_glycoside: { type: 'bool', doc: 'NPClassifier-style glycoside flag (derived).' },
  },
});
