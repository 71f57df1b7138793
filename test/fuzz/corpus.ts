/** The committed seed corpus (test/fuzz/corpus, written by corpus/build.ts), loaded once. */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = (p: string) => fileURLToPath(new URL(`./corpus/${p}`, import.meta.url));
const lines = (f: string) => readFileSync(dir(f), 'utf8').split('\n').filter((l) => l.trim());
const files = (d: string) => readdirSync(dir(d)).sort().map((f) => ({ name: f, bytes: readFileSync(dir(`${d}/${f}`)) }));

export interface Corpus {
  smiles: string[];
  names: string[];
  selfies: string[];
  molblocks: string[];
  pdfs: { name: string; bytes: Buffer }[];
  catalogSeedFile: string;
}

let cached: Corpus | undefined;

export function corpus(): Corpus {
  cached ??= {
    smiles: lines('smiles.txt'),
    names: lines('names.txt'),
    selfies: lines('selfies.txt'),
    molblocks: files('molblocks').map((f) => f.bytes.toString('utf8')),
    pdfs: files('pdf'),
    catalogSeedFile: dir('catalog-seed.tsv'),
  };
  return cached;
}
