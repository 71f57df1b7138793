/**
 * The drawing clean-up of the ChEMBL pipeline (standardizer.cleanup_drawing_mol): in a 2D
 * drawing, the atoms around an acyclic triple bond and the central atom of an acyclic allene
 * are straightened to 180 degrees when they are more than one degree off, by rotating the part
 * of the molecule beyond the second neighbour about the centre (RDKit's SetAngleRad). Only
 * coordinates change.
 */
import { neighbourLists, ringBonds, type Molfile, type Neighbour } from './molfile.ts';
import { elementNumber } from './elements.ts';

const TOLERANCE = 0.017;

/** A drawing whose atoms lie in the z = 0 plane (the clean-up is defined for 2D drawings only). */
export function isFlat(m: Molfile): boolean {
  return m.atoms.every((a) => Math.abs(a.z) < 0.0001);
}

/** Atoms reachable from `start` without passing through `centre`; undefined if that leads back to it. */
function sideOf(nbrs: Neighbour[][], centre: number, start: number): number[] | undefined {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length) {
    const a = queue.shift()!;
    for (const { atom } of nbrs[a]) {
      if (atom === centre) {
        if (a !== start) return undefined;
        continue;
      }
      if (!seen.has(atom)) {
        seen.add(atom);
        queue.push(atom);
      }
    }
  }
  return [...seen];
}

function straighten(m: Molfile, nbrs: Neighbour[][], i: number, j: number, k: number): void {
  const c = m.atoms[j];
  const ux = m.atoms[i].x - c.x;
  const uy = m.atoms[i].y - c.y;
  const vx = m.atoms[k].x - c.x;
  const vy = m.atoms[k].y - c.y;
  if ((ux === 0 && uy === 0) || (vx === 0 && vy === 0)) return;
  const angle = Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  if (Math.abs(Math.abs(angle) - Math.PI) <= TOLERANCE) return;
  const side = sideOf(nbrs, j, k);
  if (!side) return;
  // Turn the k side away from i until the angle i-j-k is a straight line.
  const delta = (angle >= 0 ? 1 : -1) * Math.PI - angle;
  const cos = Math.cos(delta);
  const sin = Math.sin(delta);
  for (const a of side) {
    const p = m.atoms[a];
    const dx = p.x - c.x;
    const dy = p.y - c.y;
    p.x = c.x + dx * cos - dy * sin;
    p.y = c.y + dx * sin + dy * cos;
  }
}

export function cleanupDrawing(m: Molfile): void {
  if (!isFlat(m)) return;
  const nbrs = neighbourLists(m);
  const inRing = ringBonds(m);
  m.bonds.forEach((b, idx) => {
    if (b.order !== 3 || inRing[idx]) return;
    for (const at of [b.a, b.b]) {
      if (nbrs[at].length === 2) straighten(m, nbrs, nbrs[at][0].atom, at, nbrs[at][1].atom);
    }
  });
  m.atoms.forEach((a, centre) => {
    if (elementNumber(a.symbol) !== 6 || nbrs[centre].some((n) => inRing[n.bond])) return;
    const doubles = nbrs[centre].filter((n) => m.bonds[n.bond].order === 2);
    if (doubles.length === 2) straighten(m, nbrs, doubles[0].atom, centre, doubles[1].atom);
  });
}
