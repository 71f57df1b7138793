/**
 * Neutralisation as the ChEMBL pipeline does it: RDKit's rdMolStandardize Uncharger with
 * canonical ordering, in the behaviour of RDKit 2022.09 (the version the reference outputs were
 * made with). Charges are removed by adding or removing hydrogens, never by moving them:
 *  - positive centres without hydrogens (quaternary N+, not next to an anion) cannot be
 *    neutralised, so as many anions stay charged as there are such cations (zwitterions and
 *    inner salts survive); with such cations present, plain anions are protonated first, then
 *    acid anions (carboxylate, sulfonate, phosphate, nitrate, tetrazolide ...), in canonical order;
 *  - without them every anion that is not next to a cation is protonated;
 *  - then, while the net charge is positive, protonated cations lose hydrogens (a C+ or an
 *    early element gains one instead).
 * Every atom touched gets a fixed hydrogen count, as RDKit marks it noImplicit.
 */
import type { RDKit } from '../core/rdkit.ts';
import { isEarlyAtom } from './elements.ts';
import { cloneMolfile, type Molfile } from './molfile.ts';
import { canonicalRanks } from './ranks.ts';
import { atomViews, substructMatches, withRawMol, type AtomView } from './rdkit.ts';

const POS_H = '[+,+2,+3,+4;!h0;!$(*~[-]),$(*(~[-])~[-])]';
const POS_NOH = '[+,+2,+3,+4;h0;!$(*~[-]),$(*(~[-])~[-])]';
const NEG = '[-!$(*~[+,+2,+3,+4])]';
const NEG_ACID =
  '[$([O,S;-][C,S;+0]=[O,S]),$([O,S;-][N,P;+](=[O,S])[O,S;-]),$([O-][Cl,Br,I;+,+2,+3][O-]),$([n-]1nnnc1),$([n-]1ncnn1)]';

interface Perception {
  views: AtomView[];
  pos: number[];
  quaternary: number[];
  neg: number[];
  acid: number[];
  positions?: number[];
}

function perceive(rdkit: RDKit, m: Molfile): Perception {
  return withRawMol(rdkit, m, (mol) => {
    const first = (smarts: string) => substructMatches(rdkit, mol, smarts).map((hit) => hit[0]);
    const p: Perception = {
      views: atomViews(mol),
      pos: first(POS_H),
      quaternary: first(POS_NOH),
      neg: first(NEG),
      acid: first(NEG_ACID),
    };
    const quaternaryCharge = p.quaternary.reduce((s, i) => s + p.views[i].charge, 0);
    if (quaternaryCharge > 0 && (p.neg.length > 0 || p.acid.length > 0)) {
      p.positions = canonicalRanks(m, p.views.map((v) => v.hs));
    }
    return p;
  });
}

export function uncharge(rdkit: RDKit, input: Molfile): Molfile {
  const m = cloneMolfile(input);
  const p = perceive(rdkit, m);
  // Hydrogens and charges as they evolve; the matches stay those of the input, as in RDKit.
  const hs = p.views.map((v) => v.hs);
  const charge = p.views.map((v) => v.charge);
  const touched = new Set<number>();
  const setHs = (i: number, n: number) => {
    hs[i] = n;
    touched.add(i);
  };
  const neutraliseAnion = (i: number, delta = 1) => {
    setHs(i, hs[i] + delta);
    charge[i] += 1;
  };
  const neutraliseIfPossible = (i: number): boolean => {
    const early = isEarlyAtom(p.views[i].z);
    if (early && hs[i] === 0) return false;
    neutraliseAnion(i, early ? -1 : 1);
    return true;
  };

  const quaternaryCharge = p.quaternary.reduce((s, i) => s + p.views[i].charge, 0);
  const byRank = (list: number[]) =>
    p.positions ? [...list].sort((a, b) => p.positions![a] - p.positions![b] || a - b) : [...list].sort((a, b) => a - b);
  const negAtoms = byRank(p.neg);
  const acidAtoms = byRank(p.acid);

  if (p.positions) {
    const anions = p.views.filter((v) => v.charge < 0).length;
    let surplus = anions - quaternaryCharge;
    if (surplus > 0 && negAtoms.length) {
      const acids = new Set(acidAtoms);
      for (const i of negAtoms) {
        if (acids.has(i)) continue;
        if (neutraliseIfPossible(i) && --surplus === 0) break;
      }
    }
    surplus = acidAtoms.length - quaternaryCharge;
    if (surplus > 0) {
      for (const i of acidAtoms) {
        if (charge[i] >= 0) continue;
        neutraliseAnion(i);
        if (--surplus === 0) break;
      }
    }
  } else {
    for (const i of negAtoms) neutraliseIfPossible(i);
  }

  let net = charge.reduce((s, c) => s + c, 0);
  if (net > 0) {
    for (const i of p.pos) {
      setHs(i, hs[i]);
      while (charge[i] > 0 && net > 0) {
        charge[i] -= 1;
        net -= 1;
        const z = p.views[i].z;
        if (z !== 6 && !isEarlyAtom(z)) {
          const before = hs[i];
          if (before >= 1) setHs(i, before - 1);
          if (before === 1) break;
        } else {
          setHs(i, hs[i] + 1);
        }
      }
      if (net === 0) break;
    }
  }
  m.atoms.forEach((a, i) => {
    a.charge = charge[i];
    if (touched.has(i)) a.hs = hs[i];
  });
  return m;
}
