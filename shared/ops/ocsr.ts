/**
 * Registry entries for structures read from pictures (OCSR): the original service's
 * `/ocsr/process` and `/ocsr/process-upload`, which ran DECIMER's models, answered here by osra
 * (Debian's optical structure recognition program), and natprod's `/ocsr/process-pdf`, which reads
 * the figures of a PDF as a job. docs/ocsr.md tells the whole story; tasks in ocsr.tasks.ts, the
 * driver in shared/ocsr/.
 */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { bool, int } from './params.ts';
import { OCSR_EXAMPLE_PNG, OCSR_EXAMPLE_SMILES, OCSR_EXAMPLE_SOURCE } from './ocsr-example.ts';

const WEB = /^\s*(https?|ftp):\/\//i;
const NO_FETCH =
  'is a web address: natprod does not fetch pictures from the web (a server-side fetch would reach whatever the server can reach). ' +
  'Send the picture itself in img, base64-encoded or as a data:image/...;base64, URL, or upload it to /ocsr/process-upload';

const answer = z.strictObject({
  reference: z.string().nullable().describe('The `reference` sent with the call, unchanged (null when none)'),
  smiles: z.array(z.string()).describe('SMILES of each structure osra recognised in the picture, in its order; empty when it found none'),
});

const handDrawn = bool(false, 'Accepted for compatibility with the original (which had a DECIMER model for hand-drawn structures); osra has one reader, so the answer is the same');

const PICTURE =
  'Pictures: PNG, JPEG, GIF, BMP or TIFF, at most OCSR_MAX_BYTES bytes (413) and OCSR_MAX_PIXELS pixels (413); other bytes are a 422. ' +
  'osra runs as a bounded child process: past OCSR_TIMEOUT_MS it is stopped (504); a picture that crashes it or needs more than ' +
  'OCSR_MEMORY_MB is a 422; an osra killed from outside (the machine out of memory) is a 503 for that call only. The answer is ' +
  '`{reference, smiles: [...]}` as the original\'s; osra\'s canonical SMILES, one per structure found. Recognition is osra\'s, not ' +
  'DECIMER\'s: see docs/ocsr.md for how often it reads a depiction back to the same InChIKey.';

const figure = z.strictObject({
  page: z.int().min(1),
  image: z.int().min(0).describe("pdfimages' number of the image in the document"),
  width: z.int().min(1),
  height: z.int().min(1),
  smiles: z.array(z.string()),
  error: z.string().optional().describe('Why osra gave no answer for this figure (its time limit, a crash, too many pixels)'),
});

