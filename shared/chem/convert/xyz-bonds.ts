/**
 * Bond perception from 3D coordinates, natprod's TypeScript port of the two tiers the original
 * service runs through RDKit's `rdDetermineBonds` (CM 3.11 `convert_xyz_to_mol`; RDKit's C++
 * xyz2mol, after Kim & Kim 2015 and Jensen's xyz2mol), written from the algorithm, not copied:
 *
 * - connectivity: RDKit's ConnectTheDots, which `DetermineBonds` uses by default: atoms closer
 *   than their covalent radii plus 0.45 Å (and farther than 0.4 Å) are bonded;
 * - bond orders (tier 1): valence combinations in RDKit's order (the last atom's choice varies
 *   fastest); for each, unsaturated bonded pairs are raised by maximum matchings until none is
 *   left; the first combination that saturates every atom with the molecule's charge wins, else
 *   the one with most bond order; formal charges from each atom's valence.
 *
 * Elements come from RDKit's periodic table (data/elements-rdkit.json, written by
 * test/fixtures/scripts/elements_table.py). Used by xyz.ts; docs/convert.md.
 */
import { readFileSync } from 'node:fs';

interface ElementRow { symbol: string; rcov: number; valences: number[]; outer: number }
let table: ElementRow[] | undefined;
let bySymbol: Map<string, number> | undefined;

function elements(): ElementRow[] {
  if (!table) {
    const raw = JSON.parse(readFileSync(new URL('../data/elements-rdkit.json', import.meta.url), 'utf8')) as { elements: [string, number, number[], number][] };
    table = raw.elements.map(([symbol, rcov, valences, outer]) => ({ symbol, rcov, valences, outer }));
    bySymbol = new Map(table.map((e, i) => [e.symbol, i + 1]));
  }
  return table;
}

/** Atomic number of an element symbol as RDKit's XYZ reader takes it, or undefined. */
export function atomicNumber(symbol: string): number | undefined {
  elements();
  return bySymbol!.get(symbol);
}

export const elementSymbol = (z: number): string => elements()[z - 1].symbol;

export interface XyzAtom { z: number; x: number; y: number; zc: number }

/** Bonds `[i, j]` (i < j) by ConnectTheDots' rule. */
export function connectTheDots(atoms: readonly XyzAtom[]): [number, number][] {
  const el = elements();
  const bonds: [number, number][] = [];
  for (let i = 0; i < atoms.length; i++) {
    for (let j = i + 1; j < atoms.length; j++) {
      const a = atoms[i];
      const b = atoms[j];
      // RDKit keeps coordinates as floats here.
      const dx = Math.fround(a.x) - Math.fround(b.x);
      const dy = Math.fround(a.y) - Math.fround(b.y);
      const dz = Math.fround(a.zc) - Math.fround(b.zc);
      const d2 = dx * dx + dy * dy + dz * dz;
      const r = Math.fround(el[a.z - 1].rcov) + Math.fround(el[b.z - 1].rcov) + 0.45;
      if (d2 >= 0.16 && d2 <= 29.7025 && d2 <= r * r) bonds.push([i, j]);
    }
  }
  return bonds;
}

/** Valences xyz2mol tries per element; other elements use RDKit's valence list. */
const XYZ2MOL_VALENCES: Record<number, number[]> = {
  1: [1], 5: [3, 4], 6: [4], 7: [3, 4], 8: [2, 1, 3], 9: [1], 14: [4], 15: [5, 3], 16: [6, 3, 2], 17: [1], 32: [4], 35: [1], 53: [1],
};

export class BondOrderError extends Error {}

function atomCharge(z: number, valence: number): number {
  if (z === 1) return 1 - valence;
  if (z === 5) return 3 - valence;
  if (z === 15 && valence === 5) return 0;
  if (z === 16 && valence === 6) return 0;
  return elements()[z - 1].outer - 8 + valence;
}

