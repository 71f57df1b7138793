/**
 * RDKit fragment SMILES (`Chem.MolFragmentToSmiles(mol, atoms)`, canonical, isomeric), which
 * MinimalLib does not expose. The fragment is written as a stand-alone SMILES whose atoms are
 * all bracketed with the parent's charges, isotopes and aromaticity and with the hydrogen count
 * RDKit's fragment ranking uses (the atom's hydrogens plus one per bond leaving the fragment),
 * read back without sanitisation and canonicalised by RDKit. The written atoms are matched back
 * to the fragment and spelt as the parent's SMILES would spell them: bare organic-subset symbols
 * unless a charge, isotope, chirality or an aromatic [nH] needs brackets. Tetrahedral marks are
 * kept only when every neighbour of the centre is in the fragment, as RDKit does.
 * Known differences from RDKit (measured in test/chem/ifg.test.ts): no E/Z marks, and parent
 * ring membership, which RDKit's ranking also reads, is not available to the stand-alone copy.
 */
import type { Mol, RDKit } from './rdkit.ts';
import { elementSymbol } from './formula.ts';
import { readMolJson } from './commonchem.ts';

export interface FragAtom {
  z: number;
  hs: number;
  charge: number;
  isotope: number;
  aromatic: boolean;
  /** RDKit chiral tag relative to the atom's bond order (implicit H second): 'cw' | 'ccw'. */
  stereo?: string;
}

export interface FragmentGraph {
  atoms: FragAtom[];
  /** Neighbours in RDKit bond order, with the bond written explicitly ('-', '=', '#', ':'). */
  nbrs: { atom: number; bond: string }[][];
}

export function readFragmentGraph(mol: Mol): FragmentGraph {
  const m = readMolJson(mol);
  const atoms: FragAtom[] = m.atoms.map((a, i) => ({
    z: a.z,
    hs: a.impHs,
    charge: a.chg,
    isotope: a.isotope,
    aromatic: m.aromaticAtoms.has(i),
    stereo: a.stereo !== 'unspecified' ? a.stereo : undefined,
  }));
  const nbrs: FragmentGraph['nbrs'] = atoms.map(() => []);
  m.bonds.forEach((b, i) => {
    const bond = m.aromaticBonds.has(i) ? ':' : b.order === 2 ? '=' : b.order === 3 ? '#' : '-';
    nbrs[b.a].push({ atom: b.b, bond });
    nbrs[b.b].push({ atom: b.a, bond });
  });
  return { atoms, nbrs };
}

const H = -1;

/** Parity of the permutation taking `from` to `to` (same elements). */
function oddPermutation(from: number[], to: number[]): boolean {
  const p = to.map((x) => from.indexOf(x));
  let odd = false;
  const seen = new Array(p.length).fill(false);
  for (let i = 0; i < p.length; i++) {
    if (seen[i]) continue;
    let len = 0;
    for (let j = i; !seen[j]; j = p[j]) {
      seen[j] = true;
      len++;
    }
    if (len % 2 === 0) odd = !odd;
  }
  return odd;
}

