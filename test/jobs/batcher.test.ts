/**
 * The api's batching of quick calls (shared/jobs/batcher.ts) on a recording sink: a call leaves
 * at once when nothing is in flight; otherwise calls wait until they make a full batch (the calls
 * in the process, smoothed, over the places: two per worker process) or a batch comes back, and
 * leave in arrival order.
 */
import t from 'tap';
import { AppError } from '../../shared/errors.ts';
import { Batcher, HELD_MS } from '../../shared/jobs/batcher.ts';
import type { BatchCall, CallOutcome } from '../../shared/jobs/queues.ts';
import { CAPACITY_STALE_MS, placeShare } from '../../shared/jobs/bullmq-batches.ts';

function harness(places: number) {
  const sent: { id: string; calls: string[] }[] = [];
  let n = 0;
  const batcher = new Batcher({
    newId: () => `b${++n}`,
    places: () => places,
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
  /** Ids of the batches not answered yet, oldest first. */
  const open = () => h.sent.filter((b) => !answered.has(b.id)).map((b) => b.id);
  const answered = new Set<string>();
  const answerOnce = (id: string) => {
    answered.add(id);
    answer(id);
  };
  const h = { batcher, sent, call, answer: answerOnce, open };
  return h;
}

t.test('light load: each call leaves at once, alone', async (t) => {
  const h = harness(2);
  const a = h.call('c');
  t.same(h.sent, [{ id: 'b1', calls: ['c'] }]);
  h.answer('b1');
  t.same(await a.outcome, { ok: true, value: 'C' });
  h.call('o');
  t.same(h.sent.map((b) => b.calls), [['c'], ['o']], 'nothing in flight: the next call leaves at once too');
  h.call('n');
  t.same(h.sent.map((b) => b.calls), [['c'], ['o'], ['n']], 'one in flight, light load (a full batch is one call): it leaves too');
  h.call('x');
  t.equal(h.sent.length, 3, 'both places held: the next call waits');
  h.answer('b2');
  t.same(h.sent.at(-1), { id: 'b4', calls: ['x'] }, 'a place came back: it leaves');
});

t.test('a steady load of N clients settles into full batches of N / places, replaced while the other runs', async (t) => {
  for (const [clients, places] of [[32, 2], [33, 2], [12, 2], [24, 6]] as const) {
    const h = harness(places);
    let n = 0;
    const submit = (k: number) => {
      for (let i = 0; i < k; i++) h.call(`m${++n}`);
    };
    submit(clients);
    const sizesAt: number[] = [];
    let idleSends = 0;
    for (let round = 0; round < 200; round++) {
      const id = h.open()[0]!;
      const size = h.sent.find((b) => b.id === id)!.calls.length;
      h.answer(id);
      const before = h.sent.length;
      // Each answered client sends its next call; the batch that replaces this one leaves while
      // another is still in flight.
      submit(size);
      if (round >= 100) {
        for (const b of h.sent.slice(before)) sizesAt.push(b.calls.length);
        if (h.sent.length > before && h.open().length === h.sent.length - before) idleSends++;
      }
    }
    const mean = sizesAt.reduce((x, y) => x + y, 0) / sizesAt.length;
    t.ok(Math.abs(mean - clients / places) <= 1, `${clients} clients, ${places} places: batches of ${mean.toFixed(1)} (${clients / places} expected)`);
    t.equal(Math.min(...sizesAt), Math.max(...sizesAt), `${clients} clients, ${places} places: every batch the same size`);
    t.equal(idleSends, 0, 'no batch left while nothing was in flight (the workers never waited for one)');
    t.equal(h.open().length, places, 'every place in use');
  }
});

t.test('after a burst, a light load is not held back: two clients soon have both calls in flight', async (t) => {
  const h = harness(2);
  let n = 0;
  const cycle = (rounds: number) => {
    for (let r = 0; r < rounds; r++) {
      const id = h.open()[0]!;
      const k = h.sent.find((b) => b.id === id)!.calls.length;
      h.answer(id);
      for (let i = 0; i < k; i++) h.call(`x${++n}`);
    }
  };
  for (let i = 0; i < 40; i++) h.call(`x${++n}`);
  cycle(60);
  // Only two clients from here on: the other 38 stop (their batches come back, nothing follows).
  while (h.open().length) h.answer(h.open()[0]!);
  h.call(`x${++n}`);
  h.call(`x${++n}`);
  let both = 0;
  for (let r = 0; r < 60; r++) {
    if (h.open().length === 2) both++;
    const id = h.open()[0]!;
    h.answer(id);
    h.call(`x${++n}`);
  }
  t.ok(both >= 45, `both calls in flight in ${both} of the last 60 rounds (the smoothed load falls from 40 to 2)`);
  t.equal(h.open().length, 2, 'in the end, both');
});

t.test('calls wait for a full batch; nothing in flight sends what waits at once', async (t) => {
  const h = harness(2);
  // Teach the batcher a load of 8 calls: 8 clients, a few rounds.
  let n = 0;
  for (let i = 0; i < 8; i++) h.call(`w${++n}`);
  for (let r = 0; r < 20; r++) {
    const id = h.open()[0]!;
    const k = h.sent.find((b) => b.id === id)!.calls.length;
    h.answer(id);
    for (let i = 0; i < k; i++) h.call(`w${++n}`);
  }
  t.same(h.sent.slice(-2).map((b) => b.calls.length), [4, 4], 'full batches of 4');
  const [first, second] = h.open();
  h.answer(first!);
  const before = h.sent.length;
  ['a', 'b', 'c'].forEach((s) => h.call(s));
  t.equal(h.sent.length, before, 'three of a batch of four: they wait (the other batch keeps the worker busy)');
  h.answer(second!);
  t.same(h.sent.at(-1)!.calls, ['a', 'b', 'c'], 'nothing in flight any more: they leave at once, in arrival order');
});

t.test('a failed batch fails its calls and frees its place', async (t) => {
  const h = harness(2);
  const a = h.call('a');
  const b = h.call('b');
  const c = h.call('c');
  t.equal(h.sent.length, 2);
  h.batcher.fail('b1', new AppError(503, 'queue unavailable', 'queue_unavailable'));
  t.match(await a.outcome, { ok: false, error: { status: 503 } }, 'the failed batch answers its call with the error');
  t.same(h.sent.at(-1), { id: 'b3', calls: ['c'] }, 'its place freed: the waiting call leaves');
  h.answer('b2');
  h.answer('b3');
  t.same(await Promise.all([b.outcome, c.outcome]), [{ ok: true, value: 'B' }, { ok: true, value: 'C' }], 'each call gets its own answer');
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

t.test('more calls than two full batches when the places come free: the rest wait for the new batches, with a valid timer', async (t) => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  t.teardown(() => void process.off('warning', onWarning));
  const h = harness(2);
  h.call('a');
  h.call('b');
  for (let i = 0; i < 200; i++) h.call(`w${i}`);
  t.equal(h.sent.length, 2, 'both places held: 200 calls wait');
  await new Promise((r) => setTimeout(r, HELD_MS + 100));
  t.same(h.sent.slice(2).map((b) => b.calls.length), [64, 64], 'the stale places came free: two batches of at most 64 left');
  await new Promise((r) => setTimeout(r, 50));
  t.equal(h.sent.length, 4, 'the other 72 wait while the new batches hold their places');
  t.same(warnings, [], 'no warning (a timer of Infinity ms would fire after 1 ms, with a TimeoutOverflowWarning)');
  await new Promise((r) => setTimeout(r, HELD_MS));
  // Both places come free within a timer tick of each other: 36 + 36, or 64 + 8 when one fires first on a busy machine.
  const rest = h.sent.slice(4).map((b) => b.calls.length);
  t.equal(rest.length, 2, 'then the other 72 left, when those stopped holding: in two batches');
  t.equal(rest.reduce((a, b) => a + b, 0), 72, 'all 72 of them');
  t.ok(rest.every((n) => n <= 64), `each at most 64 (${rest.join(' + ')})`);
});

t.test('two places per worker process, shared among the api processes that batch', async (t) => {
  const now = 1_000_000;
  const stale = String(now - CAPACITY_STALE_MS - 1);
  const workers = { w1: `4:${now}`, w2: `4:${now - 1000}`, w3: `2:${now}`, gone: `8:${stale}` };
  t.equal(placeShare(workers, {}, now), 6, 'no api announced yet: all 6 places of the 3 fresh workers');
  t.equal(placeShare(workers, { a: String(now) }, now), 6, 'one api: all of them');
  t.equal(placeShare(workers, { a: String(now), b: String(now - 5000) }, now), 3, 'two apis: half each');
  t.equal(placeShare(workers, { a: String(now), b: String(now), c: String(now), d: String(now) }, now), 2, 'four apis: rounded up');
  t.equal(placeShare(workers, { a: String(now), old: stale }, now), 6, 'a stale api does not count');
  t.equal(placeShare({}, { a: String(now) }, now), 1, 'no worker: at least one place');
});
