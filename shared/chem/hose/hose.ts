/**
 * HOSE codes (Bremser, Anal. Chim. Acta 103, 355 (1978)) exactly as CDK's HOSECodeGenerator
 * writes them: `<El>-<partners><charge>[-<ring sizes>];<sphere 1>(<sphere 2>/<sphere 3>/<sphere 4>)`.
 *
 * CDK's output order is not Bremser's alone: ties are broken by CDK's (deprecated) Weininger
 * CANON labelling, nodes are re-sorted by a string score built from element ranks, bond ranks
 * and the degrees of the next sphere, and a ring closure prints `&` and stops its branch. All
 * of that is reproduced here from the published behaviour of CDK 2.8 and checked against CDK
 * itself (test/fixtures/hose-reference.json).
 *
 * Aromaticity: CDK marks an aromatic-flagged bond `*`; the flags here are RDKit's perception
 * (CDK would use whatever flags its caller set). Ring sizes (`ringsize`) use RDKit's SSSR.
 */
import type { RDKit } from '../core/rdkit.ts';
import { elementSymbol } from '../core/formula.ts';
import { cdkCanonicalLabels, type LabelAtom } from './canon.ts';
import { readMolJson } from '../core/commonchem.ts';

export interface HoseAtom extends LabelAtom {
  symbol: string;
}

export interface HoseGraph {
  atoms: HoseAtom[];
  /** Neighbour atom indices and the CDK bond type to each (1, 2, 3, or 4 for aromatic). */
  nbrs: { atom: number; type: number }[][];
  /** SSSR rings as atom index lists. */
  rings: number[][];
}

// Bremser's element ranks as CDK tabulates them; other elements rank 800000 - mass number of
// their major isotope (CDK Isotopes data; 0 where CDK has none).
const RANKED: Record<string, number> = {
  C: 9000, O: 8900, N: 8800, S: 8700, P: 8600, Si: 8500, B: 8400, F: 8300, Cl: 8200, Br: 8100,
  ';': 8000, I: 7900, '#': 1200, '&': 1100, ',': 1000,
};
// Major-isotope mass numbers from CDK 2.8 `Isotopes.getMajorIsotope` (Z = 1..103, 0 = none).
const MAJOR_MASS = [
  0, 1, 4, 7, 9, 11, 12, 14, 16, 19, 20, 23, 24, 27, 28, 31, 32, 35, 40, 39, 40, 45, 48, 51, 52, 55, 56, 59, 58, 63,
  64, 69, 74, 75, 80, 79, 84, 85, 88, 89, 90, 93, 98, 0, 102, 103, 106, 107, 114, 115, 120, 121, 130, 127, 132,
  133, 138, 139, 140, 141, 142, 0, 152, 153, 158, 159, 164, 165, 166, 169, 174, 175, 180, 181, 184, 187, 192, 193,
  195, 197, 202, 205, 208, 209, 0, 0, 0, 0, 0, 0, 232, 231, 238,
];
const BOND_SYMBOL = ['', '', '=', '%', '*'];
const BOND_RANK = [0, 0, 200000, 300000, 100000];
const DELIMITERS = ['(', '/', '/', ')', '/', '/', '/', '/', '/', '/', '/', '/'];

function elementRank(symbol: string, z: number): number {
  const r = RANKED[symbol];
  if (r !== undefined) return r;
  const mass = MAJOR_MASS[z] ?? 0;
  return mass ? 800000 - mass : 800000;
}

const bremserSymbol = (s: string) => (s === 'Si' ? 'Q' : s === 'Cl' ? 'X' : s === 'Br' ? 'Y' : s === ',' ? '' : s);

function chargeCode(charge: number): string {
  if (charge === 0) return '';
  if (Math.abs(charge) === 1) return charge < 0 ? '-' : '+';
  return `'${charge > 0 ? '+' : ''}${charge}'`;
}

interface Node {
  symbol: string;
  source: Node | null;
  /** Atom index, or -1 for the `,` end-of-branch marker. */
  atom: number;
  bondType: number;
  degree: number;
  score: number;
  ranking: number;
  stopper: boolean;
  sortOrder: number;
}

const node = (symbol: string, source: Node | null, atom: number, bondType: number, degree: number): Node => ({
  symbol, source, atom, bondType, degree, score: 0, ranking: 0, stopper: false, sortOrder: 1,
});

