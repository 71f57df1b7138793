/**
 * Catalog writes (mutate, actions, delete, registration) that each carry at least one invalid
 * part, among valid ones: every one must be refused whole (all or nothing) and leave the store as
 * it was. Hostile parts: operators in values and keys, prototype keys, unknown and read-only
 * fields, wrong types, unknown keys and ids, invalid status moves, unreadable and duplicate
 * structures, relation operations nested thousands deep.
 */
import type { Rng } from '../prng.ts';
import type { Case, Context } from '../types.ts';
import { validSmiles } from './structures.ts';
import { operatorObject, pct, pollutedJsonText } from './values.ts';
import { BAD_FIELDS, JSON_H, RELATIONS, RESOURCES, auth, searchBody, type R } from './catalog.ts';

function validAttributes(rng: Rng, r: R, ctx: Context, n: number): Record<string, unknown> {
  const u = `${n}-${rng.int(0, 1e9)}`;
  switch (r) {
    case 'molecules':
      return { name: `fuzz molecule ${u}`, ...(rng.bool(0.3) ? { canonical_smiles: validSmiles(rng) } : {}), ...(rng.bool(0.3) ? { cas: ['50-00-0'] } : {}), ...(rng.bool(0.3) ? { status: 'DRAFT', active: false } : {}), ...(rng.bool(0.2) ? { name_trust_level: 3 } : {}) };
    case 'organisms':
      return { name: `Fuzzus organismus ${u}`, ...(rng.bool(0.5) ? { rank: 'species', iri: `https://example.org/${u}` } : {}) };
    case 'citations':
      return { doi: `10.9999/fuzz.${u}`, title: `Fuzz ${u}`, ...(rng.bool(0.5) ? { authors: 'A. Fuzzer' } : {}) };
    case 'collections':
      return { title: `Fuzz collection ${u}`, description: 'd', ...(rng.bool(0.5) ? { url: 'https://example.org' } : {}) };
    case 'users':
      return { email: `fuzz${u}@example.org`, name: 'Fuzz', role: rng.pick(['reader', 'curator']), password: 'fuzz-password-123' };
  }
}

function existingKey(rng: Rng, r: R, ctx: Context): number {
  return rng.pick(ctx.ids[r].length ? ctx.ids[r] : [1]);
}

function validItem(rng: Rng, r: R, ctx: Context, n: number): Record<string, unknown> {
  if (rng.bool(0.5) || r === 'users') return { operation: 'create', attributes: validAttributes(rng, r, ctx, n) };
  const item: Record<string, unknown> = { operation: 'update', key: existingKey(rng, r, ctx), attributes: r === 'molecules' ? { name: `renamed ${n}` } : r === 'organisms' ? { rank: 'genus' } : r === 'citations' ? { title: `retitled ${n}` } : { description: `changed ${n}` } };
  if (RELATIONS[r].length && rng.bool(0.4)) {
    const rel = rng.pick(RELATIONS[r].filter((x) => x !== 'properties'));
    const target = (rel === 'molecules' ? 'molecules' : rel) as R;
    item.relations = { [rel]: [{ operation: rng.pick(['attach', 'detach', 'toggle', 'sync']), key: [existingKey(rng, target, ctx)], ...(rng.bool(0.2) ? { without_detaching: true } : {}) }] };
  }
  return item;
}

