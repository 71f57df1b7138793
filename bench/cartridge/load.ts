/**
 * Loads a benchmark set into the cartridge database the way COCONUT builds its search tables
 * (Steinbeck-Lab/coconut, database/scripts/rdkit_fingerprinting_setup.sql), in a schema of its
 * own per set (`set_5k` for search-5k.smi):
 *
 *   molecules(id, canonical_smiles, standard_inchi_key)     the catalog's rows (COCONUT: molecules)
 *   SELECT * INTO mols FROM (SELECT id, mol_from_smiles(canonical_smiles::cstring) m
 *     FROM molecules) tmp WHERE m IS NOT NULL;             unparsable SMILES skipped
 *   CREATE INDEX molidx ON mols USING gist(m); ALTER TABLE mols ADD PRIMARY KEY (id);
 *   SELECT id, morganbv_fp(m) AS mfp2 INTO fps FROM mols;   Morgan radius 2, rdkit.morgan_fp_size bits
 *   CREATE INDEX fps_mfp2_idx ON fps USING gist(mfp2); ALTER TABLE fps ADD PRIMARY KEY (id);
 *
 * COCONUT's fps also holds torsionbv_fp and featmorganbv_fp columns with their GiST indexes,
 * which its search never reads: left out here (load time and size are those of what the search
 * uses). `id` is the line number in the set (natprod's catalog id and CNP number of the same
 * line). The standard InChIKey is the catalog's (natprod's derived `standard_inchi_key`):
 * Debian's cartridge is built without InChI (`mol_inchikey` answers "InChI not available"), and
 * COCONUT too keeps its keys in `molecules`, computed outside the database.
 *
 * A schema is reused while its set file (md5) and fingerprint size are unchanged; the load times
 * are kept with it (`public.bench_sets`).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lit, type Psql } from './psql.ts';

export interface LoadInfo {
  schema: string;
  /** Rows of the set, molecules parsed (`mols`). */
  lines: number;
  mols: number;
  fpBits: number;
  /** Step → ms, in load order. */
  steps: [string, number][];
  /** When the schema was loaded (reused: an earlier run). */
  loadedAt: string;
  reused: boolean;
}

export const schemaFor = (set: string) => `set_${basename(set).replace(/\.smi$/, '').replace(/^search-/, '').toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;

/** Loads `set` unless its schema holds it already. `keys`: the standard InChIKey by line number (1-based). */
export async function loadSet(psql: Psql, set: string, keys: Map<number, string | null>, fpBits: number, reload: boolean, log: (s: string) => void): Promise<LoadInfo> {
  const text = readFileSync(set, 'utf8');
  const md5 = createHash('md5').update(text).digest('hex');
  const schema = schemaFor(set);
  await psql.query(`CREATE TABLE IF NOT EXISTS public.bench_sets (schema text PRIMARY KEY, set_path text, md5 text, fp_bits int, lines int, mols int, steps jsonb, loaded_at timestamptz)`);
  const prior = (await psql.query(`SELECT md5, fp_bits, lines, mols, steps::text, loaded_at::text FROM public.bench_sets WHERE schema = ${lit(schema)}`)).rows[0];
  const exists = (await psql.query(`SELECT to_regclass(${lit(`${schema}.fps`)}) IS NOT NULL`)).rows[0][0] === 't';
  if (!reload && exists && prior && prior[0] === md5 && Number(prior[1]) === fpBits) {
    return { schema, lines: Number(prior[2]), mols: Number(prior[3]), fpBits, steps: JSON.parse(prior[4]), loadedAt: prior[5], reused: true };
  }

  const lines = text.trim().split('\n');
  log(`loading ${lines.length} molecules of ${set} into the cartridge (schema ${schema}, Morgan ${fpBits} bits) ...`);
  // The rows as CSV with tab delimiters and a quote character no SMILES holds: backslashes (E/Z
  // bonds) stay as they are; an empty field is NULL (no InChIKey).
  const tsv = join(tmpdir(), `natprod-cartridge-${process.pid}.tsv`);
  writeFileSync(
    tsv,
    lines
      .map((l, i) => {
        const smiles = l.split('\t')[0];
        return `${i + 1}\t${smiles}\t${keys.get(i + 1) ?? ''}\n`;
      })
      .join(''),
  );
  const steps: [string, number][] = [];
  const step = async (label: string, sql: string) => {
    const r = await psql.query(sql);
    steps.push([label, r.wallMs]);
    log(`  ${label}: ${(r.wallMs / 1000).toFixed(1)} s`);
    return r;
  };
  try {
    await psql.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}; SET search_path = ${schema}, public`);
    await psql.query(`SET rdkit.morgan_fp_size = ${fpBits}`);
    await psql.query(`CREATE TABLE molecules (id int PRIMARY KEY, canonical_smiles text NOT NULL, standard_inchi_key text)`);
    await step('copy the rows (molecules)', `\\copy molecules (id, canonical_smiles, standard_inchi_key) FROM ${lit(tsv)} WITH (FORMAT csv, DELIMITER E'\\t', QUOTE E'\\x01')`);
    await step('mols: mol_from_smiles', `SELECT * INTO mols FROM (SELECT id, mol_from_smiles(canonical_smiles::cstring) m FROM molecules) tmp WHERE m IS NOT NULL`);
    await step('GiST index on mols.m', `CREATE INDEX molidx ON mols USING gist(m)`);
    await step('mols primary key', `ALTER TABLE mols ADD PRIMARY KEY (id)`);
    await step(`fps: morganbv_fp (${fpBits} bits)`, `SELECT id, morganbv_fp(m) AS mfp2 INTO fps FROM mols`);
    await step('GiST index on fps.mfp2', `CREATE INDEX fps_mfp2_idx ON fps USING gist(mfp2)`);
    await step('fps primary key', `ALTER TABLE fps ADD PRIMARY KEY (id)`);
    await step('analyze', `ANALYZE molecules; ANALYZE mols; ANALYZE fps`);
  } finally {
    rmSync(tsv, { force: true });
    await psql.query(`SET search_path = public`);
  }
  const mols = Number((await psql.query(`SELECT count(*) FROM ${schema}.mols`)).rows[0][0]);
  const loadedAt = (
    await psql.query(
      `INSERT INTO public.bench_sets VALUES (${lit(schema)}, ${lit(set)}, ${lit(md5)}, ${fpBits}, ${lines.length}, ${mols}, ${lit(JSON.stringify(steps))}, now())
       ON CONFLICT (schema) DO UPDATE SET set_path = excluded.set_path, md5 = excluded.md5, fp_bits = excluded.fp_bits, lines = excluded.lines, mols = excluded.mols, steps = excluded.steps, loaded_at = excluded.loaded_at
       RETURNING loaded_at::text`,
    )
  ).rows[0][0];
  return { schema, lines: lines.length, mols, fpBits, steps, loadedAt, reused: false };
}

/** Sizes in bytes: pg_total_relation_size of each table (heap, TOAST and indexes), and the database. */
export async function sizes(psql: Psql, schema: string): Promise<Record<string, number>> {
  const r = await psql.query(
    `SELECT pg_total_relation_size('${schema}.mols'), pg_total_relation_size('${schema}.fps'), pg_total_relation_size('${schema}.molecules'),
            pg_relation_size('${schema}.molidx'), pg_relation_size('${schema}.fps_mfp2_idx'), pg_database_size(current_database())`,
  );
  const [mols, fps, molecules, molidx, fpidx, db] = r.rows[0].map(Number);
  return { mols, fps, molecules, molidx, fpidx, db };
}
