/**
 * SELFIES 2.x (Krenn et al., Mach. Learn.: Sci. Technol. 1, 045024, 2020; doi:10.1088/2632-2153/aba947).
 * `encodeSelfies` keeps the atom and branch order of the input SMILES, as the Python `selfies` 2.2
 * encoder does (strict mode, default constraints), so both give the same string; `decodeSelfies`
 * follows the derivation rules (state = bonds the previous atom can still make) and writes SMILES
 * the way the reference decoder does. See docs/spec/data.md §14 for the grammar.
 */
import {
  type Atom, type Bond, capacity, ELEMENTS, Graph, INDEX_ALPHABET, INDEX_CODE, ORGANIC, SelfiesError, type Stereo,
} from './graph.ts';
import { smilesToGraph, toBond } from './smiles.ts';

export { SelfiesError };

// ------------------------------------------------------------------------------- shared writing

function bondText(b: Bond, showStereo = true): string {
  if (b.order === 1) return showStereo && b.stereo ? b.stereo : '';
  if (b.order === 2) return '=';
  if (b.order === 3) return '#';
  throw new SelfiesError(`cannot write a bond of order ${b.order}`);
}

function atomText(a: Atom, brackets: boolean): string {
  if (a.isotope === undefined && a.chirality === undefined && a.h === undefined && a.charge === 0) return a.element;
  let s = `${a.isotope ?? ''}${a.element}${a.chirality ?? ''}`;
  if (a.h !== 0) s += `H${a.h}`;
  else if (a.isotope === undefined && a.chirality === undefined && a.charge === 0 && ORGANIC.has(a.element)) s += 'H0';
  if (a.charge !== 0) s += (a.charge > 0 ? '+' : '') + a.charge;
  return brackets ? `[${s}]` : s;
}

function indexSymbols(n: number): string[] {
  if (n === 0) return [INDEX_ALPHABET[0]];
  const out: string[] = [];
  for (; n > 0; n = Math.floor(n / 16)) out.unshift(INDEX_ALPHABET[n % 16]);
  if (out.length > 3) throw new SelfiesError('ring bond or branch spans more than 4096 symbols');
  return out;
}

// ------------------------------------------------------------------------------- encoder

/** SMILES → SELFIES; throws SelfiesError for unreadable SMILES, failed kekulisation or over-valent atoms. */
export function encodeSelfies(smiles: string): string {
  const mol = smilesToGraph(smiles);
  if (!mol.kekulise()) throw new SelfiesError(`kekulization failed\n\tSMILES: ${smiles}`);
  const over = mol.atoms.filter((a) => mol.count[a.index] > capacity(a));
  if (over.length) {
    const list = over.map((a) => `[${atomText(a, true)} with ${mol.count[a.index]} bond(s) - a max. of ${capacity(a)} bond(s) was specified]`);
    throw new SelfiesError(`input violates the currently-set semantic constraints\n\tSMILES: ${smiles}\n\tErrors:\n\t${list.join('\n\t')}`);
  }
  // SELFIES lists an atom's ring bonds before its other bonds; flip @/@@ when that reorders
  // the neighbours by an odd permutation, so decoding restores the original configuration.
  for (const a of mol.atoms) {
    if (!a.chirality || !mol.ringFlag[a.index]) continue;
    const bonds = mol.out[a.index] as Bond[];
    const idx = bonds.map((_, i) => i);
    const closing = idx.filter((i) => bonds[i].ring && bonds[i].src > bonds[i].dst);
    const opening = idx.filter((i) => bonds[i].ring && bonds[i].src < bonds[i].dst).sort((x, y) => bonds[x].dst - bonds[y].dst);
    const perm = [...closing, ...opening, ...idx.filter((i) => !bonds[i].ring)];
    let inversions = 0;
    for (let i = 0; i < perm.length; i++) for (let j = i + 1; j < perm.length; j++) if (perm[i] > perm[j]) inversions++;
    if (inversions % 2) a.chirality = a.chirality === '@' ? '@@' : '@';
  }
  return mol.roots.map((r) => fragmentSymbols(mol, null, r).join('')).join('.');
}

