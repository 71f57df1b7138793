/** Laravel-shaped 422s: keys and messages of docs/spec/catalog-api.md §2.3/§2.6, status order 401 → 404/405 → 422 → 403, injection. */
import t from 'tap';
import { build, seed, storeKinds } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';

for (const kind of storeKinds()) t.test(`validation and status order on ${kind}`, storeVariant(kind), async (t) => {
  const b = await build(t, kind);
  await seed(b.store);
  const err = async (search: unknown, key: string, msg: string) => {
    const r = await b.call('POST', '/api/molecules/search', { search }, 'reader');
    t.equal(r.status, 422, `${key} status`);
    t.same(r.json.errors?.[key], [msg], key);
    return r;
  };

  t.test('search messages', async (t) => {
    await err({ limit: 7 }, 'search.limit', 'The selected search.limit is invalid.');
    await err({ limit: 'x' }, 'search.limit', 'The search.limit field must be an integer.');
    await err({ page: 1.5 }, 'search.page', 'The search.page field must be an integer.');
    await err({ filters: 'x' }, 'search.filters', 'The search.filters field must be an array.');
    await err({ filters: [{ field: 'nope', value: 1 }] }, 'search.filters.0.field', "The 'field' field is not valid.");
    await err({ filters: [{ field: 'organisms.nope', value: 1 }] }, 'search.filters.0.field', "The 'field' field is not valid.");
    await err({ filters: [{ value: 1 }] }, 'search.filters.0.field', 'The search.filters.0.field field is required when search.filters.0.nested is not present.');
    await err({ filters: [{ field: 'name', operator: 'not ilike', value: 'a' }] }, 'search.filters.0.operator', 'The selected search.filters.0.operator is invalid.');
    await err({ filters: [{ field: 'name', type: 'xor', value: 'a' }] }, 'search.filters.0.type', 'The selected search.filters.0.type is invalid.');
    await err({ filters: [{ field: 'name', value: '' }] }, 'search.filters.0.value', 'The search.filters.0.value field is required when search.filters.0.nested is not present.');
    await err({ filters: [{ field: 'name', operator: '>' }] }, 'search.filters.0.value', 'The search.filters.0.value field is required when search.filters.0.nested is not present.');
    await err({ filters: [{ field: 'name', nested: [] }] }, 'search.filters.0.nested', 'The search.filters.0.nested field prohibits search.filters.0.field / operator / value from being present.');
    await err({ filters: [{ nested: [{ nested: [] }] }] }, 'search.filters.0.nested.0.nested', 'The search.filters.0.nested.0.nested field is prohibited.');
    await err({ filters: [{ field: 'annotation_level', value: 'high' }] }, 'search.filters.0.value', 'The search.filters.0.value field must be a number.');
    await err({ filters: [{ field: 'name', operator: 'in', value: 'a' }] }, 'search.filters.0.value', 'The search.filters.0.value field must be an array.');
    await err({ sorts: [{ field: 'properties.molecular_weight' }] }, 'search.sorts.0.field', 'The selected search.sorts.0.field is invalid.');
    await err({ sorts: [{}] }, 'search.sorts.0.field', 'The search.sorts.0.field field is required.');
    await err({ sorts: [{ field: 'name', direction: 'up' }] }, 'search.sorts.0.direction', 'The selected search.sorts.0.direction is invalid.');
    await err({ selects: [{ field: 'nope' }] }, 'search.selects.0.field', 'The selected search.selects.0.field is invalid.');
    await err({ scopes: [{ name: 'nope' }] }, 'search.scopes.0.name', 'The selected search.scopes.0.name is invalid.');
    await err({ instructions: [{ name: 'x' }] }, 'search.instructions.0.name', 'The selected search.instructions.0.name is invalid.');
    await err({ gates: ['fly'] }, 'search.gates', 'The selected search.gates is invalid.');
    await err({ includes: [{ relation: 'nope' }] }, 'search.includes.0.relation', 'The relation is not valid or allowed for this resource.');
    await err({ includes: [{ relation: 'organisms', limit: 3 }] }, 'search.includes.0.limit', 'The selected search.includes.0.limit is invalid.');
    await err({ includes: [{ relation: 'organisms', filters: [{ field: 'title', value: 'x' }] }] }, 'search.includes.0.filters.0.field', "The 'field' field is not valid.");
    await err({ aggregates: [{ relation: 'nope', type: 'count' }] }, 'search.aggregates.0.relation', 'The relation is not valid or allowed for this resource.');
    await err({ aggregates: [{ relation: 'organisms', type: 'median' }] }, 'search.aggregates.0.type', 'The selected search.aggregates.0.type is invalid.');
    await err({ aggregates: [{ relation: 'organisms', type: 'min' }] }, 'search.aggregates.0.field', 'The search.aggregates.0.field field is required when search.aggregates.0.type is min.');
    await err({ aggregates: [{ relation: 'organisms', type: 'exists', field: 'name' }] }, 'search.aggregates.0.field', 'The search.aggregates.0.field field is prohibited when search.aggregates.0.type is exists.');
    await err({ aggregates: [{ relation: 'organisms', type: 'max', field: 'title' }] }, 'search.aggregates.0.field', 'The selected search.aggregates.0.field is invalid.');
    await err({ text: { value: 'x' } }, 'search.text', 'The search.text field is prohibited.');
    await err({ scopes: [{ name: 'active', parameters: 'x' }] }, 'search.scopes.0.parameters', 'The search.scopes.0.parameters field must be an array.');
    await err({ selects: 'name' }, 'search.selects', 'The search.selects field must be an array.');
    await err({ filters: [{ nested: 'x' }] }, 'search.filters.0.nested', 'The search.filters.0.nested field must be an array.');
    await err({ filters: [{ nested: [{ field: 'nope', value: 1 }] }] }, 'search.filters.0.nested.0.field', "The 'field' field is not valid.");
    await err({ includes: [{ relation: 'organisms', includes: [{ relation: 'nope' }] }] }, 'search.includes.0.includes.0.relation', 'The relation is not valid or allowed for this resource.');
    await err({ includes: [{ relation: 'organisms.molecules', sorts: [{ field: 'title' }] }] }, 'search.includes.0.sorts.0.field', 'The selected search.includes.0.sorts.0.field is invalid.');
    await err({ includes: [{ relation: 'properties', selects: [{ field: 'name' }] }] }, 'search.includes.0.selects.0.field', 'The selected search.includes.0.selects.0.field is invalid.');
    await err({ aggregates: [{ relation: 'organisms', type: 'count', filters: [{ field: 'title', value: 'x' }] }] }, 'search.aggregates.0.filters.0.field', "The 'field' field is not valid.");
    await err({ filters: [{ field: 'properties.nope', value: 1 }] }, 'search.filters.0.field', "The 'field' field is not valid.");
    await err({ filters: [{ field: '__proto__', value: 1 }] }, 'search.filters.0.field', "The 'field' field is not valid.");
    await err({ filters: [{ field: 'active', value: 'maybe' }] }, 'search.filters.0.value', 'The search.filters.0.value field must be true or false.');
    await err({ filters: [{ field: 'annotation_level', operator: 'in', value: [1, 'x'] }] }, 'search.filters.0.value.1', 'The search.filters.0.value.1 field must be a number.');
    await err({ filters: [{ field: 'name', operator: 'like', value: ['a'] }] }, 'search.filters.0.value', 'The search.filters.0.value field must be a string, a number or a boolean.');
    const notObject = await b.call('POST', '/api/molecules/search', { search: 'x' }, 'reader');
    t.same(notObject.json.errors, { search: ['The search field must be an array.'] });
    const unknownKeys = await b.call('POST', '/api/molecules/search', { search: { colour: 'red', filters: [{ field: 'name', value: 'caffeine', colour: 1 }] }, extra: true }, 'reader');
    t.equal(unknownKeys.json.total, 1, 'unknown keys are ignored');
    const two = await err({ limit: 7, page: 'x' }, 'search.limit', 'The selected search.limit is invalid.');
    t.equal(two.json.message, 'The selected search.limit is invalid. (and 1 more error)');
  });

  t.test('operator injection and regex safety', async (t) => {
    await err({ filters: [{ field: 'name', value: { $gt: '' } }] }, 'search.filters.0.value', 'The search.filters.0.value field must not contain operators.');
    await err({ filters: [{ field: 'name', value: { $where: 'sleep(1000)' } }] }, 'search.filters.0.value', 'The search.filters.0.value field must not contain operators.');
    await err({ filters: [{ field: 'name', operator: 'in', value: [{ $ne: null }] }] }, 'search.filters.0.value', 'The search.filters.0.value field must not contain operators.');
    await err({ filters: [{ field: 'name', value: { a: 1 } }] }, 'search.filters.0.value', 'The search.filters.0.value field must be a string, a number, a boolean or a list.');
    const m = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'create', attributes: { name: { $gt: '' } } }] });
    t.same(m.json.errors, { 'mutate.0.attributes.name': ['The mutate.0.attributes.name field must not contain operators.'] });
    const rel = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'update', key: 1, relations: { properties: { operation: 'update', attributes: { molecular_formula: { $where: '1' } } }, organisms: [{ operation: 'attach', key: { $gt: 0 } }] } }] });
    t.same(rel.json.errors, {
      'mutate.0.relations.organisms.0.key': ['The selected mutate.0.relations.organisms.0.key is invalid.'],
      'mutate.0.relations.properties.attributes.molecular_formula': ['The mutate.0.relations.properties.attributes.molecular_formula field must not contain operators.'],
    });
    const key = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'update', key: { $gt: 0 }, attributes: { name: 'all' } }] });
    t.same(key.json.errors, { 'mutate.0.key': ['The selected mutate.0.key is invalid.'] });
    const del = await b.call('DELETE', '/api/molecules', { resources: [{ $gt: 0 }] });
    t.same(del.json.errors, { 'resources.0': ['The selected resources.0 is invalid.'] });
    await err({ sorts: [{ field: { $gt: '' } }] }, 'search.sorts.0.field', 'The selected search.sorts.0.field is invalid.');
    await err({ filters: [{ field: { $where: 'x' }, value: 1 }] }, 'search.filters.0.field', "The 'field' field is not valid.");
    t.equal(await b.store.count('molecules', { name: 'all' }), 0);
    // catastrophic-backtracking shapes and a long subject answer at once with the right result
    await b.store.insert('molecules', { name: 'a'.repeat(5000) });
    for (const pattern of ['%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%b', '(a+)+$%', '%(.*)*%', `${'_'.repeat(200)}%b`]) {
      const r = await b.call('POST', '/api/molecules/search', { search: { filters: [{ field: 'name', operator: 'like', value: pattern }] } }, 'reader');
      t.equal(r.json.total, 0, pattern);
    }
    const hit = await b.call('POST', '/api/molecules/search', { search: { filters: [{ field: 'name', operator: 'like', value: '%a%a%a%a%a%a%a%a%a%a%a' }] } }, 'reader');
    t.equal(hit.json.total, 1);
  });

  t.test('status order 401 → 404/405 → 422 → 403', async (t) => {
    const bad = { search: { limit: 7 } };
    t.equal((await b.call('POST', '/api/molecules/search', bad, null)).status, 401);
    t.equal((await b.call('POST', '/api/molecules', {}, null)).status, 401, '401 before 405');
    const r405 = await b.call('POST', '/api/molecules', {}, 'reader');
    t.equal(r405.status, 405);
    t.match(r405.json.message, /The POST method is not supported for route api\/molecules/);
    t.equal((await b.call('POST', '/api/molecules/actions/nope', {}, 'reader')).status, 404, '404 before 422/403');
    const getSearch = await b.call('GET', '/api/molecules/search', undefined, 'reader');
    t.same(getSearch, { status: 405, json: { message: 'The GET method is not supported for route api/molecules/search. Supported methods: POST.' } });
    t.equal((await b.call('PUT', '/api/organisms/mutate', {}, 'reader')).status, 405);
    t.equal((await b.call('PATCH', '/api/citations', {}, null)).status, 401, '401 before 405');
    t.equal((await b.call('POST', '/api/molecules/mutate', {}, 'reader')).status, 422, '422 before 403');
    t.equal((await b.call('DELETE', '/api/molecules', { resources: [999] }, 'curator')).status, 422, 'missing id 422 before 403');
    t.equal((await b.call('DELETE', '/api/molecules', { resources: [1] }, 'curator')).status, 403);
  });

  t.test('mutate and delete messages', async (t) => {
    const m = async (mutate: unknown, key: string, msg: string) => {
      const r = await b.call('POST', '/api/molecules/mutate', mutate === undefined ? {} : { mutate });
      t.equal(r.status, 422, key);
      t.same(r.json.errors?.[key], [msg], key);
    };
    await m(undefined, 'mutate', 'The mutate field is required.');
    await m([{ operation: 'attach', attributes: {} }], 'mutate.0.operation', 'The selected mutate.0.operation is invalid.');
    await m([{ operation: 'update', attributes: {} }], 'mutate.0.key', 'The mutate.0.key field must be present when mutate.0.operation is update.');
    await m([{ operation: 'create', key: 1 }], 'mutate.0.key', 'The mutate.0.key field is prohibited when mutate.0.operation is create.');
    await m([{ operation: 'update', key: 999 }], 'mutate.0.key', 'The selected mutate.0.key is invalid.');
    await m([{ operation: 'create', attributes: { colour: 'red' } }], 'mutate.0.attributes', 'The colour key is not valid for the mutate.0.attributes field.');
    await m([{ operation: 'create', relations: { friends: [] } }], 'mutate.0.relations', 'The friends key is not valid for the mutate.0.relations field.');
    await m([{ operation: 'create', attributes: { status: 'DONE' } }], 'mutate.0.attributes.status', 'The selected mutate.0.attributes.status is invalid.');
    await m([{ operation: 'create', attributes: { active: 'yes' } }], 'mutate.0.attributes.active', 'The mutate.0.attributes.active field must be true or false.');
    await m([{ operation: 'create', relations: { organisms: [{ operation: 'attach', key: 999 }] } }], 'mutate.0.relations.organisms.0.key', 'The selected mutate.0.relations.organisms.0.key is invalid.');
    await m([{ operation: 'create', relations: { organisms: [{ operation: 'attach' }] } }], 'mutate.0.relations.organisms.0.key', 'The mutate.0.relations.organisms.0.key field is required when mutate.0.relations.organisms.0.operation is attach.');
    await m([{ operation: 'create', relations: { organisms: [{ operation: 'attach', key: 1, without_detaching: true }] } }], 'mutate.0.relations.organisms.0.without_detaching', 'The mutate.0.relations.organisms.0.without_detaching field is prohibited unless mutate.0.relations.organisms.0.operation is in sync.');
    await m([{ operation: 'create', relations: { organisms: [{ operation: 'detach', key: 1, attributes: { name: 'x' } }] } }], 'mutate.0.relations.organisms.0.attributes', 'The mutate.0.relations.organisms.0.attributes field is prohibited when mutate.0.relations.organisms.0.operation is detach.');
    await m({ operation: 'create' }, 'mutate', 'The mutate field must be an array.');
    await m([], 'mutate', 'The mutate field is required.');
    await m([{ operation: 'create', relations: { organisms: [{ operation: 'create', key: 1, attributes: { name: 'x' } }] } }], 'mutate.0.relations.organisms.0.key', 'The mutate.0.relations.organisms.0.key field is prohibited when mutate.0.relations.organisms.0.operation is create.');
    await m([{ operation: 'create', relations: { organisms: [{ operation: 'attach', key: 1, pivot: { part: 'leaf' } }] } }], 'mutate.0.relations.organisms.0.pivot', 'The part key is not valid for the mutate.0.relations.organisms.0.pivot field.');
    await m([{ operation: 'create', relations: { properties: { operation: 'attach', key: 1 } } }], 'mutate.0.relations.properties.operation', 'The selected mutate.0.relations.properties.operation is invalid.');
    await m([{ operation: 'create', relations: { organisms: [{ operation: 'merge', key: 1 }] } }], 'mutate.0.relations.organisms.0.operation', 'The selected mutate.0.relations.organisms.0.operation is invalid.');
    await m([{ operation: 'create', attributes: { id: 5 } }], 'mutate.0.attributes', 'The id key is not valid for the mutate.0.attributes field.');
    await m([{ operation: 'create', attributes: { cas: [1] } }], 'mutate.0.attributes.cas', 'The mutate.0.attributes.cas field must be a list of strings.');
    const both = await b.call('POST', '/api/molecules/mutate', { mutate: [{ operation: 'attach', key: 999 }] });
    t.same(Object.keys(both.json.errors), ['mutate.0.operation', 'mutate.0.key'], 'attach at the top level with an unknown key: both reported (Lomkit MutateCreateOperationsTest)');
    const d = async (body: unknown, key: string, msg: string) => {
      const r = await b.call('DELETE', '/api/molecules', body);
      t.equal(r.status, 422, key);
      t.same(r.json.errors?.[key], [msg], key);
    };
    await d({}, 'resources', 'The resources field is required.');
    await d({ resources: 1 }, 'resources', 'The resources field must be an array.');
    await d({ resources: [1, 1] }, 'resources.1', 'The resources.1 field has a duplicate value.');
    await d({ resources: [999] }, 'resources.0', 'The selected resources.0 is invalid.');
  });
});
