/**
 * Small special-purpose PDFs for error paths, written with pdf-lib: a password-protected file
 * (standard security handler revision 2 whose user password is not empty), a blank page, and a
 * page with only a few words.
 */
import { randomBytes } from 'node:crypto';
import { PDFDocument, PDFHexString, PDFName, PDFNumber, StandardFonts } from 'pdf-lib';

/**
 * A copy of `bytes` whose trailer declares RC4 encryption with an /O and /U pair that no empty
 * password opens, so every reader must ask for a password (checked with poppler's pdfinfo in
 * the tests). The content is left as it was: no reader gets that far.
 */
export async function passwordProtected(bytes: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  const ctx = doc.context;
  const hex = (n: number) => PDFHexString.of(randomBytes(n).toString('hex'));
  const encrypt = ctx.obj({ Filter: PDFName.of('Standard'), V: PDFNumber.of(1), R: PDFNumber.of(2), Length: PDFNumber.of(40), P: PDFNumber.of(-44) });
  encrypt.set(PDFName.of('O'), hex(32));
  encrypt.set(PDFName.of('U'), hex(32));
  ctx.trailerInfo.Encrypt = ctx.register(encrypt);
  ctx.trailerInfo.ID = ctx.obj([hex(16), hex(16)]);
  return doc.save({ useObjectStreams: false });
}

export async function blankPages(n: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < n; i++) doc.addPage([612, 792]);
  return doc.save();
}

/** One page per entry of `texts`, each drawn as one line in Helvetica 12. */
export async function simplePages(texts: readonly string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of texts) doc.addPage([612, 792]).drawText(text, { x: 72, y: 700, size: 12, font });
  return doc.save();
}
