/**
 * The SMARTS reader of the JavaScript matcher (smarts-match.ts): a query becomes per-atom and
 * per-bond predicates over the match graph (match-graph.ts), with RDKit's meanings (listed in
 * smarts-match.ts). What is not read here (component grouping, reaction syntax, chirality classes)
 * throws SmartsError, so a query is never matched with a meaning it does not have.
 */
import { elementSymbol } from './formula.ts';
import { AROMATIC_BOND, type MatchGraph } from './match-graph.ts';

/** Compiles the inside of `$(...)` into the predicate "a match starts at this atom". */
export type Recursive = (smarts: string) => AtomPred;

export type AtomPred = (g: MatchGraph, i: number) => boolean;
export type BondPred = (g: MatchGraph, b: number) => boolean;

export interface Query {
  readonly smarts: string;
  readonly atoms: AtomPred[];
  /** The query atom each atom is bonded to in the written order; -1 for the first of a component. */
  readonly parent: number[];
  /** The bond to `parent`. */
  readonly bond: BondPred[];
  /** Ring-closure bonds, checked when their later atom `b` is placed. */
  readonly closures: { a: number; b: number; pred: BondPred }[];
  /** Scratch of a search: the placed atoms and the molecule atoms in use (cleared after each). */
  map: Int32Array;
  used: Uint8Array;
}

const SYMBOL_Z = new Map(Array.from({ length: 118 }, (_, i) => [elementSymbol(i + 1), i + 1] as const));
const ORGANIC: Record<string, number> = { B: 5, C: 6, N: 7, O: 8, F: 9, P: 15, S: 16, Cl: 17, Br: 35, I: 53 };
const AROMATIC_SYMBOL: Record<string, number> = { b: 5, c: 6, n: 7, o: 8, p: 15, s: 16, se: 34, as: 33, te: 52 };
const PRIMITIVE_LETTERS = 'HDXRrvxh';

const element = (z: number, aromatic?: boolean): AtomPred =>
  aromatic === undefined ? (g, i) => g.z[i] === z : (g, i) => g.z[i] === z && (g.aromatic[i] === 1) === aromatic;

const and = (l: AtomPred, r: AtomPred): AtomPred => (g, i) => l(g, i) && r(g, i);
const or = (l: AtomPred, r: AtomPred): AtomPred => (g, i) => l(g, i) || r(g, i);

export class SmartsError extends Error {
  constructor(smarts: string, what: string) {
    super(`SMARTS ${smarts}: ${what}`);
  }
}

/** Reads the inside of one bracket atom. Precedence: `;` < `,` < `&` (or nothing) < `!`. */
class AtomParser {
  private i = 0;
  constructor(
    private readonly s: string,
    private readonly whole: string,
    private readonly recursive: Recursive,
  ) {}

  parse(): AtomPred {
    const e = this.chain(';', () => this.chain(',', () => this.conj(), or), and);
    if (this.i !== this.s.length) this.fail(`unexpected "${this.s[this.i]}"`);
    return e;
  }

  private fail(what: string): never {
    throw new SmartsError(this.whole, what);
  }

  private chain(sep: string, next: () => AtomPred, join: typeof and): AtomPred {
    let e = next();
    while (this.s[this.i] === sep) {
      this.i++;
      e = join(e, next());
    }
    return e;
  }

  private conj(): AtomPred {
    let e = this.unary();
    for (;;) {
      const c = this.s[this.i];
      if (c === '&') this.i++;
      else if (c === undefined || c === ',' || c === ';') return e;
      e = and(e, this.unary());
    }
  }

  private unary(): AtomPred {
    if (this.s[this.i] !== '!') return this.primitive();
    this.i++;
    const e = this.unary();
    return (g, i) => !e(g, i);
  }

  private number(): number | undefined {
    const start = this.i;
    while (this.s[this.i] >= '0' && this.s[this.i] <= '9') this.i++;
    return this.i === start ? undefined : Number(this.s.slice(start, this.i));
  }

