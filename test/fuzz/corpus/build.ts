/**
 * Writes the fuzzer's seed corpus (committed; rerun only to refresh it):
 *   node --import tsx test/fuzz/corpus/build.ts
 * - smiles.txt: SMILES of the LOTUS demo set (api/catalog/data), every 5th structure of both files
 * - names.txt: traditional and IUPAC names of some of them (generate_smiles, retrieve_extdb_smiles)
 * - selfies.txt: SELFIES of 60 of those SMILES (our own encoder)
 * - molblocks/*.mol: V2000 and V3000 molblocks (RDKit) of a few of them, and an SD record with fields
 * - pdf/*.pdf: an article, blank pages, a password-protected file (test/pdf writers, pdf-lib)
 * - catalog-seed.tsv: the first 60 rows of the curated LOTUS file, imported into the fuzz server's
 *   catalog so that searches, relations and write attempts have records to act on
 * Everything is deterministic: the same inputs give the same files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadRDKit } from '../../../shared/chem/core/rdkit.ts';
import { encodeSelfies } from '../../../shared/chem/selfies/selfies.ts';
import { blankPages, passwordProtected, simplePages } from '../../pdf/samples.ts';
import { standardArticle, writePaper } from '../../pdf/paper.ts';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const data = (f: string) => gunzipSync(readFileSync(here(`../../../api/catalog/data/${f}`))).toString('utf8');
const tsv = (text: string) => {
  const [head, ...rows] = text.split('\n').filter(Boolean);
  const cols = head.split('\t');
  return { head, rows, records: rows.map((r) => Object.fromEntries(r.split('\t').map((v, i) => [cols[i], v]))) };
};

const validated = tsv(data('lotus_manually_validated_413.tsv.gz'));
const sample = tsv(data('lotus_sample_1000.tsv.gz'));

const smiles = [
  ...validated.records.map((r) => r.structureCleanedSmiles),
  ...sample.records.map((r) => r.structure_smiles),
].filter((s, i, all) => s && s !== 'NA' && all.indexOf(s) === i).filter((_, i) => i % 5 === 0);
writeFileSync(here('smiles.txt'), smiles.join('\n') + '\n');

const names = [
  ...validated.records.flatMap((r) => [r.structureCleaned_nameTraditional, r.structureCleaned_nameIupac]),
  ...sample.records.flatMap((r) => [r.structure_nameTraditional]),
].filter((s, i, all) => s && s !== 'NA' && all.indexOf(s) === i).filter((_, i) => i % 12 === 0);
writeFileSync(here('names.txt'), names.join('\n') + '\n');

const selfies: string[] = [];
for (const s of smiles.slice(0, 60)) {
  try {
    selfies.push(encodeSelfies(s));
  } catch {
    // not encodable: left out
  }
}
writeFileSync(here('selfies.txt'), selfies.join('\n') + '\n');

mkdirSync(here('molblocks'), { recursive: true });
const rdkit = await loadRDKit();
for (const [i, s] of smiles.slice(0, 4).entries()) {
  const mol = rdkit.get_mol(s)!;
  try {
    writeFileSync(here(`molblocks/v2000-${i}.mol`), mol.get_molblock());
    writeFileSync(here(`molblocks/v3000-${i}.mol`), mol.get_v3Kmolblock());
  } finally {
    mol.delete();
  }
}
{
  const mol = rdkit.get_mol('CC(=O)Oc1ccccc1C(=O)O')!;
  writeFileSync(here('molblocks/aspirin.sdf'), `${mol.get_molblock()}>  <name>\naspirin\n\n>  <source>\nfuzz corpus\n\n$$$$\n`);
  mol.delete();
}

mkdirSync(here('pdf'), { recursive: true });
const article = await writePaper(standardArticle());
writeFileSync(here('pdf/article.pdf'), article.bytes);
writeFileSync(here('pdf/blank-2.pdf'), await blankPages(2));
const words = await simplePages(['Quercetin was isolated from the leaves.', 'Caffeine CN1C=NC2=C1C(=O)N(C(=O)N2C)C']);
writeFileSync(here('pdf/two-pages.pdf'), words);
writeFileSync(here('pdf/password.pdf'), await passwordProtected(words));

writeFileSync(here('catalog-seed.tsv'), [validated.head, ...validated.rows.slice(0, 60)].join('\n') + '\n');
console.log(`${smiles.length} SMILES, ${names.length} names, ${selfies.length} SELFIES, molblocks, 4 PDFs, 60 catalog rows`);
