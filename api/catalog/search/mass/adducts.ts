/**
 * Adduct ions for MS dereplication: how a neutral molecule of monoisotopic mass M shows up at an
 * m/z. For each adduct, `m/z = (M * mult + mass) / |charge|`, where `mass` is the mass of what the
 * ion gains or loses, electrons included (an ion mass: a proton is 1.007276, not a hydrogen atom's
 * 1.007825; a chloride 34.969402, a chlorine atom plus one electron's 0.000548579909).
 *
 * ## Source
 *
 * The adducts are those of the Fiehn lab's "ESI MS Adduct Calculator" (T. Kind, UC Davis,
 * https://fiehnlab.ucdavis.edu/staff/kind/Metabolomics/MS-Adduct-Calculator/, its Excel table
 * "ESI-MS-adducts"), which is based on the table of Huang N., Siegel M.M., Kruppa G.H.,
 * Laukien F.H., J. Am. Soc. Mass Spectrom. 1999, 10, 1166-1173 (doi:10.1016/S1044-0305(99)00089-6),
 * with the electron mass included. Columns used: ion name, charge, mult (M multiplier: 0.5 for
 * "M/2", 2 for "2M") and mass (the "Ion mass" column's constant: "M+22.989218" for M+Na,
 * "M/2+11.998247" for M+H+Na), kept here as `published`. Reused with attribution.
 *
 * The mass used is computed from each ion's composition (what it gains and loses) with the
 * monoisotopic atomic masses of the AME2020 atomic mass evaluation (Wang et al., Chin. Phys. C 45,
 * 030003 (2021), as tabulated by NIST/CIAAW) and the CODATA 2018 electron mass: `(gained − lost −
 * charge · electron) / |charge|`. It agrees with the published constant within 1e-5 Da for every
 * adduct but two, where the table added an electron's mass instead of taking it off
 * (`[M-H2O-H]-`: published 19.01839, composition 19.017841; `[M+IsoProp+H]+`: 61.06534 against
 * 61.064791); test/catalog/mass.test.ts checks both facts. The table's `M+IsoProp+Na+H` (1+,
 * 84.05511) matches no composition of that name and is left out.
 *
 * One adduct is not in that table: `[M+H-H2O]+` (gains H, loses H2O, 1+: -17.003288).
 *
 * `[M]+` and `[M]-` are the molecule already charged (a quaternary ammonium, a flavylium,
 * a carboxylate drawn as such): the catalog's exact mass of a charged structure is RDKit's
 * `ExactMolWt`, which already takes the electrons off (on) for the formal charge, so its m/z is the
 * stored mass itself (mass 0). They apply only to molecules whose net formal charge is +1 (`[M]+`)
 * or -1 (`[M]-`), and every other adduct only to neutral molecules (net formal charge 0): a
 * protonated permanent cation would be a 2+ ion, which this table does not describe.
 */

export const ELECTRON_MASS = 0.000548579909;

/** Monoisotopic masses (Da) of the elements the adducts use: AME2020 (NIST "Atomic Weights and Isotopic Compositions"). */
export const ATOM_MASS: Readonly<Record<string, number>> = {
  H: 1.00782503223,
  C: 12,
  N: 14.00307400443,
  O: 15.99491461957,
  F: 18.99840316273,
  Na: 22.989769282,
  S: 31.9720711744,
  Cl: 34.968852682,
  K: 38.9637064864,
  Br: 78.9183376,
};

/** Monoisotopic mass of a plain formula (`C2H3N`; elements of ATOM_MASS, no groups). */
export function formulaMass(formula: string): number {
  let m = 0;
  for (const [, el, n] of formula.matchAll(/([A-Z][a-z]?)(\d*)/g)) {
    const a = ATOM_MASS[el];
    if (a === undefined) throw new Error(`no mass for element ${el}`);
    m += a * (n ? Number(n) : 1);
  }
  return m;
}

