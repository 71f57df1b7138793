/**
 * Test helper: a Fastify app with the catalog plugin over a fresh store (embedded in a temp dir;
 * MongoStore over the in-process mingo stand-in, test/helpers/mingo-mongo.ts, for 'mingo'; or
 * MongoDB in a random database when MONGO_URL is set and `kind` is 'mongo'), one token per role,
 * and a fake `derive` keyed by SMILES (no RDKit).
 */
import { checkAnswers } from '../helpers/openapi-check.ts';
import type { Teardown as Tap } from '../helpers/task.ts';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import catalogPlugin from '../../api/catalog/plugin.ts';
import { ensureUser, issueToken } from '../../api/catalog/auth/auth.ts';
import { BackgroundWork } from '../../api/catalog/actions/background.ts';
import type { Status } from '../../api/catalog/schema/define.ts';
import type { DeriveInput, DerivedMolecule } from '../../shared/chem/catalog/ports.ts';
import type { Derive } from '../../api/catalog/mutate/derived.ts';
import { openStore } from '../../api/catalog/store/open.ts';
import type { CatalogStore } from '../../api/catalog/store/types.ts';
import { invalidStructure } from '../../shared/errors.ts';

export type StoreKind = 'embedded' | 'mingo' | 'mongo';

/**
 * Store kinds to run contract tests against: embedded and mongo, always; give each test
 * `storeVariant(kind)` (test/helpers/skip.ts) so the mongo one is a named skip, not a silent
 * absence, without MONGO_URL. `mingo`: also MongoStore's own code over the in-process stand-in
 * (test/helpers/mingo-mongo.ts), always run. The store tests and the search tests ask for it; the
 * other app-level tests do not (the stand-in scans and copies the documents on every query: a
 * few seconds per file, minutes for a generated catalog), and store-conformance.test.ts runs
 * every store method on it.
 */
export function storeKinds(opts: { mingo?: boolean } = {}): StoreKind[] {
  return opts.mingo ? ['embedded', 'mingo', 'mongo'] : ['embedded', 'mongo'];
}

