/**
 * Shared by the export and MCP search_catalog tests: 30 natural products (names chosen to test
 * CSV quoting and formula defusing), created through mutate so that they are derived on the
 * threads like any catalog write, and small parsers of the export formats.
 */
import type { FastifyInstance } from 'fastify';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import type { Services } from '../../api/services.ts';

export const MOLECULES: [name: string, smiles: string][] = [
  ['Tryptamine', 'NCCc1c[nH]c2ccccc12'],
  ['Serotonin', 'NCCc1c[nH]c2ccc(O)cc12'],
  ['Melatonin', 'COc1ccc2[nH]cc(CCNC(C)=O)c2c1'],
  ['L-Tryptophan', 'N[C@@H](Cc1c[nH]c2ccccc12)C(=O)O'],
  ['Indole-3-acetic acid', 'OC(=O)Cc1c[nH]c2ccccc12'],
  ['Harmine', 'COc1ccc2c(c1)[nH]c1c(C)nccc12'],
  ['Quercetin', 'O=c1c(O)c(-c2ccc(O)c(O)c2)oc2cc(O)cc(O)c12'],
  ['Kaempferol', 'O=c1c(O)c(-c2ccc(O)cc2)oc2cc(O)cc(O)c12'],
  ['Luteolin', 'O=c1cc(-c2ccc(O)c(O)c2)oc2cc(O)cc(O)c12'],
  ['Apigenin', 'O=c1cc(-c2ccc(O)cc2)oc2cc(O)cc(O)c12'],
  ['Naringenin', 'O=C1C[C@@H](c2ccc(O)cc2)Oc2cc(O)cc(O)c21'],
  ['=HYPERLINK("http://evil.example","click")', 'Cn1cnc2c1c(=O)n(C)c(=O)n2C'],
  ['Nicotine, (S)-', 'CN1CCC[C@H]1c1cccnc1'],
  ['Morphine', 'CN1CC[C@]23c4c5ccc(O)c4O[C@H]2[C@@H](O)C=C[C@H]3[C@H]1C5'],
  ['+camphor', 'CC1(C)C2CCC1(C)C(=O)C2'],
  ['-menthol', 'CC(C)[C@@H]1CC[C@@H](C)C[C@H]1O'],
  ['@limonene', 'CC1=CC[C@@H](C(C)=C)CC1'],
  ['geraniol\n"rose" alcohol', 'CC(C)=CCC/C(C)=C/CO'],
  ['Salicylic acid', 'OC(=O)c1ccccc1O'],
  ['Vanillin', 'COc1cc(C=O)ccc1O'],
  ['Capsaicin', 'COc1cc(CNC(=O)CCCC/C=C/C(C)C)ccc1O'],
  ['Resveratrol', 'Oc1ccc(/C=C/c2cc(O)cc(O)c2)cc1'],
  ['Curcumin', 'COc1cc(/C=C/C(=O)CC(=O)/C=C/c2ccc(O)c(OC)c2)ccc1O'],
  ['Cinnamaldehyde', 'O=C/C=C/c1ccccc1'],
  ['Eugenol', 'C=CCc1ccc(O)c(OC)c1'],
  ['Coumarin', 'O=c1ccc2ccccc2o1'],
  ['Piperine', 'O=C(/C=C/C=C/c1ccc2c(c1)OCO2)N1CCCCC1'],
  ['Berberine', 'COc1ccc2cc3[n+](cc2c1OC)CCc1cc2c(cc1-3)OCO2'],
  ['Artemisinin', 'C[C@@H]1CC[C@H]2[C@@H](C)C(=O)O[C@@H]3O[C@@]4(C)CC[C@@H]1[C@]32OO4'],
  ['beta-D-Glucose', 'OC[C@H]1O[C@@H](O)[C@H](O)[C@@H](O)[C@@H]1O'],
];

export const INDOLE = 'c1ccc2[nH]ccc2c1';
export const QUERCETIN = MOLECULES[6][1];

/** Creates the molecules (one mutate), builds the search index, and returns an admin's headers. */
export async function seed(app: FastifyInstance, services: Services): Promise<{ auth: Record<string, string>; ids: number[] }> {
  const admin = await ensureUser(services.store, 'admin@example.org', 'admin');
  const auth = { authorization: `Bearer ${await issueToken(services.store, admin.id)}` };
  const res = await app.inject({
    method: 'POST',
    url: '/api/molecules/mutate',
    headers: auth,
    payload: { mutate: MOLECULES.map(([name, smiles]) => ({ operation: 'create', attributes: { name, canonical_smiles: smiles } })) },
  });
  if (res.statusCode !== 200) throw new Error(`seeding failed: ${res.statusCode} ${res.body}`);
  await services.searchIndex.start();
  return { auth, ids: res.json().created as number[] };
}

export async function tokenFor(services: Services, email: string, role: 'reader' | 'curator' | 'admin') {
  const user = await ensureUser(services.store, email, role);
  return { authorization: `Bearer ${await issueToken(services.store, user.id)}` };
}

/** RFC 4180: CRLF records, quoted fields with doubled quotes (which may hold CR, LF and commas). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (c === '"') {
        quoted = false;
        i++;
        continue;
      }
      cell += c;
      i++;
      continue;
    }
    if (c === '"' && cell === '') {
      quoted = true;
      i++;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 2;
    } else if (c === '\n' || c === '\r' || c === '"') {
      throw new Error(`bad CSV at ${i}: bare ${JSON.stringify(c)}`);
    } else {
      cell += c;
      i++;
    }
  }
  if (cell !== '' || row.length) throw new Error('CSV does not end with CRLF');
  return rows;
}

/** CSV rows as records keyed by the header. */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}

/** SDF records: molblock, title and data items. */
export function parseSdf(text: string): { molblock: string; title: string; data: Record<string, string> }[] {
  const out: { molblock: string; title: string; data: Record<string, string> }[] = [];
  const records = text.split('$$$$\n');
  if (records.pop() !== '') throw new Error('SDF does not end with $$$$');
  for (const rec of records) {
    const end = rec.indexOf('M  END\n') + 'M  END\n'.length;
    const molblock = rec.slice(0, end);
    const data: Record<string, string> = {};
    const re = /^> <([^>]+)>\n(.*)\n\n/gm;
    for (const m of rec.slice(end).matchAll(re)) data[m[1]] = m[2];
    out.push({ molblock, title: molblock.split('\n')[0], data });
  }
  return out;
}

/** Atoms in a V2000 molblock's counts line. */
export function molblockAtoms(molblock: string): number {
  const counts = molblock.split('\n')[3];
  if (!/V2000\s*$/.test(counts)) throw new Error(`not V2000: ${counts}`);
  return Number.parseInt(counts.slice(0, 3), 10);
}
