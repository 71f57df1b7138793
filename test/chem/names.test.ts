/**
 * Chemical names read by OPSIN (through the bridge, api/names/opsin.ts), then written by the
 * service's RDKit (the generate_smiles task), against independent references:
 * - LOTUS's IUPAC names with LOTUS's InChIKeys (api/catalog/data: lotus_sample_1000 and
 *   lotus_manually_validated_413): of the names OPSIN reads, >= 95 % must give LOTUS's full
 *   standard InChIKey;
 * - trivial names of well-known natural products (test/fixtures/names_trivial_reference.tsv, keys
 *   from native RDKit + the InChI executable; provenance in test/fixtures/README.md).
 * A tap skip, with the reason, without a Java runtime and OPSIN.
 */
import { taskContext } from '../helpers/task.ts';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { inchikey } from '../../shared/chem/convert/convert.ts';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { OpsinProcess } from '../../api/names/opsin.ts';
import { locateOpsin, OPSIN_INSTALL_HINT } from '../../api/names/opsin-setup.ts';
import { convertInternalTasks } from '../../shared/ops/convert.tasks.ts';
import { fixture, tsv } from '../helpers/tables.ts';
import { skipAll } from '../helpers/skip.ts';

const setup = locateOpsin();
if (!setup.java || !setup.jar) {
  skipAll(t, `no Java + OPSIN (${setup.problem}); ${OPSIN_INSTALL_HINT}`);
} else {
  const rdkit = await loadRDKit();
  const ctx = taskContext(rdkit);
  const opsin = new OpsinProcess({ java: setup.java, jar: setup.jar, timeoutMs: 30_000, idleMs: 0 });
  t.teardown(() => opsin.close());

  /** OPSIN's structure as the service answers it (RDKit canonical SMILES), and its standard InChIKey. */
  const keyOf = (smiles: string): string | null => {
    try {
      const canonical = convertInternalTasks.generate_smiles({ input_text: smiles, representation: 'smiles' }, ctx) as string;
      const mol = rdkit.get_mol(canonical)!;
      try {
        return inchikey(rdkit, mol);
      } finally {
        mol.delete();
      }
    } catch {
      return null;
    }
  };

  const lotus = (file: string, nameCol: string, keyCol: string): [string, string][] => {
    const lines = gunzipSync(readFileSync(new URL(`../../api/catalog/data/${file}`, import.meta.url))).toString('utf8').split('\n').filter(Boolean);
    const head = lines[0].split('\t');
    const [n, k] = [head.indexOf(nameCol), head.indexOf(keyCol)];
    return lines.slice(1).map((l) => l.split('\t')).filter((v) => v[n] && v[k]).map((v) => [v[n], v[k]]);
  };

  t.test('LOTUS IUPAC names: OPSIN + RDKit give LOTUS\'s InChIKey for >= 95 % of the names OPSIN reads', async (t) => {
    const pairs = new Map<string, string>([
      ...lotus('lotus_sample_1000.tsv.gz', 'structure_nameIupac', 'structure_inchikey'),
      ...lotus('lotus_manually_validated_413.tsv.gz', 'structureCleaned_nameIupac', 'structureCleanedInchikey3D'),
    ]);
    let parsed = 0;
    let agree = 0;
    let skeleton = 0;
    const times: number[] = [];
    const disagreements: string[] = [];
    for (const [name, key] of pairs) {
      const t0 = performance.now();
      const answer = await opsin.parse(name);
      times.push(performance.now() - t0);
      if (!answer.ok) continue;
      parsed++;
      const mine = keyOf(answer.smiles);
      if (mine === key) agree++;
      else {
        if (mine?.slice(0, 14) === key.slice(0, 14)) skeleton++;
        disagreements.push(`${key} != ${mine}: ${name.slice(0, 100)}`);
      }
    }
    times.sort((a, b) => a - b);
    const total = pairs.size;
    t.comment(`LOTUS IUPAC names: ${total} distinct, OPSIN read ${parsed} (${((100 * parsed) / total).toFixed(1)} %), ` +
      `full InChIKey equal for ${agree}/${parsed} (${((100 * agree) / parsed).toFixed(1)} %), connectivity only for ${skeleton} more`);
    t.comment(`OPSIN per name (warming JVM, serialized, with the pipe round trip): median ${times[times.length >> 1].toFixed(2)} ms, ` +
      `p90 ${times[Math.floor(times.length * 0.9)].toFixed(2)} ms, max ${times[times.length - 1].toFixed(0)} ms`);
    for (const d of disagreements.slice(0, 10)) t.comment(d);
    t.ok(parsed >= 0.9 * total, `OPSIN reads ${parsed}/${total} LOTUS IUPAC names (>= 90 %)`);
    t.ok(agree >= 0.95 * parsed, `InChIKey equal to LOTUS for ${agree}/${parsed} (>= 95 %)`);
    t.equal(opsin.stats.starts, 1, 'one JVM for all names');

    // The warm JVM: a second pass over the first 300 names.
    const warm: number[] = [];
    for (const name of [...pairs.keys()].slice(0, 300)) {
      const t0 = performance.now();
      await opsin.parse(name);
      warm.push(performance.now() - t0);
    }
    warm.sort((a, b) => a - b);
    t.comment(`warm JVM per name: median ${warm[warm.length >> 1].toFixed(2)} ms, mean ${(warm.reduce((a, b) => a + b) / warm.length).toFixed(2)} ms`);
  });

  t.test('trivial names of well-known natural products give the reference InChIKey', async (t) => {
    const rows = tsv(fixture('names_trivial_reference.tsv'));
    t.ok(rows.length >= 20, `${rows.length} names`);
    for (const r of rows) {
      const answer = await opsin.parse(r.name);
      if (!answer.ok) {
        t.fail(`${r.name}: OPSIN did not read it (${answer.message})`);
        continue;
      }
      const key = keyOf(answer.smiles);
      if (r.opsin_stereo === 'full') t.equal(key, r.inchikey, r.name);
      else t.equal(key?.slice(0, 14), r.inchikey.slice(0, 14), `${r.name}: connectivity (OPSIN's entry has no stereo; the full key would be ${r.inchikey})`);
    }
  });
}
