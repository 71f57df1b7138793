/**
 * The size bounds hold whatever the toolkit: an input the RDKit threads refuse (over
 * MAX_HEAVY_ATOMS heavy atoms, or over 100 for 3D coordinates) is refused by toolkit=cdk,
 * openbabel and rdkit (native 3D) with the same status and the same detail, before a sidecar
 * reads it. The reference is the answer of the default toolkit to the same request. Found by the
 * fuzzer (seed 20261128, case 3616): Open Babel's 3D of a 5,000-atom polyene aborted its sidecar
 * (std::bad_alloc under its 2 GB bound) and answered 503. Each toolkit's part is skipped with the
 * reason when it is not installed.
 */
import t from 'tap';
import { build } from '../helpers/app.ts';
import { locateCdk, locateOpenBabel, locateRdkit } from '../../shared/toolkits/index.ts';

const { app, services } = (await build(t, 'inline'))!;
const ask = (url: string, query: Record<string, string>) => app.inject({ url, query });
const ob = locateOpenBabel(), cdk = locateCdk(), rdkit = locateRdkit();
const skip = (s: { ok: boolean; problem?: string }, label: string) => (s.ok ? false : `${label} not installed: ${s.problem}`);

/** What sameRefusal asserts with. */
type Check = Pick<typeof t, 'equal' | 'match'>;

const chain = (n: number) => 'C'.repeat(n);
const polyene = 'C=C'.repeat(2500);

/** The default toolkit's answer to the same request (the RDKit threads, or openchemlib for 3D). */
async function reference(url: string, smiles: string) {
  const res = await ask(url, { smiles });
  return { status: res.statusCode, detail: res.json().detail as string };
}

async function sameRefusal(t: Check, url: string, smiles: string, toolkit: string, what: string, detail: RegExp) {
  const want = await reference(url, smiles);
  t.equal(want.status, 422, `${what}: the default toolkit refuses it (${want.detail})`);
  t.match(want.detail, detail, `${what}: the count and the limit`);
  const got = await ask(url, { smiles, toolkit });
  t.equal(got.statusCode, 422, `${what}, toolkit=${toolkit}: 422`);
  t.equal(got.json().detail, want.detail, `${what}, toolkit=${toolkit}: the same detail`);
}

t.test('3D coordinates and the 3D viewer: over 100 heavy atoms refused by every toolkit', async (t) => {
  for (const [toolkit, setup, label] of [['openbabel', ob, 'Open Babel'], ['rdkit', rdkit, 'native RDKit']] as const) {
    t.test(label, { skip: skip(setup, label) }, async (t) => {
      const before = services.toolkits.sidecar(toolkit as 'openbabel' | 'rdkit').stats;
      const calls = JSON.stringify(before);
      for (const url of ['/convert/mol3D', '/depict/3D']) {
        await sameRefusal(t, url, chain(101), toolkit, `${url} of a 101-carbon chain`, /^Too many heavy atoms for 3D coordinates: 101 \(limit 100\)$/);
        await sameRefusal(t, url, polyene, toolkit, `${url} of a 5,000-atom polyene`, /^Structure too large: 5000 heavy atoms \(limit 400\)$/);
      }
      t.equal(JSON.stringify(services.toolkits.sidecar(toolkit as 'openbabel' | 'rdkit').stats), calls, 'the sidecar saw none of them (its counters did not move)');
      const small = await ask('/convert/mol3D', { smiles: 'CCO', toolkit });
      t.equal(small.statusCode, 200, 'a small molecule is still embedded');
      t.match(small.body, /V2000/);
    });
  }
});

t.test('every other operation: over MAX_HEAVY_ATOMS (400) refused by CDK and Open Babel as by RDKit', async (t) => {
  t.test('Open Babel', { skip: skip(ob, 'Open Babel') }, async (t) => {
    await sameRefusal(t, '/convert/canonicalsmiles', chain(401), 'openbabel', 'canonical SMILES of a 401-carbon chain', /^Structure too large: 401 heavy atoms \(limit 400\)$/);
    await sameRefusal(t, '/convert/inchikey', polyene, 'openbabel', 'InChIKey of a 5,000-atom polyene', /^Structure too large: 5000 heavy atoms \(limit 400\)$/);
    const at = await ask('/convert/canonicalsmiles', { smiles: chain(400), toolkit: 'openbabel' });
    t.equal(at.statusCode, 200, '400 carbons: within the bound, answered');
    t.equal(at.json(), chain(400), "Open Babel's canonical SMILES of the chain is the chain");
  });
  t.test('CDK', { skip: skip(cdk, 'CDK') }, async (t) => {
    await sameRefusal(t, '/convert/mol2D', chain(401), 'cdk', '2D coordinates of a 401-carbon chain', /^Structure too large: 401 heavy atoms \(limit 400\)$/);
    await sameRefusal(t, '/chem/descriptors/multiple', `CCO,${chain(401)}`, 'cdk', 'descriptors of a list with a 401-carbon chain', /401 heavy atoms \(limit 400\)/);
    t.equal((await ask('/convert/mol2D', { smiles: chain(400), toolkit: 'cdk' })).statusCode, 200, '400 carbons: within the bound, answered');
  });
});