/** Stand-alone SMILES of the fragment, every atom bracketed, every bond explicit. */
function writeFragment(g: FragmentGraph, atoms: number[]): string {
  const inFrag = new Set(atoms);
  const visited = new Set<number>();
  const parent = new Map<number, number>();
  const order: number[] = [];
  // Pass 1: DFS tree; every non-tree bond becomes a ring closure.
  const closures = new Map<number, { partner: number; digit: number }[]>();
  let nextDigit = 1;
  const dfs = (a: number) => {
    visited.add(a);
    order.push(a);
    for (const { atom } of g.nbrs[a]) {
      if (!inFrag.has(atom) || atom === parent.get(a)) continue;
      if (!visited.has(atom)) {
        parent.set(atom, a);
        dfs(atom);
      }
    }
  };
  const roots: number[] = [];
  for (const a of [...atoms].sort((x, y) => x - y)) if (!visited.has(a)) (roots.push(a), dfs(a));
  const position = new Map(order.map((a, i) => [a, i]));
  for (const a of order) {
    for (const { atom } of g.nbrs[a]) {
      if (!inFrag.has(atom) || parent.get(atom) === a || parent.get(a) === atom) continue;
      if (position.get(atom)! > position.get(a)!) {
        const digit = nextDigit++;
        (closures.get(a) ?? closures.set(a, []).get(a)!).push({ partner: atom, digit });
        (closures.get(atom) ?? closures.set(atom, []).get(atom)!).push({ partner: a, digit });
      }
    }
  }
  const bondTo = (a: number, b: number) => g.nbrs[a].find((n) => n.atom === b)!.bond;
  const digitText = (d: number) => (d < 10 ? String(d) : `%${d}`);

  const token = (a: number, smilesNbrs: number[]) => {
    const at = g.atoms[a];
    let sym = elementSymbol(at.z);
    if (at.aromatic) sym = sym.toLowerCase();
    let chir = '';
    const all = g.nbrs[a].map((n) => n.atom);
    if (at.stereo && all.every((n) => inFrag.has(n)) && all.length + at.hs === 4) {
      // RDKit's reference order: bonds in order, an implicit H counted second.
      const ref = at.hs ? [all[0], H, ...all.slice(1)] : all;
      const cw = at.stereo === 'cw';
      chir = cw !== oddPermutation(ref, smilesNbrs) ? '@@' : '@';
    }
    const chg = at.charge === 0 ? '' : `${at.charge > 0 ? '+' : '-'}${Math.abs(at.charge) > 1 ? Math.abs(at.charge) : ''}`;
    // RDKit ranks a fragment atom as if each bond leaving the fragment were a hydrogen
    // (rankFragmentAtoms, RDKit issue #1567), so the stand-alone copy carries those H.
    const outside = g.nbrs[a].filter((n) => !inFrag.has(n.atom)).length;
    return `[${at.isotope || ''}${sym}${chir}H${at.hs + outside}${chg}]`;
  };

  const write = (a: number): string => {
    const children = g.nbrs[a].map((n) => n.atom).filter((n) => inFrag.has(n) && parent.get(n) === a);
    const rings = closures.get(a) ?? [];
    // SMILES neighbour order: preceding atom, implicit H, ring closures, then branches.
    const smilesNbrs: number[] = [];
    if (parent.has(a)) smilesNbrs.push(parent.get(a)!);
    if (g.atoms[a].hs) smilesNbrs.push(H);
    for (const r of rings) smilesNbrs.push(r.partner);
    smilesNbrs.push(...children);
    let s = token(a, smilesNbrs);
    for (const r of rings) {
      // The bond symbol goes on the opening digit only.
      const opening = position.get(r.partner)! > position.get(a)!;
      s += (opening ? bondTo(a, r.partner) : '') + digitText(r.digit);
    }
    children.forEach((c, i) => {
      const part = bondTo(a, c) + write(c);
      s += i < children.length - 1 ? `(${part})` : part;
    });
    return s;
  };
  return roots.map(write).join('.');
}

const ORGANIC = new Set(['B', 'C', 'N', 'O', 'P', 'S', 'F', 'Cl', 'Br', 'I', 'b', 'c', 'n', 'o', 'p', 's']);
const ATOM_TOKEN = /\[[^\]]+\]|Br|Cl|[BCNOPSFI]|[bcnops]|\*/g;

/** The token the parent molecule's SMILES would use for atom `a`, keeping RDKit's chirality mark. */
function parentToken(g: FragmentGraph, a: number, written: string, restored: string): string {
  const at = g.atoms[a];
  let sym = elementSymbol(at.z);
  if (at.aromatic) sym = sym.toLowerCase();
  const chir = /@@/.test(written) ? '@@' : /@/.test(written) ? '@' : restored;
  const chg = at.charge === 0 ? '' : `${at.charge > 0 ? '+' : '-'}${Math.abs(at.charge) > 1 ? Math.abs(at.charge) : ''}`;
  const bare = !at.isotope && !chir && !chg && ORGANIC.has(sym) && !((sym === 'n' || sym === 'p') && at.hs > 0);
  if (bare) return sym;
  return `[${at.isotope || ''}${sym}${chir}${at.hs ? `H${at.hs > 1 ? at.hs : ''}` : ''}${chg}]`;
}

/**
 * Which fragment atom each atom of the written SMILES is (written atoms are in writing order).
 * A small backtracking isomorphism on element, hydrogens (as written, i.e. with the outside
 * bonds counted), charge, isotope, aromaticity and bond type; any symmetric choice gives the
 * same tokens.
 */
function mapWritten(g: FragmentGraph, atoms: number[], w: FragmentGraph, bracketed: boolean[]): number[] | undefined {
  const inFrag = new Set(atoms);
  // A bare written atom's hydrogens are not read back without sanitisation, so only
  // bracketed atoms are compared on them.
  const label = (x: FragAtom, h: number | '') => `${x.z}/${h}/${x.charge}/${x.isotope}/${x.aromatic}`;
  const fragH = new Map(atoms.map((a) => [a, g.atoms[a].hs + g.nbrs[a].filter((n) => !inFrag.has(n.atom)).length]));
  const fragBond = (a: number, b: number) => g.nbrs[a].find((n) => n.atom === b)?.bond;
  const map: number[] = [];
  const used = new Set<number>();
  const extend = (i: number): boolean => {
    if (i === w.atoms.length) return true;
    const want = label(w.atoms[i], bracketed[i] ? w.atoms[i].hs : '');
    for (const a of atoms) {
      if (used.has(a) || label(g.atoms[a], bracketed[i] ? fragH.get(a)! : '') !== want) continue;
      if (g.nbrs[a].filter((n) => inFrag.has(n.atom)).length !== w.nbrs[i].length) continue;
      // every bond to an already placed neighbour must exist with the same type
      const ok = w.nbrs[i].every((n) => n.atom >= i || fragBond(a, map[n.atom]) === n.bond);
      if (!ok) continue;
      map[i] = a;
      used.add(a);
      if (extend(i + 1)) return true;
      used.delete(a);
    }
    return false;
  };
  return w.atoms.length === atoms.length && extend(0) ? map : undefined;
}

