/**
 * Compares an operation's answer with the expected answer of its registry example
 * (`OpExample.expected`, shared/ops/types.ts): the same comparison for the REST body and for the
 * MCP tool's text, so both surfaces are held to the same independent reference.
 */
import type { Expected, MolblockShape, SvgShape } from '../../shared/ops/types.ts';

/** The answer as the comparison sees it: parsed JSON for JSON media types, the text otherwise. */
export function answerOf(mediaType: string, text: string): unknown {
  return /application\/json/.test(mediaType) ? JSON.parse(text) : text;
}

/** Every difference between `actual` and `expected`, as `path: what` lines (none: the answer is right). */
export function mismatches(expected: Expected, actual: unknown, path = '$'): string[] {
  const show = (v: unknown) => JSON.stringify(v)?.slice(0, 200);
  if (expected === null || typeof expected !== 'object') {
    return expected === actual ? [] : [`${path}: expected ${show(expected)}, got ${show(actual)}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, got ${show(actual)}`];
    if (actual.length !== expected.length) return [`${path}: expected ${expected.length} items, got ${actual.length}: ${show(actual)}`];
    return expected.flatMap((e, i) => mismatches(e, actual[i], `${path}[${i}]`));
  }
  if ('$fields' in expected) return objectMismatches(expected.$fields as Record<string, Expected>, actual, path, false);
  if ('$unordered' in expected) return unorderedMismatches(expected.$unordered as Expected[], actual, path);
  if ('$molblock' in expected) return typeof actual === 'string' ? molblockMismatches(expected.$molblock as MolblockShape, actual, path) : [`${path}: expected a molblock, got ${show(actual)}`];
  if ('$svg' in expected) return typeof actual === 'string' ? svgMismatches(expected.$svg as SvgShape, actual, path) : [`${path}: expected SVG, got ${show(actual)}`];
  if ('$html' in expected) return typeof actual === 'string' ? htmlMismatches((expected.$html as { molblock: MolblockShape }).molblock, actual, path) : [`${path}: expected HTML, got ${show(actual)}`];
  if ('$cxsmiles' in expected) return cxsmilesMismatches(expected.$cxsmiles as { smiles: string; lengths: [number, number, number][] }, actual, path);
  return objectMismatches(expected as Record<string, Expected>, actual, path, true);
}

function objectMismatches(expected: Record<string, Expected>, actual: unknown, path: string, exact: boolean): string[] {
  if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return [`${path}: expected an object, got ${JSON.stringify(actual)?.slice(0, 200)}`];
  const a = actual as Record<string, unknown>;
  const out = Object.entries(expected).flatMap(([k, v]) => (k in a ? mismatches(v, a[k], `${path}.${k}`) : [`${path}.${k}: missing`]));
  if (exact) {
    for (const k of Object.keys(a)) if (!(k in expected)) out.push(`${path}.${k}: not expected (${JSON.stringify(a[k])?.slice(0, 100)})`);
    // Key order is part of an answer too (the COCONUT descriptor set has a fixed order).
    if (out.length === 0 && Object.keys(a).join() !== Object.keys(expected).join()) out.push(`${path}: keys in the order ${Object.keys(a).join()}, expected ${Object.keys(expected).join()}`);
  }
  return out;
}

function unorderedMismatches(expected: Expected[], actual: unknown, path: string): string[] {
  if (!Array.isArray(actual) || actual.length !== expected.length) return [`${path}: expected ${expected.length} items in any order, got ${JSON.stringify(actual)?.slice(0, 200)}`];
  const left = [...actual];
  for (const e of expected) {
    const i = left.findIndex((x) => mismatches(e, x).length === 0);
    if (i < 0) return [`${path}: no member matches ${JSON.stringify(e)} in ${JSON.stringify(actual).slice(0, 200)}`];
    left.splice(i, 1);
  }
  return [];
}

interface ParsedMolblock {
  dim: string;
  atoms: { symbol: string; xyz: [number, number, number] }[];
  bonds: [number, number, number][];
}

/** The header's dimension code, the atom block and the bond block of a V2000 molblock. */
export function parseMolblock(text: string): ParsedMolblock | undefined {
  const lines = text.split('\n');
  const counts = lines[3];
  if (!counts || !/V2000/.test(counts)) return undefined;
  const nAtoms = Number(counts.slice(0, 3));
  const nBonds = Number(counts.slice(3, 6));
  const atoms = lines.slice(4, 4 + nAtoms).map((l) => ({
    symbol: l.slice(31, 34).trim(),
    xyz: [Number(l.slice(0, 10)), Number(l.slice(10, 20)), Number(l.slice(20, 30))] as [number, number, number],
  }));
  const bonds = lines.slice(4 + nAtoms, 4 + nAtoms + nBonds).map((l) => [Number(l.slice(0, 3)), Number(l.slice(3, 6)), Number(l.slice(6, 9))] as [number, number, number]);
  return { dim: (lines[1] ?? '').slice(20, 22), atoms, bonds };
}

