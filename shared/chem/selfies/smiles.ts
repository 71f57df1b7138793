/**
 * The SMILES reader of the SELFIES encoder (selfies.ts). It keeps what a SELFIES string needs and
 * RDKit would discard: the written atom order, each atom's out-bond order (ring digits where they
 * stand, then branches, then the chain) and aromatic bonds to kekulise later, with the same
 * errors the Python `selfies` 2.2 reader raises.
 */
import { AROMATIC, type Atom, ELEMENTS, Graph, ORGANIC, SelfiesError, type Stereo } from './graph.ts';

export const BOND_ORDER: Record<string, number> = { '-': 1, '/': 1, '\\': 1, ':': 1.5, '=': 2, '#': 3 };
export const toBond = (c: string | undefined): [number, Stereo] =>
  [c ? (BOND_ORDER[c] ?? 1) : 1, c === '/' || c === '\\' ? c : undefined];

// ------------------------------------------------------------------------------- SMILES reading

type Token = { kind: 'atom' | 'branch' | 'ring' | 'dot'; text: string; bond?: string };

function tokenize(smiles: string): Token[] {
  const fail = (why: string) => { throw new SelfiesError(`failed to parse input: ${why}\n\tSMILES: ${smiles}`); };
  const out: Token[] = [];
  let i = 0;
  while (i < smiles.length) {
    if (smiles[i] === '.') { out.push({ kind: 'dot', text: '.' }); i++; continue; }
    let bond: string | undefined;
    if (smiles[i] in BOND_ORDER) bond = smiles[i++];
    if (i === smiles.length) fail('hanging bond');
    const c = smiles[i];
    let tok: Token;
    if (/[A-Za-z]/.test(c)) {
      const two = smiles.slice(i, i + 2);
      tok = { kind: 'atom', text: two === 'Br' || two === 'Cl' ? two : c, bond };
    } else if (c === '[') {
      const r = smiles.indexOf(']', i + 1);
      if (r < 0) fail('hanging bracket [');
      tok = { kind: 'atom', text: smiles.slice(i, r + 1), bond };
    } else if (c === '(' || c === ')') {
      if (bond !== undefined) fail('hanging bond');
      tok = { kind: 'branch', text: c };
    } else if (/[0-9]/.test(c)) {
      tok = { kind: 'ring', text: c, bond };
    } else if (c === '%') {
      if (!/^[0-9]{2}$/.test(smiles.slice(i + 1, i + 3))) fail(`invalid ring number '%${smiles.slice(i + 1, i + 3)}'`);
      tok = { kind: 'ring', text: smiles.slice(i, i + 3), bond };
    } else {
      fail(`unrecognized symbol '${c}'`);
    }
    out.push(tok!);
    i += tok!.text.length;
  }
  return out;
}

const BRACKET_ATOM = /^\[(\d*)([A-Za-z][a-z]?)(@{0,2})((?:H\d?)?)((?:\++|-+|[+-]\d+)?)((?::\d+)?)\]$/;

function readAtom(sym: string): Atom | undefined {
  if (!sym.startsWith('[')) {
    if (ORGANIC.has(sym)) return { element: sym, aromatic: false, charge: 0, index: -1 };
    if (AROMATIC.has(sym)) return { element: sym.toUpperCase(), aromatic: true, charge: 0, index: -1 };
    return undefined;
  }
  const m = BRACKET_ATOM.exec(sym);
  if (!m) return undefined;
  const [, iso, el, chir, hs, chg] = m;
  const element = el[0].toUpperCase() + el.slice(1).toLowerCase();
  if (!ELEMENTS.has(element)) return undefined;
  let charge = 0;
  if (chg) charge = (chg[0] === '+' ? 1 : -1) * (/\d$/.test(chg) ? Number(chg.slice(1)) : chg.length);
  return {
    element, aromatic: el === el.toLowerCase() && AROMATIC.has(el), charge, index: -1,
    isotope: iso ? Number(iso) : undefined, chirality: chir || undefined, h: hs ? (hs.length > 1 ? Number(hs.slice(1)) : 1) : 0,
  };
}

export function smilesToGraph(smiles: string): Graph {
  const fail = (why: string) => { throw new SelfiesError(`failed to parse input: ${why}\n\tSMILES: ${smiles}`); };
  if (smiles === '') fail('empty SMILES');
  const tokens = tokenize(smiles);
  const mol = new Graph();
  let t = 0;
  while (t < tokens.length) {
    const prev: (Atom | null)[] = [null];
    let open = 0, chainStart = true;
    const rings = new Map<string, { bond?: string; atom: Atom; pos: number }>();
    while (t < tokens.length) {
      const tok = tokens[t++];
      const last = prev[prev.length - 1];
      if (tok.kind === 'dot') break;
      if (tok.kind === 'atom') {
        const atom = readAtom(tok.text);
        if (!atom) fail(`invalid atom symbol '${tok.text}'`);
        mol.addAtom(atom!, last === null);
        if (last) {
          const bond = toBond(tok.bond);
          let order = bond[0];
          const stereo = bond[1];
          if (last.aromatic && atom!.aromatic && tok.bond === undefined) order = 1.5;
          mol.addBond(last.index, atom!.index, order, stereo);
        }
        prev[prev.length - 1] = atom!;
        chainStart = false;
      } else if (chainStart) {
        fail('SMILES chain begins with non-atom');
      } else if (tok.kind === 'branch') {
        if (tok.text === '(') { open++; prev.push(last); chainStart = true; } else {
          if (open === 0) fail("hanging ')' bracket");
          open--; prev.pop();
        }
      } else {
        const left = rings.get(tok.text);
        if (!left) { rings.set(tok.text, { bond: tok.bond, atom: last!, pos: mol.addPlaceholder(last!.index) }); continue; }
        rings.delete(tok.text);
        if (mol.hasBond(left.atom.index, last!.index)) fail('ring bond specified between already-bonded atoms');
        const pair = left.bond === undefined ? [tok.bond, left.bond] : [left.bond, tok.bond];
        const stereoPair = pair.every((b) => b === '/' || b === '\\');
        if (!(pair[0] === pair[1] || pair[1] === undefined || stereoPair)) fail('mismatched ring bonds');
        const [lo, ls] = toBond(left.bond), [ro, rs] = toBond(tok.bond);
        let order = Math.max(lo, ro);
        if (left.atom.aromatic && last!.aromatic && pair[0] === undefined) order = 1.5;
        mol.addRingBond(left.atom.index, last!.index, order, ls, rs, left.pos);
      }
    }
    if (mol.atoms.length === 0) fail('empty SMILES fragment');
    if (open > 0) fail("hanging '(' bracket");
    if (rings.size > 0) fail(`hanging ring number '${[...rings.keys()].pop()}'`);
  }
  return mol;
}
