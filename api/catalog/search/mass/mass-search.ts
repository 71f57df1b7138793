/**
 * MS dereplication: `POST /api/search` with `type: "mass"` (docs/dereplication.md). From measured
 * m/z values to the catalog molecules that give them as one of the requested adducts
 * (adducts.ts), within a tolerance in ppm or Da, optionally only molecules reported from a taxon.
 *
 * A hit is a (molecule, adduct) pair with |m/z − theoretical m/z| ≤ tolerance, where a ppm
 * tolerance is relative to the theoretical m/z (`error_ppm = (mz − theoretical) / theoretical ·
 * 10⁶`, the usual definition). Hits are ranked by |error_ppm|, then molecule id, then the adduct's
 * order in the table. The windows are answered by the in-memory MassIndex (mass-index.ts).
 */
import { Errors } from '../../schema/types.ts';
import type { CatalogStore } from '../../store/types.ts';
import { checkTaxon, moleculeFilterForTaxon } from '../../taxonomy/taxon.ts';
import { ADDUCTS, ADDUCTS_BY_NAME, DEFAULT_ADDUCTS, adductMz, moleculeMass, type Adduct } from './adducts.ts';
import { MassIndex, massIndexOf } from './mass-index.ts';

/** Most m/z values in one request. */
export const MAX_MZ_VALUES = 1000;
/** Largest m/z accepted. */
export const MAX_MZ = 100_000;
export const DEFAULT_PPM = 5;
export const MAX_PPM = 1000;
export const MAX_DA = 1;

/** The keys the mass type adds to COCONUT's request. */
export const MASS_KEYS = ['adducts', 'tolerance_ppm', 'tolerance_da', 'taxon'] as const;
/** COCONUT's and natprod's request keys that mean nothing for a mass search (refused with it). */
export const NOT_FOR_MASS = ['tagType', 'sort', 'offset', 'status', 'query_type', 'use_chirality', 'threshold', 'count'] as const;

export interface MassRequest {
  /** The m/z values, in the request's order. */
  mzs: number[];
  /** The query was a list (answered per value) rather than one m/z. */
  list: boolean;
  adducts: Adduct[];
  tolerance: { ppm: number } | { da: number };
  taxon: string | null;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function mzOf(v: unknown, key: string, e: Errors): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && DECIMAL.test(v.trim()) ? Number(v.trim()) : NaN;
  if (typeof v !== 'number' && typeof v !== 'string') {
    e.add(key, `The ${key} field must be an m/z value (a number), not ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}.`);
    return undefined;
  }
  if (!Number.isFinite(n)) e.add(key, `The ${key} field must be a finite number (an m/z value).`);
  else if (n <= 0) e.add(key, `The ${key} field must be greater than 0.`);
  else if (n > MAX_MZ) e.add(key, `The ${key} field must not be greater than ${MAX_MZ}.`);
  else return n;
  return undefined;
}

function tolerance(b: Record<string, unknown>, key: 'tolerance_ppm' | 'tolerance_da', max: number, e: Errors): number | undefined {
  const v = b[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) e.add(key, `The ${key} field must be a number.`);
  else if (v <= 0 || v > max) e.add(key, `The ${key} field must be greater than 0 and at most ${max}.`);
  else return v;
  return undefined;
}

/**
 * The mass-specific part of a `type: "mass"` body, checked (errors added to `e`, keyed by field:
 * `query`, `query.3` for the fourth value of a list, `adducts`, `tolerance_ppm`, `tolerance_da`,
 * `taxon`).
 */
