/**
 * Import readers on the shipped demo files. Expected counts come from an independent reader,
 * Python's csv module, on the uncompressed originals in ../shared/data (same bytes as the
 * shipped .gz files):
 *
 *   cd ../shared/data && python3 -c "import csv
 *   r=list(csv.DictReader(open('lotus_sample_1000.tsv',newline=''),delimiter='\t'))
 *   print(len(r),len({x['structure_inchikey'] for x in r}),len({x['organism_name'] for x in r}),
 *         len({x['reference_doi'].lower() for x in r if x['reference_doi']!='NA'}))
 *   r=list(csv.DictReader(open('lotus_manually_validated_413.tsv',newline=''),delimiter='\t'))
 *   print(len(r),len({x['structureCleanedInchikey3D'] for x in r}),len({x['organismCleaned'] for x in r}),
 *         len({x['referenceCleanedDoi'].lower() for x in r if x['referenceCleanedDoi']!='NA'}),
 *         len({x['database_name'] for x in r}))"
 *   → 1000 902 931 968
 *   → 413 383 348 395 16
 *   wc -l lotus_source_databases.csv coconut_collections.csv → 41, 64 (header included)
 *
 * Ranks of the validated set (docs/spec/data.md, §2): 301 species, 50 family, 41 genus,
 * 5 variety, 16 blank.
 */
import t from 'tap';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DEMO_FILES } from '../../api/catalog/import/demo.ts';
import { delimitedRecords } from '../../api/catalog/import/delimited.ts';
import { parseDelimited, parseSdf, readImportFile } from '../../api/catalog/import/parse.ts';
import type { ImportRow } from '../../api/catalog/import/types.ts';
import { AppError } from '../../shared/errors.ts';

const data = (f: string) => fileURLToPath(new URL(`../../api/catalog/data/${f}`, import.meta.url));

async function collect(rows: AsyncIterable<ImportRow>) {
  const out: ImportRow[] = [];
  for await (const r of rows) out.push(r);
  return out;
}
async function* chunked(s: string, size = 7) {
  for (let i = 0; i < s.length; i += size) yield s.slice(i, i + size);
}
const distinct = (xs: (string | null | undefined)[]) => new Set(xs.filter((x) => x != null)).size;

t.test('lotus_sample_1000.tsv.gz', async (t) => {
  const rows = await collect(readImportFile(data('lotus_sample_1000.tsv.gz')));
  t.equal(rows.length, 1000, 'rows');
  t.equal(distinct(rows.map((r) => r.molecule?.standard_inchi_key)), 902, 'distinct InChIKeys');
  t.equal(distinct(rows.map((r) => r.organism?.name)), 931, 'organisms');
  t.equal(distinct(rows.map((r) => r.citation?.doi)), 968, 'DOIs');
  t.ok(rows.every((r) => r.citation?.doi === r.citation?.doi?.toLowerCase()), 'DOIs lower-cased');
  t.ok(rows.every((r) => r.organism?.iri?.startsWith('http://www.wikidata.org/entity/Q')), 'Wikidata IRIs');
  t.equal(distinct(rows.map((r) => r.collection?.title)), 1, 'one LOTUS collection');
  t.notOk(rows.some((r) => r.problem), 'no rejected rows');
  // docs/spec/data.md §1: 904 names equal the species column, 2 the variety column; the 94 others are
  // binomials or trinomials (LOTUS resolved them under a synonym) and get their rank from the form.
  const ranks = rows.map((r) => r.organism?.rank);
  t.ok(ranks.filter((r) => r === 'species').length >= 904, 'species');
  t.ok(ranks.filter((r) => r === 'variety').length >= 2, 'varieties');
  // The multi-valued GBIF field of row 24 is R-quoted with doubled quotes and must not shift columns.
  // Its lineage and ids as in the file (`c("11010714", ...)`: the first GBIF key).
  t.same(rows[23].organism, {
    name: 'Alpinia galanga', iri: 'http://www.wikidata.org/entity/Q402971', rank: 'species',
    taxonomy: {
      domain: 'Eukaryota', kingdom: 'Archaeplastida', phylum: 'Streptophyta', class: 'Magnoliopsida', order: 'Zingiberales', family: 'Zingiberaceae',
      tribe: null, genus: 'Alpinia', species: 'Alpinia galanga', variety: null, ncbi_id: 94327, gbif_id: 11010714, ott_id: 1063872, wikidata_id: 'Q402971',
    },
  });
  t.equal(rows[23].citation?.doi, '10.1016/0305-1978(86)90092-x');
});