  private primitive(): AtomPred {
    const s = this.s;
    const start = this.i;
    const c = s[this.i++];
    if (c === undefined) this.fail('empty atom expression');
    if (c === '$') {
      if (s[this.i] !== '(') this.fail('"$" without "("');
      let depth = 0, j = this.i;
      do {
        if (s[j] === '(') depth++;
        else if (s[j] === ')') depth--;
        j++;
      } while (depth > 0 && j < s.length);
      if (depth !== 0) this.fail('unclosed recursive SMARTS');
      const inner = this.recursive(s.slice(this.i + 1, j - 1));
      this.i = j;
      return inner;
    }
    if (c === '#') {
      const z = this.number();
      if (z === undefined) this.fail('"#" without an atomic number');
      return element(z);
    }
    if (c === '*') return () => true;
    if (c >= '0' && c <= '9') {
      this.i = start;
      const mass = this.number()!;
      return (g, i) => g.isotope[i] === mass;
    }
    const next = s[this.i] ?? '';
    if (next >= 'a' && next <= 'z') {
      const two = c + next;
      const z2 = SYMBOL_Z.get(two) ?? AROMATIC_SYMBOL[two];
      // Element symbols are read before primitives, as RDKit's lexer does ([Rh] is rhodium).
      if (z2 !== undefined) {
        this.i++;
        return element(z2, c === c.toLowerCase());
      }
    }
    // A bracket that starts with H and holds nothing but a charge is a hydrogen atom ([H], [H+]).
    if (c === 'H' && start === 0 && /^[+-]*\d*$/.test(s.slice(1))) return element(1, false);
    if (c === 'a') return (g, i) => g.aromatic[i] === 1;
    if (c === 'A') return (g, i) => g.aromatic[i] === 0;
    if (c in AROMATIC_SYMBOL) return element(AROMATIC_SYMBOL[c], true);
    if (PRIMITIVE_LETTERS.includes(c)) return this.counted(c);
    if (c >= 'A' && c <= 'Z' && SYMBOL_Z.has(c)) return element(SYMBOL_Z.get(c)!, false);
    if (c === '+' || c === '-') {
      let count = 1;
      while (s[this.i] === c) {
        this.i++;
        count++;
      }
      const charge = (c === '+' ? 1 : -1) * (this.number() ?? count);
      return (g, i) => g.charge[i] === charge;
    }
    if (c === '@') {
      while (s[this.i] === '@') this.i++;
      return () => true;
    }
    return this.fail(`"${c}" is not read here`);
  }

  /** H D X R r v x h, with or without their number. */
  private counted(c: string): AtomPred {
    const n = this.number();
    switch (c) {
      case 'H': { const k = n ?? 1; return (g, i) => g.hs[i] === k; }
      case 'h': return n === undefined ? (g, i) => g.implicitHs[i] > 0 : (g, i) => g.implicitHs[i] === n;
      case 'D': { const k = n ?? 1; return (g, i) => g.degree[i] === k; }
      case 'X': { const k = n ?? 1; return (g, i) => g.degree[i] + g.implicitHs[i] === k; }
      case 'v': { const k = n ?? 1; return (g, i) => g.valence[i] === k; }
      case 'R': return n === undefined ? (g, i) => g.rings[i] > 0 : (g, i) => g.rings[i] === n;
      case 'r': return n === undefined ? (g, i) => g.rings[i] > 0 : (g, i) => g.minRing[i] === n;
      default: return n === undefined ? (g, i) => g.ringBonds[i] > 0 : (g, i) => g.ringBonds[i] === n;
    }
  }
}

const SINGLE_OR_AROMATIC: BondPred = (g, b) => g.bondType[b] === 1 || g.bondType[b] === AROMATIC_BOND;

