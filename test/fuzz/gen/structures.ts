/**
 * Structure inputs: valid SMILES, molblocks and SELFIES from the corpus, and their hostile
 * relatives: random SMILES-alphabet strings, unbalanced branches and rings, huge and deeply nested
 * structures, long conjugated chains near and beyond the heavy-atom limit, blank and control
 * characters, broken molblocks (wrong counts lines, V3000 without blocks), junk SELFIES.
 */
import { corpus } from '../corpus.ts';
import type { Rng } from '../prng.ts';
import { controlString, hostileString, whitespace } from './values.ts';

const ALPHABET = ['C', 'c', 'N', 'n', 'O', 'o', 'S', 's', 'P', 'F', 'Cl', 'Br', 'I', 'B', 'H', '[', ']', '(', ')', '=', '#', '$', ':', '-', '+', '@', '@@', '/', '\\', '.', '*', '%', '1', '2', '3', '9', '0', '%10', '%99', '[nH]', '[C@@H]', '[O-]', '[N+]', '[13C]', '[2H]', '[Fe+3]', '[Xx]', '[U]', ' |', '|', ' '];

export function validSmiles(rng: Rng): string {
  return rng.pick(corpus().smiles);
}

const TINY = ['CCO', 'c1ccccc1', 'CC(=O)O', 'C1CCCCC1', 'OCC(O)CO', 'CC(C)O', 'N', 'O', 'CN', 'C=C', 'C[C@H](N)C(=O)O', 'OC1=CC=CC=C1'];
let small: string[] | undefined;
/** Tiny structures and the corpus's smallest: for the operations whose cost grows fast with size (3D, tautomers). */
export function smallSmiles(rng: Rng): string {
  small ??= [...corpus().smiles].sort((a, b) => a.length - b.length).slice(0, 10);
  return rng.bool(0.7) ? rng.pick(TINY) : rng.pick(small);
}

export function randomAlphabet(rng: Rng, n = rng.size(200)): string {
  let s = '';
  for (let i = 0; i < n; i++) s += rng.pick(ALPHABET);
  return s;
}

/** A corpus SMILES with characters inserted, deleted or replaced, cut, or duplicated. */
export function mutateSmiles(rng: Rng, s = validSmiles(rng)): string {
  const edits = rng.int(1, 6);
  let out = s;
  for (let i = 0; i < edits; i++) {
    const at = rng.int(0, out.length);
    out = rng.weighted<() => string>([
      [3, () => out.slice(0, at) + rng.pick(ALPHABET) + out.slice(at)],
      [3, () => out.slice(0, at) + out.slice(at + 1)],
      [2, () => out.slice(0, at) + rng.pick(ALPHABET) + out.slice(at + 1)],
      [1, () => out.slice(0, at)],
      [1, () => out + '.' + out],
      [1, () => out.replace(/[()]/, '')],
      [1, () => out.replace(/\d/, '')],
    ])();
  }
  return out;
}

export function unbalanced(rng: Rng): string {
  const s = validSmiles(rng);
  return rng.pick([
    '(' + s, s + ')', '((((C', 'C))))', 'C1CC', 'C1CC2', 'c1ccccc', '[C', 'C]', '[[C]]', 'C(C(C(C', 'C1CCC1C1', 'C%1', 'C%', '%99C', 'C=(C)',
    'C(=)C', 'C((C))', '()', '(C)', 'C)(C', '=C', 'C=', 'C#', '#', '.', '..', 'C..C', '.C', 'C.', '[]', '[H]', '[H+]', '[CH5]', 'C12345678901',
    s.replace(/\)/g, ''), s.replace(/\(/g, ''), s.replace(/[0-9]/, ''), s + '1',
  ]);
}