const bondKey = ([a, b, order]: [number, number, number]) => `${Math.min(a, b)}-${Math.max(a, b)}:${order}`;
const distance = (p: number[], q: number[]) => Math.hypot(...p.map((v, i) => v - q[i]));

function molblockMismatches(shape: MolblockShape, text: string, path: string): string[] {
  const mol = parseMolblock(text);
  if (!mol) return [`${path}: not a V2000 molblock: ${JSON.stringify(text.slice(0, 120))}`];
  const out: string[] = [];
  if (mol.dim !== shape.dim) out.push(`${path}: dimension ${JSON.stringify(mol.dim)}, expected ${shape.dim}`);
  if (shape.dim === '2D' && mol.atoms.some((a) => a.xyz[2] !== 0)) out.push(`${path}: 2D but z is not 0`);
  const symbols = mol.atoms.map((a) => a.symbol);
  if (symbols.join(' ') !== shape.atoms.join(' ')) out.push(`${path}: atoms ${symbols.join(' ')}, expected ${shape.atoms.join(' ')}`);
  const got = mol.bonds.map(bondKey).sort();
  const want = shape.bonds.map(bondKey).sort();
  if (got.join(' ') !== want.join(' ')) out.push(`${path}: bonds ${got.join(' ')}, expected ${want.join(' ')}`);
  if (shape.lengths && out.length === 0) {
    const tolerance = shape.tolerance ?? 0.01;
    shape.bonds.forEach(([a, b], i) => {
      const length = distance(mol.atoms[a - 1].xyz, mol.atoms[b - 1].xyz);
      if (Math.abs(length - shape.lengths![i]) > tolerance) out.push(`${path}: bond ${a}-${b} is ${length.toFixed(3)} Å, expected ${shape.lengths![i]} ± ${tolerance}`);
    });
  }
  return out;
}

function svgMismatches(shape: SvgShape, svg: string, path: string): string[] {
  const out: string[] = [];
  const size = /<svg[^>]*\swidth='(\d+)px'[^>]*\sheight='(\d+)px'/.exec(svg);
  if (!size || Number(size[1]) !== shape.width || Number(size[2]) !== shape.height) out.push(`${path}: size ${size?.slice(1).join('x')}, expected ${shape.width}x${shape.height}`);
  const bonds = [...new Set([...svg.matchAll(/class='bond-\d+ atom-(\d+) atom-(\d+)'/g)].map((m) => `${m[1]}-${m[2]}`))].sort();
  const want = shape.bonds.map(([a, b]) => `${a}-${b}`).sort();
  if (bonds.join(' ') !== want.join(' ')) out.push(`${path}: bonds drawn ${bonds.join(' ')}, expected ${want.join(' ')}`);
  const labels = [...new Set([...svg.matchAll(/class='atom-(\d+)'/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  if (labels.join(' ') !== shape.labels.join(' ')) out.push(`${path}: atoms labelled ${labels.join(' ')}, expected ${shape.labels.join(' ')}`);
  return out;
}

function htmlMismatches(shape: MolblockShape, html: string, path: string): string[] {
  if (!/^<!DOCTYPE html>[\s\S]*<\/html>\s*$/i.test(html)) return [`${path}: not an HTML page`];
  const literal = /"((?:[^"\\\n]|\\.)*M {2}END(?:[^"\\\n]|\\.)*)"/.exec(html);
  if (!literal) return [`${path}: the page embeds no molblock`];
  return molblockMismatches(shape, JSON.parse(`"${literal[1]}"`) as string, `${path} (embedded molblock)`);
}

function cxsmilesMismatches(shape: { smiles: string; lengths: [number, number, number][] }, actual: unknown, path: string): string[] {
  const m = typeof actual === 'string' ? /^(\S+) \|\(([^)]*)\)\|$/.exec(actual) : null;
  if (!m) return [`${path}: expected a CXSMILES with coordinates, got ${JSON.stringify(actual)}`];
  const out: string[] = [];
  if (m[1] !== shape.smiles) out.push(`${path}: SMILES ${m[1]}, expected ${shape.smiles}`);
  const xyz = m[2].split(';').map((p) => p.split(',').map((v) => Number(v || 0)));
  for (const [a, b, length] of shape.lengths) {
    const got = xyz[a - 1] && xyz[b - 1] ? distance(xyz[a - 1], xyz[b - 1]) : NaN;
    if (!(Math.abs(got - length) <= 0.01)) out.push(`${path}: atoms ${a}-${b} ${got.toFixed(3)} apart, expected ${length}`);
  }
  return out;
}
