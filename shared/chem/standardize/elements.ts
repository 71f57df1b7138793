/**
 * The element facts the ChEMBL standardizer steps consult, as RDKit's periodic table states
 * them (Code/GraphMol/atomic_data.cpp; checked against python3-rdkit 2022.09 GetValenceList): the allowed valences (the first is the default; -1
 * means "any", as for most metals), and which elements RDKit calls "early" (groups 1, 2 and 13,
 * where a negative charge adds a bond instead of removing one, e.g. [BH4-]).
 */
import { elementSymbol } from '../core/formula.ts';

const NUMBERS = new Map<string, number>();
for (let z = 0; z <= 118; z++) NUMBERS.set(elementSymbol(z), z);

export function elementNumber(symbol: string): number {
  const z = NUMBERS.get(symbol);
  // R groups, pseudo-atoms and query atoms (A, Q, L ...) read as dummies, as RDKit reads them.
  return z === undefined ? 0 : z;
}

const VALENCES: Record<number, number[]> = {
  1: [1], 2: [0], 3: [1], 4: [2], 5: [3], 6: [4], 7: [3], 8: [2], 9: [1], 10: [0],
  11: [1], 12: [2, -1], 13: [3, 6], 14: [4, 6], 15: [3, 5, 7], 16: [2, 4, 6], 17: [1], 18: [0],
  19: [1], 20: [2, -1], 31: [3], 32: [4], 33: [3, 5, 7], 34: [2, 4, 6], 35: [1], 36: [0],
  37: [1], 38: [2, -1], 49: [3], 50: [2, 4], 51: [3, 5, 7], 52: [2, 4, 6], 53: [1, 3, 5], 54: [0, 2, 4, 6],
  55: [1], 56: [2, -1], 81: [3], 82: [2, 4], 83: [3, 5, 7], 84: [2, 4, 6], 85: [1, 3, 5], 86: [0],
  87: [1], 88: [2, -1],
};

/** Allowed valences; `[-1]` for elements RDKit leaves unconstrained. */
export function valenceList(z: number): number[] {
  return VALENCES[z] ?? [-1];
}

export function defaultValence(z: number): number {
  return valenceList(z)[0];
}

const EARLY = new Set([3, 4, 5, 11, 12, 13, 19, 20, 31, 37, 38, 49, 55, 56, 81, 87, 88]);

export function isEarlyAtom(z: number): boolean {
  return EARLY.has(z);
}
