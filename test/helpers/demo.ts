/**
 * The LOTUS demo set imported into a test app. Each structure is derived once per test file (the
 * second runner mode and store of a file reuse the first one's derivations), and once per version
 * of the chemistry code across test files: the derivations are kept in a cache file named by a
 * hash of every file under shared/chem/, the demo data and the lockfile (RDKit's version), so a
 * change to any of them derives afresh. The demo import itself (test/catalog-import/demo.test.ts)
 * and every derivation test derive for real; the files that only need a catalog to search read
 * the cache. Set NATPROD_TEST_DERIVE_CACHE=0 to derive everything.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { importDemo } from '../../api/catalog/import/demo.ts';
import type { DeriveInput, DerivedMolecule } from '../../shared/chem/catalog/ports.ts';
import type { Services } from '../../api/services.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const derived = new Map<string, Promise<DerivedMolecule>>();

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The cache file of this version of the chemistry code, demo data and RDKit. */
function cacheFile(): string {
  const h = createHash('sha256');
  const inputs = [...files(join(ROOT, 'shared/chem')), ...files(join(ROOT, 'api/catalog/data')), join(ROOT, 'package-lock.json')].sort();
  for (const f of inputs) h.update(relative(ROOT, f)).update('\0').update(readFileSync(f)).update('\0');
  return join(ROOT, 'node_modules/.cache/natprod-test', `demo-derived-${h.digest('hex').slice(0, 16)}.json.gz`);
}

function readCache(file: string): Map<string, DerivedMolecule> {
  try {
    return new Map(Object.entries(JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as Record<string, DerivedMolecule>));
  } catch {
    return new Map();
  }
}

function writeCache(file: string, entries: Map<string, DerivedMolecule>): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, gzipSync(JSON.stringify(Object.fromEntries(entries))));
  renameSync(tmp, file); // atomic: a concurrent reader sees the old file or the new one
}

export async function importDemoOnce(services: Services): Promise<void> {
  const useCache = process.env.NATPROD_TEST_DERIVE_CACHE !== '0';
  const file = useCache ? cacheFile() : '';
  const cached = useCache ? readCache(file) : new Map<string, DerivedMolecule>();
  let fresh = 0;
  const derive = (input: DeriveInput) => {
    let d = derived.get(input.structure);
    if (!d) {
      const hit = cached.get(input.structure);
      if (hit) d = Promise.resolve(structuredClone(hit));
      else {
        fresh++;
        d = services.derive(input).then((r) => {
          cached.set(input.structure, structuredClone(r));
          return r;
        });
      }
      derived.set(input.structure, d);
    }
    return d;
  };
  await importDemo(services.store, { derive });
  if (useCache && fresh) writeCache(file, cached);
}