export async function makeStore(t: Tap, kind: StoreKind = 'embedded'): Promise<CatalogStore> {
  if (kind === 'mingo') {
    // Loaded here: mongoose and mingo only for the tests that ask for this kind.
    const [{ MongoStore }, { MingoConnection }] = await Promise.all([import('../../api/catalog/store/mongo.ts'), import('../helpers/mingo-mongo.ts')]);
    const store = await MongoStore.over(new MingoConnection());
    t.teardown(() => store.close());
    return store;
  }
  if (kind === 'mongo') {
    const url = new URL(process.env.MONGO_URL!);
    url.pathname = `/natprod_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const store = await openStore({ mongoUrl: url.toString(), dataDir: '' });
    t.teardown(async () => {
      const mongoose = (await import('mongoose')).default;
      const c = await mongoose.createConnection(url.toString()).asPromise();
      await c.dropDatabase();
      await c.close();
      await store.close();
    });
    return store;
  }
  const dir = await mkdtemp(join(tmpdir(), 'natprod-catalog-'));
  const store = await openStore({ dataDir: dir });
  t.teardown(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  return store;
}


/** Fake derivation: deterministic data per SMILES; anything containing `?` is unparsable. */
export async function fakeDerive({ structure }: DeriveInput): Promise<DerivedMolecule> {
  if (structure.includes('?')) throw invalidStructure(structure);
  const h = createHash('sha256').update(structure).digest('hex').toUpperCase().replace(/[0-9]/g, (d) => 'ABCDEFGHIJ'[Number(d)]);
  const heavy = structure.replace(/[^A-Za-z]/g, '').length;
  return {
    standard_inchi: `InChI=1S/fake/${structure}`,
    standard_inchi_key: `${h.slice(0, 14)}-${h.slice(14, 24)}-N`,
    canonical_smiles: structure,
    has_stereo: structure.includes('@'),
    murcko_framework: structure.includes('c1') ? 'c1ccccc1' : null,
    properties: {
      total_atom_count: heavy * 2, heavy_atom_count: heavy, molecular_weight: heavy * 12.01, exact_molecular_weight: heavy * 12,
      molecular_formula: `C${heavy}`, alogp: 1.5, topological_polar_surface_area: 20.23, rotatable_bond_count: 1,
      hydrogen_bond_acceptors: 1, hydrogen_bond_donors: 1, hydrogen_bond_acceptors_lipinski: 1, hydrogen_bond_donors_lipinski: 1,
      lipinski_rule_of_five_violations: 0, aromatic_rings_count: 0, qed_drug_likeliness: 0.5, formal_charge: 0, fractioncsp3: 0.5,
      number_of_minimal_rings: 0, van_der_walls_volume: heavy * 20.58, contains_sugar: false, contains_ring_sugars: false,
      contains_linear_sugars: false, murcko_framework: null, np_likeness: 1,
    },
  };
}

/** A logger that keeps what the catalog's background work reports. */
export function memoryLog() {
  const lines: string[] = [];
  return { lines, info: (m: string) => void lines.push(`info: ${m}`), warn: (m: string) => void lines.push(`warn: ${m}`), error: (m: string) => void lines.push(`error: ${m}`) };
}

export interface Built {
  app: FastifyInstance;
  store: CatalogStore;
  /** The plugin's queued actions; `await b.background.idle()` before checking their effects. */
  background: BackgroundWork;
  log: ReturnType<typeof memoryLog>;
  tokens: { reader: string; curator: string; admin: string };
  /** inject with a role's token */
  call: (method: string, url: string, body?: unknown, role?: 'reader' | 'curator' | 'admin' | null) => Promise<{ status: number; json: any }>;
}

export async function build(t: Tap, kind: StoreKind = 'embedded', derive: Derive = fakeDerive): Promise<Built> {
  const store = await makeStore(t, kind);
  const app = Fastify();
  const log = memoryLog();
  const background = new BackgroundWork(log);
  await app.register(catalogPlugin, { store, derive: async (i) => derive(i), background });
  // Every answer is checked against the OpenAPI document (test/helpers/openapi-check.ts).
  const violations = checkAnswers(app);
  await app.ready();
  t.teardown(async () => {
    await app.close();
    if (violations.length) throw new Error(`answers the OpenAPI document does not describe (test/helpers/openapi-check.ts):\n${violations.join('\n')}`);
  });
  const tokens = {
    reader: await issueToken(store, (await ensureUser(store, 'reader@x.org', 'reader')).id),
    curator: await issueToken(store, (await ensureUser(store, 'curator@x.org', 'curator')).id),
    admin: await issueToken(store, (await ensureUser(store, 'admin@x.org', 'admin', 'secret-pass')).id),
  };
  const call: Built['call'] = async (method, url, body, role = 'admin') => {
    const res = await app.inject({
      method: method as never,
      url,
      headers: role ? { authorization: `Bearer ${tokens[role]}` } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });
    let json: unknown;
    try {
      json = res.json();
    } catch {
      json = res.body;
    }
    return { status: res.statusCode, json };
  };
  return { app, store, background, log, tokens, call };
}

/** A small catalog: 6 molecules (one with null name), properties, 3 organisms, 2 collections, 2 citations. */
export async function seed(store: CatalogStore) {
  const orgs = await store.insertMany('organisms', [
    { name: 'Homo sapiens', iri: 'http://x/1', rank: 'species', molecule_count: 0 },
    { name: 'Aspergillus niger', iri: 'http://x/2', rank: 'species', molecule_count: 0 },
    { name: 'Aspergillus', iri: null, rank: 'genus', molecule_count: 0 },
  ]);
  const cols = await store.insertMany('collections', [
    { title: 'LOTUS', description: 'lotus', identifier: 'CNPC0001', url: 'https://lotus' },
    { title: 'Demo', description: null, identifier: null, url: null },
  ]);
  const cits = await store.insertMany('citations', [
    { doi: '10.1/a', title: 'A', authors: 'Ann', citation_text: 'A 2020' },
    { doi: '10.1/b', title: 'B', authors: 'Bob', citation_text: 'B 2021' },
  ]);
  const rows = [
    { name: 'caffeine', identifier: 'CNP0000001', status: 'APPROVED', active: true, annotation_level: 3, cas: ['58-08-2'], murcko_framework: 'c1ncc2nc[nH]c2n1', mw: 194.19, org: [0, 1], col: [0], cit: [0] },
    { name: 'Caffeine_b', identifier: 'CNP0000002', status: 'DRAFT', active: false, annotation_level: 1, cas: null, murcko_framework: null, mw: 200.5, org: [1], col: [0, 1], cit: [] },
    { name: 'aspirin', identifier: 'CNP0000003', status: 'INREVIEW', active: false, annotation_level: 5, cas: ['50-78-2'], murcko_framework: 'c1ccccc1', mw: 180.16, org: [], col: [1], cit: [1] },
    { name: null, identifier: 'CNP0000004', status: 'REVOKED', active: false, annotation_level: 2, cas: null, murcko_framework: null, mw: null, org: [2], col: [], cit: [] },
    { name: 'a.c*(x)', identifier: 'CNP0000005', status: 'APPROVED', active: true, annotation_level: 4, cas: null, murcko_framework: null, mw: 350, org: [], col: [], cit: [] },
    { name: '50%_off', identifier: 'CNP0000006', status: 'DRAFT', active: true, annotation_level: 0, cas: null, murcko_framework: null, mw: 90, org: [0], col: [], cit: [] },
  ];
  const mols = [];
  for (const [i, r] of rows.entries()) {
    const m = await store.insert('molecules', {
      name: r.name, identifier: r.identifier, status: r.status as Status, active: r.active, annotation_level: r.annotation_level,
      cas: r.cas, murcko_framework: r.murcko_framework, canonical_smiles: `C${'C'.repeat(i)}O`, standard_inchi_key: `KEY${i}`,
      has_stereo: false, is_parent: false, organism_ids: r.org.map((k) => orgs[k].id), collection_ids: r.col.map((k) => cols[k].id),
      citation_ids: r.cit.map((k) => cits[k].id),
    });
    if (r.mw !== null) await store.setProperties(m.id, { molecular_weight: r.mw, molecular_formula: `C${i}H${i}`, heavy_atom_count: i + 5, contains_sugar: i % 2 === 0 });
    mols.push(m);
  }
  return { orgs, cols, cits, mols };
}
