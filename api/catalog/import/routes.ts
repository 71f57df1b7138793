/**
 * Catalog imports over REST, for admins (jobs.ts runs them):
 * - `POST /api/imports`: a multipart upload (file field `file`, optional field `status`), or JSON
 *   `{"path": "<file under IMPORT_DIR>", "status"?: "DRAFT"|"INREVIEW"|"APPROVED"}`; 202 with the
 *   job's record and its `status_url` (also `Location`);
 * - `GET /api/imports`: every import, newest first; `GET /api/imports/{id}`: one, with its
 *   progress (rows, bytes, rows/s, ETA) and summary (counts, rejected rows with their number and
 *   reason);
 * - `DELETE /api/imports/{id}`: cancels it between rows (what was written stays).
 * Records live in a folder every api shares, so any api answers for any import.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import '@fastify/multipart';
import { Errors, HttpError } from '../schema/types.ts';
import { importView, MOLECULE_STATUSES, type ImportJobs, type ImportRecord, type MoleculeStatus, type Upload } from './jobs.ts';

const KEYS = ['path', 'status', 'revoke_absent'];

/** `revoke_absent`: a boolean (JSON) or `true`/`false` (a form field). */
function revokeAbsent(v: unknown, e: Errors): boolean {
  if (v === undefined || v === false || v === 'false') return false;
  if (v === true || v === 'true') return true;
  e.add('revoke_absent', 'The revoke_absent field must be true or false.');
  return false;
}
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** `status` of the molecules an import creates, checked (a Laravel 422 on the field). */
export function moleculeStatus(v: unknown, e: Errors): MoleculeStatus | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || !MOLECULE_STATUSES.includes(v as MoleculeStatus)) {
    e.add('status', `The selected status is invalid: use ${MOLECULE_STATUSES.join(', ')}.`);
    return undefined;
  }
  return v as MoleculeStatus;
}

export function importRoutes(app: FastifyInstance, jobs: ImportJobs) {
  app.addHook('onReady', async () => {
    await jobs.start().catch((err: unknown) => app.log.warn({ err }, 'imports: cannot use the imports folder; imports will fail until it can be created'));
  });
  const admin = (req: FastifyRequest) => {
    if (req.catalogUser?.role !== 'admin') throw new HttpError(403, 'This action is unauthorized.');
  };
  const url = (req: FastifyRequest, id: string) => `${req.protocol}://${req.host}/api/imports/${id}`;
  const view = (req: FastifyRequest, rec: ImportRecord) => importView(rec, url(req, rec.id));
  const found = async (req: FastifyRequest) => {
    const { id } = req.params as { id: string };
    const rec = await jobs.get(id);
    if (!rec) throw new HttpError(404, `Import ${id} not found.`);
    return rec;
  };

  app.post('/api/imports', async (req, reply) => {
    admin(req);
    const e = new Errors();
    let rec: ImportRecord;
    if (typeof req.isMultipart === 'function' && req.isMultipart()) {
      const fields: Record<string, unknown> = {};
      let upload: Upload | undefined;
      try {
        for await (const part of req.parts({ limits: { fileSize: jobs.uploadLimit } })) {
          if (part.type !== 'file') fields[part.fieldname] = part.value;
          else if (part.fieldname !== 'file' || upload) {
            part.file.resume();
            throw new HttpError(422, `Unexpected file field '${part.fieldname}': upload one file as 'file'.`);
          } else upload = await jobs.upload(part.file, part.filename);
        }
        for (const k of Object.keys(fields)) if (k !== 'status' && k !== 'revoke_absent') e.add(k, `The ${k} field is prohibited.`);
        const status = moleculeStatus(fields.status, e);
        const revoke = revokeAbsent(fields.revoke_absent, e);
        if (!upload) e.add('file', "The file field is required: upload the file to import as 'file'.");
        e.throwIfAny();
        rec = await jobs.submitUpload(upload!, { moleculeStatus: status, userId: req.catalogUser!.id, revokeAbsent: revoke });
        upload = undefined;
      } catch (err) {
        if (upload) await jobs.discard(upload);
        // The multipart reader's own errors (a malformed body, a file over the limit) are the client's.
        const code = (err as { code?: string })?.code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, `The upload is larger than IMPORT_UPLOAD_LIMIT (${jobs.uploadLimit} bytes).`);
        if (typeof code === 'string' && code.startsWith('FST_')) {
          const status = (err as { statusCode?: number }).statusCode;
          throw new HttpError(status && status < 500 ? status : 400, `Malformed multipart body: ${(err as Error).message}`);
        }
        throw err;
      }
    } else {
      const body = req.body;
      if (!isObj(body)) throw new HttpError(422, 'Send the file as a multipart upload (field file), or JSON {"path": "<file under IMPORT_DIR>"}.');
      for (const k of Object.keys(body)) if (!KEYS.includes(k)) e.add(k, `The ${k} field is prohibited.`);
      if (typeof body.path !== 'string' || !body.path.trim()) e.add('path', 'The path field is required: a file under IMPORT_DIR (or upload the file as multipart field file).');
      const status = moleculeStatus(body.status, e);
      const revoke = revokeAbsent(body.revoke_absent, e);
      e.throwIfAny();
      const file = await jobs.serverFile((body.path as string).trim());
      rec = await jobs.submitPath(file, { moleculeStatus: status, userId: req.catalogUser!.id, revokeAbsent: revoke });
    }
    return reply.code(202).header('location', url(req, rec.id)).send(view(req, rec));
  });

  app.get('/api/imports', async (req) => {
    admin(req);
    return { data: (await jobs.list()).map((r) => view(req, r)) };
  });

  app.get('/api/imports/:id', async (req) => {
    admin(req);
    return view(req, await found(req));
  });

  app.delete('/api/imports/:id', async (req) => {
    admin(req);
    const rec = await found(req);
    return view(req, await jobs.cancel(rec.id));
  });
}