export interface Adduct {
  /** Name in the usual bracket notation, e.g. `[M+Na]+`. */
  name: string;
  /** The Fiehn table's name and "Ion mass" constant (absent for the adducts not in it). */
  fiehn?: { name: string; published: number };
  /** Ion charge, signed. */
  charge: number;
  /** How many molecules the ion holds (2 for the `[2M+...]` dimers). */
  mult: number;
  /** What the ion gains and loses besides the molecule(s), as formulas. */
  gains: string;
  loses: string;
  /** What the ion adds, in Da per charge, electrons counted: `m/z = M · mult / |charge| + mass`. */
  mass: number;
  /**
   * The net formal charge of the molecules this adduct applies to: 0 (neutral molecules) for
   * every adduct but `[M]+` (+1) and `[M]-` (-1).
   */
  molecule_charge: number;
}

function a(name: string, fiehn: [string, number] | null, charge: number, mult: number, gains: string, loses = ''): Adduct {
  const mass = (formulaMass(gains) - formulaMass(loses) - charge * ELECTRON_MASS) / Math.abs(charge);
  return { name, ...(fiehn ? { fiehn: { name: fiehn[0], published: fiehn[1] } } : {}), charge, mult, gains, loses, mass, molecule_charge: 0 };
}

/** The molecule itself, already carrying the charge (its stored mass counts its electrons). */
const charged = (name: string, charge: number): Adduct => ({ name, charge, mult: 1, gains: '', loses: '', mass: 0, molecule_charge: charge });

/** Positive mode, in the Fiehn table's order (ascending m/z for a given M). */
export const POSITIVE_ADDUCTS: readonly Adduct[] = [
  charged('[M]+', 1),
  a('[M+3H]3+', ['M+3H', 1.007276], 3, 1, 'H3'),
  a('[M+2H+Na]3+', ['M+2H+Na', 8.33459], 3, 1, 'H2Na'),
  a('[M+H+2Na]3+', ['M+H+2Na', 15.661904], 3, 1, 'HNa2'),
  a('[M+3Na]3+', ['M+3Na', 22.989218], 3, 1, 'Na3'),
  a('[M+2H]2+', ['M+2H', 1.007276], 2, 1, 'H2'),
  a('[M+H+NH4]2+', ['M+H+NH4', 9.52055], 2, 1, 'NH5'),
  a('[M+H+Na]2+', ['M+H+Na', 11.998247], 2, 1, 'HNa'),
  a('[M+H+K]2+', ['M+H+K', 19.985217], 2, 1, 'HK'),
  a('[M+ACN+2H]2+', ['M+ACN+2H', 21.52055], 2, 1, 'C2H5N'),
  a('[M+2Na]2+', ['M+2Na', 22.989218], 2, 1, 'Na2'),
  a('[M+2ACN+2H]2+', ['M+2ACN+2H', 42.033823], 2, 1, 'C4H8N2'),
  a('[M+3ACN+2H]2+', ['M+3ACN+2H', 62.547097], 2, 1, 'C6H11N3'),
  a('[M+H-H2O]+', null, 1, 1, 'H', 'H2O'),
  a('[M+H]+', ['M+H', 1.007276], 1, 1, 'H'),
  a('[M+NH4]+', ['M+NH4', 18.033823], 1, 1, 'NH4'),
  a('[M+Na]+', ['M+Na', 22.989218], 1, 1, 'Na'),
  a('[M+CH3OH+H]+', ['M+CH3OH+H', 33.033489], 1, 1, 'CH5O'),
  a('[M+K]+', ['M+K', 38.963158], 1, 1, 'K'),
  a('[M+ACN+H]+', ['M+ACN+H', 42.033823], 1, 1, 'C2H4N'),
  a('[M+2Na-H]+', ['M+2Na-H', 44.97116], 1, 1, 'Na2', 'H'),
  a('[M+IsoProp+H]+', ['M+IsoProp+H', 61.06534], 1, 1, 'C3H9O'),
  a('[M+ACN+Na]+', ['M+ACN+Na', 64.015765], 1, 1, 'C2H3NNa'),
  a('[M+2K-H]+', ['M+2K-H', 76.91904], 1, 1, 'K2', 'H'),
  a('[M+DMSO+H]+', ['M+DMSO+H', 79.02122], 1, 1, 'C2H7OS'),
  a('[M+2ACN+H]+', ['M+2ACN+H', 83.06037], 1, 1, 'C4H7N2'),
  a('[2M+H]+', ['2M+H', 1.007276], 1, 2, 'H'),
  a('[2M+NH4]+', ['2M+NH4', 18.033823], 1, 2, 'NH4'),
  a('[2M+Na]+', ['2M+Na', 22.989218], 1, 2, 'Na'),
  a('[2M+K]+', ['2M+K', 38.963158], 1, 2, 'K'),
  a('[2M+ACN+H]+', ['2M+ACN+H', 42.033823], 1, 2, 'C2H4N'),
  a('[2M+ACN+Na]+', ['2M+ACN+Na', 64.015765], 1, 2, 'C2H3NNa'),
];

