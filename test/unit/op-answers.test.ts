/**
 * Every operation that can answer JSON declares the shape of its answer (`OpDef.answer`, the
 * schema the OpenAPI document gives), and the check can fail: each schema fits its example's
 * expected value where that is a plain JSON value, refuses values of the wrong shape, and says
 * where a value goes wrong. Every example's real answer is checked over HTTP by
 * test/api/chem-http.test.ts (answerViolations, in both runner modes).
 */
import t from 'tap';
import { z } from 'zod';
import { OPERATIONS, OPERATIONS_BY_NAME } from '../../shared/ops/index.ts';
import type { Expected, OpDef } from '../../shared/ops/types.ts';
import { answersJson, answerViolations, jsonPath } from '../api/answers.ts';

const op = (name: string): OpDef => {
  const found = OPERATIONS_BY_NAME.get(name);
  if (!found) throw new Error(`no operation ${name}`);
  return found;
};

/** Whether an expected value is plain JSON (no `$fields`, `$molblock`, ... comparison objects). */
function plain(v: Expected): boolean {
  if (Array.isArray(v)) return v.every(plain);
  if (v && typeof v === 'object') return Object.entries(v).every(([k, x]) => !k.startsWith('$') && plain(x as Expected));
  return true;
}

t.test('every operation that can answer JSON declares its answer, and only those', async (t) => {
  const json = OPERATIONS.filter(answersJson);
  t.ok(json.length >= 25, `${json.length} JSON operations`);
  for (const o of OPERATIONS) {
    if (answersJson(o)) t.ok(o.answer, `${o.name} declares an answer schema`);
    else t.notOk(o.answer, `${o.name} answers ${o.output}: its media type says what it is`);
  }
  t.same(answerViolations({ ...op('generate_inchi'), answer: undefined }, 'x'), ['generate_inchi declares no answer schema']);
});

t.test('every answer schema becomes a JSON Schema (for the OpenAPI document)', async (t) => {
  for (const o of OPERATIONS.filter((o) => o.answer)) {
    t.doesNotThrow(() => z.toJSONSchema(o.answer!), o.name);
  }
});

t.test("each schema fits its example's expected value where that is plain JSON", async (t) => {
  let checked = 0;
  for (const o of OPERATIONS.filter((o) => o.answer)) {
    for (const ex of o.examples ?? []) {
      if (!ex.expected || !plain(ex.expected.value)) continue;
      checked++;
      t.same(answerViolations(o, ex.expected.value), [], o.name);
    }
  }
  t.ok(checked >= 18, `${checked} plain expected values`);
});

t.test('every schema refuses values of another shape', async (t) => {
  for (const o of OPERATIONS.filter((o) => o.answer)) {
    for (const wrong of [{ unexpected: [] }, [[{}]], true]) {
      t.not(answerViolations(o, wrong).length, 0, `${o.name} refuses ${JSON.stringify(wrong)}`);
    }
  }
});

