/**
 * The comparison of answers with the registry's expected answers (test/api/expected.ts) finds a
 * wrong answer of every kind it is used for, so the HTTP and MCP value checks can fail; and every
 * registry example's expected value is well formed.
 */
import t from 'tap';
import { OPERATIONS } from '../../shared/ops/index.ts';
import type { Expected, MolblockShape } from '../../shared/ops/types.ts';
import { answerOf, mismatches, parseMolblock } from './expected.ts';

const ETHANOL = `
     RDKit          2D

  3  2  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    2.5981   -0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  0
M  END
`;
const SHAPE: MolblockShape = { atoms: ['C', 'C', 'O'], bonds: [[1, 2, 1], [2, 3, 1]], dim: '2D', lengths: [1.5, 1.5] };
const shape = (over: Partial<MolblockShape> = {}): Expected => ({ $molblock: { ...SHAPE, ...over } });

t.test('plain values: equal, same keys in the same order', async (t) => {
  t.same(mismatches({ a: 1, b: ['x', null] }, { a: 1, b: ['x', null] }), []);
  t.match(mismatches({ a: 1 }, { a: 2 }), ['$.a: expected 1, got 2']);
  t.match(mismatches({ a: 1 }, { a: 1, b: 2 }), [/\$\.b: not expected/]);
  t.match(mismatches({ a: 1, b: 2 }, { a: 1 }), ['$.b: missing']);
  t.match(mismatches({ a: 1, b: 2 }, { b: 2, a: 1 }), [/keys in the order b,a/]);
  t.match(mismatches(['a', 'b'], ['b', 'a']), [/\[0\]/, /\[1\]/]);
  t.match(mismatches(['a'], ['a', 'b']), [/expected 1 items/]);
  t.match(mismatches(0.5, '0.5'), [/expected 0.5, got "0.5"/]);
});

t.test('$fields and $unordered', async (t) => {
  t.same(mismatches({ $fields: { a: 1 } }, { a: 1, b: 2 }), []);
  t.match(mismatches({ $fields: { a: 1 } }, { a: 3, b: 2 }), ['$.a: expected 1, got 3']);
  t.same(mismatches({ $unordered: ['x', 'y'] }, ['y', 'x']), []);
  t.match(mismatches({ $unordered: ['x', 'y'] }, ['y', 'y']), [/no member matches "x"/]);
  t.match(mismatches({ $unordered: ['x'] }, ['x', 'y']), [/1 items in any order/]);
});

t.test('$molblock: atoms, bonds as a set, dimension, lengths', async (t) => {
  t.same(parseMolblock(ETHANOL)?.bonds, [[1, 2, 1], [2, 3, 1]]);
  t.same(mismatches(shape(), ETHANOL), []);
  t.same(mismatches(shape({ bonds: [[3, 2, 1], [1, 2, 1]] }), ETHANOL), [], 'bond order and direction do not matter');
  t.match(mismatches(shape({ atoms: ['C', 'C', 'N'] }), ETHANOL), [/atoms C C O, expected C C N/]);
  t.match(mismatches(shape({ bonds: [[1, 2, 2], [2, 3, 1]] }), ETHANOL), [/bonds/]);
  t.match(mismatches(shape({ dim: '3D' }), ETHANOL), [/dimension "2D", expected 3D/]);
  t.match(mismatches(shape({ lengths: [1.5, 1.4] }), ETHANOL), [/bond 2-3 is 1.500 Å, expected 1.4/]);
  t.match(mismatches(shape(), ETHANOL.replace('2.5981   -0.0000    0.0000 O', '2.5981   -0.0000    0.1000 O')), [/2D but z is not 0/]);
  t.match(mismatches(shape(), 'CCO'), [/not a V2000 molblock/]);
});

t.test('$html, $svg and $cxsmiles', async (t) => {
  const page = (mb: string) => `<!DOCTYPE html>\n<html><script>var molblock = ${JSON.stringify(mb)};</script></html>\n`;
  t.same(mismatches({ $html: { molblock: SHAPE } }, page(ETHANOL)), []);
  t.match(mismatches({ $html: { molblock: { ...SHAPE, atoms: ['O', 'C', 'C'] } } }, page(ETHANOL)), [/embedded molblock.*atoms/]);
  t.match(mismatches({ $html: { molblock: SHAPE } }, '<!DOCTYPE html><html></html>'), [/embeds no molblock/]);

  const svg = "<svg version='1.1' width='512px' height='512px'><path class='bond-0 atom-0 atom-1' /><path class='bond-1 atom-1 atom-2' /><path class='bond-1 atom-1 atom-2' /><path class='atom-2' /></svg>";
  const want = { width: 512, height: 512, bonds: [[0, 1], [1, 2]], labels: [2] };
  t.same(mismatches({ $svg: want } as Expected, svg), []);
  t.match(mismatches({ $svg: { ...want, labels: [1, 2] } } as Expected, svg), [/atoms labelled 2, expected 1 2/]);
  t.match(mismatches({ $svg: { ...want, bonds: [[0, 1]] } } as Expected, svg), [/bonds drawn 0-1 1-2, expected 0-1/]);
  t.match(mismatches({ $svg: { ...want, width: 300 } } as Expected, svg), [/size 512x512, expected 300x512/]);

  const cx = { $cxsmiles: { smiles: 'CCO', lengths: [[1, 2, 1.5], [2, 3, 1.5]] } } as Expected;
  t.same(mismatches(cx, 'CCO |(0,0,;1.29904,0.75,;2.59808,0,)|'), []);
  t.match(mismatches(cx, 'CCO |(0,0,;1.29904,0.75,;2.59808,1,)|'), [/atoms 2-3/]);
  t.match(mismatches(cx, 'OCC |(0,0,;1.29904,0.75,;2.59808,0,)|'), [/SMILES OCC, expected CCO/]);
});

t.test('answers are parsed by media type', async (t) => {
  t.same(answerOf('application/json; charset=utf-8', '{"a": [1]}'), { a: [1] });
  t.equal(answerOf('text/plain', '"x"'), '"x"');
});

t.test('every registry example expects something and names its reference', async (t) => {
  for (const op of OPERATIONS) {
    for (const ex of op.examples ?? []) {
      t.ok(ex.expected, `${op.name}: an expected answer`);
      t.ok(ex.expected && ex.expected.source.length > 10, `${op.name}: its source`);
      if (ex.text !== undefined) t.equal(op.body?.kind, 'text', `${op.name}: a text body only for a text operation`);
    }
  }
});
