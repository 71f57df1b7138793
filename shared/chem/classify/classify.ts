/**
 * Offline, rule-based compound classification: a ChemOnt-style hierarchy (kingdom, superclass,
 * class, subclass, direct parent, alternative parents; the vocabulary and identifiers of ChemOnt,
 * Djoumbou Feunang et al., J Cheminform 2016, 8:61) and an NPClassifier-style biosynthetic
 * classification (pathway, superclass, class, glycoside flag; the vocabulary of NPClassifier,
 * Kim et al., J Nat Prod 2021, 84:2795). Neither tool is run: each class is decided by the
 * readable rule in data/chemclass-rules.json (SMARTS, ring and skeleton conditions), explained in
 * docs/chemclass.md. The answer has the shape of a ClassyFire entity plus an `npclassifier` part.
 */
import rulesJson from '../data/chemclass-rules.json' with { type: 'json' };
import { canonicalKekule, inchikey } from '../convert/convert.ts';
import { ScopeFeatures, type SugarFacts } from './features.ts';
import { RuleEvaluator } from './rules.ts';
import { ChemontTree, NpDecision, type ChemontResult, type NpResult } from './tree.ts';
import { checkRuleSet, type RuleSet } from './types.ts';
import { withMol, type Mol, type RDKit } from '../core/rdkit.ts';
import { MolView } from '../core/mol-view.ts';
import { readGraph } from '../sugars/graph.ts';
import { removeSugars, removeSugarsInMol, sugarMolecule } from '../sugars/sugars.ts';

export const RULES = rulesJson as unknown as RuleSet;

export interface NpClassification extends NpResult {
  is_glycoside: boolean;
}

export interface ChemclassEntity extends ChemontResult {
  identifier: string;
  smiles: string;
  inchikey: string | null;
  molecular_framework: string;
  substituents: string[];
  description: string;
  external_descriptors: never[];
  predicted_chebi_terms: never[];
  predicted_lipidmaps_terms: never[];
  classification_version: string;
  npclassifier: NpClassification;
}

interface Compiled {
  rules: RuleSet;
  chemont: ChemontTree;
  np: NpDecision;
}

const compiledSets = new WeakMap<RuleSet, Compiled>();

function compile(rules: RuleSet): Compiled {
  let c = compiledSets.get(rules);
  if (!c) {
    const problems = checkRuleSet(rules);
    if (problems.length) throw new Error(`classification rule set is inconsistent: ${problems.join('; ')}`);
    c = { rules, chemont: new ChemontTree(rules.chemont), np: new NpDecision(rules.npclassifier) };
    compiledSets.set(rules, c);
  }
  return c;
}

/** ClassyFire's framework label from ring aromaticity and ring heteroatoms. */
function framework(f: ScopeFeatures): string {
  const rings = f.prop('rings');
  if (rings === 0) return 'Aliphatic acyclic compounds';
  const kind = f.prop('aromatic_rings') > 0 ? 'Aromatic' : 'Aliphatic';
  const hetero = f.prop('hetero_rings') > 0 ? 'hetero' : 'homo';
  const cyclic = rings > 1 ? 'polycyclic' : 'monocyclic';
  return `${kind} ${hetero}${cyclic} compounds`;
}

function sentence(r: ChemontResult): string {
  const dp = r.direct_parent;
  if (!dp) return 'No class of the rule set applies to this compound.';
  const what = r.kingdom?.name === 'Inorganic compounds' ? 'inorganic compounds' : 'organic compounds';
  const def = dp.description.charAt(0).toLowerCase() + dp.description.slice(1);
  return `This compound belongs to the class of ${what} known as ${dp.name.toLowerCase()}. These are ${def}`;
}

/**
 * What a caller already knows or does not need (the catalog's derivation): `circularSugars: false`
 * when the Sugar Removal Utility's default detection found no circular sugar in the molecule, which
 * skips the removal (about half the cost); `lean` leaves out the InChIKey (null), the SMILES ('')
 * and the substituents (empty), which cost SMARTS matches and an InChI the catalog has already;
 * `view`, the molecule's view (its MolView), shares the parsed JSON, the sugar analysis and the
 * SMARTS screen with the caller's other pieces, and the circular sugars are then cut from the
 * molecule itself rather than from its SMILES read again (the same atoms go; the aglycone's
 * SMILES may differ in stereo labels only, which no classification pattern reads).
 */