/** One HOSE code; `labels` are the CDK canonical labels of the whole molecule. */
export function hoseCode(g: HoseGraph, labels: number[], root: number, spheres: number, ringsize: boolean): string {
  const atoms = g.atoms;
  const byLabel = (a: Node, b: Node) => (a.atom < 0 ? -Infinity : labels[a.atom]) - (b.atom < 0 ? -Infinity : labels[b.atom]) || 0;
  const r = atoms[root];
  let centre = `${r.symbol}-${g.nbrs[root].length + r.implicitH}${chargeCode(r.charge)}`;
  if (ringsize) {
    const sizes = [...new Set(g.rings.filter((ring) => ring.includes(root)).map((ring) => ring.length))].sort((a, b) => a - b);
    if (sizes.length) centre += `-${sizes.join('')}`;
  }
  centre += ';';

  // Breadth-first tree: every walk that does not step straight back, as CDK builds it.
  const levels: Node[][] = [];
  let current: Node[] = [];
  for (const { atom, type } of g.nbrs[root]) {
    if (atoms[atom].z === 1) continue;
    current.push(node(atoms[atom].symbol, node(r.symbol, null, root, 0, 0), atom, type, g.nbrs[atom].length));
  }
  current.sort(byLabel);
  for (let s = 0; ; s++) {
    levels[s] = current;
    const next: Node[] = [];
    for (const n of current) {
      if ('&;#:,'.includes(n.symbol) || atoms[n.atom].z === 1) continue;
      const nb = g.nbrs[n.atom];
      if (nb.length === 1) next.push(node(',', n, -1, 0, 0));
      else
        for (const { atom, type } of nb) {
          if (atom !== n.source!.atom) next.push(node(atoms[atom].symbol, n, atom, type, g.nbrs[atom].length));
        }
    }
    next.sort(byLabel);
    current = next;
    if (s >= spheres) break;
  }

  // Scores (CDK 2.8 default mode): element and bond ranks plus the degrees of the next sphere;
  // each sphere is ordered by its parents' order first, so branches stay together, then by
  // score, highest first (a stable sort, so ties keep the canonical-label order).
  for (let f = 0; f < spheres; f++) for (const n of levels[spheres - f]) if (n.source) n.source.ranking += n.degree;
  for (let f = 0; f < spheres; f++) {
    const nodes = levels[f];
    for (const n of nodes) {
      const z = n.atom >= 0 ? atoms[n.atom].z : 0;
      n.score += elementRank(n.symbol, z) + BOND_RANK[n.bondType] + n.ranking;
    }
    nodes.sort((a, b) => b.source!.sortOrder - a.source!.sortOrder || b.score - a.score);
    nodes.forEach((n, i) => (n.sortOrder = nodes.length - i));
  }

  const visited = new Set<number>();
  let code = centre;
  for (let f = 0; f < spheres; f++) {
    const nodes = levels[f];
    if (nodes.length === 0) {
      code += DELIMITERS[f];
      continue;
    }
    let branch = nodes[0].source!.atom;
    let part = '';
    for (const n of nodes) {
      const src = n.source!;
      if (!src.stopper && src.atom !== branch) {
        branch = src.atom;
        part += ',';
      }
      if (!src.stopper && src.atom === branch) {
        let t = BOND_SYMBOL[n.bondType];
        if (n.atom >= 0 && !visited.has(n.atom)) t += bremserSymbol(n.symbol);
        else if (n.atom >= 0) {
          t += '&';
          n.stopper = true;
        }
        part += t + (n.atom >= 0 ? chargeCode(atoms[n.atom].charge) : '');
      }
      if (n.atom >= 0) visited.add(n.atom);
      if (src.stopper) n.stopper = true;
    }
    code += part + DELIMITERS[f];
  }
  for (let f = spheres; f < 4; f++) code += DELIMITERS[f];
  return code;
}

/**
 * The molecule as CDK's SmilesParser would hold it: atoms in SMILES order, explicit [H] atoms
 * kept (CDK keeps them, RDKit would drop them), implicit hydrogens as counts.
 */
export function hoseGraph(rdkit: RDKit, smiles: string): HoseGraph | undefined {
  let mol = null;
  try {
    try {
      mol = rdkit.get_mol(smiles, JSON.stringify({ removeHs: false }));
    } catch {
      return undefined;
    }
    // A blank SMILES is a valid molecule without atoms, whose JSON RDKit cannot write.
    if (!mol || !mol.is_valid() || mol.get_num_atoms() === 0) return undefined;
    const m = readMolJson(mol);
    const atoms: HoseAtom[] = m.atoms.map((a) => ({ z: a.z, symbol: elementSymbol(a.z), charge: a.chg, implicitH: a.impHs }));
    const nbrs: HoseGraph['nbrs'] = atoms.map(() => []);
    m.bonds.forEach((b, i) => {
      const type = m.aromaticBonds.has(i) ? 4 : b.order >= 1 && b.order <= 3 ? b.order : 1;
      nbrs[b.a].push({ atom: b.b, type });
      nbrs[b.b].push({ atom: b.a, type });
    });
    return { atoms, nbrs, rings: m.rings };
  } finally {
    mol?.delete();
  }
}

/** HOSE codes of every atom, in atom order (CDK's getHOSECode over mol.atoms()). */
export function hoseCodes(g: HoseGraph, spheres: number, ringsize: boolean, signal?: AbortSignal): string[] {
  const labels = cdkCanonicalLabels(g.atoms, g.nbrs.map((l) => l.map((n) => n.atom)));
  return g.atoms.map((_, i) => {
    signal?.throwIfAborted();
    return hoseCode(g, labels, i, spheres, ringsize);
  });
}