t.test('wrong answers are caught where they go wrong', async (t) => {
  // The COCONUT set (the first of its answers' union; toolkit=all answers the combined table).
  const union = op('generate_descriptors').answer as unknown as { options: z.ZodType[] };
  const descriptors = { ...op('generate_descriptors'), answer: union.options[0] } as OpDef;
  t.same(answerViolations(op('generate_descriptors'), { CCO: 1 }).length > 0, true, 'the union refuses what neither set is');
  const good = op('generate_descriptors').examples![0].expected!.value as Record<string, Expected>;
  t.same(answerViolations(descriptors, good), []);
  t.match(answerViolations(descriptors, { ...good, atom_count: 27.5 }), [/^\$\.atom_count: .*int/], 'a float count');
  t.match(answerViolations(descriptors, { ...good, alogp: '1.5' }), [/^\$\.alogp: /], 'a number as a string');
  t.match(answerViolations(descriptors, { ...good, extra: 1 }), [/^\$: Unrecognized key.*extra/], 'a key too many');
  const { molecular_formula: _, ...missing } = good;
  t.match(answerViolations(descriptors, missing), [/^\$\.molecular_formula: /], 'a key missing');
  t.same(answerViolations(descriptors, { ...good, qed_drug_likeliness: 'None', alogp: null }), [], "CDK's quirks");

  const multiple = op('generate_multiple_descriptors');
  t.match(answerViolations(multiple, { CCO: { ...good, linear_sugars: 'no' } }), [/^\$\.CCO\.linear_sugars: /], 'a record value');

  const stereo = op('enumerate_stereoisomers');
  t.same(answerViolations(stereo, { isomers: ['C'], truncated: true, max_isomers: 1, stereo_elements: 3 }), []);
  t.match(answerViolations(stereo, { isomers: ['C'], truncated: false, max_isomers: 1, stereo_elements: 3 }).join('\n'), /\(variant 2\) \$\.truncated: /, 'truncated is only ever true (each variant says why it failed)');

  const checks = op('check_errors');
  t.same(answerViolations(checks, { smi: 'C', messages: [[2, 'InChI: Omitted undefined stereo']] }), []);
  t.same(answerViolations(checks, { original: { smi: 'C', messages: [[2, 'x']] }, standardized: { smi: 'C', messages: ['No Errors Found'] } }), []);
  t.not(answerViolations(checks, { smi: 'C', messages: [] }).length, 0, 'no issue is "No Errors Found", never []');
  t.not(answerViolations(checks, { smi: 'C', messages: [['2', 'x']] }).length, 0, 'a penalty is a number');

  const fragments = op('generate_fragment_functional_groups');
  t.same(answerViolations(fragments, [{ None: 'No fragments found' }]), []);
  t.match(answerViolations(fragments, [[[1], 'O']]), [/\[0\]/], 'a group is a triple');

  const similarity = op('generate_bitsimilarity_similarity');
  t.same(answerViolations(similarity, [[1, 0.5], [0.5, 1]]), []);
  t.not(answerViolations(similarity, [1, 0.5]).length, 0, 'a matrix has rows');

  const sugars = op('get_sugar_information');
  t.not(answerViolations(sugars, 'The molecule contains sugar').length, 0, 'one of four texts');

  const standardize = op('standardize_molblock');
  const std = { standardized_mol: 'M  END', canonical_smiles: 'C', inchi: 'InChI=1S/CH4/h1H4', inchikey: 'VNWKTOKETHGBQD-UHFFFAOYSA-N' };
  t.same(answerViolations(standardize, { ...std, SD_FIELD: 'x', MW: 16.04 }), [], 'SD fields come along');
  t.match(answerViolations(standardize, { ...std, SD_FIELD: null }), [/\$\.SD_FIELD/]);

  const retrieve = op('retrieve_chemclass_results');
  const pending = {
    id: 'chemclass-X', label: 'query', classification_status: 'In Queue', number_of_elements: 0, number_of_pages: 1, progress: 0,
    classifier: null, created_at: '2026-01-01T00:00:00.000Z', finished_at: null, invalid_entities: [], entities: [],
  };
  t.same(answerViolations(retrieve, pending), []);
  t.same(answerViolations(retrieve, { ...pending, classifier: 'https://classyfire.example/', entities: [{ any: 'thing' }] }), [], "a remote service's entities");
  t.not(answerViolations(retrieve, { ...pending, classifier: 'rules 1', entities: [{ any: 'thing' }] }).length, 0, 'an offline entity has its shape');
  t.not(answerViolations(retrieve, { ...pending, classification_status: 'Queued' }).length, 0, 'the upstream status words only');
});

t.test('paths are written as the expected-answer comparison writes them', async (t) => {
  t.equal(jsonPath([]), '$');
  t.equal(jsonPath(['a', 0, 'b']), '$.a[0].b');
  t.equal(jsonPath(['C=O', '2D_MOL']), '$["C=O"]["2D_MOL"]');
});
