/**
 * 3D coordinates. MinimalLib has no embedding, so the geometry comes from openchemlib: its
 * ConformerGenerator (torsion-library driven, collision-free, E/Z and R/S honoured) with a
 * fixed seed, then its MMFF94s+ force field. RDKit stays the reader and the judge: the input is
 * parsed by RDKit (the same 422s as every other operation), handed over as a molblock, and each
 * candidate conformer is read back by RDKit and accepted only if it gives the input's isomeric
 * canonical SMILES, so a conformer with lost or inverted stereo is never returned.
 */
import { ConformerGenerator, ForceFieldMMFF94, Molecule, Resources } from 'openchemlib';
import { AppError } from '../../errors.ts';
import { withMol, type RDKit } from '../core/rdkit.ts';
import { assertEmbeddable } from '../../structure-limits.ts';

export { MAX_3D_HEAVY_ATOMS } from '../../structure-limits.ts';

/** Fixed seed: the same input gives the same coordinates on every run. */
const SEED = 20240531;
/** Conformers tried before giving up (each is checked for stereo and geometry). */
const ATTEMPTS = 3;
/** MMFF94 iterations per conformer: bounds the (uninterruptible) minimisation time. */
const MAX_ITERATIONS = 1000;
/**
 * Minimisation stops at a gradient of 1e-2 and an energy change of 1e-4 (openchemlib's defaults:
 * 1e-4 and 1e-6): the last iterations move atoms by thousandths of an ångström and cost most of
 * the time on large molecules. Measured on one conformer each (2026-11-28): a 64-atom saponin
 * 5.0 s → 2.9 s (energy 410.85 → 411.13 kcal/mol, bond lengths within 0.0022 Å), a C60 chain
 * 6.5 s → 3.1 s (same energy, bonds within 0.0001 Å), quercetin 55 → 43 ms (within 0.0003 Å).
 */
const MINIMISE = { maxIts: MAX_ITERATIONS, gradTol: 1e-2, funcTol: 1e-4 };

let resourcesReady = false;
function ensureResources(): void {
  // The MMFF94 tables and torsion library ship with openchemlib as resources.json.
  if (!resourcesReady) {
    Resources.registerFromNodejs();
    resourcesReady = true;
  }
}

export interface Conformer3DOptions {
  /** Keep the explicit hydrogens (depiction) or strip them (mol3D). */
  hydrogens: boolean;
  signal?: AbortSignal;
}

function minimise(mol: Molecule): boolean {
  try {
    const ff = new ForceFieldMMFF94(mol, 'MMFF94s+');
    return ff.minimise(MINIMISE) === 0;
  } catch {
    // No MMFF94 parameters for some atom (metals, unusual valences): the generator's own
    // collision-free geometry is kept.
    return false;
  }
}

/** A 3D V2000 molblock for the input, hydrogens explicit or stripped. */
export function generate3D(rdkit: RDKit, input: string, options: Conformer3DOptions): string {
  const { canonical, heavy } = withMol(rdkit, input, (mol) => ({ canonical: mol.get_smiles(), heavy: mol.get_num_atoms(true) }));
  assertEmbeddable(heavy);
  ensureResources();
  // Fragments (salts, solvates) are embedded one by one and set side by side: openchemlib's
  // generator fails on some multi-fragment inputs (e.g. a chiral carboxylate with its cation).
  const fragments = canonical.split('.').map((f) => fragmentConformer(rdkit, f, input, options.signal));
  const whole = fragments[0];
  let offset = extent(whole).max + SEPARATION;
  for (const f of fragments.slice(1)) {
    const { min, max } = extent(f);
    f.translate({ x: offset - min, y: 0, z: 0 });
    offset += max - min + SEPARATION;
    whole.addMolecule(f);
  }
  const withH = whole.toMolfile();
  if (fragments.length > 1 && !keepsStereo(rdkit, withH, canonical, flatOf(rdkit, canonical))) {
    throw new AppError(422, `No 3D structure preserving the stereochemistry was found for: ${input}`, 'invalid_input');
  }
  if (options.hydrogens) return withH;
  whole.removeExplicitHydrogens(true);
  return whole.toMolfile();
}

/** Space between fragments set side by side, in Å (beyond van der Waals contact). */
const SEPARATION = 4;

function extent(m: Molecule): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < m.getAllAtoms(); i++) {
    min = Math.min(min, m.getAtomX(i));
    max = Math.max(max, m.getAtomX(i));
  }
  return { min, max };
}

const flatOf = (rdkit: RDKit, smiles: string) => withMol(rdkit, smiles, (mol) => mol.get_smiles(NON_ISOMERIC));

/** One connected fragment, embedded and minimised, with explicit hydrogens and its stereo kept. */
function fragmentConformer(rdkit: RDKit, fragment: string, input: string, signal?: AbortSignal): Molecule {
  const molblock = withMol(rdkit, fragment, (mol) => mol.get_molblock());
  const flat = flatOf(rdkit, fragment);
  const generator = new ConformerGenerator(SEED);
  try {
    if (!generator.initializeConformers(Molecule.fromMolfile(molblock), { strategy: ConformerGenerator.STRATEGY_ADAPTIVE_RANDOM })) {
      throw new AppError(422, `No 3D structure can be generated for: ${input}`, 'invalid_input');
    }
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      signal?.throwIfAborted();
      const conformer = generator.getNextConformerAsMolecule();
      if (!conformer) break;
      minimise(conformer);
      signal?.throwIfAborted();
      if (keepsStereo(rdkit, conformer.toMolfile(), fragment, flat)) return conformer;
    }
  } catch (e) {
    if (e instanceof AppError || (e as Error)?.name === 'AbortError') throw e;
    // openchemlib failed inside (an unsupported element or bonding pattern): the input is the cause.
    throw new AppError(422, `No 3D structure can be generated for: ${input} (${(e as Error)?.message ?? e})`, 'invalid_input');
  }
  throw new AppError(422, `No 3D structure preserving the stereochemistry was found for: ${input}`, 'invalid_input');
}

const NON_ISOMERIC = JSON.stringify({ doIsomericSmiles: false });

/**
 * Does RDKit, reading the 3D molblock (stereo perceived from the coordinates), see the input
 * molecule? Same constitution, and every centre and double bond the input specifies matched
 * with its configuration (a chirality-aware substructure match of the input). Centres the input
 * leaves open necessarily get some configuration in 3D; they are not judged.
 */
function keepsStereo(rdkit: RDKit, molblock: string, canonical: string, flat: string): boolean {
  let mol = null;
  let query = null;
  try {
    mol = rdkit.get_mol(molblock, JSON.stringify({ removeHs: true }));
    if (!mol || !mol.is_valid()) return false;
    if (mol.get_smiles() === canonical) return true;
    if (mol.get_smiles(NON_ISOMERIC) !== flat) return false;
    query = rdkit.get_mol(canonical);
    if (!query) return false;
    const match = JSON.parse(mol.get_substruct_match(query, JSON.stringify({ useChirality: true }))) as { atoms?: number[] };
    return !!match.atoms?.length;
  } catch {
    return false;
  } finally {
    mol?.delete();
    query?.delete();
  }
}