/** Formal charges of a bond-order assignment (the carbon rules of xyz2mol included) and their sum. */
function charges(zs: readonly number[], degree: readonly number[], valency: readonly number[], charge: number): { q: number[]; total: number } {
  let total = 0;
  const q = zs.map((z, i) => {
    let c = atomCharge(z, valency[i]);
    total += c;
    if (z === 6) {
      if (degree[i] === 2 && valency[i] === 2) {
        total += 1;
        c = 0;
      } else if (degree[i] === 3 && total + 1 < charge) {
        total += 2;
        c = 1;
      }
    }
    return c;
  });
  return { q, total };
}

/** The molecule's charge as checkCharge counts it (a divalent carbon counts +1 more, as a carbene 2). */
function chargeOf(zs: readonly number[], degree: readonly number[], valency: readonly number[], charge: number): number {
  let total = 0;
  zs.forEach((z, i) => {
    total += atomCharge(z, valency[i]);
    if (z === 6) {
      if (degree[i] === 2 && valency[i] === 2) total += 1;
      else if (degree[i] === 3 && total + 1 < charge) total += 2;
    }
  });
  return total;
}

export interface BondOrders {
  /** Bond orders of the connectivity's bonds, in its order. */
  orders: number[];
  /** Formal charge per atom. */
  charges: number[];
}

/** Most valence combinations tried before giving up (RDKit's default is unbounded), and most time spent on them. */
export const MAX_VALENCE_COMBINATIONS = 20_000;
export const BOND_ORDER_BUDGET_MS = 2000;

/** Tier 1: bond orders and charges for a connectivity, or BondOrderError (then tier 2 answers). */
export function determineBondOrders(zs: readonly number[], bonds: readonly [number, number][], charge: number): BondOrders {
  const n = zs.length;
  const neighbours: number[][] = zs.map(() => []);
  for (const [i, j] of bonds) {
    neighbours[i].push(j);
    neighbours[j].push(i);
  }
  const degree = neighbours.map((x) => x.length);
  const options = zs.map((z, i) => {
    const list = XYZ2MOL_VALENCES[z] ?? elements()[z - 1].valences.filter((v) => v >= 0);
    const ok = list.filter((v) => degree[i] <= v);
    if (ok.length === 0) {
      const known = XYZ2MOL_VALENCES[z];
      throw new BondOrderError(known
        ? `Valence of atom ${i} is ${degree[i]}, which is larger than the allowed maximum, ${known[known.length - 1]}`
        : `no valence of element ${elementSymbol(z)} (atom ${i}) allows ${degree[i]} bonds`);
    }
    return ok;
  });
  const pick = new Array<number>(n).fill(0);
  let best = { ord: bonds.map(() => 1), valency: [...degree], sum: degree.reduce((a, b) => a + b, 0) };
  const bondIndex = new Map(bonds.map(([i, j], k) => [i * n + j, k]));
  const deadline = Date.now() + BOND_ORDER_BUDGET_MS;
  for (let iter = 0; ; iter++) {
    if (iter >= MAX_VALENCE_COMBINATIONS) throw new BondOrderError(`no bond orders found in ${MAX_VALENCE_COMBINATIONS} valence combinations`);
    if (iter % 16 === 15 && Date.now() > deadline) throw new BondOrderError(`no bond orders found in ${BOND_ORDER_BUDGET_MS} ms (${iter} valence combinations)`);
    const order = pick.map((p, i) => options[i][p]);
    const valency = [...degree];
    const ord = bonds.map(() => 1);
    let changed = true;
    while (changed) {
      changed = false;
      const unsat = new Set<number>();
      for (let i = 0; i < n; i++) if (order[i] > valency[i]) unsat.add(i);
      if (unsat.size < 2) break;
      const adj: number[][] = zs.map(() => []);
      for (const [i, j] of bonds) {
        if (unsat.has(i) && unsat.has(j)) {
          adj[i].push(j);
          adj[j].push(i);
        }
      }
      const mate = maximumMatching(adj);
      for (let v = 0; v < n; v++) {
        const w = mate[v];
        if (w > v) {
          ord[bondIndex.get(v * n + w)!]++;
          valency[v]++;
          valency[w]++;
          changed = true;
        }
      }
    }
    const valid = valency.every((v, i) => v <= order[i]) && chargeOf(zs, degree, valency, charge) === charge;
    if (valid) {
      if (valency.every((v, i) => v >= order[i])) return finish(ord, valency);
      const sum = valency.reduce((a, b) => a + b, 0);
      if (sum > best.sum) best = { ord, valency, sum };
    }
    // Next combination: the last atom's choice varies fastest.
    let k = n - 1;
    while (k >= 0 && ++pick[k] === options[k].length) pick[k--] = 0;
    if (k < 0) break;
  }
  return finish(best.ord, best.valency);

  function finish(ord: number[], valency: number[]): BondOrders {
    const { q } = charges(zs, degree, valency, charge);
    const total = q.reduce((a, b) => a + b, 0);
    if (total !== charge) throw new BondOrderError(`the charges of the best bond orders add up to ${total}, not ${charge}: no valid bond ordering`);
    return { orders: ord, charges: q };
  }
}

