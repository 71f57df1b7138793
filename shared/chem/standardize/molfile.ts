/**
 * A V2000 connection table as plain data, the form the ChEMBL standardizer steps edit.
 * MinimalLib cannot edit a molecule, so every step edits this table and lets RDKit read it back
 * for perception (implicit hydrogens, chirality, substructure matches). Stereochemistry travels
 * as coordinates plus wedges, which stay valid through the edits the pipeline makes (it never
 * removes a hydrogen that carries a wedge or sits on a stereocentre), whereas chiral tags would
 * depend on neighbour order.
 *
 * The reader expects RDKit-written V2000 (standardize.ts passes every input through RDKit
 * first): atom and bond blocks, `M  CHG`, `M  ISO`, `M  RAD`; other property lines (S-groups,
 * aliases) are dropped, which is also what the pipeline's S-group removal does.
 */
import { elementNumber } from './elements.ts';

export interface MfAtom {
  symbol: string;
  x: number;
  y: number;
  z: number;
  charge: number;
  /** Mass number, 0 for the natural isotope mixture. */
  isotope: number;
  /** `M  RAD` code: 0 none, 1 singlet, 2 doublet, 3 triplet. */
  radical: number;
  /** Hydrogens fixed on the atom (written as the molfile valence field); undefined: RDKit's valence model decides. */
  hs?: number;
  map: number;
}

export interface MfBond {
  a: number;
  b: number;
  /** 1, 2, 3, 4 (aromatic) or a query type 5-8. */
  order: number;
  /** Molfile bond stereo: 1 wedge, 6 hash, 4 either (single), 3 either (double), 0 none. */
  stereo: number;
}

export interface Molfile {
  header: [string, string, string];
  atoms: MfAtom[];
  bonds: MfBond[];
  chiral: boolean;
}

const num = (s: string) => (s.trim() === '' ? 0 : Number(s));

export function parseV2000(text: string): Molfile {
  const lines = text.replace(/\r/g, '').split('\n');
  const counts = lines[3] ?? '';
  if (!/V2000/.test(counts)) throw new Error('not a V2000 molblock');
  const nAtoms = num(counts.slice(0, 3));
  const nBonds = num(counts.slice(3, 6));
  const atoms: MfAtom[] = [];
  const valenceField: number[] = [];
  for (let i = 0; i < nAtoms; i++) {
    const l = lines[4 + i] ?? '';
    const code = num(l.slice(36, 39));
    atoms.push({
      symbol: l.slice(31, 34).trim(),
      x: num(l.slice(0, 10)),
      y: num(l.slice(10, 20)),
      z: num(l.slice(20, 30)),
      // Old-style charge codes, overridden by M  CHG below.
      charge: code >= 1 && code <= 7 && code !== 4 ? 4 - code : 0,
      isotope: 0,
      radical: code === 4 ? 2 : 0,
      map: num(l.slice(60, 63)),
    });
    valenceField.push(num(l.slice(48, 51)));
  }
  const bonds: MfBond[] = [];
  for (let i = 0; i < nBonds; i++) {
    const l = lines[4 + nAtoms + i] ?? '';
    bonds.push({ a: num(l.slice(0, 3)) - 1, b: num(l.slice(3, 6)) - 1, order: num(l.slice(6, 9)), stereo: num(l.slice(9, 12)) });
  }
  let chargesReset = false;
  for (const l of lines.slice(4 + nAtoms + nBonds)) {
    if (l.startsWith('M  END')) break;
    const tag = l.slice(3, 6);
    if (tag !== 'CHG' && tag !== 'ISO' && tag !== 'RAD') continue;
    if (tag === 'CHG' && !chargesReset) {
      // The first M  CHG line supersedes every old-style charge (MDL convention, as RDKit reads it).
      for (const a of atoms) a.charge = 0;
      chargesReset = true;
    }
    const n = num(l.slice(6, 9));
    for (let k = 0; k < n; k++) {
      const idx = num(l.slice(9 + 8 * k, 13 + 8 * k)) - 1;
      const val = num(l.slice(13 + 8 * k, 17 + 8 * k));
      const atom = atoms[idx];
      if (!atom) continue;
      if (tag === 'CHG') atom.charge = val;
      else if (tag === 'ISO') atom.isotope = val;
      else atom.radical = val;
    }
  }
  atoms.forEach((a, i) => {
    const v = valenceField[i];
    if (v === 0) return;
    const used = bondValence({ atoms, bonds, header: ['', '', ''], chiral: false }, i);
    a.hs = Math.max(0, (v === 15 ? 0 : v) - used);
  });
  return { header: [lines[0] ?? '', lines[1] ?? '', lines[2] ?? ''], atoms, bonds, chiral: num(counts.slice(12, 15)) === 1 };
}

const f = (x: number) => x.toFixed(4).padStart(10);
const i3 = (n: number) => String(n).padStart(3);

/** Sum of bond orders at an atom (aromatic counts 1.5, rounded down like a molfile valence). */
export function bondValence(m: Molfile, atom: number): number {
  let v = 0;
  for (const b of m.bonds) {
    if (b.a !== atom && b.b !== atom) continue;
    v += b.order >= 1 && b.order <= 3 ? b.order : b.order === 4 ? 1.5 : 0;
  }
  return Math.floor(v);
}

