/**
 * A byte-for-byte check of `POST /api/search` across a change that must not alter its answers
 * (a refactor, a new index): record every answer to a corpus of request bodies on the old code,
 * replay them on the new code over the same catalog, and list each answer that differs.
 *
 *   git checkout <old>; node --import tsx bench/search-corpus.ts record /tmp/corpus
 *   git checkout <new>; node --import tsx bench/search-corpus.ts replay /tmp/corpus
 *
 * `record` imports the LOTUS demo set into `<dir>/data` (a fresh embedded store), then sends each
 * body of bench/data/search-corpus.jsonl (one JSON body a line: every COCONUT search type, the
 * filter language, tags, natprod's structure form, mass search, paging, sort and status, and bad
 * requests) through the api in process, and writes status, content type and payload a line each
 * to `<dir>/answers.jsonl`. `replay` copies `<dir>/data`, so both runs read the same records
 * (identifiers, timestamps), sends the same bodies and compares. It exits 1 when any answer differs.
 */
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildApp } from '../api/app.ts';
import { createServices } from '../api/services.ts';
import { importDemo } from '../api/catalog/import/demo.ts';
import { loadConfig } from '../shared/config.ts';

const CORPUS = new URL('./data/search-corpus.jsonl', import.meta.url);

interface Answer {
  status: number;
  type: string | undefined;
  payload: string;
}

async function answers(dataDir: string, seed: boolean): Promise<Answer[]> {
  const config = loadConfig({ DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'silent', WORKERS: '2', RATE_LIMIT_QUICK: '0', RATE_LIMIT_LONG: '0', RATE_LIMIT_WRITES: '0' });
  const services = await createServices(config);
  try {
    if (seed) await importDemo(services.store, { derive: services.derive });
    await services.searchIndex.start();
    const app = await buildApp({ services });
    await app.ready();
    const bodies = (await readFile(CORPUS, 'utf8')).split('\n').filter(Boolean);
    const out: Answer[] = [];
    for (const line of bodies) {
      const res = await app.inject({ method: 'POST', url: '/api/search', payload: line, headers: { 'content-type': 'application/json' } });
      out.push({ status: res.statusCode, type: res.headers['content-type'] as string | undefined, payload: res.payload });
    }
    await app.close();
    return out;
  } finally {
    await services.close(0);
  }
}

async function main(): Promise<number> {
  const [mode, dir] = process.argv.slice(2);
  if (!dir || (mode !== 'record' && mode !== 'replay')) {
    console.error('usage: node --import tsx bench/search-corpus.ts record|replay <dir>');
    return 2;
  }
  const bodies = (await readFile(CORPUS, 'utf8')).split('\n').filter(Boolean);
  if (mode === 'record') {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const got = await answers(join(dir, 'data'), true);
    await writeFile(join(dir, 'answers.jsonl'), got.map((a) => JSON.stringify(a)).join('\n') + '\n');
    const statuses = new Map<number, number>();
    for (const a of got) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    console.log(`recorded ${got.length} answers (${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}) in ${dir}`);
    return 0;
  }
  const copy = join(dir, 'replay-data');
  await rm(copy, { recursive: true, force: true });
  await cp(join(dir, 'data'), copy, { recursive: true });
  const want = (await readFile(join(dir, 'answers.jsonl'), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Answer);
  const got = await answers(copy, false);
  await rm(copy, { recursive: true, force: true });
  let differ = 0;
  for (let i = 0; i < bodies.length; i++) {
    const a = want[i];
    const b = got[i];
    if (a && b && a.status === b.status && a.type === b.type && a.payload === b.payload) continue;
    differ++;
    console.log(`differs: ${bodies[i]}\n  recorded ${a?.status} ${a?.payload.slice(0, 200)}\n  now      ${b?.status} ${b?.payload.slice(0, 200)}`);
  }
  if (want.length !== bodies.length) console.log(`the recording holds ${want.length} answers, the corpus ${bodies.length} bodies`);
  console.log(`${bodies.length - differ} of ${bodies.length} answers byte for byte as recorded, ${differ} differ`);
  return differ || want.length !== bodies.length ? 1 : 0;
}

process.exitCode = await main();
