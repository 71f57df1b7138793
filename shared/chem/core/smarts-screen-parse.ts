/**
 * The SMARTS reader of the substructure screen (smarts-screen.ts): each atom becomes a
 * three-valued predicate over what the screen knows of a molecule atom, each bond a set of
 * allowed bond types. Only the primitives listed there are evaluated; the rest are "unknown".
 * Anything not understood throws Unscreenable internally and the pattern is not screened.
 */
import { elementSymbol } from './formula.ts';

/** 0 false, 1 unknown, 2 true. */
export type Tri = 0 | 1 | 2;

/** What the screen knows of an atom. Charges beyond ±2 are "unknown"; rings counts from 3 are "3+". */
export interface AtomClass {
  z: number;
  aromatic: boolean;
  charge: number | undefined;
  labelled: boolean;
  rings: number;
}
export type AtomExpr = (c: AtomClass) => Tri;

/** Molecule bond classes: single, double, triple, aromatic; anything else is "other". */
export const SINGLE = 1, DOUBLE = 2, TRIPLE = 3, AROMATIC = 4, OTHER = 0;

export interface ParsedScreen {
  atoms: AtomExpr[];
  /** Query bonds: atom indices and the molecule bond types (bit t for type t) each may match. */
  edges: { a: number; b: number; types: number }[];
}

const not = (x: Tri): Tri => (2 - x) as Tri;
const and = (x: Tri, y: Tri): Tri => (x < y ? x : y);
const or = (x: Tri, y: Tri): Tri => (x > y ? x : y);
const bool = (b: boolean): Tri => (b ? 2 : 0);
const UNKNOWN: AtomExpr = () => 1;

const ORGANIC: Record<string, number> = { B: 5, C: 6, N: 7, O: 8, F: 9, P: 15, S: 16, Cl: 17, Br: 35, I: 53 };
const AROMATIC_SYMBOL: Record<string, number> = { b: 5, c: 6, n: 7, o: 8, p: 15, s: 16 };
/** Elements whose upper/lower-case spelling certainly means aliphatic/aromatic in RDKit. */
const STRICT_AROMATICITY = new Set([6, 7, 8, 15, 16]);

/** Every element symbol by spelling, for bracket atoms ([Na], [Hg], [se] ...). */
const SYMBOL_Z = new Map(Array.from({ length: 118 }, (_, i) => [elementSymbol(i + 1), i + 1] as const));
const BRACKET_PRIMITIVE_LETTERS = 'HDXRrvxh';

/**
 * An element written with its case: the atomic number is certain; the aromaticity implied by
 * the case is certain for C, N, O, P, S and otherwise left unknown when it differs.
 */
function element(z: number, aromatic: boolean | undefined): AtomExpr {
  return (c) => {
    if (c.z !== z) return 0;
    if (aromatic === undefined || c.aromatic === aromatic) return 2;
    return STRICT_AROMATICITY.has(z) ? 0 : 1;
  };
}

class Unscreenable extends Error {}

/** Parser of the inside of one bracket atom: `;` < `,` < implicit/explicit `&` < `!`. */
class BracketParser {
  private i = 0;
  constructor(private readonly s: string) {}

  parse(): AtomExpr {
    const e = this.low();
    if (this.i !== this.s.length) throw new Unscreenable();
    return e;
  }

  /** One precedence level: `next` operands joined by `sep`. */
  private chain(sep: string, next: () => AtomExpr, join: typeof and): AtomExpr {
    let e = next();
    while (this.s[this.i] === sep) {
      this.i++;
      const l = e, r = next();
      e = (c) => join(l(c), r(c));
    }
    return e;
  }

  private low(): AtomExpr {
    return this.chain(';', () => this.orExpr(), and);
  }

  private orExpr(): AtomExpr {
    return this.chain(',', () => this.highAnd(), or);
  }

  private highAnd(): AtomExpr {
    let e = this.unary();
    for (;;) {
      const ch = this.s[this.i];
      if (ch === '&') this.i++;
      else if (ch === undefined || ch === ',' || ch === ';' || ch === ')') break;
      const l = e, r = this.unary();
      e = (c) => and(l(c), r(c));
    }
    return e;
  }

