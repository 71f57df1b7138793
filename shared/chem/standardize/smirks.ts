/**
 * The normalization rules are SMIRKS transforms (MolVS style). RDKit finds where the reactant
 * side matches; the product side is read here into edits on the mapped atoms, with the meaning
 * RDKit's reaction runner gives a product template:
 *  - a charge or hydrogen count written in a product atom is set, anything unwritten is kept;
 *  - a bond written between mapped atoms gets that order (no symbol = single);
 *  - a reactant bond between mapped atoms that the product omits is broken.
 * The rules only use bracket atoms, branches and plain bond symbols; anything else (ring
 * closures, unmapped product atoms, dots) is refused when the table is loaded.
 */
import type { Molfile } from './molfile.ts';

export interface TemplateAtom {
  map: number;
  /** Product side only: what the template sets. */
  charge?: number;
  hs?: number;
}

export interface TemplateBond {
  a: number;
  b: number;
  /** Bond text between the atoms ('' when none was written). */
  symbol: string;
}

export interface Template {
  atoms: TemplateAtom[];
  bonds: TemplateBond[];
}

export interface NormalizationRule {
  name: string;
  smirks: string;
  reactantSmarts: string;
  reactant: Template;
  product: Template;
}

function readProductAtom(text: string): Omit<TemplateAtom, 'map'> {
  // e.g. "*+1", "S+1", "O-", "OH0", "NH2", "*-0", "N+0", "C", "*"
  const m = /^(\*|[A-Z][a-z]?|[a-z])(?:H(\d*))?(?:([+-])(\d*))?$/.exec(text);
  if (!m) throw new Error(`unsupported product atom [${text}]`);
  const out: Omit<TemplateAtom, 'map'> = {};
  if (m[2] !== undefined) out.hs = m[2] === '' ? 1 : Number(m[2]);
  if (m[3] !== undefined) out.charge = (m[3] === '+' ? 1 : -1) * (m[4] === '' ? 1 : Number(m[4]));
  return out;
}

/** Parses one side of a SMIRKS made of mapped bracket atoms, branches and bond symbols. */
export function parseTemplate(side: string, isProduct: boolean): Template {
  const atoms: TemplateAtom[] = [];
  const bonds: TemplateBond[] = [];
  const branchStack: number[] = [];
  let prev = -1;
  let bond = '';
  let i = 0;
  while (i < side.length) {
    const c = side[i];
    if (c === '[') {
      const end = side.indexOf(']', i);
      if (end < 0) throw new Error(`unclosed bracket in ${side}`);
      const body = side.slice(i + 1, end);
      const mapMatch = /:(\d+)$/.exec(body);
      if (!mapMatch) throw new Error(`unmapped atom [${body}] in ${side}`);
      const map = Number(mapMatch[1]);
      const atom: TemplateAtom = isProduct ? { map, ...readProductAtom(body.slice(0, mapMatch.index)) } : { map };
      atoms.push(atom);
      const idx = atoms.length - 1;
      if (prev >= 0) bonds.push({ a: prev, b: idx, symbol: bond });
      prev = idx;
      bond = '';
      i = end + 1;
    } else if (c === '(') {
      branchStack.push(prev);
      i++;
    } else if (c === ')') {
      prev = branchStack.pop() ?? -1;
      i++;
    } else if ('-=#:~@!;,&'.includes(c)) {
      bond += c;
      i++;
    } else {
      throw new Error(`unsupported SMIRKS syntax '${c}' in ${side}`);
    }
  }
  return { atoms, bonds };
}

export function parseRule(name: string, smirks: string): NormalizationRule {
  const [left, right, extra] = smirks.split('>>');
  if (left === undefined || right === undefined || extra !== undefined) throw new Error(`not a SMIRKS: ${smirks}`);
  const reactant = parseTemplate(left, false);
  const product = parseTemplate(right, true);
  const maps = new Set(reactant.atoms.map((a) => a.map));
  for (const a of product.atoms) if (!maps.has(a.map)) throw new Error(`product atom :${a.map} has no reactant atom in ${smirks}`);
  return { name, smirks, reactantSmarts: left, reactant, product };
}

function productOrder(symbol: string): number {
  if (symbol === '' || symbol === '-') return 1;
  if (symbol === '=') return 2;
  if (symbol === '#') return 3;
  if (symbol === ':') return 4;
  throw new Error(`unsupported product bond '${symbol}'`);
}

/** Applies the rule at one match (atom indices in reactant-template order), in place. */
export function applyRule(m: Molfile, rule: NormalizationRule, match: number[]): void {
  const target = new Map<number, number>();
  rule.reactant.atoms.forEach((a, i) => target.set(a.map, match[i]));
  for (const pa of rule.product.atoms) {
    const atom = m.atoms[target.get(pa.map)!];
    if (pa.charge !== undefined) atom.charge = pa.charge;
    if (pa.hs !== undefined) atom.hs = pa.hs;
  }
  const findBond = (x: number, y: number) => m.bonds.findIndex((b) => (b.a === x && b.b === y) || (b.a === y && b.b === x));
  const keep = new Set<number>();
  for (const pb of rule.product.bonds) {
    const x = target.get(rule.product.atoms[pb.a].map)!;
    const y = target.get(rule.product.atoms[pb.b].map)!;
    const order = productOrder(pb.symbol);
    let idx = findBond(x, y);
    if (idx < 0) {
      m.bonds.push({ a: x, b: y, order, stereo: 0 });
      idx = m.bonds.length - 1;
    } else if (m.bonds[idx].order !== order) {
      m.bonds[idx].order = order;
      // A wedge or wavy mark means nothing on a bond that is no longer single.
      m.bonds[idx].stereo = 0;
    }
    keep.add(idx);
  }
  const broken = new Set<number>();
  for (const rb of rule.reactant.bonds) {
    const idx = findBond(match[rb.a], match[rb.b]);
    if (idx >= 0 && !keep.has(idx)) broken.add(idx);
  }
  if (broken.size) m.bonds = m.bonds.filter((_, i) => !broken.has(i));
}
