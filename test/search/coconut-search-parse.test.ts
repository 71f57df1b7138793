/**
 * The pure parts of COCONUT's search: type detection in COCONUT's order, the filter language,
 * formula spelling and Laravel's page window. Expected values are written out by hand from
 * COCONUT's rules (SearchMolecule::determineQueryType, buildFiltersStatement) and Laravel's
 * UrlWindow (onEachSide 3), with natprod's documented corrections.
 */
import t from 'tap';
import { detectType } from '../../api/catalog/search/detect.ts';
import { FilterSyntaxError, parseFilters } from '../../api/catalog/search/coconut/filter-language.ts';
import { slug } from '../../api/catalog/search/coconut/filter-query.ts';
import { isFormula, normalizeFormula } from '../../api/catalog/search/coconut/formula.ts';
import { pageWindow, paginate } from '../../api/catalog/search/page.ts';
import { isNatprodForm, readCoconutRequest } from '../../api/catalog/search/request.ts';

t.test('type detection, in COCONUT\'s order', async (t) => {
  const cases: [string, string][] = [
    ['CNP0228556', 'identifier'],
    ['CNP0228556.0', 'identifier'],
    ['InChI=1S/C8H10N4O2/c1-10-4-9-6-5(10)7(13)12(3)8(14)11(6)2/h4H,1-3H3', 'inchi'],
    ['RYYVLZVUVIJVGH-UHFFFAOYSA-N', 'inchikey'],
    ['RYYVLZVUVIJVGH', 'partialinchikey'],
    ['C8H10N4O2', 'molecularformula'],
    ['C15H10O7', 'molecularformula'],
    ['NaCl', 'molecularformula'],
    ['CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 'smiles'],
    ['c1ccc2[nH]ccc2c1', 'smiles'],
    ['1S/C8H10N4O2/c1-10-4-9-6-5(10)7(13)12(3)8(14)11(6)2/h4H,1-3H3', 'inchi'],
    ['caffeine', 'text'],
    ['quercetin 3-O-glucoside', 'text'],
    // natprod's corrections: COCONUT takes these for a formula or an InChI.
    ['Hi', 'text'],
    ['DMSO', 'text'],
    ['ethanol', 'text'],
    // COCONUT's SMILES pattern takes this word; the search falls back to text when RDKit cannot read it.
    ['morphin', 'smiles'],
    ['\n  RDKit          2D\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\nM  END', 'smiles'],
  ];
  for (const [q, type] of cases) t.equal(detectType(q), type, `${JSON.stringify(q.slice(0, 40))} → ${type}`);
  // COCONUT's order: a 14-letter block is an InChIKey block before it could be a formula or text.
  t.equal(detectType('ABCDEFGHIJKLMN'), 'partialinchikey');
});

t.test('filter language', async (t) => {
  const simplify = (q: string) =>
    parseFilters(q).map((branch) =>
      branch.map((c) => {
        const { def, ...rest } = c;
        void def;
        return rest;
      }),
    );
  t.same(simplify('tac:4..6'), [[{ key: 'tac', kind: 'number', min: 4, max: 6 }]], 'a range');
  t.same(simplify('mw:..200.5'), [[{ key: 'mw', kind: 'number', min: undefined, max: 200.5 }]], 'an open range');
  t.same(simplify('fc:-1'), [[{ key: 'fc', kind: 'number', min: -1, max: -1 }]], 'one number');
  t.same(simplify('cs:true crs:FALSE'), [[{ key: 'cs', kind: 'boolean', value: true }, { key: 'crs', kind: 'boolean', value: false }]], 'booleans; space = AND');
  t.same(simplify('tac:4..6 cs:true OR mw:100..200'), [
    [{ key: 'tac', kind: 'number', min: 4, max: 6 }, { key: 'cs', kind: 'boolean', value: true }],
    [{ key: 'mw', kind: 'number', min: 100, max: 200 }],
  ], 'OR separates alternatives (COCONUT\'s documented example)');
  t.same(simplify('class:Unsaturated+hydrocarbons'), [[{ key: 'class', kind: 'class', text: 'Unsaturated hydrocarbons' }]], '+ is a space (COCONUT #818)');
  t.same(simplify('superclass:Organic acids and derivatives mw:100..'), [[{ key: 'superclass', kind: 'class', text: 'Organic acids and derivatives' }, { key: 'mw', kind: 'number', min: 100, max: undefined }]], 'a value of several words, then the next condition');
  t.same(simplify('superclass:ORGANIC+COMPOUNDS'), [[{ key: 'superclass', kind: 'class', text: 'ORGANIC COMPOUNDS' }]], '"OR" inside a word does not split');
  t.same(simplify('np_pathway:Polyketides OR np_pathway:Terpenoids'), [[{ key: 'np_pathway', kind: 'class', text: 'Polyketides' }], [{ key: 'np_pathway', kind: 'class', text: 'Terpenoids' }]]);
  t.same(simplify('ds:knapsack+lotus|'), [[{ key: 'ds', kind: 'collections', sources: ['knapsack', 'lotus'] }]], 'data sources, all required');
  t.same(simplify('mf:C15H10O7'), [[{ key: 'mf', kind: 'formula', formula: 'C15H10O7' }]]);
  t.same(simplify(''), [], 'no condition');
  const bad: [string, RegExp][] = [
    ['tacc:4..6', /Unknown filter key "tacc"/],
    ['fragments:x', /"fragments".*not available/],
    ['hac:10..5', /empty: 10 is greater than 5/],
    ['hac:a..b', /"a" is not a number/],
    ['hac:1..2..3', /not one/],
    ['hac:..', /not one/],
    ['cs:maybe', /true or false/],
    ['hac:', /no value/],
    ['hac:1 OR', /Every side of OR/],
    ['OR hac:1', /Every side of OR/],
    ['Flavonoids', /not a key:value condition/],
    ['hac:{"$gt":1}', /not a number/],
  ];
  for (const [q, msg] of bad) {
    let err: unknown;
    try {
      parseFilters(q);
    } catch (e) {
      err = e;
    }
    t.ok(err instanceof FilterSyntaxError, `${q}: refused`);
    t.match((err as Error)?.message, msg, `${q}: ${(err as Error)?.message}`);
  }
});

t.test('class values compare as slugs', async (t) => {
  t.equal(slug('Prenol lipids'), 'prenol-lipids');
  t.equal(slug('1,2-diaryl-2-propen-1-ols'), '12-diaryl-2-propen-1-ols', 'punctuation dropped as Laravel\'s Str::slug does');
  t.equal(slug("1,1'-azonaphthalenes"), '11-azonaphthalenes');
  t.equal(slug('Organic+acids  and_derivatives'), 'organic-acids-and-derivatives');
});

t.test('formulas', async (t) => {
  t.ok(isFormula('C6H12O6'));
  t.notOk(isFormula('CCO'), 'an element twice: not a formula');
  t.notOk(isFormula('Xy2'), 'no element Xy');
  t.equal(normalizeFormula('H12C6O6'), 'C6H12O6', 'C, then H, then alphabetical');
  t.equal(normalizeFormula('OH2'), 'H2O', 'H first without carbon too (RDKit)');
  t.equal(normalizeFormula('C20H24NO4+'), 'C20H24NO4+');
  t.equal(normalizeFormula('NC20O4H24+1'), 'C20H24NO4+');
  t.equal(normalizeFormula('C2H3O2-'), 'C2H3O2-');
  t.equal(normalizeFormula('C4H4O4 2-'), 'C4H4O4-2');
  t.equal(normalizeFormula('caffeine'), 'caffeine', 'not a formula: unchanged');
});

t.test("Laravel's page window and paginator", async (t) => {
  t.same(pageWindow(1, 1), [1]);
  t.same(pageWindow(5, 13), Array.from({ length: 13 }, (_, i) => i + 1), 'below 14 pages: all');
  t.same(pageWindow(1, 14), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, null, 13, 14], 'near the start');
  t.same(pageWindow(7, 50), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, null, 49, 50]);
  t.same(pageWindow(8, 50), [1, 2, null, 5, 6, 7, 8, 9, 10, 11, null, 49, 50], 'a slider');
  t.same(pageWindow(43, 50), [1, 2, null, 40, 41, 42, 43, 44, 45, 46, null, 49, 50]);
  t.same(pageWindow(44, 50), [1, 2, null, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50], 'near the end');
  const p = paginate({ rows: ['a', 'b'], total: 12, perPage: 5, page: 3, path: 'https://x.org/api/search' });
  t.same(Object.keys(p), ['current_page', 'data', 'first_page_url', 'from', 'last_page', 'last_page_url', 'links', 'next_page_url', 'path', 'per_page', 'prev_page_url', 'to', 'total'], "Laravel's keys, in its order");
  t.match(p, { current_page: 3, from: 11, to: 12, last_page: 3, next_page_url: null, prev_page_url: 'https://x.org/api/search?page=2', first_page_url: 'https://x.org/api/search?page=1', last_page_url: 'https://x.org/api/search?page=3' });
  t.same(p.links, [
    { url: 'https://x.org/api/search?page=2', label: '&laquo; Previous', page: 2, active: false },
    { url: 'https://x.org/api/search?page=1', label: '1', page: 1, active: false },
    { url: 'https://x.org/api/search?page=2', label: '2', page: 2, active: false },
    { url: 'https://x.org/api/search?page=3', label: '3', page: 3, active: true },
    { url: null, label: 'Next &raquo;', page: null, active: false },
  ]);
  const empty = paginate({ rows: [], total: 0, perPage: 24, page: 1, path: '/api/search' });
  t.match(empty, { from: null, to: null, last_page: 1, total: 0, next_page_url: null });
});

