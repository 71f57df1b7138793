/** The upload as the task receives it: base64 decoding, size limit, PDF signature, echoed name. */
import t from 'tap';
import { AppError } from '../../shared/errors.ts';
import { assertPdfSignature, decodeBase64Pdf, displayFilename } from '../../shared/pdf/upload.ts';

const status = (fn: () => unknown) => {
  try {
    fn();
    return 0;
  } catch (e) {
    return e instanceof AppError ? e.status : -1;
  }
};

t.test('base64 decoding', async (t) => {
  const bytes = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1');
  t.same(Buffer.from(decodeBase64Pdf(bytes.toString('base64'), 1000)), bytes, 'standard');
  t.same(Buffer.from(decodeBase64Pdf(bytes.toString('base64url'), 1000)), bytes, 'URL-safe');
  t.same(Buffer.from(decodeBase64Pdf(` ${bytes.toString('base64').replace(/(.{4})/g, '$1\n')} `, 1000)), bytes, 'wrapped');
  t.same(Buffer.from(decodeBase64Pdf(`data:application/pdf;base64,${bytes.toString('base64')}`, 1000)), bytes, 'data URL');
  t.equal(status(() => decodeBase64Pdf('   ', 1000)), 422, 'blank');
  t.equal(status(() => decodeBase64Pdf('JVBER*i0=', 1000)), 422, 'foreign character');
  t.equal(status(() => decodeBase64Pdf('JVBERi0xL', 1000)), 422, 'impossible length');
  t.equal(decodeBase64Pdf(Buffer.alloc(100).toString('base64'), 100).length, 100, 'at the limit');
  t.equal(status(() => decodeBase64Pdf(Buffer.alloc(101).toString('base64'), 100)), 413, 'over the limit');
  t.equal(status(() => decodeBase64Pdf('A'.repeat(4000), 100)), 413, 'refused before decoding');
});

t.test('PDF signature within the first 1024 bytes', async (t) => {
  t.equal(status(() => assertPdfSignature(Buffer.from('%PDF-1.7'))), 0);
  t.equal(status(() => assertPdfSignature(Buffer.concat([Buffer.alloc(1000, 32), Buffer.from('%PDF-1.7')]))), 0, 'after a preamble');
  t.equal(status(() => assertPdfSignature(Buffer.concat([Buffer.alloc(1020, 32), Buffer.from('%PDF-1.7')]))), 400, 'too late');
  t.equal(status(() => assertPdfSignature(Buffer.from('%!PS-Adobe-3.0'))), 400, 'PostScript');
  t.equal(status(() => assertPdfSignature(new Uint8Array())), 400, 'empty');
});

t.test('echoed file name', async (t) => {
  t.equal(displayFilename('my paper.pdf'), 'my_paper.pdf');
  t.equal(displayFilename('../../x/y z.pdf'), 'y_z.pdf');
  t.equal(displayFilename('a\\b\\c.pdf'), 'c.pdf');
  t.equal(displayFilename('bad\u0000\u001fname.pdf'), 'badname.pdf');
  t.equal(displayFilename('..'), 'document.pdf');
  t.equal(displayFilename(''), 'document.pdf');
  t.equal(displayFilename(undefined), 'document.pdf');
  t.equal(displayFilename('x'.repeat(400)).length, 255);
});