/** Long, huge and deep: over and under the heavy-atom limit, and over the 100,000-character limit. */
export function huge(rng: Rng, light = false): string {
  // Light: sizes the heavy-atom limit refuses at once, for operations that take minutes on a
  // large valid structure (3D embedding of a 390-membered ring is a documented 504, not a finding).
  const n = light ? rng.pick([401, 1000, 5000]) : rng.pick([50, 200, 390, 399, 401, 1000, 5000]);
  return rng.weighted<() => string>([
    [2, () => 'C'.repeat(rng.pick(light ? [401, 10_000, 100_001] : [399, 400, 401, 10_000, 100_001]))],
    [2, () => 'C=C'.repeat(Math.ceil(n / 2))],
    [1, () => 'C#C'.repeat(Math.ceil(n / 2))],
    [2, () => 'C('.repeat(n) + 'C' + ')'.repeat(n)],
    [light ? 0 : 2, () => '('.repeat(5000) + 'C' + ')'.repeat(5000)],
    [1, () => 'C(' .repeat(5000) + 'C' + ')'.repeat(5000)],
    [1, () => 'c1ccccc1'.repeat(Math.ceil(n / 6))],
    [1, () => Array.from({ length: Math.ceil(n / 6) }, () => 'c1ccccc1').join('-')],
    [1, () => Array.from({ length: n }, () => 'C').join('.')],
    [1, () => 'C1' + 'C'.repeat(n) + '1'],
    [light ? 0 : 1, () => Array.from({ length: 99 }, (_, i) => `C%${String(i + 1).padStart(2, '0')}`).join('') + Array.from({ length: 99 }, (_, i) => `C%${String(i + 1).padStart(2, '0')}`).join('')],
    [1, () => '[H]'.repeat(rng.pick([100, 3000, 30_000]))],
    [light ? 0 : 1, () => 'C' + '([H])'.repeat(rng.pick([4, 100, 5000]))],
    [1, () => '[2H]C'.repeat(Math.ceil(n / 2))],
    [1, () => 'N'.repeat(399) + '[N+]'.repeat(2)],
    [1, () => 'C[C@H](O)'.repeat(Math.ceil(n / 3))],
    [light ? 0 : 1, () => `${'C'.repeat(390)}.${validSmiles(rng)}`],
    [1, () => 'O=C(O)'.repeat(Math.ceil(n / 3))],
    [1, () => '*'.repeat(n)],
    [1, () => '[*]'.repeat(n)],
  ])();
}

export function blank(rng: Rng, valid = () => validSmiles(rng)): string {
  return rng.weighted<() => string>([
    [3, () => whitespace(rng)],
    [3, () => controlString(rng)],
    [1, () => ' ' + valid() + ' '],
    [1, () => valid() + '\u0000'],
    [1, () => '\ufeff' + valid()],
    [1, () => valid().split('').join(' ')],
    [1, () => ' |'],
    [1, () => ' |$;;$|'],
    [1, () => 'CCO |$a;b;c;d;e$|'],
    [1, () => 'CCO |(0,0,;1,1,;'],
    [1, () => 'CCO |(1e999,NaN,;x,y,z;|'],
    [1, () => 'C |c:0,1,2,99|'],
    [1, () => 'CC |r,w:0.1,1.2,99.3|'],
    [1, () => 'CCO  ||||'],
  ])();
}

const V2000_ATOM = (s: string) => `    0.0000    0.0000    0.0000 ${s.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`;

export function validMolblock(rng: Rng): string {
  return rng.pick(corpus().molblocks);
}

