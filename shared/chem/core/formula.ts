/**
 * Molecular formula in Hill order as RDKit's CalcMolFormula writes it: C then H, then the
 * other elements alphabetically (H still comes first when there is no carbon, unlike strict
 * Hill), isotopes folded into their element, net charge appended (`+`, `-2` ...).
 *
 * A leaf of the chemistry core: it imports nothing, so the modules that need only the element
 * table (`elementSymbol`: the Morgan environments, SMARTS, HOSE codes ...) import it freely.
 */

const SYMBOLS = (
  '* H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr ' +
  'Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu ' +
  'Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg ' +
  'Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og'
).split(' ');

export function elementSymbol(z: number): string {
  return SYMBOLS[z] ?? '*';
}

/**
 * What the formula reads of an atom: its atomic number, its hydrogens (implicit, explicit and
 * hydrogen neighbours) and its formal charge. The atoms of a MorganGraph (morgan-env.ts) are such.
 */
export interface FormulaAtom {
  z: number;
  hs: number;
  charge: number;
}

export function molecularFormula(graph: { atoms: readonly FormulaAtom[] }): string {
  const counts = new Map<string, number>();
  const bump = (el: string, n: number) => counts.set(el, (counts.get(el) ?? 0) + n);
  let charge = 0;
  for (const a of graph.atoms) {
    bump(elementSymbol(a.z), 1);
    if (a.hs) bump('H', a.hs);
    charge += a.charge;
  }
  return hillFormula(counts, charge);
}

/** Element counts and a net charge written in that order (C, H, the rest alphabetically, charge last). */
export function hillFormula(counts: Map<string, number>, charge = 0): string {
  const first = ['C', 'H'].filter((el) => counts.has(el));
  const rest = [...counts.keys()].filter((el) => el !== 'C' && el !== 'H').sort();
  let formula = '';
  for (const el of [...first, ...rest]) {
    const n = counts.get(el)!;
    formula += n === 1 ? el : `${el}${n}`;
  }
  if (charge > 0) formula += charge === 1 ? '+' : `+${charge}`;
  else if (charge < 0) formula += charge === -1 ? '-' : `${charge}`;
  return formula;
}
