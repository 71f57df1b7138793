/**
 * generate_smiles with chemical names through HTTP and MCP (inline runner, embedded store): the
 * resolvers in order (OPSIN, then the catalog's names, then the external database on a fake
 * PUG-REST server), the `x-resolver` header and the MCP note, structures unchanged (no header, no
 * lookups), /health's OPSIN report, and the 422 of an unresolvable name with the install hint
 * when OPSIN is missing. The OPSIN parts are skipped loudly without Java + OPSIN.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import t from 'tap';
import { createMcpServer } from '../../api/mcp/tools.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { locateOpsin } from '../../api/names/opsin-setup.ts';
import { closeSharedOpsin } from '../../api/names/service.ts';
import { startFakePugRest } from '../extdb/fake-pugrest.ts';
import { build } from '../helpers/app.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';

const fake = await startFakePugRest();
t.teardown(() => fake.close());
// The api and its pool's threads read these from the configuration build() makes.
const EXTDB = { EXTDB_URL: fake.base, EXTDB_TIMEOUT_MS: '2000' };
t.teardown(() => closeSharedOpsin());

const { app, services } = (await build(t, 'inline', EXTDB))!;
const rdkit = await loadRDKit();
const canon = (smiles: string) => {
  const m = rdkit.get_mol(smiles)!;
  try {
    return m.get_smiles();
  } finally {
    m.delete();
  }
};

// A name only the catalog knows (OPSIN cannot read it), and a synonym.
const NATPRODIN = 'CC1=CC(=O)C2=C(O1)C=C(O)C=C2O';
await services.store.insert('molecules', {
  identifier: 'CNP9990001', name: 'Natprodin A', iupac_name: null, synonyms: ['NP-4711'], standard_inchi_key: 'TEST-KEY-A', canonical_smiles: NATPRODIN,
});

const setup = locateOpsin();
const noOpsin = !setup.java || !setup.jar ? `no Java + OPSIN (${setup.problem})` : false;
if (noOpsin) console.log(`# ${noOpsin}`);

const get = (input_text: string, representation?: string) =>
  app.inject({ url: '/convert/smiles', query: { input_text, ...(representation ? { representation } : {}) } });

t.test('/health says whether OPSIN is available', async (t) => {
  const health = (await app.inject({ url: '/health' })).json();
  t.equal(health.opsin.available, !noOpsin, JSON.stringify(health.opsin));
  if (noOpsin) t.match(health.opsin.install, /default-jre-headless libopsin-java/);
});

t.test('structures are answered as before: the same JSON string, no resolver header, no lookups', async (t) => {
  const before = fake.requests.length;
  const res = await get('OCC');
  t.equal(res.statusCode, 200);
  t.equal(res.json(), 'CCO');
  t.notOk(res.headers['x-resolver']);
  const broken = await get('C1CC(');
  t.equal(broken.statusCode, 422);
  t.match(broken.json().detail, /C1CC\(/, 'a broken SMILES keeps its own 422');
  t.notOk(/name/i.test(broken.json().detail), 'and is not looked up as a name');
  t.equal((await get('InChI=1S/CH4/h1H4')).statusCode, 422);
  t.equal(fake.requests.length, before, 'no external lookups');
});

t.test('OPSIN reads names: representation=iupac and auto', { skip: noOpsin }, async (t) => {
  for (const [text, rep] of [['caffeine', 'iupac'], ['caffeine', undefined], ['1,3,7-trimethylpurine-2,6-dione', 'auto']] as const) {
    const res = await get(text, rep);
    t.equal(res.statusCode, 200, res.body);
    // iupac named: OPSIN's own string (the original's answer); auto: RDKit canonical SMILES.
    if (rep === 'iupac') t.equal(canon(res.json()), canon('CN1C=NC2=C1C(=O)N(C(=O)N2C)C'), `${text} (${rep}): OPSIN's string of caffeine`);
    else t.equal(res.json(), canon('CN1C=NC2=C1C(=O)N(C(=O)N2C)C'), `${text} (${rep ?? 'default'})`);
    t.equal(res.headers['x-resolver'], 'opsin');
    t.match(res.headers['x-resolver-source'], /^OPSIN \d/);
  }
  const latest = await app.inject({ url: '/latest/convert/smiles?input_text=(2S)-2-aminopropanoic%20acid&representation=iupac' });
  t.equal(canon(latest.json()), canon('C[C@H](N)C(=O)O'), 'stereo kept');
  // The original's own case (tests/test_converters.py, test_iupac_or_selfies_to_smiles): OPSIN's string as it writes it.
  const named = await app.inject({ url: '/latest/convert/smiles?input_text=1,3,7-trimethylpurine-2,6-dione&representation=iupac' });
  t.equal(named.body, '"CN1C(N(C=2N=CN(C2C1=O)C)C)=O"', 'the original\'s answer, byte for byte');
});

t.test('a name only the catalog knows is answered from the catalog', async (t) => {
  for (const [text, rep] of [['Natprodin A', 'iupac'], ['natprodin a', 'iupac'], ['Natprodin A', undefined], ['NP-4711', 'iupac']] as const) {
    const res = await get(text, rep);
    t.equal(res.statusCode, 200, res.body);
    t.equal(res.json(), canon(NATPRODIN), `${text} (${rep ?? 'default'})`);
    t.equal(res.headers['x-resolver'], 'catalog');
    t.equal(res.headers['x-resolver-source'], 'catalog molecule CNP9990001');
  }
});

t.test('a synonym written through mutate is a name the catalog resolves', async (t) => {
  const admin = await ensureUser(services.store, 'names-admin@x.org', 'admin');
  const headers = { authorization: `Bearer ${await issueToken(services.store, admin.id)}` };
  const smiles = 'COC(=O)c1ccccc1O';
  const created = await app.inject({
    method: 'POST', url: '/api/molecules/mutate', headers,
    payload: { mutate: [{ operation: 'create', attributes: { name: 'Natprodol B', canonical_smiles: smiles, synonyms: ['NP-4712', 'NP-4712a'] } }] },
  });
  t.equal(created.statusCode, 200, created.body);
  const [id] = created.json().created;
  const mol = (await services.store.findByIds('molecules', [id]))[0];
  t.same(mol.synonyms, ['NP-4712'], 'NP-4712a is 92% like NP-4712: deduplicated as COCONUT does');
  const res = await get('np-4712', 'iupac');
  t.equal(res.statusCode, 200, res.body);
  t.equal(res.json(), canon(smiles));
  t.equal(res.headers['x-resolver'], 'catalog');
  t.equal(res.headers['x-resolver-source'], `catalog molecule ${mol.identifier}`);
});

t.test('a name neither OPSIN nor the catalog knows goes to the external database', async (t) => {
  const res = await get('58-08-2', 'iupac'); // caffeine's CAS number, which PUG-REST resolves as a name
  t.equal(res.statusCode, 200, res.body);
  t.equal(res.json(), canon('CN1C=NC2=C1C(=O)N(C(=O)N2C)C'));
  t.equal(res.headers['x-resolver'], 'extdb');
  t.ok(fake.requests.some((r) => r.includes('/compound/name/58-08-2/')), 'asked by name');
});

t.test('an unresolvable name is a 422 saying what each resolver answered', async (t) => {
  const res = await get('florbinox quuxate', 'iupac');
  t.equal(res.statusCode, 422);
  const detail = res.json().detail as string;
  t.match(detail, /florbinox quuxate/);
  t.match(detail, /OPSIN/);
  t.match(detail, /catalog: no molecule/);
  t.match(detail, /external compound database: not found/);
  const auto = await get('florbinox quuxate');
  t.equal(auto.statusCode, 422);
  t.match(auto.json().detail, /Not a structure RDKit can read .*Cannot resolve the name/);
});

t.test('without OPSIN: the service still answers, /health and the 422 say what to install', async (t) => {
  // The running app's configuration, changed in place: /health and the names service read it at
  // each call (a changed OPSIN setting replaces the bridge).
  const saved = services.config.OPSIN_JAR;
  services.config.OPSIN_JAR = '/nonexistent/opsin.jar';
  t.teardown(() => {
    services.config.OPSIN_JAR = saved;
  });
  const health = (await app.inject({ url: '/health' })).json();
  t.equal(health.status, 'OK');
  t.match(health.opsin, { available: false, reason: /OPSIN_JAR=\/nonexistent\/opsin.jar does not exist/, install: /apt-get install default-jre-headless libopsin-java/ });
  const res = await get('florbinox quuxate', 'iupac');
  t.equal(res.statusCode, 422);
  t.match(res.json().detail, /OPSIN not available.*To read systematic names, install a Java runtime .*apt-get install default-jre-headless libopsin-java/);
  const catalog = await get('Natprodin A', 'iupac');
  t.equal(catalog.headers['x-resolver'], 'catalog', 'the other resolvers still work');
  const ext = await get('58-08-2', 'iupac');
  t.equal(ext.headers['x-resolver'], 'extdb');
});

t.test('MCP: the same string, and a second text content naming the resolver', async (t) => {
  const server = createMcpServer({ version: 'test', longWaitMs: 30_000, context: () => ({ runner: services.runner, config: services.config, store: services.store, baseUrl: 'http://x', prefix: '' }) });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'names-test', version: '1.0.0' });
  await Promise.all([server.connect(a), client.connect(b)]);
  t.teardown(() => client.close());
  const res = (await client.callTool({ name: 'generate_smiles', arguments: { input_text: 'Natprodin A', representation: 'iupac' } })) as { content: { text: string }[] };
  t.equal(JSON.parse(res.content[0].text), canon(NATPRODIN));
  t.match(res.content[1].text, /^resolver: catalog \(catalog molecule CNP9990001\)/);
  const plain = (await client.callTool({ name: 'generate_smiles', arguments: { input_text: 'OCC' } })) as { content: { text: string }[] };
  t.equal(plain.content.length, 1, 'structures: one content as before');
});

t.test('bullmq mode: the api resolves, the workers write the structure', async (t) => {
  const built = await build(t, 'bullmq');
  if (!built) return skipAll(t, NO_REDIS);
  await built.services.store.insert('molecules', { identifier: 'CNP9990001', name: 'Natprodin A', standard_inchi_key: 'TEST-KEY-A', canonical_smiles: NATPRODIN });
  const res = await built.app.inject({ url: '/convert/smiles', query: { input_text: 'Natprodin A', representation: 'iupac' } });
  t.equal(res.json(), canon(NATPRODIN));
  t.equal(res.headers['x-resolver'], 'catalog');
  if (noOpsin) t.pass('OPSIN reads a name through the workers', { skip: noOpsin });
  else {
    const opsin = await built.app.inject({ url: '/convert/smiles', query: { input_text: 'caffeine' } });
    t.equal(opsin.headers['x-resolver'], 'opsin');
    t.equal(opsin.json(), canon('CN1C=NC2=C1C(=O)N(C(=O)N2C)C'));
  }
});
