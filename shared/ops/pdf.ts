/**
 * Registry entries for PDF extraction (docs/spec/chem-service.md §2.4 tools 33 and 34). The original service ran
 * Docling; these run pdfjs-dist text extraction with layout heuristics (shared/pdf/), described in
 * docs/pdf.md. Over REST the file is a multipart upload in `pdf_file`; MCP clients, which cannot
 * upload, send the same bytes base64-encoded in `pdf_base64`. Tasks are in pdf.tasks.ts.
 */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { int } from './params.ts';

const MAX_PAGES_ARG = 100_000;

// Answer shapes: shared/pdf/document.ts (PdfJsonDocument, schema natprod.PdfDocument 1.0.0), labels.ts (BlockLabel), load.ts (PdfInfo).
const LABELS = ['title', 'section_header', 'text', 'list_item', 'caption', 'footnote', 'page_header', 'page_footer'] as const;
const n = () => z.int().min(0);
const pdfDocument = z.strictObject({
  schema_name: z.literal('natprod.PdfDocument'),
  version: z.literal('1.0.0'),
  name: z.string(),
  origin: z.strictObject({
    filename: z.string(),
    mimetype: z.literal('application/pdf'),
    binary_hash: z.string().describe('SHA-256, hex'),
    size_bytes: n(),
  }),
  metadata: z.strictObject({
    pdf_version: z.string().optional(),
    title: z.string().optional(),
    author: z.string().optional(),
    subject: z.string().optional(),
    keywords: z.string().optional(),
    creator: z.string().optional(),
    producer: z.string().optional(),
    creation_date: z.string().optional(),
    modification_date: z.string().optional(),
  }).describe("The PDF's information dictionary; absent or empty entries are left out"),
  page_count: n(),
  pages_read: n(),
  truncated: z.boolean(),
  page_limit: n(),
  title: z.string().nullable(),
  pages: z.array(z.strictObject({
    page_no: z.int().min(1),
    size: z.strictObject({ width: z.number(), height: z.number() }),
    rotation: z.int(),
    blocks: z.array(z.string()).describe('Ids of the blocks of the page, in reading order'),
  })),
  blocks: z.array(z.strictObject({
    id: z.string().describe('#/blocks/<n>'),
    order: n(),
    page_no: z.int().min(1),
    label: z.enum(LABELS),
    level: z.int().min(1).optional().describe('Section headers only'),
    text: z.string(),
    bbox: z.strictObject({ l: z.number(), t: z.number(), r: z.number(), b: z.number(), coord_origin: z.literal('TOPLEFT') }),
    font_size: z.number(),
    font: z.string(),
    line_count: n(),
  })),
  headings: z.array(z.strictObject({ block: z.string(), page_no: z.int().min(1), level: z.int().min(1), text: z.string() })),
});

const upload = {
  pdf_base64: z.string().min(1, 'pdf_base64 must not be empty')
    .describe('The PDF file, base64-encoded (REST clients upload it as the multipart file field pdf_file instead)'),
  filename: z.string().max(1024).default('document.pdf')
    .describe('Name of the uploaded file; only echoed back, never used as a path'),
};

const COMMON =
  'The file must be a PDF (`%PDF-` signature; otherwise 400). Corrupt, truncated or password-protected files answer 422 ' +
  'naming the problem; files over UPLOAD_LIMIT bytes 413. At most PDF_MAX_PAGES pages are read whatever `pages` asks. ' +
  'Only the text layer is read: scanned pages without text yield no text (no OCR). Uploads are held in memory for the ' +
  'job only and never written to disk.';

export const pdfOps = [
  defineOp({
    name: 'extract_pdf_json_tools_extract_json_post',
    method: 'POST',
    path: '/tools/extract_json',
    summary: 'Extract JSON data from PDF',
    description:
      'Reads the leading `pages` pages (default: all) and answers a structured document, schema ' +
      '`natprod.PdfDocument` 1.0.0: `{schema_name, version, name, origin {filename, mimetype, binary_hash (SHA-256), ' +
      'size_bytes}, metadata {title, author, ... from the PDF info dictionary}, page_count, pages_read, truncated, ' +
      'page_limit, title, pages [{page_no, size {width, height}, rotation, blocks [ids]}], blocks [{id "#/blocks/<n>", ' +
      'order, page_no, label, level?, text, bbox {l, t, r, b, coord_origin "TOPLEFT"}, font_size, font, line_count}], ' +
      'headings [{block, page_no, level, text}]}`. Blocks are listed in reading order (page by page; columns left to ' +
      'right). Labels: title, section_header (with level), text, list_item, caption, footnote, page_header, page_footer. ' +
      'Coordinates are PDF points on the displayed (rotated, cropped) page, origin top left. ' + COMMON,
    tag: 'tools',
    args: z.object({
      ...upload,
      pages: int(undefined, 1, MAX_PAGES_ARG, 'pages').optional()
        .describe('Number of leading pages to read (default: all pages, up to PDF_MAX_PAGES)'),
    }),
    body: { kind: 'multipart', field: 'pdf_file', into: 'pdf_base64', filenameInto: 'filename', magic: { bytes: '%PDF-', what: 'PDF' } },
    output: 'application/json',
    // The job's result.
    answer: pdfDocument,
    mode: 'long',
    task: 'extract_pdf_json',
  }),
  defineOp({
    name: 'extract_pdf_text_tools_extract_text_post',
    method: 'POST',
    path: '/tools/extract_text',
    summary: 'Extract combined text from PDF',
    description:
      'Reads the leading `pages` pages (default 1, as the original service) and answers `{text, pdf_filename}`: the ' +
      'title, the abstract (a paragraph starting "Abstract"/"ABSTRACT:", or the text under an "Abstract" heading) and ' +
      'the text after the abstract up to the first heading containing RESULTS or DISCUSSION, without running headers ' +
      'and footers, joined with single spaces. When that is 10 words or fewer, all text of the pages read is returned ' +
      'instead. `pdf_filename` is the uploaded file name with spaces replaced by underscores. ' + COMMON,
    tag: 'tools',
    args: z.object({
      ...upload,
      pages: int(1, 1, MAX_PAGES_ARG, 'Number of leading pages to read'),
    }),
    body: { kind: 'multipart', field: 'pdf_file', into: 'pdf_base64', filenameInto: 'filename', magic: { bytes: '%PDF-', what: 'PDF' } },
    output: 'application/json',
    // The job's result.
    answer: z.strictObject({ text: z.string(), pdf_filename: z.string() }),
    mode: 'long',
    task: 'extract_pdf_text',
  }),
] as const;