function fragmentSymbols(mol: Graph, into: Bond | null, root: number): string[] {
  const out: string[] = [];
  let bondIn = into, curr = root;
  for (;;) {
    out.push(`[${bondIn ? bondText(bondIn) : ''}${atomText(mol.atoms[curr], false)}]`);
    const bonds = mol.out[curr] as Bond[];
    let next = -1;
    bonds.forEach((b, i) => {
      if (b.ring) {
        if (b.src < b.dst) return; // written at the partner, which comes later
        const q = indexSymbols(b.src - b.dst - 1);
        const rev = mol.bond(b.dst, b.src)!;
        const mark = rev.order !== 1 || (!rev.stereo && !b.stereo) ? bondText(rev, false) : (rev.stereo ?? '-') + (b.stereo ?? '-');
        out.push(`[${mark}Ring${q.length}]`, ...q);
      } else if (i === bonds.length - 1) {
        bondIn = b; next = b.dst;
      } else {
        const branch = fragmentSymbols(mol, b, b.dst);
        const q = indexSymbols(branch.length - 1);
        out.push(`[${bondText(b, false)}Branch${q.length}]`, ...q);
        for (const sym of branch) out.push(sym); // a spread of a huge branch would overflow the stack
      }
    });
    if (next < 0) return out;
    curr = next;
  }
}

// ------------------------------------------------------------------------------- decoder