/** A molblock broken in one of the ways readers trip on. */
export function brokenMolblock(rng: Rng): string {
  const mb = validMolblock(rng);
  const lines = mb.split('\n');
  const counts = lines.findIndex((l) => /V[23]000/.test(l));
  return rng.weighted<() => string>([
    [2, () => lines.map((l, i) => (i === counts ? `${String(rng.pick([0, 1, 99, 999, -1])).padStart(3)}${l.slice(3)}` : l)).join('\n')],
    [2, () => lines.map((l, i) => (i === counts ? `${l.slice(0, 3)}${String(rng.pick([0, 99, 999])).padStart(3)}${l.slice(6)}` : l)).join('\n')],
    [1, () => lines.map((l, i) => (i === counts ? 'xyz abc' : l)).join('\n')],
    [1, () => lines.map((l, i) => (i === counts ? '' : l)).join('\n')],
    [2, () => lines.slice(0, rng.int(1, lines.length)).join('\n')],
    [1, () => mb.replace('M  END', '')],
    [1, () => mb.replaceAll('\n', '\r\n')],
    [1, () => mb.replaceAll('\n', '\r')],
    [1, () => mb.replace(/ {2}\d\.\d{4}/, '  NaN   ')],
    [1, () => mb.replace(/(-?\d+\.\d{4})/, '1e308')],
    [2, () => '\n  fuzz\n\n  0  0  0  0  0  0  0  0  0  0999 V3000\nM  END\n'],
    [2, () => '\n  fuzz\n\n  0  0  0  0  0  0  0  0  0  0999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS 3 2 0 0 0\nM  V30 BEGIN ATOM\nM  V30 1 C 0 0 0 0\nM  END\n'],
    [1, () => '\n  fuzz\n\n  0  0  0  0  0  0  0  0  0  0999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS 1 1 0 0 0\nM  V30 BEGIN ATOM\nM  V30 1 C 0 0 0 0\nM  V30 END ATOM\nM  V30 BEGIN BOND\nM  V30 1 1 1 99\nM  V30 END BOND\nM  V30 END CTAB\nM  END\n'],
    [1, () => '\n  fuzz\n\n  0  0  0  0  0  0  0  0  0  0999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS 999999 0 0 0 0\nM  V30 END CTAB\nM  END\n'],
    [1, () => `\n  fuzz\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n${V2000_ATOM('C')}\n${V2000_ATOM('C')}\n  1  9  1  0\nM  END\n`],
    [1, () => `\n  fuzz\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n${V2000_ATOM('C')}\n${V2000_ATOM('Xx')}\n  1  2  9  0\nM  END\n`],
    [1, () => `\n  fuzz\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n${V2000_ATOM('C')}\nM  CHG  1   1 999\nM  ISO  1   1 -99\nM  RAD  1   1   9\nM  END\n`],
    [1, () => `\n  fuzz\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n${V2000_ATOM('C')}\nM  CHG  8   1   1\nM  STY  1   1 SUP\nM  SAL   1 15   1   2   3\nM  END\n`],
    [1, () => `\n  fuzz\n\n${Array.from({ length: 3 }, () => ' 999999').join('')}  0  0  0  0  0  0999 V2000\nM  END\n`],
    [1, () => `\n\n\n${'  1  0  0  0  0  0  0  0  0  0999 V2000\n'.repeat(50)}M  END\n`],
    [1, () => `\n  fuzz\n\n401  0  0  0  0  0  0  0  0  0999 V2000\n${Array.from({ length: 401 }, () => V2000_ATOM('C')).join('\n')}\nM  END\n`],
    [1, () => `\n  fuzz\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n`],
    [1, () => `${mb}$$$$\n${mb}$$$$\n`],
    [1, () => `${mb}>  <a>\n${'x'.repeat(rng.pick([10, 10_000]))}\n\n>  <\n\n$$$$\n`],
    [1, () => mb.replace(/V2000|V3000/, 'V9999')],
    [1, () => 'HEADER    PROTEIN\nATOM      1  N   ALA A   1      11.104   6.134  -6.504  1.00  0.00           N\nEND\n'],
    [1, () => 'InChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H\n'],
  ])();
}

const SELFIES_TOKENS = ['[C]', '[=C]', '[#C]', '[O]', '[=O]', '[N]', '[Branch1]', '[Branch2]', '[Branch3]', '[=Branch1]', '[#Branch2]', '[Ring1]', '[Ring2]', '[Ring3]', '[=Ring1]', '[C@@H1]', '[NH1+1]', '[Xx]', '[Ring9]', '[Branch9]', '[nop]', '[epsilon]', '[]', '[=]', '[C', 'C]', '[[C]]', '[.]', '.', '[F]', '[Cl]', '[Br]', '[S]', '[P]', '[B]', '[I]', '[H]', '[#N]', '[-1]', '[C-1]', '[13C]', '[2H]'];