export interface ClassifyHints {
  circularSugars?: boolean;
  lean?: boolean;
  view?: MolView;
}

function classifyWith(
  rdkit: RDKit, c: Compiled, mol: Mol, aglycone: Mol | null, sugar: SugarFacts, smiles: string, lean = false, view?: MolView,
): ChemclassEntity {
  const molecule = new ScopeFeatures(rdkit, mol, readGraph(mol, view?.json), c.rules.patterns, sugar, view);
  const aglyView = aglycone && view ? new MolView(rdkit, aglycone) : undefined;
  const agly = aglycone ? new ScopeFeatures(rdkit, aglycone, readGraph(aglycone, aglyView?.json), c.rules.patterns, sugar, aglyView) : molecule;
  const ev = new RuleEvaluator({ molecule, aglycone: agly }, c.rules.conditions);
  const tax = c.chemont.classify(ev);
  const np = c.np.classify(ev);
  const substituents = lean ? [] : Object.entries(c.rules.patterns)
    .filter(([name, p]) => p.substituent && molecule.count(name) > 0)
    .map(([, p]) => p.substituent!);
  return {
    identifier: '',
    smiles,
    inchikey: lean ? null : inchikey(rdkit, mol),
    ...tax,
    molecular_framework: framework(molecule),
    substituents: [...new Set(substituents)].sort((a, b) => a.localeCompare(b)),
    description: sentence(tax),
    external_descriptors: [],
    predicted_chebi_terms: [],
    predicted_lipidmaps_terms: [],
    classification_version: `natprod chemclass rules ${c.rules.version}`,
    npclassifier: { ...np, is_glycoside: sugar.sugarRings > 0 && !sugar.sugarOnly },
  };
}

/**
 * Classify one structure (SMILES or molblock). Bad input throws the usual 422 AppError naming it.
 * `smiles` in the answer is the RDKit canonical Kekulé SMILES.
 */
export function classifyStructure(rdkit: RDKit, input: string, rules: RuleSet = RULES): ChemclassEntity {
  return withMol(rdkit, input, (mol) => classifyMol(rdkit, mol, rules));
}

/** Classify a parsed molecule (the caller keeps and deletes it: the catalog's derivation). */
export function classifyMol(rdkit: RDKit, mol: Mol, rules: RuleSet = RULES, hints: ClassifyHints = {}): ChemclassEntity {
  const c = compile(rules);
  const lean = hints.lean ?? false;
  const view = hints.view?.mol === mol ? hints.view : undefined;
  const smiles = lean && view ? '' : canonicalKekule(mol);
  // Circular sugars only: linear sugar patterns also match polyol stretches of terpenoids
  // and fatty acids, which must stay part of the aglycone.
  const removal = hints.circularSugars === false
    ? { found: false, smiles: '' }
    : view ? removeSugarsInMol(rdkit, mol, sugarMolecule(rdkit, mol, view), 'circular') : removeSugars(rdkit, smiles, 'circular');
  const ringCount = (m: Mol) => (m === mol && view ? view.json : readGraph(m)).rings.length;
  if (!removal.found) {
    return classifyWith(rdkit, c, mol, null, { sugarRings: 0, sugarOnly: false, aglyconeHeavy: mol.get_num_atoms(true) }, smiles, lean, view);
  }
  if (removal.smiles === '') {
    const sugar = { sugarRings: ringCount(mol), sugarOnly: true, aglyconeHeavy: 0 };
    return classifyWith(rdkit, c, mol, null, sugar, smiles, lean, view);
  }
  return withMol(rdkit, removal.smiles, (agly) => {
    const sugar = {
      sugarRings: Math.max(0, ringCount(mol) - ringCount(agly)),
      sugarOnly: false,
      aglyconeHeavy: agly.get_num_atoms(true),
    };
    return classifyWith(rdkit, c, mol, agly, sugar, smiles, lean, view);
  });
}