/** Negative mode, in the Fiehn table's order. */
export const NEGATIVE_ADDUCTS: readonly Adduct[] = [
  charged('[M]-', -1),
  a('[M-3H]3-', ['M-3H', -1.007276], -3, 1, '', 'H3'),
  a('[M-2H]2-', ['M-2H', -1.007276], -2, 1, '', 'H2'),
  a('[M-H2O-H]-', ['M-H2O-H', -19.01839], -1, 1, '', 'H3O'),
  a('[M-H]-', ['M-H', -1.007276], -1, 1, '', 'H'),
  a('[M+Na-2H]-', ['M+Na-2H', 20.974666], -1, 1, 'Na', 'H2'),
  a('[M+Cl]-', ['M+Cl', 34.969402], -1, 1, 'Cl'),
  a('[M+K-2H]-', ['M+K-2H', 36.948606], -1, 1, 'K', 'H2'),
  a('[M+FA-H]-', ['M+FA-H', 44.998201], -1, 1, 'CHO2'),
  a('[M+Hac-H]-', ['M+Hac-H', 59.013851], -1, 1, 'C2H3O2'),
  a('[M+Br]-', ['M+Br', 78.918885], -1, 1, 'Br'),
  a('[M+TFA-H]-', ['M+TFA-H', 112.985586], -1, 1, 'C2F3O2'),
  a('[2M-H]-', ['2M-H', -1.007276], -1, 2, '', 'H'),
  a('[2M+FA-H]-', ['2M+FA-H', 44.998201], -1, 2, 'CHO2'),
  a('[2M+Hac-H]-', ['2M+Hac-H', 59.013851], -1, 2, 'C2H3O2'),
  a('[3M-H]-', ['3M-H', -1.007276], -1, 3, '', 'H'),
];

export const ADDUCTS: readonly Adduct[] = [...POSITIVE_ADDUCTS, ...NEGATIVE_ADDUCTS];

export const ADDUCTS_BY_NAME: ReadonlyMap<string, Adduct> = new Map(ADDUCTS.map((x) => [x.name, x]));

/** Searched when a request names no adducts: the usual ions of both modes. */
export const DEFAULT_ADDUCTS: readonly string[] = [
  '[M+H]+',
  '[M+Na]+',
  '[M+K]+',
  '[M+NH4]+',
  '[M+H-H2O]+',
  '[M]+',
  '[M-H]-',
  '[M+Cl]-',
  '[M+FA-H]-',
  '[M-H2O-H]-',
  '[M]-',
];

/** The m/z of a molecule of neutral (or, for `[M]±`, ionic) monoisotopic mass `m` as this adduct. */
export function adductMz(adduct: Adduct, m: number): number {
  return (m * adduct.mult) / Math.abs(adduct.charge) + adduct.mass;
}

/** The molecule mass that gives m/z `mz` as this adduct (the inverse of adductMz). */
export function moleculeMass(adduct: Adduct, mz: number): number {
  return ((mz - adduct.mass) * Math.abs(adduct.charge)) / adduct.mult;
}
