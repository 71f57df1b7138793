/**
 * Structures read from pictures (docs/ocsr.md): RDKit drawings of three molecules read back by
 * osra to their InChIKeys (the reference: RDKit's molfile of the source SMILES through inchi_main,
 * test/fixtures/scripts/ocsr_fixtures.py, which also made the pictures and the PDF), the bounds
 * of each osra run (time, killed from outside), a PDF's figure, and the 4xx answers over REST.
 * Checks that need osra or pdfimages are skips naming the package when it is missing.
 */
import t from 'tap';
import { readFileSync, readdirSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { loadRDKit } from '../../shared/chem/core/rdkit.ts';
import { loadConfig, threadConfig } from '../../shared/config.ts';
import { AppError } from '../../shared/errors.ts';
import { checkImage, decodeImageText, sniffImage } from '../../shared/ocsr/image.ts';
import { parseImageList } from '../../shared/ocsr/pdf-figures.ts';
import { ocsrOps } from '../../shared/ops/ocsr.ts';
import { ocsrTasks } from '../../shared/ops/ocsr.tasks.ts';
import type { TaskContext } from '../../shared/ops/types.ts';
import { build } from '../helpers/app.ts';
import { onPath } from '../helpers/skip.ts';

const dir = new URL('../fixtures/ocsr/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, dir));
const expected = JSON.parse(fixture('expected.json').toString()) as { molecules: Record<string, { smiles: string; inchikey: string }> };
const NO_OSRA = onPath('osra') ? false : 'osra is not installed (Debian: apt-get install osra)';
const NO_PDFIMAGES = NO_OSRA || (onPath('pdfimages') ? false : 'pdfimages is not installed (Debian: apt-get install poppler-utils)');

const rdkit = await loadRDKit();
function inchikey(smiles: string): string | null {
  const mol = rdkit.get_mol(smiles);
  try {
    return mol ? rdkit.get_inchikey_for_inchi(mol.get_inchi()) || null : null;
  } finally {
    mol?.delete();
  }
}

type Name = keyof typeof ocsrTasks;
async function task(name: Name, args: Record<string, unknown>, env: Record<string, string> = {}, progress?: (v: unknown) => void): Promise<any> {
  const op = ocsrOps.find((o) => o.task === name)!;
  const ctx = { rdkit, signal: new AbortController().signal, progress: progress ?? (() => {}), config: threadConfig(loadConfig(env)) } as unknown as TaskContext;
  return (ocsrTasks[name] as (a: unknown, c: TaskContext) => Promise<unknown>)(op.args.parse(args), ctx);
}
async function status(p: Promise<unknown>): Promise<{ status: number; detail: string }> {
  try {
    await p;
    return { status: 0, detail: '' };
  } catch (e) {
    const err = AppError.from(e);
    if (!err) throw e;
    return { status: err.status, detail: JSON.stringify(err.detail) };
  }
}
/** A white PNG of w × h pixels (8-bit grey), built here: no structure in it. */
function blankPng(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])) >>> 0);
    return Buffer.concat([head, Buffer.from(type), data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  const rows = Buffer.concat(Array.from({ length: h }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(w, 255)])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

t.test('pictures: format and size from the header, limits before osra', async (t) => {
  t.same(sniffImage(fixture('aspirin.png')), { format: 'png', width: 300, height: 300 });
  t.same(sniffImage(fixture('aspirin.bmp')), { format: 'bmp', width: 300, height: 300 });
  t.same(sniffImage(Buffer.from('GIF89a\x10\x00\x20\x00', 'latin1')), { format: 'gif', width: 16, height: 32 });
  t.equal(sniffImage(Buffer.from('%PDF-1.4 not a picture')), null);
  const limits = { maxBytes: 1_000_000, maxPixels: 1_000_000 };
  const code = (fn: () => unknown) => status(Promise.resolve().then(fn)).then((s) => s.status);
  t.equal(await code(() => checkImage(Buffer.from('hello, not a picture'), limits)), 422, 'bytes that are no picture');
  t.equal(await code(() => checkImage(fixture('aspirin.png'), { ...limits, maxPixels: 80_000 })), 413, 'over OCSR_MAX_PIXELS');
  t.equal(await code(() => checkImage(fixture('aspirin.png'), { ...limits, maxBytes: 1000 })), 413, 'over OCSR_MAX_BYTES');
  t.equal(await code(() => decodeImageText('A'.repeat(4000), 1000, 'img')), 413, 'refused before decoding');
  t.equal(await code(() => decodeImageText('not base64!', 1000, 'img')), 422);
  t.equal(await code(() => decodeImageText('data:image/png,rawbytes', 1000, 'img')), 422, 'a data URL without base64');
  const png = fixture('caffeine.png');
  t.same(decodeImageText(`data:image/png;base64,${png.toString('base64')}`, 1e6, 'img'), png, 'a data URL');
  t.same(parseImageList('page num type width height\n-----\n   1     0 image     300   300  rgb  3 8 image no 6 0 108 108 11.6K 4.4%\n   1     1 smask 300 300 gray'), [
    { page: 1, num: 0, type: 'image', width: 300, height: 300 },
    { page: 1, num: 1, type: 'smask', width: 300, height: 300 },
  ]);
});

t.test('the arguments of /ocsr/process', async (t) => {
  const op = ocsrOps[0];
  const issues = (a: Record<string, unknown>) => op.args.safeParse(a).error?.issues.map((i) => i.message).join(' | ') ?? '';
  t.match(issues({ path: 'https://example.org/figure.png' }), /web address: natprod does not fetch pictures/);
  t.match(issues({ img: 'http://10.0.0.1/x.png' }), /img is a web address/);
  t.match(issues({}), /Send the picture in img/);
  t.match(issues({ path: '/etc/passwd' }), /path must be a data: URL/);
  t.equal(issues({ img: 'iVBORw0KGgo=' }), '');
});

t.test('osra reads RDKit drawings back to their InChIKeys', { skip: NO_OSRA }, async (t) => {
  for (const [name, file] of [['caffeine', 'caffeine.png'], ['aspirin', 'aspirin.png'], ['quercetin', 'quercetin.png'], ['aspirin', 'aspirin.bmp']]) {
    const answer = await task('ocsr_process_upload', { image_base64: fixture(file).toString('base64') });
    t.equal(answer.reference, null);
    t.same(answer.smiles.map(inchikey), [expected.molecules[name].inchikey], `${file}: ${answer.smiles.join(' ')}`);
  }
  const viaUrl = await task('ocsr_process', { path: `data:image/png;base64,${fixture('aspirin.png').toString('base64')}`, reference: 'r1' });
  t.same({ ...viaUrl, smiles: viaUrl.smiles.map(inchikey) }, { reference: 'r1', smiles: [expected.molecules.aspirin.inchikey] }, 'a data URL in path');
  t.same(await task('ocsr_process', { img: blankPng(200, 200).toString('base64') }), { reference: null, smiles: [] }, 'a blank picture: no structure');
});

t.test('osra bounded: broken pictures, time limit, killed from outside, switched off', { skip: NO_OSRA }, async (t) => {
  const png = fixture('quercetin.png');
  const cut = await status(task('ocsr_process_upload', { image_base64: png.subarray(0, 200).toString('base64') }));
  t.equal(cut.status, 422, `a truncated PNG: ${cut.detail}`);
  // A white 2000 px square costs osra about a second of CPU: far past a 100 ms limit on any machine.
  const slow = await status(task('ocsr_process_upload', { image_base64: blankPng(2000, 2000).toString('base64') }, { OCSR_TIMEOUT_MS: '100' }));
  t.same([slow.status, /OCSR_TIMEOUT_MS/.test(slow.detail)], [504, true], slow.detail);
  const off = await status(task('ocsr_process_upload', { image_base64: png.toString('base64') }, { OCSR_OSRA: 'off' }));
  t.same([off.status, /OCSR_OSRA=off/.test(off.detail)], [422, true]);
  // An osra killed by someone else (the OOM killer, an operator) fails its own call with a 503.
  const call = status(task('ocsr_process_upload', { image_base64: png.toString('base64') }));
  let killed = false;
  for (let i = 0; i < 400 && !killed; i++) {
    for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (/^\d+ \(osra\) \S+ (\d+)/.exec(stat)?.[1] === String(process.pid)) {
          process.kill(Number(pid), 'SIGKILL');
          killed = true;
        }
      } catch {
        // gone meanwhile
      }
    }
    if (!killed) await new Promise((r) => setTimeout(r, 5));
  }
  const outcome = await call;
  t.ok(killed, 'found the osra child');
  t.same([outcome.status, /killed from outside/.test(outcome.detail)], [503, true], outcome.detail);
  const after = await task('ocsr_process_upload', { image_base64: fixture('caffeine.png').toString('base64') });
  t.same(after.smiles.map(inchikey), [expected.molecules.caffeine.inchikey], 'the next call is answered');
});

