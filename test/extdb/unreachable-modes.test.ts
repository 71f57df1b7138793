/**
 * An external database that keeps failing, in both runner modes: the client gets its 503 after
 * the HTTP client's own attempts (4: docs/extdb.md, "Failures"), and the database sees exactly
 * those 4 requests. A BullMQ retry of the job on top (each retry another 4 requests and 3.5 s of
 * backoff) would only delay the same 503 and multiply the load on a service already in trouble.
 */
import t from 'tap';
import { build, MODES } from '../helpers/app.ts';
import { startFakePugRest } from './fake-pugrest.ts';
import { NO_REDIS, skipAll } from '../helpers/skip.ts';

const fake = await startFakePugRest();
t.teardown(() => fake.close());

for (const mode of MODES) {
  t.test(`${mode}: a 503 after the client's 4 attempts, and no more requests`, async (t) => {
    const ctx = await build(t, mode, { EXTDB_URL: fake.base, EXTDB_TIMEOUT_MS: '2000' });
    if (!ctx) return skipAll(t, NO_REDIS);
    const before = fake.requests.length;
    const res = await ctx.app.inject({ url: '/chem/extdb/smiles?identifier=broken' });
    t.equal(res.statusCode, 503, res.body);
    t.match(res.json().detail, new RegExp(`^External compound database ${fake.base.replace(/[.]/g, '\\.')} unreachable: HTTP 500 \\(4 attempts\\)`));
    const seen = fake.requests.slice(before);
    t.equal(seen.length, 4, `the database saw 4 requests: ${seen.join(' | ')}`);
    t.ok(seen.every((r) => r.includes('broken')), 'all of them for this lookup');
  });
}
