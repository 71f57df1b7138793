/**
 * (Over 300 lines on purpose: one geometric procedure, InChI's, kept whole so it can be read against its source step by step.)
 *
 * InChI's reading of one possible stereocentre or one end of a double bond from its bond
 * vectors: pure geometry, no molecule. checker-stereo.ts applies it to every element of a drawing.
 */
// ---------------------------------------------------------------------------------------------
// "Ambiguous stereo": InChI's reading of wedges and double-bond geometry.
//
// InChI turns each wedge whose narrow end sits on a possible stereocentre into a bond rising (or,
// for a hash, falling) at 45 degrees, all bonds scaled to unit length, and reads the parity from
// the tetrahedron of the bond ends. A drawing is "ambiguous" when that reading is fragile: the
// bonds are (nearly) coplanar, the wedges contradict each other or sit where a flat drawing
// cannot place them (e.g. two adjacent Up wedges out of four, one Up wedge with the flat bonds on
// either side nearly opposite), the centre lies outside the tetrahedron of its bond ends, or the
// tetrahedron is close to flat. Some of these readings also leave the parity undefined. For a
// double bond, one end is ambiguous when its substituent is within 5 degrees of the line of the
// double bond, or when all its bonds fit in a half-plane. The warning is reported only for an
// element InChI keeps as stereogenic whose configuration is not "unknown" (wavy bond).
// The numeric thresholds below are those of InChI's stereo perception (InChI software,
// INCHI_BASE/src/ichister.c, IUPAC and InChI Trust); the rules were checked against the InChI
// executable on test/fixtures/inchi_ambiguous_stereo.sdf.gz.
// ---------------------------------------------------------------------------------------------

export type V3 = [number, number, number];
export const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const len = (a: V3) => Math.hypot(a[0], a[1], a[2]);
const scale = (a: V3, k: number): V3 => [a[0] * k, a[1] * k, a[2] * k];
const triple = (a: V3, b: V3, c: V3) => dot(cross(a, b), c);
const TWO_PI = 2 * Math.PI;
/** An angle brought into [0, 2pi). */
const turn = (a: number) => (a < 0 ? a + TWO_PI : a);

/** Angular tolerance (radians, about 5.7 degrees) of the rules for flat drawings with wedges. */
const MIN_ANGLE = 0.1;
/** Smallest sine of an edge-to-face angle of the bond tetrahedron (also used as an angle in radians). */
const MIN_SINE = 0.03;
/** Double-bond substituents closer than this (5 degrees, as a difference from 180) to the bond line are ambiguous. */
const MIN_ANGLE_DOUBLE_BOND = 0.087156;
/** Relative volume by which the centre may lie outside the tetrahedron of its bond ends. */
const MIN_SINE_OUTSIDE = 0.06;
/** Near-flat tetrahedra: edge-to-face sine limits (absolute, and per unit of the shortest edge). */
const MIN_SINE_SQUARE = 0.125;
const MIN_SINE_EDGE = 0.167;
/** Longest tetrahedron edge from which two bonds count as drawn in a straight line. */
const MIN_LEN_STRAIGHT = 1.9;
/** Longest to shortest tetrahedron edge below which the near-flat tests apply. */
const MAX_EDGE_RATIO = 2.5;
export const MIN_BOND_LEN = 1e-6;
const ZERO_FLOAT = 1e-12;
const ZERO_ANGLE = 1e-6;
/** 3D test for double-bond ends (|z| of a unit bond beyond sin 45 degrees). */
const MAX_SINE = Math.SQRT1_2;
/** Two in-plane bonds between an Up and a Down wedge must differ from opposite by more than this. */
const IN_PLANE_PAIR = 2 * Math.atan2(1, Math.sqrt(7));

export type Parity = 'none' | 'unknown' | 'undefined' | 'defined';
export interface Reading {
  parity: Parity;
  ambiguous: boolean;
  /** Undefined because a bond (or the bond added for an implicit H) is too short: where InChI falls back on a configuration given without coordinates. */
  short?: boolean;
  /** Double-bond end: the normal of the plane of its bond ends, in hundredths as InChI rounds it. */
  normal?: V3;
}