/**
 * A maximum-cardinality matching of a general graph (Edmonds' blossom algorithm, O(V³)):
 * `mate[v]` is v's partner or -1.
 */
export function maximumMatching(adj: readonly number[][]): number[] {
  const n = adj.length;
  const mate = new Array<number>(n).fill(-1);
  const parent = new Array<number>(n);
  const base = new Array<number>(n);
  const used = new Array<boolean>(n);
  const blossom = new Array<boolean>(n);

  const lca = (a: number, b: number): number => {
    const seen = new Array<boolean>(n).fill(false);
    for (;;) {
      a = base[a];
      seen[a] = true;
      if (mate[a] === -1) break;
      a = parent[mate[a]];
    }
    for (;;) {
      b = base[b];
      if (seen[b]) return b;
      b = parent[mate[b]];
    }
  };
  const markPath = (v: number, b: number, child: number) => {
    while (base[v] !== b) {
      blossom[base[v]] = blossom[base[mate[v]]] = true;
      parent[v] = child;
      child = mate[v];
      v = parent[mate[v]];
    }
  };
  const findPath = (root: number): number => {
    used.fill(false);
    parent.fill(-1);
    for (let i = 0; i < n; i++) base[i] = i;
    used[root] = true;
    const queue = [root];
    for (let qh = 0; qh < queue.length; qh++) {
      const v = queue[qh];
      for (const to of adj[v]) {
        if (base[v] === base[to] || mate[v] === to) continue;
        if (to === root || (mate[to] !== -1 && parent[mate[to]] !== -1)) {
          const cur = lca(v, to);
          blossom.fill(false);
          markPath(v, cur, to);
          markPath(to, cur, v);
          for (let i = 0; i < n; i++) {
            if (blossom[base[i]]) {
              base[i] = cur;
              if (!used[i]) {
                used[i] = true;
                queue.push(i);
              }
            }
          }
        } else if (parent[to] === -1) {
          parent[to] = v;
          if (mate[to] === -1) return to;
          used[mate[to]] = true;
          queue.push(mate[to]);
        }
      }
    }
    return -1;
  };

  // A greedy start, as Boost's matching does, then augmenting paths from every free vertex.
  for (let v = 0; v < n; v++) {
    if (mate[v] !== -1) continue;
    const w = adj[v].find((u) => mate[u] === -1);
    if (w !== undefined) [mate[v], mate[w]] = [w, v];
  }
  for (let v = 0; v < n; v++) {
    if (mate[v] !== -1 || adj[v].length === 0) continue;
    let u = findPath(v);
    while (u !== -1) {
      const pv = parent[u];
      const ppv = mate[pv];
      mate[u] = pv;
      mate[pv] = u;
      u = ppv;
    }
  }
  return mate;
}
