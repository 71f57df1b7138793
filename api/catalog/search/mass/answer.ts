/**
 * The answer of a `type: "mass"` search (docs/dereplication.md), in COCONUT's search's envelope:
 * - one m/z (`query` a number or numeric string): `{data: <Laravel paginator>}`, one record per
 *   hit (a molecule and an adduct), COCONUT's search record plus `match` {mz, adduct, charge,
 *   theoretical_mz, error_ppm, error_da, exact_molecular_weight, molecular_formula};
 * - a list (`query` an array): `{data: [{mz, total, hits}]}`, one entry per value in the request's
 *   order, `hits` the first `limit` records (of page `page`) of that value, ranked the same way.
 */
import type { CatalogStore, Doc } from '../../store/types.ts';
import { coconutRow, paginate, ROW_FIELDS, type CoconutRow, type LaravelPaginator } from '../page.ts';
import type { CoconutRequest } from '../request.ts';
import { massHits, type MassHit, type MassMatch } from './mass-search.ts';

export type MassRow = CoconutRow & { match: MassMatch & { molecular_formula: unknown } };

export interface MassListEntry {
  mz: number;
  /** Hits of this m/z in all. */
  total: number;
  hits: MassRow[];
}

export type MassAnswer = { data: LaravelPaginator<MassRow> } | { data: MassListEntry[] };

const FIELDS = [...ROW_FIELDS, 'properties.molecular_formula'];

async function rowsOf(store: CatalogStore, pages: MassHit[][]): Promise<MassRow[][]> {
  const wanted = [...new Set(pages.flat().map((h) => h.id))];
  const docs = wanted.length ? await store.find('molecules', { id: { $in: wanted } }, { fields: FIELDS }) : [];
  const byId = new Map<number, Doc>(docs.map((d) => [d.id, d]));
  return pages.map((hits) =>
    hits
      .filter((h) => byId.has(h.id))
      .map((h) => {
        const d = byId.get(h.id)!;
        const formula = (d.properties as Record<string, unknown> | undefined)?.molecular_formula;
        return { ...coconutRow(d), match: { ...h.match, molecular_formula: formula ?? null } };
      }),
  );
}

export async function massAnswer(store: CatalogStore, req: CoconutRequest, path: string): Promise<MassAnswer> {
  const mass = req.mass!;
  const all = await massHits(store, mass);
  const start = (req.page - 1) * req.limit;
  const pages = all.map((hits) => hits.slice(start, start + req.limit));
  const rows = await rowsOf(store, pages);
  if (!mass.list) return { data: paginate({ rows: rows[0], total: all[0].length, perPage: req.limit, page: req.page, path }) };
  return { data: mass.mzs.map((mz, i) => ({ mz, total: all[i].length, hits: rows[i] })) };
}
