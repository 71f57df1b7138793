/**
 * The api's batching of quick calls (shared/jobs/batcher.ts) on a recording sink: a call leaves
 * at once while the workers have a thread without a call; under load calls wait and leave
 * together when a batch comes back, in arrival order, split over the free places.
 */
import t from 'tap';
import { AppError } from '../../shared/errors.ts';
import { Batcher, HELD_MS } from '../../shared/jobs/batcher.ts';
import type { BatchCall, CallOutcome } from '../../shared/jobs/queues.ts';
import { CAPACITY_STALE_MS, threadShare } from '../../shared/jobs/bullmq-batches.ts';

function harness(threads: number) {
  const sent: { id: string; calls: string[] }[] = [];
  let n = 0;
  const batcher = new Batcher({
    newId: () => `b${++n}`,
    threads: () => threads,
    async add(batchId, calls) {
      sent.push({ id: batchId, calls: calls.map((c) => String((c.args as { smiles: string }).smiles)) });
    },
    keep() {},
  });
  const call = (smiles: string) => batcher.submit({ op: 'generate_canonical_smiles', task: 'generate_canonical_smiles', args: { smiles }, timeoutMs: 1000 } as BatchCall);
  const answer = (id: string) => {
    const batch = sent.find((b) => b.id === id)!;
    batcher.complete(id, batch.calls.map((s): CallOutcome => ({ ok: true, value: s.toUpperCase() })));
  };
  return { batcher, sent, call, answer };
}

t.test('light load: each call leaves at once, alone', async (t) => {
  const h = harness(2);
  const a = h.call('c');
  t.same(h.sent, [{ id: 'b1', calls: ['c'] }]);
  h.answer('b1');
  t.same(await a.outcome, { ok: true, value: 'C' });
  h.call('o');
  t.same(h.sent.map((b) => b.calls), [['c'], ['o']], 'nothing in flight: the next call leaves at once too');
});

t.test('under load calls wait for a batch to come back, then leave together in arrival order', async (t) => {
  const h = harness(2);
  h.call('a');
  h.call('b');
  t.equal(h.sent.length, 2, 'one call per idle thread leaves at once');
  const waiting = ['c', 'd', 'e', 'f'].map((s) => h.call(s));
  t.equal(h.sent.length, 2, 'both threads have a call: the next calls wait');
  h.answer('b1');
  t.same(h.sent[2], { id: 'b3', calls: ['c', 'd', 'e', 'f'] }, 'one free place: all waiting calls in one batch, in order');
  h.call('g');
  t.equal(h.sent.length, 3, 'a call arriving while the threads are busy waits');
  h.answer('b2');
  h.answer('b3');
  t.same(await Promise.all(waiting.map((w) => w.outcome)), ['C', 'D', 'E', 'F'].map((value) => ({ ok: true, value })), 'each call gets its own answer');
  t.same(h.sent[3], { id: 'b4', calls: ['g'] });
});

t.test('waiting calls are split over the free places; a failed batch fails its calls', async (t) => {
  const h = harness(3);
  const a = h.call('a');
  ['b', 'c'].forEach((s) => h.call(s));
  ['d', 'e', 'f', 'g', 'h'].forEach((s) => h.call(s));
  t.equal(h.sent.length, 3);
  h.batcher.fail('b1', new AppError(503, 'queue unavailable', 'queue_unavailable'));
  t.match(await a.outcome, { ok: false, error: { status: 503 } }, 'the failed batch answers its call with the error');
  t.same(h.sent.slice(3).map((b) => b.calls), [['d', 'e', 'f', 'g', 'h']], 'one place freed: one batch');
  h.answer('b2');
  h.answer('b3');
  ['i', 'j', 'k', 'l'].forEach((s) => h.call(s));
  t.equal(h.sent.length, 4, 'five calls in flight on three threads: new calls wait');
  h.answer('b4');
  t.same(h.sent.slice(4).map((b) => b.calls), [['i', 'j'], ['k'], ['l']], 'three free places share the four calls');
});

t.test('batches that do not come back (their worker died) stop holding their places after HELD_MS', async (t) => {
  const h = harness(2);
  h.call('a');
  h.call('b');
  const c = h.call('c');
  t.equal(h.sent.length, 2, 'both places held: the call waits');
  await new Promise((r) => setTimeout(r, HELD_MS + 100));
  t.same(h.sent[2], { id: 'b3', calls: ['c'] }, 'the waiting call left without any answer arriving');
  h.answer('b3');
  t.same(await c.outcome, { ok: true, value: 'C' });
  h.call('d');
  t.same(h.sent.at(-1), { id: 'b4', calls: ['d'] }, 'with only stale batches in flight the next call leaves at once');
  h.call('e');
  h.call('f');
  t.same(h.sent.at(-1), { id: 'b5', calls: ['e'] }, 'fresh batches hold their places again: f waits');
});

t.test('a batch coming back releases the waiting calls even while more calls than threads are out', async (t) => {
  const h = harness(2);
  h.call('a');
  h.call('b');
  ['c', 'd', 'e', 'f'].forEach((s) => h.call(s));
  h.answer('b1');
  t.same(h.sent.map((b) => b.calls), [['a'], ['b'], ['c', 'd', 'e', 'f']]);
  ['g', 'h', 'i'].forEach((s) => h.call(s));
  t.equal(h.sent.length, 3, 'arrivals wait: five calls are out on two threads');
  h.answer('b2');
  t.same(h.sent.at(-1), { id: 'b4', calls: ['g', 'h', 'i'] }, 'b2 came back: g, h, i leave although b3 still holds four calls');
  h.call('j');
  t.equal(h.sent.length, 4, 'both places held: j waits');
  h.answer('b3');
  t.same(h.sent.at(-1), { id: 'b5', calls: ['j'] });
});

t.test('the workers\' threads are shared among the api processes that batch', async (t) => {
  const now = 1_000_000;
  const stale = String(now - CAPACITY_STALE_MS - 1);
  const workers = { w1: `4:${now}`, w2: `4:${now - 1000}`, w3: `2:${now}`, gone: `8:${stale}` };
  t.equal(threadShare(workers, {}, now), 10, 'no api announced yet: all 10 fresh threads');
  t.equal(threadShare(workers, { a: String(now) }, now), 10, 'one api: all of them');
  t.equal(threadShare(workers, { a: String(now), b: String(now - 5000) }, now), 5, 'two apis: half each');
  t.equal(threadShare(workers, { a: String(now), b: String(now), c: String(now) }, now), 4, 'three apis: rounded up');
  t.equal(threadShare(workers, { a: String(now), old: stale }, now), 10, 'a stale api does not count');
  t.equal(threadShare({}, { a: String(now) }, now), 1, 'no worker: at least one place');
});