t.test("a PDF's figure, read as a job with progress", { skip: NO_PDFIMAGES }, async (t) => {
  const seen: unknown[] = [];
  const answer = await task('ocsr_process_pdf', { pdf_base64: fixture('figure.pdf').toString('base64'), filename: 'my figure.pdf' }, {}, (v) => seen.push(v));
  t.match(answer, { pdf_filename: 'my_figure.pdf', page_count: 1, pages_read: 1, images_found: 1, images_read: 1, truncated: false });
  t.same(answer.figures.map((f: { smiles: string[] }) => ({ ...f, smiles: f.smiles.map(inchikey) })), [
    { page: 1, image: 0, width: 300, height: 300, smiles: [expected.molecules.aspirin.inchikey] },
  ]);
  t.same(seen.at(-1), { percent: 100, images_read: 1, images: 1 });
  const notPdf = await status(task('ocsr_process_pdf', { pdf_base64: fixture('aspirin.png').toString('base64') }));
  t.equal(notPdf.status, 400, 'a picture is not a PDF');
});

t.test('over REST: the answers and the 4xx', { skip: NO_PDFIMAGES }, async (t) => {
  const built = (await build(t, 'inline', { OCSR_MAX_BYTES: '20000' }))!;
  const { app } = built;
  t.same((await app.inject({ url: '/latest/ocsr/' })).json(), { status: 'OK' }, "the router's health, as the original");
  const png = fixture('aspirin.png');
  const ok = await app.inject({ method: 'POST', url: '/latest/ocsr/process', payload: { img: png.toString('base64'), reference: 'xyzzy' } });
  t.equal(ok.statusCode, 200, ok.body);
  t.same({ ...ok.json(), smiles: ok.json().smiles.map(inchikey) }, { reference: 'xyzzy', smiles: [expected.molecules.aspirin.inchikey] });
  const web = await app.inject({ method: 'POST', url: '/ocsr/process', payload: { path: 'https://static-content.springer.com/image/x.png', reference: 'xyzzy' } });
  t.equal(web.statusCode, 422);
  t.match(web.body, /does not fetch pictures from the web/);
  const invalid = await app.inject({ method: 'POST', url: '/latest/ocsr/process', payload: 'INVALID_INPUT', headers: { 'content-type': 'application/json' } });
  t.equal(invalid.statusCode, 422, "the original's INVALID_INPUT case: FastAPI's 422 for a body that is not JSON");
    t.match(invalid.json(), { detail: [{ type: 'json_invalid', loc: ['body', 0] }] }, 'its json_invalid detail');
  const upload = (bytes: Buffer, name: string) => {
    const boundary = 'natprodocsr';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return app.inject({ method: 'POST', url: '/latest/ocsr/process-upload', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  };
  const up = await upload(png, 'aspirin.png');
  t.equal(up.statusCode, 200, up.body);
  t.same(up.json().smiles.map(inchikey), [expected.molecules.aspirin.inchikey]);
  const text = await upload(Buffer.from('just some text, no picture'), 'notes.txt');
  t.same([text.statusCode, /not a picture osra can read/.test(text.body)], [422, true], text.body);
  const big = await upload(fixture('aspirin.bmp'), 'aspirin.bmp');
  t.same([big.statusCode, /OCSR_MAX_BYTES/.test(big.body)], [413, true], big.body);
  const pdf = await app.inject({
    method: 'POST',
    url: '/ocsr/process-pdf',
    payload: Buffer.concat([
      Buffer.from('--b\r\nContent-Disposition: form-data; name="pdf_file"; filename="figure.pdf"\r\nContent-Type: application/pdf\r\n\r\n'),
      fixture('figure.pdf'),
      Buffer.from('\r\n--b--\r\n'),
    ]),
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
  });
  t.equal(pdf.statusCode, 202, pdf.body);
  let job: any;
  for (let i = 0; i < 300; i++) {
    job = (await app.inject({ url: new URL(pdf.json().status_url, 'http://x').pathname })).json();
    if (job.status === 'succeeded' || job.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.equal(job.status, 'succeeded', JSON.stringify(job.error));
  t.same(job.result.figures[0].smiles.map(inchikey), [expected.molecules.aspirin.inchikey]);
});