/** A bond expression: `-` `=` `#` `:` `~` `@` `/` `\` with `!` `&` `,` `;`. */
function bondPred(text: string, smarts: string): BondPred {
  if (text === '') return SINGLE_OR_AROMATIC;
  const prim = (c: string): BondPred => {
    switch (c) {
      case '-': case '/': case '\\': return (g, b) => g.bondType[b] === 1;
      case '=': return (g, b) => g.bondType[b] === 2;
      case '#': return (g, b) => g.bondType[b] === 3;
      case ':': return (g, b) => g.bondType[b] === AROMATIC_BOND;
      case '~': return () => true;
      case '@': return (g, b) => g.bondInRing[b] === 1;
      default: throw new SmartsError(smarts, `bond "${c}" is not read here`);
    }
  };
  const unary = (t: string): BondPred => {
    if (t.startsWith('!')) {
      const e = unary(t.slice(1));
      return (g, b) => !e(g, b);
    }
    if (t.length !== 1) throw new SmartsError(smarts, `bond "${text}" is not read here`);
    return prim(t);
  };
  const conj = (t: string): BondPred => {
    // Implicit `&` between primitives (`-!@`): split before each primitive not preceded by `!`.
    const parts = t.split('&').flatMap((p) => p.match(/!*[^!]/g) ?? []);
    return parts.map(unary).reduce((l, r) => (g, b) => l(g, b) && r(g, b));
  };
  const disj = (t: string) => t.split(',').map(conj).reduce((l, r) => (g, b) => l(g, b) || r(g, b));
  return text.split(';').map(disj).reduce((l, r) => (g, b) => l(g, b) && r(g, b));
}

export function parseSmarts(smarts: string, recursive: Recursive): Query {
  const q: Query = { smarts, atoms: [], parent: [], bond: [], closures: [], map: new Int32Array(0), used: new Uint8Array(0) };
  const open = new Map<number, { atom: number; bond: string }>();
  const branches: number[] = [];
  let prev = -1, bond = '', i = 0;
  const add = (pred: AtomPred) => {
    q.parent.push(prev);
    q.bond.push(bondPred(bond, smarts));
    prev = q.atoms.push(pred) - 1;
    bond = '';
  };
  while (i < smarts.length) {
    const c = smarts[i];
    const two = smarts.slice(i, i + 2);
    if (c === '[') {
      let end = i + 1;
      for (let depth = 1; end < smarts.length; end++) {
        if (smarts[end] === '[') depth++;
        else if (smarts[end] === ']' && --depth === 0) break;
      }
      if (end >= smarts.length) throw new SmartsError(smarts, 'unclosed "["');
      add(new AtomParser(smarts.slice(i + 1, end).replace(/:\d+$/, ''), smarts, recursive).parse());
      i = end + 1;
    } else if (two === 'Cl' || two === 'Br') {
      add(element(ORGANIC[two], false));
      i += 2;
    } else if (c in ORGANIC) {
      add(element(ORGANIC[c], false));
      i++;
    } else if (c === 'b' || c === 'c' || c === 'n' || c === 'o' || c === 's' || c === 'p') {
      add(element(AROMATIC_SYMBOL[c], true));
      i++;
    } else if (c === '*' || c === 'a' || c === 'A') {
      add(new AtomParser(c, smarts, recursive).parse());
      i++;
    } else if ('-=#:~@!/\\,;&'.includes(c)) {
      bond += c;
      i++;
    } else if (c === '(') {
      branches.push(prev);
      i++;
    } else if (c === ')') {
      if (branches.length === 0) throw new SmartsError(smarts, 'unbalanced ")"');
      prev = branches.pop()!;
      bond = '';
      i++;
    } else if (c === '.') {
      // A further component: its first atom may be any atom not used by the others.
      if (prev < 0 || branches.length > 0 || bond !== '') throw new SmartsError(smarts, 'misplaced "."');
      prev = -1;
      i++;
    } else if ((c >= '0' && c <= '9') || c === '%') {
      const label = c === '%' ? Number(smarts.slice(i + 1, i + 3)) : Number(c);
      i += c === '%' ? 3 : 1;
      if (prev < 0) throw new SmartsError(smarts, 'ring closure before any atom');
      const o = open.get(label);
      if (o) {
        q.closures.push({ a: o.atom, b: prev, pred: bondPred(bond || o.bond, smarts) });
        open.delete(label);
      } else {
        open.set(label, { atom: prev, bond });
      }
      bond = '';
    } else {
      throw new SmartsError(smarts, `"${c}" is not read here`);
    }
  }
  if (q.atoms.length === 0 || open.size > 0 || branches.length > 0) throw new SmartsError(smarts, 'incomplete');
  q.map = new Int32Array(q.atoms.length);
  return q;
}