/** Each atom's neighbours (by writing index) in SMILES order: preceding atom, ring bonds, branches. */
function smilesNeighbours(smiles: string): number[][] {
  const nbrs: number[][] = [];
  const open = new Map<string, { atom: number; slot: number }>();
  const stack: number[] = [];
  let prev = -1;
  const re = /\[[^\]]+\]|Br|Cl|[BCNOPSFI]|[bcnops]|\*|%\d\d|\d|[()]|\./g;
  for (const [tok] of smiles.matchAll(re)) {
    if (tok === '(') stack.push(prev);
    else if (tok === ')') prev = stack.pop()!;
    else if (tok === '.') prev = -1;
    else if (/^(%\d\d|\d)$/.test(tok)) {
      const o = open.get(tok);
      if (o) {
        nbrs[o.atom][o.slot] = prev;
        nbrs[prev].push(o.atom);
        open.delete(tok);
      } else {
        open.set(tok, { atom: prev, slot: nbrs[prev].length });
        nbrs[prev].push(-2);
      }
    } else {
      const idx = nbrs.length;
      nbrs.push(prev >= 0 ? [prev] : []);
      if (prev >= 0) nbrs[prev].push(idx);
      prev = idx;
    }
  }
  return nbrs;
}

/**
 * RDKit's fragment writer keeps the parent's chiral tags, but a stand-alone copy loses them on
 * centres that are not stereocentres within the fragment; such marks are put back from the
 * parent's configuration and the written neighbour order.
 */
function restoreChirality(g: FragmentGraph, atoms: number[], match: number[], written: number[][]): string[] {
  const inFrag = new Set(atoms);
  return match.map((a, i) => {
    const at = g.atoms[a];
    const all = g.nbrs[a].map((n) => n.atom);
    if (!at.stereo || !all.every((n) => inFrag.has(n)) || all.length + at.hs !== 4) return '';
    const order = written[i].map((w) => match[w]);
    // in SMILES an implicit H comes right after the preceding atom (first if there is none)
    if (at.hs) order.splice(hasPreceding(written, i) ? 1 : 0, 0, H);
    const ref = at.hs ? [all[0], H, ...all.slice(1)] : all;
    return (at.stereo === 'cw') !== oddPermutation(ref, order) ? '@@' : '@';
  });
}

/** Whether atom i was written after a preceding atom (its first SMILES neighbour). */
function hasPreceding(written: number[][], i: number): boolean {
  return written[i].length > 0 && written[i][0] < i;
}

/** Canonical RDKit SMILES of the atoms `atoms` of the molecule `g`, as MolFragmentToSmiles. */
export function fragmentSmiles(rdkit: RDKit, g: FragmentGraph, atoms: number[]): string {
  const text = writeFragment(g, atoms);
  const details = JSON.stringify({ sanitize: false, removeHs: false });
  let standalone: Mol | null = null;
  let written: Mol | null = null;
  try {
    standalone = rdkit.get_mol(text, details);
    if (!standalone || !standalone.is_valid()) throw new Error(`fragment not readable: ${text}`);
    const canonical = standalone.get_smiles();
    // Which fragment atom each written atom is: the canonical SMILES read back (atoms in
    // writing order) matched onto the stand-alone copy (atoms in `order` of writeFragment).
    written = rdkit.get_mol(canonical, details);
    if (!written || !written.is_valid()) throw new Error(`fragment not readable: ${canonical}`);
    const bracketed = (canonical.match(ATOM_TOKEN) ?? []).map((t) => t.startsWith('['));
    const match = mapWritten(g, atoms, readFragmentGraph(written), bracketed);
    if (!match) throw new Error(`fragment not matched: ${canonical}`);
    const restored = restoreChirality(g, atoms, match, smilesNeighbours(canonical));
    let i = 0;
    return canonical.replace(ATOM_TOKEN, (tok) => {
      const k = i++;
      return parentToken(g, match[k], tok, restored[k]);
    });
  } finally {
    standalone?.delete();
    written?.delete();
  }
}