/** Both ends of a double bond must lie in planes within 60 degrees of each other (InChI: |normal . normal| >= 50 in hundredths). */
const MIN_NORMAL_DOT = 50;

export function normalsAgree(a: V3, b: V3): boolean {
  const d = Math.trunc((a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / 100);
  return Math.abs(Math.max(-100, Math.min(100, d))) >= MIN_NORMAL_DOT;
}

/** Sine of the angle between c and the plane of a and b, signed; 0 when degenerate. */
function planeSine(a: V3, b: V3, c: V3): number {
  const ab = cross(a, b);
  const lc = len(c);
  const lab = len(ab);
  return lc > 1e-7 && lab > 1e-7 ? dot(ab, c) / (lc * lab) : 0;
}

/** Whether three vectors from one point (nearly) lie in a plane through it. */
function flatTriple(v: V3[]): boolean {
  const s = Math.min(...[0, 1, 2].map((k) => Math.abs(planeSine(v[k], v[(k + 1) % 3], v[(k + 2) % 3]))));
  return s <= MIN_SINE;
}

/** Whether four points (nearly) lie in a plane. */
function flatQuadruple(p: V3[]): boolean {
  return [0, 1, 2, 3].some((k) => flatTriple(p.filter((_, i) => i !== k).map((q) => sub(q, p[k]))));
}

const FLAT_OK = 1;
const FLAT_WARN = 2;
const FLAT_UNDEFINED = 4;

/**
 * How a flat drawing of three or four bonds with wedges fixes a centre: FLAT_OK, with FLAT_WARN
 * when the drawing is ambiguous, or FLAT_UNDEFINED (| FLAT_WARN) when it fixes nothing.
 */
function flatDrawing(v: V3[]): number {
  const n = v.length;
  const direction = v.map((p) => turn(Math.atan2(p[1], p[0])));
  let sign = v.map((p) => Math.sign(p[2]));
  let up = sign.filter((s) => s > 0).length;
  const down = sign.filter((s) => s < 0).length;
  if (up < down) {
    sign = sign.map((s) => -s);
    up = down;
  }
  const anyDown = sign.some((s) => s < 0);
  if (!up) return FLAT_UNDEFINED;
  // Bonds sorted by direction (stable), then the longest circular run of Up bonds.
  const order = [...Array(n).keys()];
  for (let i = 1; i < n; i++) {
    for (let j = i; j > 0 && direction[order[j - 1]] > direction[order[j]]; j--) [order[j - 1], order[j]] = [order[j], order[j - 1]];
  }
  let first = 0;
  let run = up === n ? n : 0;
  if (up < n) {
    let start = 0;
    let current = 0;
    for (let i = 0, inRun = false; i < n || inRun; i++) {
      if (sign[order[i % n]] > 0) {
        if (!inRun) start = i % n;
        current = inRun ? current + 1 : 1;
        inRun = true;
      } else if (inRun) {
        if (current > run) [first, run] = [start, current];
        inRun = false;
      }
    }
  }
  // An Up bond in exactly the direction of the bond just after (or before) the run joins the run.
  for (const after of [true, false]) {
    for (let i = 1; i < n - run && n - run >= 2; i++) {
      const far = after ? (first + run + i) % n : (first + n - i - 1) % n;
      const near = after ? (first + run) % n : (first + n - 1) % n;
      if (sign[order[far]] > 0 && Math.abs(direction[order[near]] - direction[order[far]]) < ZERO_ANGLE) {
        [order[near], order[far]] = [order[far], order[near]];
        if (!after) first = near;
        run++;
        break;
      }
    }
  }
  // Directions measured from the first Up bond of the run.
  const base = direction[order[first]];
  const rel = direction.map((d, i) => (i === order[first] ? 0 : turn(d - base)));
  const at = (k: number) => rel[order[(first + k) % n]];
  let out: number;
  if (n === 3) {
    if (up === 3 || (up === 2 && !anyDown)) out = FLAT_OK;
    else if (up === 1) {
      out = !anyDown && Math.abs(turn(at(2) - at(1)) - Math.PI) > MIN_ANGLE ? FLAT_OK : FLAT_UNDEFINED | FLAT_WARN;
    } else {
      // Two Up, one Down: the Up bonds must be far apart, or the Down bond near their outer bisector.
      const alpha = turn(at(1) - at(0));
      if (alpha > Math.PI - MIN_ANGLE) out = FLAT_OK;
      else if (alpha < TWO_PI / 3 - MIN_ANGLE) out = FLAT_UNDEFINED | FLAT_WARN;
      else {
        const bisector = turn((at(0) + at(1)) / 2 - Math.PI);
        const limit = alpha < TWO_PI / 3 + MIN_ANGLE ? 1.5 * MIN_ANGLE : 1.5 * alpha - Math.PI;
        out = Math.abs(bisector - at(2)) > limit ? FLAT_UNDEFINED | FLAT_WARN : FLAT_OK;
      }
    }
    return out;
  }
  if (n !== 4) return -1;
  if (up === 1) {
    if (anyDown && sign[order[(first + 2) % n]] < 0) {
      // Up, flat, Down, flat: the two flat bonds must not be close to opposite.
      out = Math.abs(turn(at(3) - at(1)) - Math.PI) < IN_PLANE_PAIR + MIN_ANGLE ? FLAT_UNDEFINED | FLAT_WARN : FLAT_OK;
    } else if (anyDown) out = FLAT_OK;
    else out = turn(at(3) - at(1)) < Math.PI - MIN_ANGLE ? FLAT_OK | FLAT_WARN : FLAT_OK;
  } else if (up === 2) {
    if (run === 1) out = FLAT_OK;
    else {
      const gapOut = Math.abs(TWO_PI - (at(3) - at(0)));
      const gapIn = Math.abs(at(2) - at(1));
      const touching = (gapOut < 2 * ZERO_ANGLE && gapIn > MIN_ANGLE) || (gapIn < 2 * ZERO_ANGLE && gapOut > MIN_ANGLE);
      out = touching ? FLAT_OK | FLAT_WARN : FLAT_UNDEFINED | FLAT_WARN;
    }
  } else if (up === 3) out = turn(at(2) - at(0)) < Math.PI - MIN_ANGLE ? FLAT_OK | FLAT_WARN : FLAT_OK;
  else out = FLAT_UNDEFINED | FLAT_WARN;
  if (out === FLAT_OK) {
    // All four bonds within a half-plane (a gap wider than 180 degrees) is ambiguous too.
    for (let i = 0; i < n; i++) {
      if (turn(rel[order[(i + n - 1) % n]] - rel[order[i]]) < Math.PI - MIN_ANGLE) return out | FLAT_WARN;
    }
  }
  return out;
}

/**
 * The tetrahedron test on four unit bond vectors (the fourth, when added for an implicit H or a
 * lone pair, keeps its length): returns the smallest edge-to-face sine, forced below the limit for
 * near-flat shapes, and whether the shape is ambiguous.
 */
function tetrahedron(v: V3[], added: boolean): { prod: number; minSine: number; ambiguous: boolean } {
  const t = [sub(v[1], v[0]), sub(v[2], v[0]), sub(v[3], v[0])];
  const centre = scale(v[0], -1);
  const prod = triple(t[0], t[1], t[2]);
  const sine = Math.abs(planeSine(t[0], t[1], t[2]));
  if (sine <= MIN_SINE) return { prod, minSine: sine, ambiguous: false };
  // Edges from the first bond end to the others (e0x), and among the others (exy); edges that
  // touch the added fourth bond end do not count in the edge-ratio test.
  const e01 = len(t[0]);
  const e02 = len(t[1]);
  const e03 = len(t[2]);
  const e12 = len(sub(t[1], t[0]));
  const e13 = len(sub(t[0], t[2]));
  const e23 = len(sub(t[2], t[1]));
  const drawn = [e01, e02, e12];
  const all = [...drawn, e03, e13, e23];
  const shortest = Math.min(...(added ? drawn : all));
  const even = Math.max(...(added ? drawn : all)) < MAX_EDGE_RATIO * shortest;
  // Edge-to-face sines: the height of each vertex over the opposite face over each of its edges.
  const p = Math.abs(prod);
  const h1 = p / len(cross(t[1], t[2]));
  const h2 = p / len(cross(t[0], t[2]));
  const h3 = p / len(cross(t[0], t[1]));
  const h0 = p / len(cross(sub(t[2], t[1]), sub(t[0], t[2])));
  let minSine = Math.min(h1 / e12, h1 / e13, h1 / e01, h2 / e12, h2 / e23, h2 / e02, h3 / e13, h3 / e23, h3 / e03, h0 / e01, h0 / e02, h0 / e03);
  const smallest = minSine;
  let ambiguous = false;
  if (smallest >= MIN_SINE) {
    // The centre outside the tetrahedron of its bond ends (beyond a margin) is ambiguous.
    const faces = [triple(t[0], t[1], centre), triple(t[1], t[2], centre), triple(t[2], t[0], centre), triple(sub(t[1], t[0]), sub(t[0], t[2]), sub(centre, t[0]))];
    ambiguous = faces.some((f) => f / prod < -MIN_SINE_OUTSIDE);
  }
  const nearSquare = even && !added && Math.max(...all) >= MIN_LEN_STRAIGHT && smallest < MIN_SINE_SQUARE;
  const nearFlat = even && smallest < MIN_SINE_SQUARE && smallest < MIN_SINE_EDGE * shortest;
  if (nearSquare || nearFlat) {
    minSine = MIN_SINE / 2;
    ambiguous = true;
  }
  return { prod, minSine, ambiguous };
}

/**
 * InChI's reading of a possible stereocentre from its bond vectors (neighbour minus centre, z from
 * a wedge or from 3D coordinates): `addFourth` when an implicit H or a lone pair completes the
 * four, `wedges` how many bonds carry a z, `flat` when those come from wedges.
 */
export function readCentre(bonds: V3[], addFourth: boolean, wedges: number, flat: boolean): Reading {
  const undefinedAs = (ambiguous: boolean): Reading => ({ parity: 'undefined', ambiguous });
  const v = bonds.map((b) => [...b] as V3);
  const lengths = v.map(len);
  if (Math.min(...lengths) < MIN_BOND_LEN) return undefinedAs(false);
  let shortest = Math.min(...lengths);
  let longest = Math.max(...lengths);
  if (shortest / longest < MIN_SINE) return undefinedAs(false);
  v.forEach((b, j) => { v[j] = scale(b, 1 / lengths[j]); });
  if (!wedges) return undefinedAs(false);
  if (addFourth) {
    if (flatTriple(v)) return undefinedAs(true);
    const fourth = scale([v[0][0] + v[1][0] + v[2][0], v[0][1] + v[1][1] + v[2][1], v[0][2] + v[1][2] + v[2][2]], -1);
    const l = len(fourth);
    if (l > 1) longest *= l;
    else shortest *= l;
    if (l < MIN_BOND_LEN || shortest / longest < MIN_SINE) return undefinedAs(false);
    v.push(fourth);
  } else if (flatQuadruple(v)) return undefinedAs(true);
  let ambiguous = false;
  let drawing = 0;
  if (flat) {
    drawing = flatDrawing(v.slice(0, bonds.length));
    if (drawing < 0) return undefinedAs(true);
    if (drawing & FLAT_WARN) ambiguous = true;
    if (drawing & FLAT_UNDEFINED) return undefinedAs(ambiguous);
  }
  const tet = tetrahedron(v, addFourth);
  ambiguous ||= tet.ambiguous;
  const settled = tet.minSine > MIN_SINE || (Math.abs(tet.minSine) > ZERO_FLOAT && (drawing & FLAT_OK) !== 0);
  if (Math.abs(tet.prod) > ZERO_FLOAT && settled) return { parity: 'defined', ambiguous };
  return undefinedAs(true);
}

/** InChI's reading of one end of a double bond from its bond vectors (the partner included). */
export function readBondEnd(bonds: V3[]): Reading {
  const undefinedAs: Reading = { parity: 'undefined', ambiguous: false };
  const v = bonds.map((b) => [...b] as V3);
  // With two bonds, a third (an implicit H or a lone pair) points away from both.
  if (v.length === 2) v.push(scale([v[0][0] + v[1][0], v[0][1] + v[1][1], v[0][2] + v[1][2]], -1));
  if (v.length !== 3) return { parity: 'none', ambiguous: false };
  const lengths = v.map(len);
  if (Math.min(...lengths) < MIN_BOND_LEN || Math.min(...lengths) < MIN_SINE * Math.max(...lengths)) return { ...undefinedAs, short: true };
  v.forEach((b, j) => { v[j] = scale(b, 1 / lengths[j]); });
  // The plane through the three bond ends, its normal pointing to +z.
  const edges = [0, 1, 2].map((j) => sub(v[j], v[(j + 1) % 3]));
  const edgeLengths = edges.map(len);
  if (Math.min(...edgeLengths) < MIN_SINE) return undefinedAs;
  const unit = edges.map((e, j) => scale(e, 1 / edgeLengths[j]));
  let k = 0;
  for (let j = 1; j < 3; j++) if (len(cross(unit[j], unit[(j + 1) % 3])) > len(cross(unit[k], unit[(k + 1) % 3]))) k = j;
  let normal = cross(unit[k], unit[(k + 1) % 3]);
  const nl = len(normal);
  if (nl < MIN_SINE * edgeLengths[k] * edgeLengths[(k + 1) % 3]) return undefinedAs;
  normal = scale(normal, (normal[2] > 0 ? 1 : -1) / nl);
  const hundredths = normal.map((x) => (x >= 0 ? Math.floor(0.5 + 100 * x) : -Math.floor(0.5 - 100 * x))) as V3;
  // Bond directions projected on that plane, as angles counterclockwise from the first bond.
  const height = dot(v[0], normal);
  const xAxis = sub(v[0], scale(normal, height));
  const x = scale(xAxis, 1 / len(xAxis));
  const y = cross(normal, x);
  const flatV = v.map((b) => [dot(b, x), dot(b, y)]);
  const [b1, b2] = [flatV[1], flatV[2]];
  const s12 = Math.abs(b1[0] * b2[1] - b1[1] * b2[0]) / (Math.hypot(...b1) * Math.hypot(...b2));
  const c12 = (b1[0] * b2[0] + b1[1] * b2[1]) / (Math.hypot(...b1) * Math.hypot(...b2));
  if (s12 < MIN_SINE && c12 > 0.5) return undefinedAs;
  const a1 = turn(Math.atan2(b1[1], b1[0]) - Math.atan2(flatV[0][1], flatV[0][0]));
  const a2 = turn(Math.atan2(b2[1], b2[0]) - Math.atan2(flatV[0][1], flatV[0][0]));
  if (bonds.length === 3) {
    // Three bonds: ambiguous when they fit in a half-plane (one angular gap of 180 degrees or more).
    const lo = Math.min(a1, a2);
    const hi = Math.max(a1, a2);
    const halfPlane = lo > Math.PI - MIN_SINE || hi < Math.PI + MIN_SINE || hi - lo > Math.PI - MIN_SINE;
    // (In 3D, a first bond steeper than 45 degrees to the plane of the bond ends is ambiguous too.)
    return { parity: 'defined', ambiguous: halfPlane || Math.abs(height) / Math.hypot(...flatV[0]) > MAX_SINE, normal: hundredths };
  }
  // Two bonds: the substituent (nearly) in line with the double bond.
  const offLine = Math.abs(a1 - Math.PI);
  if (offLine < MIN_SINE) return undefinedAs;
  return { parity: 'defined', ambiguous: offLine < MIN_ANGLE_DOUBLE_BOND, normal: hundredths };
}