export function selfiesJunk(rng: Rng): string {
  return rng.weighted<() => string>([
    [3, () => rng.pick(corpus().selfies)],
    [4, () => Array.from({ length: rng.size(300) }, () => rng.pick(SELFIES_TOKENS)).join('')],
    [2, () => {
      const s = rng.pick(corpus().selfies);
      const at = rng.int(0, s.length);
      return s.slice(0, at) + rng.pick(SELFIES_TOKENS) + s.slice(at + rng.int(0, 5));
    }],
    [1, () => '[Branch3]'.repeat(rng.pick([10, 1000, 20_000]))],
    [1, () => '[C][Ring3]'.repeat(rng.pick([10, 1000, 10_000]))],
    [1, () => '[C]'.repeat(rng.pick([399, 401, 5000, 33_334]))],
    [1, () => '[C][=C]'.repeat(rng.pick([200, 600]))],
  ])();
}

/** Any structure-like text: the distribution every structure parameter draws from. */
export function anyStructure(rng: Rng, light = false): string {
  const valid = () => (light ? smallSmiles(rng) : validSmiles(rng));
  return rng.weighted<() => string>([
    [14, valid],
    [12, () => mutateSmiles(rng, valid())],
    [8, () => randomAlphabet(rng, light ? rng.size(40) : undefined)],
    [8, () => unbalanced(rng)],
    [5, () => huge(rng, light)],
    [6, () => blank(rng, valid)],
    [light ? 1 : 4, () => validMolblock(rng)],
    [6, () => brokenMolblock(rng)],
    [4, () => selfiesJunk(rng)],
    [4, () => hostileString(rng)],
    [1, () => rng.pick(['InChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H', 'InChI=1S/', 'InChI=', 'UHOVQNZJYSORNB-UHFFFAOYSA-N', 'XXXXXXXXXXXXXX-YYYYYYYYYY-Z'])],
  ])();
}

/** Several structures joined as a list parameter (comma-separated, as generate_multiple_descriptors and bitsimilarity take). */
export function structureList(rng: Rng, sep = ','): string {
  const n = rng.weighted<number>([[4, rng.int(2, 5)], [2, rng.int(0, 1)], [1, rng.int(6, 60)], [0.15, rng.pick([500, 2000])]]);
  return Array.from({ length: n }, () => (rng.bool(0.7) ? validSmiles(rng) : anyStructure(rng))).join(sep);
}

export function formula(rng: Rng): string {
  return rng.weighted<() => string>([
    [4, () => rng.pick(['C6H6', 'C2H6O', 'CH4', 'C3H8O', 'C4H10', 'H2O', 'C2H4O2', 'N2', 'C3H6', 'C5H5N', 'CH2O'])],
    [1, () => rng.pick(['C10H16', 'C8H10N4O2', 'C6H12O6'])],
    [4, () => rng.pick(['', ' ', 'C', 'Xx99', 'C1000H2000', 'C-1', 'C0H0', 'c6h6', '(CH3)2', 'C6H6+', 'C6H6.H2O', 'C2H6O2S3P4F5Cl6Br7I8', 'H99999999999', 'C'.repeat(200), 'C6H6\n', 'C 6 H 6', '6CH', 'C1e9', 'Cl2', 'D2O', '[13C]H4', 'C$H4'])],
    [2, () => hostileString(rng).slice(0, 250)],
  ])();
}

/** Chemical names and identifiers: corpus names, mutated names, junk. */
export function nameLike(rng: Rng): string {
  return rng.weighted<() => string>([
    [4, () => rng.pick(corpus().names)],
    [2, () => mutateSmiles(rng, rng.pick(corpus().names))],
    [2, () => rng.pick(['quercetin', 'caffeine', 'aspirin', 'water', 'benzene', '2-methylpropan-1-ol', 'bis(2-ethylhexyl) phthalate', '50-00-0', '64-17-5', 'CID 2244', '2244', '0', '-1', 'UHOVQNZJYSORNB-UHFFFAOYSA-N'])],
    [1, () => '(' .repeat(rng.pick([10, 1000])) + 'methane' + ')'.repeat(rng.pick([0, 10]))],
    [1, () => 'poly'.repeat(rng.pick([10, 500])) + 'ethylene'],
    [1, () => Array.from({ length: rng.pick([50, 500]) }, () => 'methyl').join('-') + 'propane'],
    [3, () => hostileString(rng)],
  ])();
}
