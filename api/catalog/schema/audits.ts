/**
 * Audits: the audit trail of every write to a catalog record (mutate, actions, delete, approved
 * reports, imports), one entry per record and write, shaped like Laravel auditing's `audits`
 * table that COCONUT keeps (owen-it/laravel-auditing). Not a Lomkit resource: curators and admins
 * read a record's entries at `GET /api/<resource>/{id}/audits` (api/catalog/audit/).
 */
import { defineSchema } from './define.ts';

export const auditsSchema = defineSchema({
  name: 'audits',
  collection: 'audits',
  className: 'AuditResource',
  doc: 'One write to one catalog record: who, when, which fields, old → new. Read per record at `GET /api/<resource>/{id}/audits` (curators, admins).',
  fields: {
    id: { type: 'int', doc: 'Numeric key, in the order the writes happened.' },
    auditable_type: { type: 'string', doc: 'The record\'s model, as COCONUT names it (`App\\Models\\Molecule`, ...).' },
    auditable_id: { type: 'int', index: true, doc: 'The record\'s id.' },
    event: { type: 'string', doc: '`created`, `updated` or `deleted`.' },
    user_id: { type: 'int', doc: 'Who wrote it (null: an import run from the command line, or the first-start demo import).' },
    old_values: { type: 'json', doc: 'The changed fields before the write (the embedded `properties` as an object of its changed fields).' },
    new_values: { type: 'json', doc: 'The same fields after it.' },
    tags: { type: 'string', doc: 'What wrote it: `mutate`, `delete`, `action:<uriKey>`, `report:<id>`, `import`.' },
    created_at: { type: 'string', doc: 'When (ISO 8601, UTC).' },
  },
});
