/**
 * A molecule COCONUT revoked is revoked here: COCONUT's downloads list only its active molecules,
 * so after a whole release was read, the molecules that came from COCONUT (linked to its
 * collection) and are missing from it get status REVOKED and `active: false`, each with its audit
 * entry tagged with the import (`import` or `import:<job id>`). A later release that lists
 * such a molecule again makes it active again (identity.ts, revokedByRelease); one a curator revoked stays revoked.
 * Only on request (`revokeAbsent`: a sample or a partial file is no release), and not when it
 * would revoke more than `maxFraction` of them (a file cut short).
 */
import type { TrackingStore } from '../audit/audit.ts';
import { COCONUT_COLLECTION } from './coconut.ts';
import { LISTED, type ImportSummary } from './importer.ts';

const BATCH = 500;


export async function revokeAbsent(
  store: TrackingStore,
  listed: Set<string>,
  summary: ImportSummary,
  opts: { user?: { id: number }; tag: string; maxFraction?: number },
): Promise<void> {
  const warn = (message: string) => {
    summary.warnings_count++;
    if (summary.warnings.length < LISTED) summary.warnings.push({ row: 0, message });
  };
  const col = await store.findOne('collections', { title: COCONUT_COLLECTION.title });
  summary.revoked = 0;
  if (!col) return;
  const from = await store.find('molecules', { collection_ids: col.id }, { fields: ['identifier', 'status'] });
  const gone = from.filter((d) => typeof d.identifier === 'string' && !listed.has(d.identifier) && d.status !== 'REVOKED');
  const max = opts.maxFraction ?? 0.1;
  if (gone.length > max * from.length) {
    warn(`not revoking: ${gone.length} of the ${from.length} molecules from COCONUT are missing from this file, more than ${Math.round(max * 100)} %; a whole release was expected (revokeMaxFraction)`);
    return;
  }
  for (let i = 0; i < gone.length; i += BATCH) {
    await store.exclusive(async () => {
      try {
        for (const d of gone.slice(i, i + BATCH)) await store.update('molecules', d.id, { status: 'REVOKED', active: false });
      } finally {
        await store.flush(opts.user, opts.tag);
      }
    });
  }
  summary.revoked = gone.length;
}