/** One item that no validation may let through. */
function poisonItem(rng: Rng, r: R, ctx: Context): { item: unknown; why: string } {
  const base = validAttributes(rng, r, ctx, 0);
  const field = Object.keys(base)[0];
  const options: [number, () => { item: unknown; why: string }][] = [
    [3, () => ({ why: 'operator in value', item: { operation: 'create', attributes: { ...base, [field]: operatorObject(rng) } } })],
    [2, () => ({ why: 'operator key in attributes', item: { operation: 'create', attributes: { ...base, [rng.pick(['$set', '$where', '$inc', '$unset'])]: { name: 'x' } } } })],
    [2, () => ({ why: 'unknown attribute', item: { operation: 'create', attributes: { ...base, [rng.pick(['id', 'nope', 'password_hash', 'token_hash', 'fingerprints', 'organism_ids', 'properties.alogp'])]: 1 } } })],
    [2, () => ({ why: 'wrong type', item: { operation: 'update', key: existingKey(rng, r, ctx), attributes: { [field]: rng.pick([123, true, [1, 2], { a: 1 }]) } } })],
    [2, () => ({ why: 'unknown key', item: { operation: 'update', key: rng.pick([99_999_999, -1, 0, 2 ** 53 + 2]), attributes: base } })],
    [2, () => ({ why: 'key of wrong type', item: { operation: 'update', key: rng.pick(['1', 1.5, { $gt: 0 }, [1], null, true]), attributes: base } })],
    [2, () => ({ why: 'bad operation', item: { operation: rng.pick(['delete', 'upsert', '$set', null, 'CREATE', 'attach', 5]), attributes: base } })],
    [1, () => ({ why: 'create with key', item: { operation: 'create', key: existingKey(rng, r, ctx), attributes: base } })],
    [1, () => ({ why: 'attributes not an object', item: { operation: 'create', attributes: rng.pick(['x', 5, true, [1]]) } })],
    [1, () => ({ why: 'item not an object', item: rng.pick(['x', 5, null, [[]], true]) })],
  ];
  if (r === 'molecules') {
    options.push(
      [2, () => ({ why: 'read-only field', item: { operation: 'update', key: existingKey(rng, r, ctx), attributes: { [rng.pick(['identifier', 'standard_inchi', 'standard_inchi_key'])]: 'X' } } })],
      [2, () => ({ why: 'unreadable structure', item: { operation: 'create', attributes: { name: 'bad', canonical_smiles: rng.pick(['C1CC(', 'Xx', 'C(C(C', '[C', 'c1cccc1', 'C'.repeat(401), '((((', ' |$$|']) } } })],
      [2, () => ({ why: 'duplicate structure', item: { operation: 'create', attributes: { name: 'dup', canonical_smiles: rng.pick(ctx.stored.smiles) } } })],
      [1, () => ({ why: 'bad status', item: { operation: 'update', key: existingKey(rng, r, ctx), attributes: { status: rng.pick(['approved', 'DELETED', '', 'APPROVED ']) } } })],
      [1, () => ({ why: 'pivot', item: { operation: 'update', key: existingKey(rng, r, ctx), relations: { organisms: [{ operation: 'attach', key: [existingKey(rng, 'organisms', ctx)], pivot: { organism_parts: 'leaf' } }] } } })],
      [1, () => ({ why: 'attributes on attach', item: { operation: 'update', key: existingKey(rng, r, ctx), relations: { citations: [{ operation: 'attach', key: [existingKey(rng, 'citations', ctx)], attributes: { title: 'x' } }] } } })],
      [1, () => ({ why: 'attach unknown key', item: { operation: 'update', key: existingKey(rng, r, ctx), relations: { collections: [{ operation: rng.pick(['attach', 'sync', 'toggle']), key: [existingKey(rng, 'collections', ctx), 99_999_999] }] } } })],
      [1, () => ({ why: 'bad without_detaching', item: { operation: 'update', key: existingKey(rng, r, ctx), relations: { organisms: [{ operation: 'sync', key: [existingKey(rng, 'organisms', ctx)], without_detaching: rng.pick(['yes', 2, 'true', {}]) }] } } })],
      [1, () => ({ why: 'unknown relation', item: { operation: 'update', key: existingKey(rng, r, ctx), relations: { [rng.pick(['users', 'tokens', '__proto__x', 'organism'])]: [{ operation: 'attach', key: [1] }] } } })],
      [1, () => ({ why: 'one structure twice', item: { operation: 'create', attributes: { name: 'twice', canonical_smiles: 'CC(C)(C)C(C)(C)C(C)(C)CO' }, relations: { organisms: [{ operation: 'create', attributes: { name: 'Twice twice' }, relations: { molecules: [{ operation: 'create', attributes: { name: 'twice too', canonical_smiles: 'OCC(C)(C)C(C)(C)C(C)(C)C' } }] } }] } } })],
    );
  }
  if (r === 'users') options.push([2, () => ({ why: 'bad role', item: { operation: 'create', attributes: { ...base, role: rng.pick(['superadmin', 'ADMIN', '', 'root']) } } })]);
  if (r === 'organisms') options.push([1, () => ({ why: 'read-only molecule_count', item: { operation: 'update', key: existingKey(rng, r, ctx), attributes: { molecule_count: 5 } } })]);
  return rng.weighted(options)();
}

