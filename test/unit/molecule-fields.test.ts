/**
 * The molecule fields the server keeps, as pure functions: COCONUT's annotation score, its
 * synonym dedupe (PHP's similar_text), and the stereo families read off the standard InChI.
 */
import t from 'tap';
import { annotationLevel } from '../../api/catalog/mutate/annotation.ts';
import { dedupeSynonyms, similarPercent } from '../../api/catalog/mutate/synonyms.ts';
import { flatInchi, keyBlock, variantFields } from '../../api/catalog/mutate/variants.ts';

t.test('annotation_level: COCONUT GenerateAnnotationScore.php, calculateAnnotationScore (lines 97-120)', async (t) => {
  // Worked by hand from the weights on lines 108-113 (citations 0.25, organisms 0.20,
  // collections 0.15, CAS 0.15, synonyms 0.15, name 0.10), then ceil(round(total * 5, 2)) (l. 116-119).
  const cases: [string, Record<string, unknown>, number][] = [
    ['nothing', {}, 0], // 0 → 0
    ['name only', { name: 'x' }, 1], // 0.10 × 5 = 0.5 → 1
    ['name + CAS', { name: 'x', cas: ['50-78-2'] }, 2], // 0.25 × 5 = 1.25 → 2
    ['one citation', { citation_ids: [1] }, 2], // 0.25 × 5 = 1.25 → 2
    ['two citations score as one (l. 103)', { citation_ids: [1, 2] }, 2],
    ['two collections score as one (l. 105)', { collection_ids: [1, 2] }, 1], // 0.15 × 5 = 0.75 → 1
    ['name + organism + citation', { name: 'x', organism_ids: [1], citation_ids: [1] }, 3], // 0.55 × 5 = 2.75 → 3
    // 0.10 + 0.20 + 0.15 + 0.15 = 0.6 (0.6000000000000001 in floating point) × 5 = 3 after round(, 2): not 4
    ['name + organism + collection + CAS', { name: 'x', organism_ids: [1], collection_ids: [1], cas: ['1-1-1'] }, 3],
    ['citation + organism + collection (float guard)', { citation_ids: [1], organism_ids: [1], collection_ids: [1] }, 3], // 0.6 × 5 = 3
    ['all but name', { cas: ['1'], synonyms: ['y'], citation_ids: [1], organism_ids: [1], collection_ids: [1] }, 5], // 0.9 × 5 = 4.5 → 5
    ['all but citations', { name: 'x', cas: ['1'], synonyms: ['y'], organism_ids: [1], collection_ids: [1] }, 4], // 0.75 × 5 = 3.75 → 4
    ['everything', { name: 'x', cas: ['1'], synonyms: ['y'], citation_ids: [1], organism_ids: [1, 2], collection_ids: [1] }, 5], // 1.0 × 5 = 5
    ['empty lists and an empty name count as none', { name: '', cas: [], synonyms: [], organism_ids: [], citation_ids: [], collection_ids: [] }, 0],
  ];
  for (const [what, m, level] of cases) t.equal(annotationLevel(m), level, what);
});

t.test('similar_text as PHP computes it (php.net examples) and COCONUT\'s dedupe (SynonymDedupe.php)', async (t) => {
  t.equal(similarPercent('World', 'Word'), (4 * 2 * 100) / 9, 'similar_text("World","Word") = 4');
  t.equal(similarPercent('Hello', 'World'), 20, 'similar_text("Hello","World") = 2');
  t.equal(similarPercent('', ''), 0);
  t.same(dedupeSynonyms(['Quercetin', 'Quercetine', 'QUERCETIN', 'sophoretin', 'Quercetin']), ['Quercetin', 'QUERCETIN', 'sophoretin'],
    'Quercetine is 94.7% like Quercetin: dropped; case counts (similar_text is case-sensitive); exact repeats dropped; order kept');
  t.same(dedupeSynonyms(['ab', 'abc']), ['ab', 'abc'], '2 × 2 × 100 / 5 = 80% < 90: both kept');
  t.same(dedupeSynonyms(['abcdefghij', 'abcdefghijk']), ['abcdefghij'], '10 × 2 × 100 / 21 = 95.2%: dropped');
  t.same(dedupeSynonyms([]), []);
  const long = 'x'.repeat(600);
  t.same(dedupeSynonyms([long, long, `${long}y`]), [long, `${long}y`], 'very long synonyms: exact repeats only');
});

t.test('stereo families from the standard InChI', async (t) => {
  const flat = 'InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)';
  t.equal(flatInchi(`${flat}/t2-/m0/s1`), flat, 'tetrahedral layers removed');
  t.equal(flatInchi('InChI=1S/C4H8/c1-3-4-2/h3-4H,1-2H3/b4-3+'), 'InChI=1S/C4H8/c1-3-4-2/h3-4H,1-2H3', 'double-bond layer removed');
  t.equal(flatInchi('InChI=1S/S8/c1-2-4-6-8-7-5-3-1'), 'InChI=1S/S8/c1-2-4-6-8-7-5-3-1', 'a formula starting with S is no stereo layer');
  t.equal(flatInchi(`${flat}/i1D/t2-/m0/s1`), `${flat}/i1D`, 'isotopic layer kept, its stereo removed');
  t.equal(keyBlock('QNAYBMKLOCPYGJ-REOHCLBHSA-N'), 'QNAYBMKLOCPYGJ');
  t.equal(keyBlock('KEY1'), null);
  const fam = variantFields([
    { id: 1, standard_inchi: flat },
    { id: 2, standard_inchi: `${flat}/t2-/m0/s1` },
    { id: 3, standard_inchi: `${flat}/t2-/m1/s1` },
    { id: 4, standard_inchi: `${flat}/i1D/t2-/m0/s1` }, // another family in the same block: no parent in the catalog
    { id: 5 },
  ]);
  t.same(fam.get(1), { variants_count: 2, has_variants: true, is_parent: true });
  t.same(fam.get(2), { variants_count: 0, has_variants: true, is_parent: false });
  t.same(fam.get(3), { variants_count: 0, has_variants: true, is_parent: false });
  t.same(fam.get(4), { variants_count: 0, has_variants: false, is_parent: false });
  t.same(fam.get(5), { variants_count: 0, has_variants: false, is_parent: false });
  t.same(variantFields([{ id: 1, standard_inchi: flat }]).get(1), { variants_count: 0, has_variants: false, is_parent: false }, 'a flat molecule alone is no parent');
});