export const ocsrOps = [
  defineOp({
    name: 'Extract_ChemicalInfo_From_File_ocsr_process_post',
    method: 'POST',
    path: '/ocsr/process',
    summary: 'Detect and convert chemical structure depictions in a picture into SMILES (osra)',
    description:
      'The picture goes in the JSON body as `img` (base64, or a `data:image/...;base64,` URL) or as a data URL in `path`. ' +
      'The original also fetched `http(s)` addresses; natprod never fetches from the web, so a web address is a 422 saying so. ' +
      '`reference` is echoed back. ' + PICTURE,
    tag: 'ocsr',
    args: z
      .object({
        path: z.string().max(20_000_000).optional().describe('A data: URL of the picture (web addresses are refused: natprod does not fetch them)'),
        img: z.string().max(20_000_000).optional().describe('The picture, base64-encoded or as a data:image/...;base64, URL'),
        reference: z.string().max(10_000).nullable().optional().describe('User-defined reference, echoed back'),
        hand_drawn: handDrawn,
      })
      .superRefine((a, ctx) => {
        for (const key of ['img', 'path'] as const) {
          if (a[key] !== undefined && WEB.test(a[key])) ctx.addIssue({ code: 'custom', path: [key], message: `${key} ${NO_FETCH}` });
        }
        // A missing picture is FastAPI's `missing` issue on img ("Field required"), as a required field's.
        if (!a.img && !a.path) {
          ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['img'], message: 'Send the picture in img (base64, or a data:image/...;base64, URL)' });
        }
        if (!a.img && a.path && !WEB.test(a.path) && !/^\s*data:/i.test(a.path)) {
          ctx.addIssue({ code: 'custom', path: ['path'], message: 'path must be a data: URL; natprod reads no server files and fetches no web addresses (send the picture in img)' });
        }
      }),
    body: { kind: 'json' },
    output: 'application/json',
    answer,
    mode: 'quick',
    task: 'ocsr_process',
    examples: [{ query: { img: OCSR_EXAMPLE_PNG, reference: 'caffeine' }, expected: { value: { reference: 'caffeine', smiles: OCSR_EXAMPLE_SMILES }, source: OCSR_EXAMPLE_SOURCE } }],
  }),
  defineOp({
    name: 'extract_chemicalinfo_from_upload_ocsr_process_upload_post',
    method: 'POST',
    path: '/ocsr/process-upload',
    summary: 'Detect and convert chemical structure depictions in an uploaded picture into SMILES (osra)',
    description:
      'The picture is a multipart upload in the field `file` (MCP clients send it base64-encoded in `image_base64`); `reference` ' +
      'in the answer is null, as the original\'s. ' + PICTURE,
    tag: 'ocsr',
    args: z.object({
      image_base64: z.string().min(1, 'image_base64 must not be empty').describe('The picture, base64-encoded (REST clients upload it as the multipart file field file instead)'),
      filename: z.string().max(1024).optional().describe('Name of the uploaded file; never used as a path'),
      hand_drawn: handDrawn,
    }),
    body: { kind: 'multipart', field: 'file', into: 'image_base64', filenameInto: 'filename' },
    output: 'application/json',
    answer,
    mode: 'quick',
    task: 'ocsr_process_upload',
    examples: [{ query: { image_base64: OCSR_EXAMPLE_PNG }, expected: { value: { reference: null, smiles: OCSR_EXAMPLE_SMILES }, source: OCSR_EXAMPLE_SOURCE } }],
  }),
  defineOp({
    name: 'extract_structures_from_pdf_ocsr_process_pdf_post',
    method: 'POST',
    path: '/ocsr/process-pdf',
    summary: "Read the chemical structures in a PDF's figures (pdfimages + osra, a job)",
    description:
      'natprod only. Lists the raster images of the leading `pages` pages (default all, at most PDF_MAX_PAGES) with poppler\'s ' +
      'pdfimages, skips images under 48 px either way, and reads each of the first OCSR_PDF_MAX_IMAGES with osra, reporting ' +
      'progress per image. Answers `{pdf_filename, page_count, pages_read, images_found, images_read, truncated, figures: [{page, ' +
      'image, width, height, smiles, error?}]}`; a figure osra fails on keeps its error and the job goes on. Structures drawn as ' +
      'vector graphics are not images and are not read. The PDF is a multipart upload in `pdf_file` (MCP: base64 in `pdf_base64`), ' +
      'at most UPLOAD_LIMIT bytes (413).',
    tag: 'ocsr',
    args: z.object({
      pdf_base64: z.string().min(1, 'pdf_base64 must not be empty').describe('The PDF file, base64-encoded (REST clients upload it as the multipart file field pdf_file instead)'),
      filename: z.string().max(1024).default('document.pdf').describe('Name of the uploaded file; only echoed back, never used as a path'),
      pages: int(undefined, 1, 100_000, 'pages').optional().describe('Number of leading pages to read (default: all pages, up to PDF_MAX_PAGES)'),
    }),
    body: { kind: 'multipart', field: 'pdf_file', into: 'pdf_base64', filenameInto: 'filename', magic: { bytes: '%PDF-', what: 'PDF' } },
    output: 'application/json',
    // The job's result.
    answer: z.strictObject({
      pdf_filename: z.string(),
      page_count: z.int().min(0),
      pages_read: z.int().min(0),
      images_found: z.int().min(0).describe('Images of the pages read large enough to hold a structure'),
      images_read: z.int().min(0),
      truncated: z.boolean().describe('Pages or images were left unread (PDF_MAX_PAGES, `pages`, OCSR_PDF_MAX_IMAGES)'),
      figures: z.array(figure),
    }),
    mode: 'long',
    task: 'ocsr_process_pdf',
  }),
] as const;