t.test('lotus_manually_validated_413.tsv.gz', async (t) => {
  const rows = await collect(readImportFile(data('lotus_manually_validated_413.tsv.gz')));
  t.equal(rows.length, 413, 'rows');
  t.equal(distinct(rows.map((r) => r.molecule?.standard_inchi_key)), 383, 'distinct InChIKeys');
  t.equal(distinct(rows.map((r) => r.organism?.name)), 348, 'organisms');
  t.equal(distinct(rows.map((r) => r.citation?.doi)), 395, 'DOIs');
  t.equal(distinct(rows.map((r) => r.collection?.title)), 16, 'source collections');
  const count = (rank: string | null) => rows.filter((r) => (r.organism?.rank ?? null) === rank).length;
  t.same([count('species'), count('family'), count('genus'), count('variety'), count(null)], [301, 50, 41, 5, 16], 'ranks');
  t.ok(rows.every((r) => r.citation?.title), 'every citation has a title');
  t.match(rows[0].citation?.citation_text, /^Steglich \(1980\)\. Indole Pigments .*https:\/\/doi\.org\/10\.1002\/anie\.198004591$/);
  t.equal(rows[0].collection?.title, 'KNApSAcK', 'source code knapsack titled from lotus_source_databases.csv');
  t.equal(rows.filter((r) => r.organism?.iri?.startsWith('https://www.ncbi.nlm.nih.gov/')).length, 263, 'NCBI taxon IRIs (README: NCBI 263)');
});

t.test('collection tables', async (t) => {
  const lotus = await collect(readImportFile(data('lotus_source_databases.csv.gz')));
  t.equal(lotus.length, 40);
  t.ok(lotus.every((r) => r.collection && !r.molecule), 'collections only');
  const coconut = await collect(readImportFile(data('coconut_collections.csv.gz')));
  t.equal(coconut.length, 63);
  t.equal(coconut[3].collection?.title, 'AnalytiCon Discovery NPs');
});

t.test('demo files exist in load order', async (t) => {
  t.same(DEMO_FILES.map((f) => f.split('/').at(-1)), [
    'lotus_source_databases.csv.gz', 'coconut_collections.csv.gz', 'lotus_manually_validated_413.tsv.gz', 'lotus_sample_1000.tsv.gz',
  ]);
  for (const f of DEMO_FILES) t.ok((await stat(f)).size > 0, f);
});

t.test('delimited reader: quoting, CRLF, embedded newlines, BOM, any chunking', async (t) => {
  const csv = '\ufeffa,b,c\r\n1,"x, ""y""",3\r\n\r\n4,"multi\nline",6\n7,say "hi",9';
  for (const size of [1, 2, 5, 100]) {
    const recs = [];
    for await (const r of delimitedRecords(chunked(csv, size), ',')) recs.push(r);
    t.same(recs.map((r) => r.fields), [['a', 'b', 'c'], ['1', 'x, "y"', '3'], ['4', 'multi\nline', '6'], ['7', 'say "hi"', '9']], `chunk ${size}`);
    t.same(recs.map((r) => r.line), [1, 2, 4, 6], 'start lines');
  }
});

t.test('generic CSV columns', async (t) => {
  const csv = 'SMILES,Name,InChIKey,Organism,DOI,Collection\nCCO,ethanol,LFQSCWFLJHTTHZ-UHFFFAOYSA-N,Vitis vinifera,https://doi.org/10.1/ABC,Demo\n,nothing,,,,\n';
  const rows = await collect(parseDelimited(chunked(csv), ','));
  t.equal(rows.length, 2);
  t.same(rows[0].molecule, { canonical_smiles: 'CCO', name: 'ethanol', iupac_name: null, standard_inchi_key: 'LFQSCWFLJHTTHZ-UHFFFAOYSA-N' });
  t.equal(rows[0].citation?.doi, '10.1/abc');
  t.same(rows[0].organism, { name: 'Vitis vinifera', iri: null, rank: null });
  t.equal(rows[0].collection?.title, 'Demo');
  t.match(rows[1].problem, /no structure/);
  const err = await collect(parseDelimited(chunked('a,b\n1,2\n'), ',')).catch((e: unknown) => e);
  t.ok(err instanceof AppError && err.status === 422, 'no structure column is a 422');
});

t.test('SDF records with data items', async (t) => {
  const mol = (title: string) =>
    `${title}\n  test\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\n    1.2990    0.7500    0.0000 O   0  0\n  1  2  1  0\nM  END\n`;
  const sdf =
    mol('methanol') + '> <ORGANISM>\nHomo sapiens\n\n> <DOI>\n10.1000/XYZ\n\n$$$$\r\n' +
    mol('') + '>  12  <name> (DT1)\nwood\nalcohol\n\n> <SMILES>\nCCCC\n\n$$$$\n';
  const rows = await collect(parseSdf(chunked(sdf, 11)));
  t.equal(rows.length, 2);
  t.match(rows[0].molecule?.canonical_smiles, /^methanol\n[\s\S]*M {2}END\n$/, 'the molblock is the structure');
  t.equal(rows[0].molecule?.name, 'methanol', 'title line names the molecule');
  t.equal(rows[0].organism?.name, 'Homo sapiens');
  t.equal(rows[0].citation?.doi, '10.1000/xyz');
  t.equal(rows[1].molecule?.name, 'wood\nalcohol', 'multi-line data item');
  t.match(rows[1].molecule?.canonical_smiles, /M {2}END/, 'a SMILES data item does not replace the molblock');
  t.equal(rows[1].line, 16);
});