const SELFIES_ATOM = /^\[([=#/\\]?)(\d*)([A-Z][a-z]?)(@{0,2})((?:H\d)?)((?:[+-][1-9]+)?)\]$/;
const BRANCH = new Map<string, [number, number]>();
const RING = new Map<string, [number, number, Stereo, Stereo]>();
for (let L = 1; L <= 3; L++) {
  for (const c of ['', '=', '#']) {
    const [order, stereo] = toBond(c);
    BRANCH.set(`[${c}Branch${L}]`, [order, L]);
    RING.set(`[${c}Ring${L}]`, [order, L, stereo, stereo]);
  }
  for (const l of ['-', '/', '\\']) for (const r of ['-', '/', '\\']) {
    if (l === '-' && r === '-') continue;
    RING.set(`[${l}${r}Ring${L}]`, [1, L, toBond(l)[1], toBond(r)[1]]);
  }
}

function decodeAtom(sym: string, whole: string): { order: number; stereo: Stereo; atom: Atom } {
  const m = SELFIES_ATOM.exec(sym);
  const bad = () => new SelfiesError(`invalid symbol '${sym}'\n\tSELFIES: ${whole}`);
  if (!m) throw bad();
  const [, bond, iso, element, chir, hs, chg] = m;
  const [order, stereo] = toBond(bond);
  const inner = sym.slice(1 + bond.length, -1);
  const atom: Atom = ORGANIC.has(inner)
    ? { element, aromatic: false, charge: 0, index: -1 }
    : { element, aromatic: false, isotope: iso ? Number(iso) : undefined, chirality: chir || undefined,
      h: hs ? Number(hs.slice(1)) : 0, charge: chg ? Number(chg) : 0, index: -1 };
  if (!ELEMENTS.has(element) || capacity(atom) < 0) throw bad();
  return { order, stereo, atom };
}

interface RingRequest { left: Atom; right: Atom; order: number; ls: Stereo; rs: Stereo }

/** SELFIES → SMILES (reference decoder's writing order); '' when the string holds no atom. */
export function decodeSelfies(selfies: string): string {
  const mol = new Graph();
  const rings: RingRequest[] = [];
  for (const fragment of selfies.split('.')) {
    const symbols: string[] = [];
    let at = fragment.indexOf('[');
    while (at >= 0 && at < fragment.length) {
      const close = fragment.indexOf(']', at + 1);
      if (close < 0) throw new SelfiesError("malformed SELFIES string, hanging '[' bracket");
      const s = fragment.slice(at, close + 1);
      if (s !== '[nop]') symbols.push(s);
      at = close + 1;
    }
    derive(symbols, { i: 0 }, mol, Infinity, 0, null, rings, selfies);
  }
  const made = new Array(mol.atoms.length).fill(0);
  for (const { left, right, order: wanted, ls, rs } of rings) {
    if (left.index === right.index) continue;
    const lfree = capacity(left) - mol.count[left.index], rfree = capacity(right) - mol.count[right.index];
    if (lfree <= 0 || rfree <= 0) continue;
    const order = Math.min(wanted, lfree, rfree);
    if (mol.hasBond(left.index, right.index)) {
      mol.setOrder(left.index, right.index, Math.min(order + mol.bond(left.index, right.index)!.order, 3));
    } else {
      mol.addRingBond(left.index, right.index, order, ls, rs, made[left.index]++, made[right.index]++);
    }
  }
  const ringNumbers = new Map<number, number>();
  return mol.roots.map((r) => writeSmiles(mol, r, ringNumbers).join('')).join('.');
}

function derive(syms: string[], pos: { i: number }, mol: Graph, max: number, init: number, root: Atom | null,
  rings: RingRequest[], whole: string): number {
  let n = 0, state = init, prev = root;
  const index = (len: number) => {
    let q = 0;
    for (let k = 0; k < len; k++) q = q * 16 + (INDEX_CODE.get(syms[pos.i++] ?? '') ?? 0);
    return q;
  };
  while (n < max && pos.i < syms.length) {
    const sym = syms[pos.i++];
    n++;
    let next: number | null = state;
    if (sym.slice(-4, -2) === 'ch') {
      const branch = BRANCH.get(sym);
      if (!branch) throw new SelfiesError(`invalid symbol '${sym}'\n\tSELFIES: ${whole}`);
      if (state > 1) {
        const start = Math.min(state - 1, branch[0]);
        next = state - start;
        const q = index(branch[1]);
        n += branch[1] + derive(syms, pos, mol, q + 1, start, prev, rings, whole);
      }
    } else if (sym.slice(-4, -2) === 'ng') {
      const ring = RING.get(sym);
      if (!ring) throw new SelfiesError(`invalid symbol '${sym}'\n\tSELFIES: ${whole}`);
      if (state > 0) {
        const order = Math.min(ring[0], state);
        next = state - order || null;
        const q = index(ring[1]);
        n += ring[1];
        rings.push({ left: mol.atoms[Math.max(0, prev!.index - (q + 1))], right: prev!, order, ls: ring[2], rs: ring[3] });
      }
    } else if (sym.includes('eps')) {
      next = state === 0 ? 0 : null;
    } else {
      const { order: wanted, stereo, atom } = decodeAtom(sym, whole);
      const cap = capacity(atom);
      const order = state === 0 ? 0 : Math.min(wanted, state, cap);
      next = cap - order || null;
      if (order > 0) {
        mol.addAtom(atom, false);
        mol.addBond(prev!.index, atom.index, order, stereo);
      } else if (state === 0) {
        mol.addAtom(atom, true);
      }
      prev = atom;
    }
    if (next === null) break;
    state = next;
  }
  for (; n < max && pos.i < syms.length; n++) pos.i++; // a chain that stopped early drops its rest
  return n;
}

/** Writes one fragment depth-first like the reference writer; a stack, so long chains cannot overflow. */
function writeSmiles(mol: Graph, root: number, ringNumbers: Map<number, number>): string[] {
  const out: string[] = [];
  const stack: { at: number; next: number }[] = [];
  const enter = (at: number) => { out.push(atomText(mol.atoms[at], true)); stack.push({ at, next: 0 }); };
  enter(root);
  while (stack.length) {
    const frame = stack[stack.length - 1];
    const bonds = mol.out[frame.at] as Bond[];
    if (frame.next === bonds.length) {
      stack.pop();
      const parent = stack[stack.length - 1];
      if (parent && parent.next - 1 < mol.out[parent.at].length - 1) out.push(')'); // closes a branch
      continue;
    }
    const i = frame.next++;
    const b = bonds[i];
    if (b.ring) {
      const key = Math.min(b.src, b.dst) * 1_000_000 + Math.max(b.src, b.dst);
      if (!ringNumbers.has(key)) ringNumbers.set(key, ringNumbers.size + 1);
      const rnum = ringNumbers.get(key)!;
      out.push(bondText(b), rnum >= 10 ? `%${rnum}` : String(rnum));
      continue;
    }
    if (i < bonds.length - 1) out.push('(');
    out.push(bondText(b));
    enter(b.dst);
  }
  return out;
}