t.test('request forms', async (t) => {
  t.ok(isNatprodForm({ type: 'substructure', query: 'c1ccccc1', count: true }), "natprod's own structure search");
  t.ok(isNatprodForm({ type: 'similarity', query: 'c1ccccc1', count: false }), 'count false asks for it too');
  t.notOk(isNatprodForm({ type: 'substructure', query: 'c1ccccc1' }), "COCONUT's minimal structure request: COCONUT's form");
  t.notOk(isNatprodForm({ type: 'exact', query: 'c1ccccc1', limit: 5, page: 2 }), "fields both forms know: COCONUT's form");
  t.notOk(isNatprodForm({ type: 'substructure', query: 'c1ccccc1', count: true, status: 'all' }), "with one of COCONUT's own fields: COCONUT's form");
  t.notOk(isNatprodForm({ type: 'text', query: 'x' }));
  t.notOk(isNatprodForm({ query: 'x' }));
  t.match(readCoconutRequest({ query: ' caffeine\u0000 ', limit: '10', page: '2' }), { query: 'caffeine', type: 'text', detected: true, limit: 10, page: 2, offset: 0, sort: 'relevance', status: 'all' }, 'numeric strings as Laravel reads them; control characters dropped');
  t.match(readCoconutRequest({ query: 'x', type: 'parttialinchikey', tagType: '' }), { type: 'partialinchikey', tagType: null }, "COCONUT's spelling of the type; an empty tagType is none");
  t.match(readCoconutRequest({}), { query: '', type: 'text', limit: 24 });
});