  private unary(): AtomExpr {
    if (this.s[this.i] === '!') {
      this.i++;
      const e = this.unary();
      return (c) => not(e(c));
    }
    return this.primitive();
  }

  private digits(): void {
    while (/[0-9]/.test(this.s[this.i] ?? '')) this.i++;
  }

  private number(): number | undefined {
    const start = this.i;
    this.digits();
    return this.i === start ? undefined : Number(this.s.slice(start, this.i));
  }

  private primitive(): AtomExpr {
    const s = this.s;
    const c = s[this.i];
    if (c === undefined) throw new Unscreenable();
    if (c === '$' && s[this.i + 1] === '(') {
      // Recursive SMARTS: it can only hold where its first atom does; otherwise unknown.
      const start = this.i + 2;
      this.i++;
      let depth = 0;
      do {
        if (s[this.i] === '(') depth++;
        else if (s[this.i] === ')') depth--;
        this.i++;
      } while (depth > 0 && this.i < s.length);
      if (depth !== 0) throw new Unscreenable();
      const root = firstAtom(s.slice(start, this.i - 1));
      return (a) => (root(a) === 0 ? 0 : 1);
    }
    this.i++;
    if (c === '#') {
      const z = this.number();
      if (z === undefined) throw new Unscreenable();
      return element(z, undefined);
    }
    if (c === '*') return () => 2;
    // Two-letter symbols first: RDKit's lexer reads element symbols before primitives
    // (checked: [Rh] is rhodium, not R&h; [Cr] chromium, [Ar] argon).
    const next = s[this.i] ?? '';
    const two = c + next;
    const z2 = !/^[a-z]$/.test(next) ? undefined
      : SYMBOL_Z.get(two) ?? (two === 'se' || two === 'as' || two === 'te' ? SYMBOL_Z.get(c.toUpperCase() + next) : undefined);
    if (z2 !== undefined) {
      this.i++;
      return element(z2, c !== c.toUpperCase());
    }
    if (c === 'a') return (a) => bool(a.aromatic);
    // `A` (aliphatic) is left unknown on hydrogens, whose treatment varies between toolkits.
    if (c === 'A') return (a) => (a.aromatic ? 0 : a.z === 1 ? 1 : 2);
    if (c in AROMATIC_SYMBOL) return element(AROMATIC_SYMBOL[c], true);
    if (/[A-Z]/.test(c) && !BRACKET_PRIMITIVE_LETTERS.includes(c) && SYMBOL_Z.has(c)) return element(SYMBOL_Z.get(c)!, false);
    if (c === 'R') {
      // Ring membership count (RDKit: numAtomRings of its ring info, which the JSON lists).
      const n = this.number();
      if (n === undefined) return (a) => bool(a.rings > 0);
      return (a) => (a.rings < 3 ? bool(a.rings === n) : n >= 3 ? 1 : 0);
    }
    if (BRACKET_PRIMITIVE_LETTERS.includes(c)) {
      this.digits();
      return UNKNOWN;
    }
    if (/[0-9]/.test(c)) {
      // Isotope: an unlabelled atom has none; a label's mass number is not in the inventory.
      this.i--;
      const mass = this.number()!;
      return (a) => (a.labelled || mass === 0 ? 1 : 0);
    }
    if (c === '+' || c === '-') {
      let count = 1;
      while (s[this.i] === c) {
        this.i++;
        count++;
      }
      const n = this.number();
      const charge = (c === '+' ? 1 : -1) * (n ?? count);
      return (a) => (a.charge === undefined ? 1 : bool(a.charge === charge));
    }
    if (c === '@' && !/[A-Za-z]/.test(s[this.i] ?? '')) {
      if (s[this.i] === '@') this.i++;
      return UNKNOWN;
    }
    throw new Unscreenable();
  }
}