export function writeV2000(m: Molfile): string {
  const out = [...m.header];
  out.push(`${i3(m.atoms.length)}${i3(m.bonds.length)}  0  0${i3(m.chiral ? 1 : 0)}  0  0  0  0  0999 V2000`);
  m.atoms.forEach((a, i) => {
    let valence = 0;
    if (a.hs !== undefined) {
      valence = bondValence(m, i) + a.hs;
      if (valence === 0) valence = 15;
    }
    const symbol = a.symbol.padEnd(3);
    out.push(`${f(a.x)}${f(a.y)}${f(a.z)} ${symbol} 0  0  0  0  0${i3(valence)}  0  0  0${i3(a.map)}  0  0`);
  });
  for (const b of m.bonds) out.push(`${i3(b.a + 1)}${i3(b.b + 1)}${i3(b.order)}${i3(b.stereo)}`);
  const props = (tag: string, pick: (a: MfAtom) => number) => {
    const items = m.atoms.map((a, i) => [i + 1, pick(a)] as const).filter(([, v]) => v !== 0);
    for (let k = 0; k < items.length; k += 8) {
      const chunk = items.slice(k, k + 8);
      out.push(`M  ${tag}${i3(chunk.length)}${chunk.map(([i, v]) => ` ${i3(i)} ${i3(v)}`).join('')}`);
    }
  };
  props('CHG', (a) => a.charge);
  props('RAD', (a) => a.radical);
  props('ISO', (a) => a.isotope);
  out.push('M  END');
  return `${out.join('\n')}\n`;
}

export function cloneMolfile(m: Molfile): Molfile {
  return {
    header: [...m.header],
    atoms: m.atoms.map((a) => ({ ...a })),
    bonds: m.bonds.map((b) => ({ ...b })),
    chiral: m.chiral,
  };
}

export interface Neighbour {
  atom: number;
  bond: number;
}

export function neighbourLists(m: Molfile): Neighbour[][] {
  const nbrs: Neighbour[][] = m.atoms.map(() => []);
  m.bonds.forEach((b, i) => {
    nbrs[b.a].push({ atom: b.b, bond: i });
    nbrs[b.b].push({ atom: b.a, bond: i });
  });
  return nbrs;
}

export function atomicNumber(a: MfAtom): number {
  return elementNumber(a.symbol);
}

/** Ring bonds: the bonds that are not bridges of the molecular graph (ring membership only, no counts). */
export function ringBonds(m: Molfile): boolean[] {
  const nbrs = neighbourLists(m);
  const order = new Array<number>(m.atoms.length).fill(-1);
  const low = new Array<number>(m.atoms.length).fill(0);
  const inRing = new Array<boolean>(m.bonds.length).fill(true);
  let counter = 0;
  for (let root = 0; root < m.atoms.length; root++) {
    if (order[root] >= 0) continue;
    // Iterative Tarjan bridge search: a bond is a bridge when nothing below it reaches above it.
    const stack: { atom: number; via: number; next: number }[] = [{ atom: root, via: -1, next: 0 }];
    order[root] = low[root] = counter++;
    while (stack.length) {
      const top = stack[stack.length - 1];
      const list = nbrs[top.atom];
      if (top.next < list.length) {
        const { atom, bond } = list[top.next++];
        if (bond === top.via) continue;
        if (order[atom] < 0) {
          order[atom] = low[atom] = counter++;
          stack.push({ atom, via: bond, next: 0 });
        } else {
          low[top.atom] = Math.min(low[top.atom], order[atom]);
        }
      } else {
        stack.pop();
        if (top.via >= 0) {
          const parent = stack[stack.length - 1].atom;
          low[parent] = Math.min(low[parent], low[top.atom]);
          if (low[top.atom] > order[parent]) inRing[top.via] = false;
        }
      }
    }
  }
  return inRing;
}

/** Connected components as sorted atom index lists, in order of their lowest atom. */
export function fragments(m: Molfile): number[][] {
  const nbrs = neighbourLists(m);
  const seen = new Array<boolean>(m.atoms.length).fill(false);
  const out: number[][] = [];
  for (let i = 0; i < m.atoms.length; i++) {
    if (seen[i]) continue;
    const comp: number[] = [];
    const stack = [i];
    seen[i] = true;
    while (stack.length) {
      const a = stack.pop()!;
      comp.push(a);
      for (const { atom } of nbrs[a]) {
        if (!seen[atom]) {
          seen[atom] = true;
          stack.push(atom);
        }
      }
    }
    out.push(comp.sort((x, y) => x - y));
  }
  return out;
}

/** The sub-table of the given atoms (in the given order), with the bonds among them. */
export function subMolfile(m: Molfile, atoms: number[]): Molfile {
  const index = new Map(atoms.map((a, i) => [a, i]));
  return {
    header: [...m.header],
    atoms: atoms.map((a) => ({ ...m.atoms[a] })),
    bonds: m.bonds
      .filter((b) => index.has(b.a) && index.has(b.b))
      .map((b) => ({ ...b, a: index.get(b.a)!, b: index.get(b.b)! })),
    chiral: m.chiral,
  };
}

/** Several tables side by side, as one (RDKit's CombineMols). */
export function combineMolfiles(parts: Molfile[]): Molfile {
  const out: Molfile = { header: [...parts[0].header], atoms: [], bonds: [], chiral: parts.some((p) => p.chiral) };
  for (const p of parts) {
    const offset = out.atoms.length;
    out.atoms.push(...p.atoms.map((a) => ({ ...a })));
    out.bonds.push(...p.bonds.map((b) => ({ ...b, a: b.a + offset, b: b.b + offset })));
  }
  return out;
}

/** Removes the given atoms and their bonds. */
export function removeAtoms(m: Molfile, remove: Set<number>): Molfile {
  return subMolfile(m, m.atoms.map((_, i) => i).filter((i) => !remove.has(i)));
}
