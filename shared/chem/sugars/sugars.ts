/**
 * Sugar Removal Utility (Schaub, Zielesny, Steinbeck, Sorokina, J Cheminform 2020, 12:67) on
 * RDKit MinimalLib: detection of circular and linear sugar moieties and their removal. The
 * rules live in sugars-detect.ts / sugars-remove.ts; this module is the public face.
 *
 * `coconutSugarFlags` is what the COCONUT descriptors use for `linear_sugars` / `circular_sugars`,
 * and the catalog's derivation for its `contains_*sugars` properties.
 */
import patterns from '../data/sugar-patterns.json' with { type: 'json' };
import { AppError } from '../../errors.ts';
import { withMol, type Mol, type RDKit } from '../core/rdkit.ts';
import { MolView } from '../core/mol-view.ts';
import { matchPatterns } from './patterns.ts';
import { components, readGraph } from './graph.ts';
import type { PatternMatch, SugarMolecule } from './detect.ts';
import { withDefaults, type SugarOptions } from './options.ts';
import { SugarRemover, type SugarKind } from './remove.ts';
import { keptSmiles } from './write.ts';

export { DEFAULT_SUGAR_OPTIONS, type PreservationMode, type SugarOptions } from './options.ts';
export type { SugarKind } from './remove.ts';

export interface SugarPresence { hasLinear: boolean; hasCircular: boolean }

const HYDROGEN_MASS = 1.008;
const elementMass = new Map<number, number>();

function massOf(rdkit: RDKit, z: number): number {
  let m = elementMass.get(z);
  if (m === undefined) {
    m = z === 0 ? 0 : withMol(rdkit, `[#${z}]`, (x) => Number(JSON.parse(x.get_descriptors()).amw));
    elementMass.set(z, m);
  }
  return m;
}

/** The analysis of each view's molecule, so that pieces sharing a view share one (the catalog's derivation). */
const analysed = new WeakMap<MolView, SugarMolecule>();

export function sugarMolecule(rdkit: RDKit, mol: Mol, view?: MolView): SugarMolecule {
  if (!view || view.mol !== mol) return analyse(rdkit, mol, view ?? new MolView(rdkit, mol));
  let m = analysed.get(view);
  if (!m) {
    m = analyse(rdkit, mol, view);
    analysed.set(view, m);
  }
  return m;
}

function analyse(rdkit: RDKit, mol: Mol, view: MolView): SugarMolecule {
  const g = readGraph(mol, view.json);
  let acidic: PatternMatch[] | undefined;
  return {
    g,
    weights: g.atoms.map((a) => massOf(rdkit, a.z) + a.impHs * HYDROGEN_MASS),
    linear: matchPatterns(view, patterns.linearSugars),
    // Only read when acidic linear sugars are asked for (not by default): matched on first use.
    get acidic() {
      return (acidic ??= matchPatterns(view, patterns.linearAcidicSugars));
    },
  };
}

const allAtoms = (m: SugarMolecule) => new Set(m.g.atoms.map((_, i) => i));

/** Whether the molecule holds linear and/or circular sugar candidates (removable or not). */
export function detectSugars(rdkit: RDKit, smiles: string, options: Partial<SugarOptions> = {}): SugarPresence {
  return withMol(rdkit, smiles, (mol) => detectSugarsInMol(rdkit, mol, options));
}

/** Same on a molecule the caller already holds (it stays the caller's to delete). */
export function detectSugarsInMol(rdkit: RDKit, mol: Mol, options: Partial<SugarOptions> = {}, view?: MolView): SugarPresence {
  return presenceOf(new SugarRemover(sugarMolecule(rdkit, mol, view), withDefaults(options)));
}

/**
 * The sugar flags of the COCONUT descriptor set (`linear_sugars`, `circular_sugars`) and of the
 * catalog's properties (`contains_linear_sugars`, `contains_ring_sugars`): the Sugar Removal
 * Utility's detection with its default settings.
 */
export function coconutSugarFlags(rdkit: RDKit, mol: Mol, view?: MolView): { linear: boolean; circular: boolean } {
  const found = detectSugarsInMol(rdkit, mol, {}, view);
  return { linear: found.hasLinear, circular: found.hasCircular };
}

function presenceOf(r: SugarRemover): SugarPresence {
  const present = allAtoms(r.m);
  return { hasLinear: r.linear(present).length > 0, hasCircular: r.circular(present).length > 0 };
}

/** The sentence the original service answers for /tools/sugars-info. */
export function sugarInfoMessage(p: SugarPresence): string {
  if (p.hasLinear && p.hasCircular) return 'The molecule contains Linear and Circular sugars';
  if (p.hasLinear) return 'The molecule contains only Linear sugar';
  if (p.hasCircular) return 'The molecule contains only Circular sugar';
  return 'The molecule contains no sugar';
}

export interface RemovalResult {
  /** Whether sugars of the asked kind were detected (with `detectOptions`). */
  found: boolean;
  /** SMILES of what is left; `''` when nothing is left or nothing was found. */
  smiles: string;
}

/**
 * Detects sugars of `kind` with `detectOptions`, and when there are some removes them with
 * `options`. The original service tested presence before switching on the glycosidic-bond
 * requirement, hence the two option sets.
 */
export function removeSugars(
  rdkit: RDKit, smiles: string, kind: SugarKind,
  options: Partial<SugarOptions> = {}, detectOptions: Partial<SugarOptions> = options,
): RemovalResult {
  return withMol(rdkit, smiles, (mol) => removeSugarsInMol(rdkit, mol, sugarMolecule(rdkit, mol), kind, options, detectOptions));
}

/** Whether `removeSugars` with these detection options finds sugars of `kind` in the analysed molecule. */
export function sugarsFound(m: SugarMolecule, kind: SugarKind, detectOptions: Partial<SugarOptions> = {}): boolean {
  const p = presenceOf(new SugarRemover(m, withDefaults(detectOptions)));
  return kind === 'circular' ? p.hasCircular : kind === 'linear' ? p.hasLinear : p.hasCircular || p.hasLinear;
}

/** `removeSugars` on a molecule the caller holds (it stays the caller's), with its analysis `m` (sugarMolecule). */
export function removeSugarsInMol(
  rdkit: RDKit, mol: Mol, m: SugarMolecule, kind: SugarKind,
  options: Partial<SugarOptions> = {}, detectOptions: Partial<SugarOptions> = options,
): RemovalResult {
  const found = sugarsFound(m, kind, detectOptions);
  if (!found) return { found, smiles: '' };
  const opts = withDefaults(options);
  const present = allAtoms(m);
  if (opts.onlyTerminal && components(m.g, present).length > 1) {
    // The SRU refuses this combination with this message (sic: "atomcontainer").
    throw new AppError(422, 'Only terminal sugar moieties should be removed but the given atomcontainer already contains multiple unconnected structures.', 'invalid_input');
  }
  const kept = new SugarRemover(m, opts).remove(present, kind);
  return { found, smiles: keptSmiles(rdkit, mol, kept, opts.markAttachPoints, () => molblockOf(m, mol)) };
}

/** The V3000 molblock of an analysed molecule, written once (every removal on it reads the same drawing). */
const molblocks = new WeakMap<SugarMolecule, string>();

function molblockOf(m: SugarMolecule, mol: Mol): string {
  let block = molblocks.get(m);
  if (block === undefined) molblocks.set(m, (block = mol.get_v3Kmolblock()));
  return block;
}