/** The expression of the first atom of a SMARTS (the root of a recursive SMARTS). */
function firstAtom(smarts: string): AtomExpr {
  const c = smarts[0];
  if (c === '[') {
    let end = 1;
    for (let depth = 1; end < smarts.length; end++) {
      if (smarts[end] === '[') depth++;
      else if (smarts[end] === ']' && --depth === 0) break;
    }
    if (end >= smarts.length) throw new Unscreenable();
    return new BracketParser(smarts.slice(1, end).replace(/:\d+$/, '')).parse();
  }
  if (smarts.startsWith('Cl') || smarts.startsWith('Br')) return element(ORGANIC[smarts.slice(0, 2)], false);
  if (c in ORGANIC) return element(ORGANIC[c], false);
  if (c in AROMATIC_SYMBOL) return element(AROMATIC_SYMBOL[c], true);
  if (c === '*' || c === 'a' || c === 'A') return new BracketParser(c).parse();
  throw new Unscreenable();
}

const bits = (...types: number[]) => types.reduce((m, t) => m | (1 << t), 0);
const ANY_BOND = bits(OTHER, SINGLE, DOUBLE, TRIPLE, AROMATIC);
/** Molecule bond types a plain bond symbol matches; other bond expressions match any type. */
const BOND_TYPES: Record<string, number> = {
  '': bits(SINGLE, AROMATIC), '-': bits(SINGLE), '=': bits(DOUBLE), '#': bits(TRIPLE), ':': bits(AROMATIC),
};
/** The types of a bond written `text`; "other" molecule bonds (zero-order, dative ...) stay possible. */
const bondTypes = (text: string) => (BOND_TYPES[text] ?? ANY_BOND) | bits(OTHER);

/**
 * The atoms and bonds of one SMARTS as the screen reads them (ring closures and component
 * grouping are left out: fewer constraints, still necessary), or undefined when the SMARTS
 * uses syntax the screen does not read. Each bond comes with the bit mask of the molecule bond
 * types it may match.
 */
export function parseScreen(smarts: string): ParsedScreen | undefined {
  const atoms: AtomExpr[] = [];
  const edges: ParsedScreen['edges'] = [];
  const branches: number[] = [];
  let prev = -1;
  let bond = '';
  let i = 0;
  const addAtom = (e: AtomExpr) => {
    const idx = atoms.push(e) - 1;
    if (prev >= 0) edges.push({ a: prev, b: idx, types: bondTypes(bond) });
    prev = idx;
    bond = '';
  };
  try {
    while (i < smarts.length) {
      const c = smarts[i];
      if (c === '[') {
        // Recursive SMARTS nest brackets: find the matching one.
        let end = i + 1;
        for (let depth = 1; end < smarts.length; end++) {
          if (smarts[end] === '[') depth++;
          else if (smarts[end] === ']' && --depth === 0) break;
        }
        if (end >= smarts.length) throw new Unscreenable();
        // An atom-map number (`:n` at the end) is no constraint.
        addAtom(new BracketParser(smarts.slice(i + 1, end).replace(/:\d+$/, '')).parse());
        i = end + 1;
      } else if ((c === 'C' && smarts[i + 1] === 'l') || (c === 'B' && smarts[i + 1] === 'r')) {
        addAtom(element(ORGANIC[c + smarts[i + 1]], false));
        i += 2;
      } else if (c in ORGANIC) {
        addAtom(element(ORGANIC[c], false));
        i++;
      } else if (c in AROMATIC_SYMBOL) {
        addAtom(element(AROMATIC_SYMBOL[c], true));
        i++;
      } else if (c === '*' || c === 'a' || c === 'A') {
        addAtom(new BracketParser(c).parse());
        i++;
      } else if ('-=#:~@!/\\,;&'.includes(c)) {
        bond += c;
        i++;
      } else if (c === '(') {
        branches.push(prev);
        i++;
      } else if (c === ')') {
        if (branches.length === 0) throw new Unscreenable();
        prev = branches.pop()!;
        bond = '';
        i++;
      } else if (/[0-9%]/.test(c)) {
        // Ring closures add constraints the screen may ignore; the bond written before belongs to them.
        i += c === '%' ? 3 : 1;
        bond = '';
      } else if (c === '.') {
        prev = -1;
        bond = '';
        i++;
      } else {
        throw new Unscreenable();
      }
    }
  } catch (e) {
    if (e instanceof Unscreenable) return undefined;
    throw e;
  }
  return atoms.length === 0 ? undefined : { atoms, edges };
}