/**
 * JSON text of molecules → organisms → molecules → ... creates `depth` levels deep, with an
 * invalid attribute at the bottom (as text: JSON.stringify runs out of stack on such depths).
 */
function deepRelationsText(rng: Rng, depth: number): string {
  let head = '';
  for (let i = 0; i < depth; i++) {
    const onOrganism = i % 2 === 1;
    head += onOrganism
      ? `{"operation":"create","attributes":{"name":"Deep organism ${i}-${rng.int(0, 1e9)}"},"relations":{"molecules":[`
      : `{"operation":"create","attributes":{"name":"deep ${i}"},"relations":{"organisms":[`;
  }
  return head + '{"operation":"create","attributes":{"name":{"$gt":""}}}' + ']}}'.repeat(depth);
}

function shuffle<T>(rng: Rng, xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

export function catalogWrite(rng: Rng, ctx: Context): Case {
  const r = rng.pick(RESOURCES);
  const headers = { ...JSON_H, ...auth(rng, ctx, true) };
  const kind = rng.weighted<string>([[10, 'mutate'], [4, 'action'], [3, 'delete'], [1, 'register']]);
  if (kind === 'mutate') {
    const valid = Array.from({ length: rng.size(4) }, (_, n) => validItem(rng, r, ctx, n));
    if (r === 'molecules' && rng.bool(0.05)) {
      const depth = rng.pick([5, 50, 500, 3000, 10_000]);
      const body = `{"mutate":[${[...valid.map((v) => JSON.stringify(v)), deepRelationsText(rng, depth)].join(',')}]}`;
      return { target: 'catalog:write', label: `mutate molecules: relations ${depth} deep, poisoned at the bottom`, write: true, req: { method: 'POST', path: '/api/molecules/mutate', headers, body } };
    }
    const { item, why } = poisonItem(rng, r, ctx);
    const items = shuffle(rng, [...valid, item]);
    const polluted = rng.bool(0.06);
    const body = polluted ? pollutedJsonText(rng, { mutate: items }) : JSON.stringify({ mutate: items });
    return { target: 'catalog:write', label: `mutate ${r}: ${polluted ? 'prototype key' : why}`, write: true, req: { method: 'POST', path: `/api/${r}/mutate`, headers, body } };
  }
  if (kind === 'action') {
    const actions: Record<R, string[]> = { molecules: ['submit-for-review', 'approve', 'revoke', 'recompute-properties'], organisms: ['refresh-counts'], collections: ['refresh-counts'], citations: ['refresh-counts'], users: ['refresh-counts'] };
    const action = rng.bool(0.95) ? rng.pick(actions[r]) : rng.pick(['delete', 'nope', '__proto__', 'x'.repeat(300)]);
    const body: Record<string, unknown> = {};
    const poisons: [number, () => string][] = [
      [3, () => ((body.search = { filters: [{ field: rng.pick(BAD_FIELDS.filter(Boolean)), operator: '=', value: 1 }] }), 'unknown filter field')],
      [3, () => ((body.search = { filters: [{ field: 'id', operator: rng.pick(['=', 'in']), value: operatorObject(rng) }] }), 'operator in filter value')],
      [2, () => ((body.fields = [{ name: rng.pick(['nope', '$where', '__proto__', 'status']), value: 'x' }]), 'unknown action field')],
      [1, () => ((body.fields = rng.pick(['x', 5, { name: 'reason' }])), 'fields not a list')],
      [1, () => ((body.search = { filters: [{ field: 'canonical_smiles', operator: 'substructure', value: rng.pick(['', ' ', 'C'.repeat(20_001)]) }] }), 'bad structure filter')],
      [1, () => ((body.search = { limit: rng.pick([0, 11, -1, 'x']) }), 'bad limit')],
    ];
    if (r === 'molecules' && action === 'revoke') poisons.push([2, () => ((body.fields = [{ name: 'reason', value: 'x'.repeat(1001) }]), 'reason too long')]);
    // Every seeded molecule is APPROVED: approving them again or sending them to review is an invalid move.
    if (r === 'molecules' && (action === 'approve' || action === 'submit-for-review')) poisons.push([3, () => ((body.search = rng.bool() ? undefined : { filters: [{ field: 'id', operator: 'in', value: ctx.ids.molecules.slice(0, rng.int(1, 10)) }] }), 'invalid status move')]);
    const why = rng.weighted(poisons)();
    if (body.search === undefined && rng.bool(0.3) && !why.includes('move')) body.search = searchBody(rng, r);
    return { target: 'catalog:write', label: `action ${r}/${action}: ${why}`, write: true, req: { method: 'POST', path: `/api/${r}/actions/${pct(action)}`, headers, body: JSON.stringify(body) } };
  }
  if (kind === 'delete') {
    const real = Array.from({ length: rng.size(3) }, () => existingKey(rng, r, ctx));
    const [resources, why] = rng.weighted<() => [unknown, string]>([
      [3, () => [shuffle(rng, [...real, rng.pick([99_999_999, -1, 0, 2 ** 53 + 2])]), 'unknown id']],
      [2, () => [shuffle(rng, [...real, rng.pick(['1', 1.5, { $gt: 0 }, { $ne: null }, null, [1], true, '__proto__'])]), 'id of wrong type']],
      [1, () => [[existingKey(rng, r, ctx), existingKey(rng, r, ctx)].map((x, i, a) => a[0]), 'duplicate id']],
      [1, () => [rng.pick([[], {}, 'x', 5, null, operatorObject(rng)]), 'not a list']],
    ])();
    const body = resources === null && rng.bool() ? '{}' : JSON.stringify({ resources });
    return { target: 'catalog:write', label: `delete ${r}: ${why}`, write: true, req: { method: 'DELETE', path: `/api/${r}`, headers, body } };
  }
  // Registration is open on the fuzz server; every body misses something or mismatches.
  const reg: Record<string, unknown> = { first_name: 'Fuzz', last_name: 'Er', username: 'fuzz', email: `fuzz${rng.int(0, 1e9)}@example.org`, affiliation: 'Lab', password: 'password-123', password_confirmation: 'password-123' };
  const why = rng.weighted<() => string>([
    [2, () => ((reg.password_confirmation = 'password-124'), 'password mismatch')],
    [2, () => (delete reg[rng.pick(['first_name', 'last_name', 'username', 'email', 'affiliation', 'password'])], 'missing field')],
    [2, () => ((reg[rng.pick(['email', 'first_name', 'password'])] = operatorObject(rng)), 'operator in field')],
    [1, () => ((reg.email = rng.pick([ctx.adminEmail, ctx.adminEmail.toUpperCase()])), 'existing e-mail')],
    [1, () => ((reg.email = rng.pick(['x', '@', 'a@', 'a@b', ' @example.org', 'a b@example.org', '', 'a@@b.c'])), 'bad e-mail')],
    [1, () => ((reg.first_name = 'x'.repeat(256)), 'too long')],
    [1, () => ((reg.password = reg.password_confirmation = 'short'), 'short password')],
  ])();
  return { target: 'catalog:write', label: `register: ${why}`, write: true, req: { method: 'POST', path: '/api/auth/register', headers: JSON_H, body: rng.bool(0.05) ? pollutedJsonText(rng, reg) : JSON.stringify(reg) } };
}