export function readMassRequest(b: Record<string, unknown>, e: Errors): MassRequest {
  for (const k of NOT_FOR_MASS) if (b[k] !== undefined) e.add(k, `The ${k} field is not allowed with type mass.`);
  const mzs: number[] = [];
  const q = b.query;
  const list = Array.isArray(q);
  if (q === undefined || q === null || q === '' || (list && !q.length)) e.add('query', 'The query field is required with type mass: an m/z value, or a list of up to 1000.');
  else if (list) {
    if (q.length > MAX_MZ_VALUES) e.add('query', `The query field must not have more than ${MAX_MZ_VALUES} m/z values (it has ${q.length}).`);
    else
      q.forEach((v, i) => {
        const n = mzOf(v, `query.${i}`, e);
        if (n !== undefined) mzs.push(n);
      });
  } else {
    const n = mzOf(q, 'query', e);
    if (n !== undefined) mzs.push(n);
  }

  const adducts: Adduct[] = [];
  const given = b.adducts;
  if (given === undefined || given === null) adducts.push(...DEFAULT_ADDUCTS.map((n) => ADDUCTS_BY_NAME.get(n)!));
  else if (!Array.isArray(given) || !given.length) e.add('adducts', 'The adducts field must be a non-empty list of adduct names, e.g. ["[M+H]+", "[M-H]-"].');
  else {
    const unknown = given.filter((n) => typeof n !== 'string' || !ADDUCTS_BY_NAME.has(n));
    if (unknown.length)
      e.add('adducts', `Unknown adduct${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => JSON.stringify(n)).join(', ')}: use any of ${ADDUCTS.map((x) => x.name).join(', ')}.`);
    else for (const x of ADDUCTS) if (given.includes(x.name)) adducts.push(x);
  }

  const ppm = tolerance(b, 'tolerance_ppm', MAX_PPM, e);
  const da = tolerance(b, 'tolerance_da', MAX_DA, e);
  if (b.tolerance_ppm !== undefined && b.tolerance_da !== undefined) e.add('tolerance_da', 'Give tolerance_ppm or tolerance_da, not both.');

  let taxon: string | null = null;
  if (b.taxon !== undefined) {
    try {
      taxon = checkTaxon(b.taxon);
    } catch {
      e.add('taxon', 'The taxon field must be a non-empty taxon name (at most 200 characters), e.g. "Asteraceae".');
    }
  }
  return { mzs, list, adducts, tolerance: da !== undefined ? { da } : { ppm: ppm ?? DEFAULT_PPM }, taxon };
}

export interface MassMatch {
  /** The measured m/z this hit answers. */
  mz: number;
  adduct: string;
  charge: number;
  theoretical_mz: number;
  /** (mz − theoretical) / theoretical · 10⁶. */
  error_ppm: number;
  /** mz − theoretical. */
  error_da: number;
  /** The molecule's stored monoisotopic mass. */
  exact_molecular_weight: number;
}

export interface MassHit {
  id: number;
  match: MassMatch;
}

/** Rounding of the reported numbers (the stored masses carry 5 decimals). */
const r = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** Every hit for one m/z, ranked. `keep` restricts the molecules (taxon). */
export function hitsForMz(index: MassIndex, mz: number, adducts: readonly Adduct[], tol: MassRequest['tolerance'], keep?: (id: number) => boolean): MassHit[] {
  // Bounds on the theoretical m/z: |mz − t| ≤ da, or |mz − t| ≤ t·ppm/10⁶ ⇔ mz/(1+p) ≤ t ≤ mz/(1−p).
  const p = 'ppm' in tol ? tol.ppm / 1e6 : 0;
  const [tLo, tHi] = 'da' in tol ? [mz - tol.da, mz + tol.da] : [mz / (1 + p), mz / (1 - p)];
  const found: (MassHit & { order: number; k: number })[] = [];
  adducts.forEach((adduct, order) => {
    // A little slack on the mass window; the exact test below decides.
    const lo = moleculeMass(adduct, tLo) - 1e-9;
    const hi = moleculeMass(adduct, tHi) + 1e-9;
    index.forEachInRange(adduct.molecule_charge, lo, hi, (id, mass) => {
      if (keep && !keep(id)) return;
      const t = adductMz(adduct, mass);
      const err = mz - t;
      const ppm = (err / t) * 1e6;
      if ('da' in tol ? Math.abs(err) > tol.da : Math.abs(ppm) > tol.ppm) return;
      found.push({
        id,
        order,
        k: Math.abs(ppm),
        match: { mz, adduct: adduct.name, charge: adduct.charge, theoretical_mz: r(t, 6), error_ppm: r(ppm, 3), error_da: r(err, 6), exact_molecular_weight: mass },
      });
    });
  });
  // Ranked on the unrounded error.
  found.sort((x, y) => x.k - y.k || x.id - y.id || x.order - y.order);
  return found.map(({ id, match }) => ({ id, match }));
}

/** The index of a store: its own when the store is observed (services.ts), else a fresh one read now. */
export async function readyIndex(store: CatalogStore): Promise<MassIndex> {
  const index = massIndexOf(store) ?? new MassIndex(store);
  await index.sync();
  return index;
}

/** The ids of the molecules reported from the taxon (undefined: no restriction). */
export async function taxonFilter(store: CatalogStore, taxon: string | null): Promise<((id: number) => boolean) | undefined> {
  if (taxon === null) return undefined;
  const filter = await moleculeFilterForTaxon(store, taxon);
  const docs = await store.find('molecules', filter, { fields: ['id'] });
  const ids = new Set(docs.map((d) => d.id));
  return (id) => ids.has(id);
}

/** All ranked hits of each m/z of the request, in the request's order. */
export async function massHits(store: CatalogStore, req: MassRequest): Promise<MassHit[][]> {
  const index = await readyIndex(store);
  const keep = await taxonFilter(store, req.taxon);
  return req.mzs.map((mz) => hitsForMz(index, mz, req.adducts, req.tolerance, keep));
}
