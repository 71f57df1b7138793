/**
 * The original test cases, re-run against natprod (issue 24). Each `t.test` re-expresses one
 * upstream case with the same request shape and the same expected status, error paths (an
 * exact set, as `assertExactJsonStructure` checks) and Lomkit's message, on the catalog's own
 * resources. Runs on every store kind.
 *
 * Sources: Lomkit/laravel-rest-api tag v2.21.3 (the version COCONUT's composer.lock pins),
 * tests/Feature/Controllers/*.php, and Steinbeck-Lab/coconut snapshot 5563dbd, tests/Feature/*.php.
 * Lomkit's test model maps to the catalog as follows: `Model` → molecules (`name` → name,
 * `number` → annotation_level, `string` → name), `belongsToManyRelation` → molecules.organisms /
 * collections.molecules, `hasOneRelation` → molecules.properties, `modify-number` → the
 * molecule actions, `/api/models` → `/api/molecules` (or organisms for plain creates).
 *
 * Ported (case names without the `test_` prefix; the file of each group is named in its t.test):
 *   SearchFilteringOperationsTest: filtered_by_not_authorized_field, ..._not_authorized_relation_field,
 *     ..._model_field_using_default_operator, ..._with_null_value, ..._using_in_operator,
 *     ..._using_not_in_operator, ..._using_not_equal_operator, ..._using_greater_than_operator,
 *     ..._using_greater_than_or_equal_operator, ..._using_less_than_operator,
 *     ..._using_less_than_or_equal_operator, ..._using_like_operator, ..._using_like_right_operator,
 *     ..._using_not_like_operator, ..._using_not_like_right_operator, ..._using_or_type,
 *     ..._using_and_type, ..._using_nested_operator, ..._using_nested_operator_using_or_type,
 *     filtered_by_belongs_to_many_pivot_operation (as a filter on a field of the related record:
 *     natprod has no pivot fields, differences.md `pivot` row)                               (20)
 *   SearchSelectingOperationsTest: all 4 (deep selecting through organisms → molecules)          (4)
 *   SearchScopingOperationsTest: all 3 (`numbered` → `approved`; its parameters are passed to a
 *     scope that takes none, as PHP passes extra arguments)                                      (3)
 *   SearchSortingOperationsTest: all 8 (the field with no impact: has_stereo, false everywhere)  (8)
 *   SearchInstructionsOperationsTest: using_unauthorized_instruction                           (1)
 *   SearchLimitingOperationsTest: with_include_and_unauthorized_limit                          (1)
 *   SearchPaginateOperationsTest: all 5 (limit 1 → 10, page 101 → 3: natprod's limits are 10/25/50;
 *     the default limit is 50, not the test resource's 32)                                      (5)
 *   SearchAggregatesOperationsTest: all 24 (collections → molecules.annotation_level; filters
 *     `> 200` / `< 200` → `> 2` / `< 4`; `other_number` → id)                                  (24)
 *   SearchIncludingRelationshipsOperationsTest: including_unauthorized_relation,
 *     ..._relation_with_unauthorized_filters, ..._on_multiple_includes, ..._relation_with_filters,
 *     ..._belongs_to_has_many_relation and ..._using_nested_include (collections.molecules),
 *     including_unauthorized_nested_relation_returns_validation_error, ..._has_one_relation,
 *     ..._has_many_relation (a BelongsToMany with sorts), ..._belongs_to_many_relation,
 *     ..._belongs_to_many_relation_and_limit_results                                          (11)
 *   DetailsOperationsTest: details_operation                                                    (1)
 *   DeleteOperationsTest: deleting_a_non_authorized_model, ..._with_an_authorized_one,
 *     deleting_a_non_existing_model, deleting_a_model                                         (4)
 *   ActionsOperationsTest: operate_action, operate_not_found_action, operate_mass_action,
 *     ..._with_unauthorized_fields, ..._with_unauthorized_field_validation, ..._with_fields,
 *     operate_mass_action_with_fields, operate_queueable_action, operate_action_with_search,
 *     operate_action_with_search_and_limit (limit 150 of 300 → 10 of 12)                        (10)
 *   MutateCreateOperationsTest: using_not_authorized_field, using_no_mutate_key,
 *     ..._not_authorized_attach_root_operator, ..._detach_root_operator,
 *     using_field_not_following_custom_rules, with_not_authorized_relation,
 *     using_pivot_field_not_following_custom_pivot_rules (pivot refused: differences.md),
 *     creating_a_resource, with_creating_has_one_relation, with_updating_has_one_relation,
 *     with_creating_belongs_to_many_relation, ..._with_unauthorized_pivot_fields,
 *     ..._with_pivot_fields (differences.md), with_creating_multiple_belongs_to_many_relation,
 *     with_attaching_belongs_to_many_relation, with_attaching_multiple_..., with_attaching_..._with_pivot_fields
 *     and with_attaching_multiple_..._with_pivot_fields (differences.md), with_updating_belongs_to_many_relation,
 *     with_updating_multiple_..., with_updating_..._with_pivot_fields and
 *     with_updating_multiple_..._with_pivot_fields (differences.md)                            (22)
 *   MutateUpdateOperationsTest: using_not_authorized_field, without_key,
 *     using_pivot_field_not_following_custom_pivot_rules (differences.md), updating_a_resource,
 *     with_creating_has_one_relation, with_updating_has_one_relation,
 *     with_creating_belongs_to_many_relation, with_toggling_..., with_toggling_empty_...,
 *     with_toggling_multiple_..., with_toggling_..._and_updating_attributes_and_pivot (differences.md),
 *     with_syncing_..., with_syncing_multiple_..., with_syncing_empty_..., ..._without_detaching,
 *     ..._without_detaching_with_already_attached, ..._with_detaching_with_already_attached,
 *     with_creating_..._with_pivot_fields, with_updating_..._pivot_fields,
 *     with_updating_multiple_..._pivot_fields, with_updating_empty_..._pivot_fields (differences.md),
 *     with_creating_multiple_belongs_to_many_relation, with_attaching_..., with_attaching_multiple_...,
 *     with_attaching_empty_..., with_detaching_..., with_detaching_empty_array_...,
 *     with_detaching_multiple_..., with_updating_belongs_to_many_relation                       (29)
 *     The five `..._empty_...` cases (`key: []`) assert natprod's documented refusal (differences.md).
 *
 * Not ported, and why:
 *   steinbeck-lab/coconut tests/Feature (14 files, 31 cases: ApiTokenPermissions, Authentication,
 *     BrowserSessions, CreateApiToken, DeleteAccount, DeleteApiToken, EmailVerification, Example,
 *     PasswordConfirmation, PasswordReset, ProfileInformation, Registration,
 *     TwoFactorAuthenticationSettings, UpdatePassword): Jetstream/Fortify screens and Livewire
 *     components of the web site (`/login`, `/register`, `/user/...` forms, sessions, 2FA); none
 *     touches /api/molecules, collections, citations, organisms or the API's auth routes.
 *   SearchFilteringOperationsTest: filtered_by_morph_to_many_pivot_operation,
 *     filtered_by_morphed_by_many_pivot_operation: no morph relations (nor pivot fields).
 *   SearchInstructionsOperationsTest: instructing_numbered, ..._with_unauthorized_fields,
 *     ..._with_unauthorized_validation, ..._with_fields: no resource declares an instruction
 *     (detail lists `instructions: []`), so there is nothing to instruct with fields.
 *   SearchIncludingRelationshipsOperationsTest: including_belongs_to_relation,
 *     including_has_one_of_many_relation, ..._has_many_relation_with_eager_loading_relations,
 *     with_auto_loaded_relation (`$with`), ..._distant_relation_with_intermediary_search_query_condition
 *     (a BelongsTo at the far end), ..._belongs_to_many_relation_and_filtering_on_pivot and
 *     ..._on_pivot_with_null_value: no BelongsTo, HasMany, HasOneOfMany relation, eager-loaded
 *     relation or pivot field in the catalog.
 *   SearchIncludingMorphRelationships, SearchIncludingThroughRelationships, MutateCreateMorph,
 *     MutateUpdateMorph, MutateCreateThrough, MutateNotAuthorizedMorphsRelations: no morph or
 *     through relations.
 *   SearchScoutOperationsTest: no Scout (`search.text` is prohibited; detail lists no scout fields).
 *   DeleteOperationsTest: deleting_a_soft_deleted_model, deleting_multiple_soft_deleted_models;
 *     ForceDeleteOperationsTest, RestoreOperationsTest: no soft-deleting resource.
 *   ActionsOperationsTest: operate_standalone_action, ..._with_fields (no standalone action),
 *     operate_catched_queueable_action (Laravel Queue::fake on a named queue),
 *     operate_batchable_action (Bus batches): framework internals with no API-visible effect.
 *   MutateCreateOperationsTest: with_no_required_relation, with_prohibited_relation,
 *     with_no_required_relation_but_empty_array, with_required_relation (the `constrained`
 *     resource's relation constraints: every catalog relation reports all four constraints false);
 *     with_unique_validation (no resource declares a `unique` rule); every belongs_to (3),
 *     has_many (6) and has_one_of_many (3) case; with_attaching_has_one_relation (see below).
 *   MutateUpdateOperationsTest: with_no_required_relation, with_prohibited_relation,
 *     ..._but_empty_array, with_required_relation (constraints, as above); every belongs_to (4),
 *     has_many (10) and has_one_of_many (4) case; with_attaching_has_one_relation and
 *     with_detaching_has_one_relation (the only HasOne, `properties`, is a record embedded in its
 *     molecule: it cannot be moved to or unlinked from another one; docs/catalog.md § Properties
 *     route, differences.md `/api/properties` row).
 *   MutateNotAuthorizedRelationsOperationsTest (27): they deny the related model's policy while
 *     allowing the parent's; natprod's roles (differences.md `roles` row) grant a resource's
 *     abilities to a role on every resource at once, so that state cannot be set up.
 *   AutomaticGatingTest, HooksTest, NoAuthorizationTest, NoExposedFieldsTest,
 *     PrecognitionOperationsTest: test-only resources (automatic gates, hooks, a resource without
 *     authorisation or fields, Laravel Precognition headers) that the catalog does not declare.
 *   tests/Feature/Commands (make: commands of the PHP package): not an HTTP behaviour.
 */
import t from 'tap';
import { build, seed, storeKinds, type Built } from './helper.ts';
import { storeVariant } from '../helpers/skip.ts';

type Res = { status: number; json: any };
type Assert = Pick<typeof t, 'equal' | 'same'>;

/** Laravel's summary of a validation failure: the first message and a count of the others. */
function summary(errors: Record<string, string[]>): string {
  const all = Object.values(errors).flat();
  const more = all.length - 1;
  return more > 0 ? `${all[0]} (and ${more} more ${more === 1 ? 'error' : 'errors'})` : all[0];
}

/** 422 with exactly these error paths; `messages` (path → first message) where Lomkit's text is known. */
function refused(t: Assert, r: Res, paths: string[], messages: Record<string, string> = {}) {
  t.equal(r.status, 422, `422 (${JSON.stringify(r.json).slice(0, 300)})`);
  t.same(Object.keys(r.json.errors ?? {}).sort(), [...paths].sort(), 'exactly these error paths');
  t.same(Object.keys(r.json), ['message', 'errors']);
  if (r.json.errors) t.equal(r.json.message, summary(r.json.errors), "Laravel's summary message");
  for (const [k, m] of Object.entries(messages)) t.equal(r.json.errors?.[k]?.[0], m, k);
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

/**
 * Lomkit v2.21.3 validates a relation operation's `key` with `present_if`, so `key: []` passes
 * (toggle, attach, detach, update: nothing; sync: unlinks every record). natprod refuses it with
 * 422 `... key field is required when ... is <op>.` (the spec's rule; docs/differences.md, row
 * "empty `key` list"): these five cases assert natprod's documented answer and that nothing changed.
 */

for (const kind of storeKinds()) {
  t.test(`original Lomkit search cases on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind);
    const { orgs, cols } = await seed(b.store);
    // seed: molecules 1 caffeine (annotation 3), 2 Caffeine_b (1), 3 aspirin (5), 4 null (2), 5 a.c*(x) (4), 6 50%_off (0)
    const search = (body: unknown, res = 'molecules') => b.call('POST', `/api/${res}/search`, body, 'reader');
    const ids = async (s: unknown, res = 'molecules') => {
      const r = await search({ search: s }, res);
      if (r.status !== 200) throw new Error(`status ${r.status}: ${JSON.stringify(r.json).slice(0, 300)}`);
      return (r.json.data as { id: number }[]).map((d) => d.id);
    };
    const filtered = async (filters: unknown[]) => sorted(await ids({ filters }));

    t.test('SearchFilteringOperationsTest', async (t) => {
      t.test('filtered_by_not_authorized_field', async (t) =>
        refused(t, await search({ search: { filters: [{ field: 'non_authorized_field', value: 'value' }] } }), ['search.filters.0.field'], { 'search.filters.0.field': "The 'field' field is not valid." }));
      t.test('filtered_by_not_authorized_relation_field', async (t) =>
        refused(t, await search({ search: { filters: [{ field: 'non_authorized_relation.field', value: 'value' }] } }), ['search.filters.0.field'], { 'search.filters.0.field': "The 'field' field is not valid." }));
      t.test('filtered_by_model_field_using_default_operator', async (t) => t.same(await filtered([{ field: 'name', value: 'caffeine' }]), [1]));
      t.test('filtered_by_model_field_with_null_value', async (t) => t.same(await filtered([{ field: 'name', value: null }]), [4]));
      t.test('using_in_operator', async (t) => t.same(await filtered([{ field: 'name', operator: 'in', value: ['caffeine', 'aspirin'] }]), [1, 3]));
      t.test('using_not_in_operator', async (t) => t.same(await filtered([{ field: 'name', operator: 'not in', value: ['aspirin'] }]), [1, 2, 5, 6]));
      t.test('using_not_equal_operator', async (t) => t.same(await filtered([{ field: 'name', operator: '!=', value: 'aspirin' }]), [1, 2, 5, 6]));
      t.test('using_greater_than_operator', async (t) => t.same(await filtered([{ field: 'annotation_level', operator: '>', value: 4 }]), [3]));
      t.test('using_greater_than_or_equal_operator', async (t) => t.same(await filtered([{ field: 'annotation_level', operator: '>=', value: 5 }]), [3]));
      t.test('using_less_than_operator', async (t) => t.same(await filtered([{ field: 'annotation_level', operator: '<', value: 1 }]), [6]));
      t.test('using_less_than_or_equal_operator', async (t) => t.same(await filtered([{ field: 'annotation_level', operator: '<=', value: 0 }]), [6]));
      t.test('using_like_operator', async (t) => t.same(await filtered([{ field: 'name', operator: 'like', value: '%affein%' }]), [1, 2]));
      t.test('using_like_right_operator', async (t) => t.same(await filtered([{ field: 'name', operator: 'like', value: 'a%' }]), [3, 5]));
      t.test('using_not_like_operator', async (t) => t.same(await filtered([{ field: 'name', operator: 'not like', value: '%affein%' }]), [3, 5, 6]));
      t.test('using_not_like_right_operator', async (t) => t.same(await filtered([{ field: 'name', operator: 'not like', value: 'a%' }]), [1, 2, 6]));
      t.test('using_or_type', async (t) =>
        t.same(await filtered([{ field: 'annotation_level', value: 3 }, { field: 'annotation_level', value: 5, type: 'or' }]), [1, 3]));
      t.test('using_and_type', async (t) =>
        t.same(await filtered([{ field: 'annotation_level', value: 3 }, { field: 'name', value: 'caffeine', type: 'and' }]), [1]));
      t.test('using_nested_operator', async (t) =>
        t.same(await filtered([
          { nested: [{ field: 'annotation_level', value: 3 }, { field: 'name', value: 'caffeine', type: 'and' }] },
          { field: 'annotation_level', value: 1, type: 'or' },
        ]), [1, 2]));
      t.test('using_nested_operator_using_or_type', async (t) =>
        t.same(await filtered([
          { field: 'annotation_level', value: 1 },
          { nested: [{ field: 'annotation_level', value: 3 }, { field: 'name', value: 'caffeine', type: 'and' }], type: 'or' },
        ]), [1, 2]));
      t.test('filtered_by_belongs_to_many_pivot_operation (on the related record: no pivot fields)', async (t) =>
        t.same(await filtered([{ field: 'annotation_level', operator: '>=', value: 1 }, { field: 'organisms.name', value: 'Aspergillus niger' }]), [1, 2]));
    });

    t.test('SearchSelectingOperationsTest', async (t) => {
      t.test('selecting_unauthorized_relation', async (t) =>
        refused(t, await search({ search: { selects: [{ field: 'not_authorized_field' }] } }), ['search.selects.0.field'], { 'search.selects.0.field': 'The selected search.selects.0.field is invalid.' }));
      t.test('selecting_id_field', async (t) => {
        const r = await search({ search: { selects: [{ field: 'id' }] } });
        t.same(r.json.data, [6, 5, 4, 3, 2, 1].map((id) => ({ id })));
      });
      t.test('selecting_two_fields', async (t) => {
        const r = await search({ search: { selects: [{ field: 'id' }, { field: 'annotation_level' }] } });
        t.same(r.json.data[0], { id: 6, annotation_level: 0 });
        t.same(Object.keys(r.json.data[5]), ['id', 'annotation_level']);
      });
      t.test('deep_selecting_fields', async (t) => {
        const r = await search({
          search: {
            filters: [{ field: 'id', operator: 'in', value: [3, 4] }],
            selects: [{ field: 'id' }],
            includes: [{ relation: 'organisms', selects: [{ field: 'id' }], includes: [{ relation: 'molecules', selects: [{ field: 'id' }] }] }],
          },
        });
        t.equal(r.status, 200);
        t.same(r.json.data, [
          { id: 4, organisms: [{ id: orgs[2].id, molecules: [{ id: 4 }] }] },
          { id: 3, organisms: [] },
        ]);
      });
    });

    t.test('SearchScopingOperationsTest', async (t) => {
      t.test('scoping_unauthorized_relation', async (t) =>
        refused(t, await search({ search: { scopes: [{ name: 'not_authorized_scope' }] } }), ['search.scopes.0.name'], { 'search.scopes.0.name': 'The selected search.scopes.0.name is invalid.' }));
      t.test('scoping_numbered', async (t) => t.same(await ids({ scopes: [{ name: 'approved' }] }), [5, 1]));
      t.test('scoping_numbered_with_params', async (t) => t.same(await ids({ scopes: [{ name: 'approved', parameters: [1] }] }), [5, 1]));
    });

    t.test('SearchSortingOperationsTest', async (t) => {
      t.test('sorting_by_unauthorized_field', async (t) =>
        refused(t, await search({ search: { sorts: [{ field: 'not_authorized_field' }] } }), ['search.sorts.0.field'], { 'search.sorts.0.field': 'The selected search.sorts.0.field is invalid.' }));
      t.test('sorting_by_id_field', async (t) => t.same(await ids({ sorts: [{ field: 'id' }] }), [1, 2, 3, 4, 5, 6]));
      t.test('sorting_by_desc_id_field', async (t) => t.same(await ids({ sorts: [{ field: 'id', direction: 'desc' }] }), [6, 5, 4, 3, 2, 1]));
      t.test('sorting_by_asc_id_field', async (t) => t.same(await ids({ sorts: [{ field: 'id', direction: 'asc' }] }), [1, 2, 3, 4, 5, 6]));
      t.test('two_fields_with_first_that_has_no_impact', async (t) =>
        t.same(await ids({ sorts: [{ field: 'has_stereo', direction: 'desc' }, { field: 'id', direction: 'asc' }] }), [1, 2, 3, 4, 5, 6]));
      t.test('two_fields_with_first_that_has_no_impact_desc', async (t) =>
        t.same(await ids({ sorts: [{ field: 'has_stereo', direction: 'desc' }, { field: 'id', direction: 'desc' }] }), [6, 5, 4, 3, 2, 1]));
      t.test('two_fields_with_second_that_has_no_impact', async (t) =>
        t.same(await ids({ sorts: [{ field: 'annotation_level', direction: 'asc' }, { field: 'id', direction: 'desc' }] }), [6, 2, 4, 1, 5, 3]));
      t.test('two_fields_with_second_that_has_no_impact_desc', async (t) =>
        t.same(await ids({ sorts: [{ field: 'annotation_level', direction: 'desc' }, { field: 'id', direction: 'desc' }] }), [3, 5, 1, 4, 2, 6]));
    });

    t.test('SearchInstructionsOperationsTest', async (t) => {
      t.test('using_unauthorized_instruction', async (t) =>
        refused(t, await search({ search: { instructions: [{ name: 'not_authorized_instruction' }] } }), ['search.instructions.0.name'], { 'search.instructions.0.name': 'The selected search.instructions.0.name is invalid.' }));
    });

    t.test('SearchLimitingOperationsTest', async (t) => {
      t.test('with_include_and_unauthorized_limit', async (t) =>
        refused(t, await search({ search: { includes: [{ relation: 'properties' }], limit: 999 } }), ['search.limit'], { 'search.limit': 'The selected search.limit is invalid.' }));
    });

    t.test('SearchAggregatesOperationsTest', async (t) => {
      // collections: LOTUS → molecules 1, 2 (annotation 3, 1); Demo → 2, 3 (1, 5); Empty → none.
      // avg and sum are JSON numbers where COCONUT's PostgreSQL prints strings (differences.md, `decimal properties` row).
      const empty = await b.store.insert('collections', { title: 'Empty', description: null, identifier: null, url: null });
      const agg = async (a: Record<string, unknown>) => {
        const r = await search({ search: { sorts: [{ field: 'id' }], aggregates: [a] } }, 'collections');
        t.equal(r.status, 200, JSON.stringify(r.json).slice(0, 300));
        return (r.json.data as Record<string, unknown>[]).map(({ title, description, identifier, url, id, ...rest }) => (void [title, description, identifier, url], { id, ...rest }));
      };
      const three = (key: string, a: unknown, c: unknown, e: unknown) => [{ id: cols[0].id, [key]: a }, { id: cols[1].id, [key]: c }, { id: empty.id, [key]: e }];
      const bad = (a: object) => search({ search: { aggregates: [a] } }, 'collections');
      t.test('aggregating_by_unauthorized_relation', async (t) =>
        refused(t, await bad({ relation: 'unauthorized_relation', type: 'min', field: 'id' }), ['search.aggregates.0.relation'], { 'search.aggregates.0.relation': 'The relation is not valid or allowed for this resource.' }));
      t.test('aggregating_by_unauthorized_type', async (t) =>
        refused(t, await bad({ relation: 'molecules', type: 'unauthorized_type', field: 'id' }), ['search.aggregates.0.type'], { 'search.aggregates.0.type': 'The selected search.aggregates.0.type is invalid.' }));
      t.test('aggregating_by_unauthorized_field', async (t) =>
        refused(t, await bad({ relation: 'molecules', type: 'min', field: 'unauthorized_field' }), ['search.aggregates.0.field'], { 'search.aggregates.0.field': 'The selected search.aggregates.0.field is invalid.' }));
      t.test('aggregating_by_not_specifying_field_when_necessary', async (t) =>
        refused(t, await bad({ relation: 'molecules', type: 'min' }), ['search.aggregates.0.field'], { 'search.aggregates.0.field': 'The search.aggregates.0.field field is required when search.aggregates.0.type is min.' }));
      t.test('aggregating_by_specifying_field_when_not_necessary', async (t) =>
        refused(t, await bad({ relation: 'molecules', type: 'exists', field: 'id' }), ['search.aggregates.0.field'], { 'search.aggregates.0.field': 'The search.aggregates.0.field field is prohibited when search.aggregates.0.type is exists.' }));
      const field = { relation: 'molecules', field: 'annotation_level' };
      t.test('aggregating_by_min_number', async (t) => t.same(await agg({ ...field, type: 'min' }), three('molecules_min_annotation_level', 1, 1, null)));
      t.test('aggregating_by_min_number_with_alias', async (t) => t.same(await agg({ ...field, type: 'min', alias: 'min_alias' }), three('min_alias', 1, 1, null)));
      t.test('aggregating_by_max_number', async (t) => t.same(await agg({ ...field, type: 'max' }), three('molecules_max_annotation_level', 3, 5, null)));
      t.test('aggregating_by_max_number_with_alias', async (t) => t.same(await agg({ ...field, type: 'max', alias: 'max_alias' }), three('max_alias', 3, 5, null)));
      t.test('aggregating_by_avg_number', async (t) => t.same(await agg({ ...field, type: 'avg' }), three('molecules_avg_annotation_level', 2, 3, null)));
      t.test('aggregating_by_avg_number_with_alias', async (t) => t.same(await agg({ ...field, type: 'avg', alias: 'avg_alias' }), three('avg_alias', 2, 3, null)));
      t.test('aggregating_by_sum_number', async (t) => t.same(await agg({ ...field, type: 'sum' }), three('molecules_sum_annotation_level', 4, 6, null)));
      t.test('aggregating_by_sum_number_with_alias', async (t) => t.same(await agg({ ...field, type: 'sum', alias: 'sum_alias' }), three('sum_alias', 4, 6, null)));
      t.test('aggregating_by_count_relation', async (t) => t.same(await agg({ relation: 'molecules', type: 'count' }), three('molecules_count', 2, 2, 0)));
      t.test('aggregating_by_count_relation_with_alias', async (t) => t.same(await agg({ relation: 'molecules', type: 'count', alias: 'count_alias' }), three('count_alias', 2, 2, 0)));
      t.test('aggregating_by_exists_relation', async (t) => t.same(await agg({ relation: 'molecules', type: 'exists' }), three('molecules_exists', true, true, false)));
      t.test('aggregating_by_exists_relation_with_alias', async (t) => t.same(await agg({ relation: 'molecules', type: 'exists', alias: 'exists_alias' }), three('exists_alias', true, true, false)));
      const gt = [{ field: 'annotation_level', operator: '>', value: 2 }];
      const lt = [{ field: 'annotation_level', operator: '<', value: 4 }];
      t.test('aggregating_by_min_number_with_filters', async (t) => t.same(await agg({ ...field, type: 'min', filters: gt }), three('molecules_min_annotation_level', 3, 5, null)));
      t.test('aggregating_by_max_number_with_filters', async (t) => t.same(await agg({ ...field, type: 'max', filters: lt }), three('molecules_max_annotation_level', 3, 1, null)));
      t.test('aggregating_by_avg_number_with_filters', async (t) => t.same(await agg({ ...field, type: 'avg', filters: lt }), three('molecules_avg_annotation_level', 2, 1, null)));
      t.test('aggregating_by_sum_number_with_filters', async (t) => t.same(await agg({ ...field, type: 'sum', filters: lt }), three('molecules_sum_annotation_level', 4, 1, null)));
      t.test('aggregating_by_sum_number_with_other_number_filter', async (t) =>
        t.same(await agg({ ...field, type: 'sum', filters: [{ field: 'id', operator: '<', value: 3 }] }), three('molecules_sum_annotation_level', 4, 1, null)));
      t.test('aggregating_by_count_with_filters', async (t) => t.same(await agg({ relation: 'molecules', type: 'count', filters: lt }), three('molecules_count', 2, 1, 0)));
      t.test('aggregating_by_exists_with_filters', async (t) =>
        t.same(await agg({ relation: 'molecules', type: 'exists', filters: [{ field: 'annotation_level', operator: '>', value: 4 }] }), three('molecules_exists', false, true, false)));
      t.teardown(() => void b.store.remove('collections', [empty.id]));
    });

    t.test('SearchIncludingRelationshipsOperationsTest', async (t) => {
      const inc = async (includes: unknown[], filterIds = [1, 3]) => {
        const r = await search({ search: { filters: [{ field: 'id', operator: 'in', value: filterIds }], sorts: [{ field: 'id' }], includes } });
        t.equal(r.status, 200, JSON.stringify(r.json).slice(0, 300));
        return r.json.data as Record<string, any>[];
      };
      t.test('including_unauthorized_relation', async (t) =>
        refused(t, await search({ search: { includes: [{ relation: 'unauthorized' }] } }), ['search.includes.0.relation'], { 'search.includes.0.relation': 'The relation is not valid or allowed for this resource.' }));
      t.test('including_relation_with_unauthorized_filters', async (t) =>
        refused(t, await search({ search: { includes: [{ relation: 'organisms', filters: [{ field: 'unauthorized_field', value: 10000 }] }] } }), ['search.includes.0.filters.0.field'], { 'search.includes.0.filters.0.field': "The 'field' field is not valid." }));
      t.test('including_relation_with_unauthorized_filters_on_multiple_includes', async (t) =>
        refused(t, await search({ search: { includes: [{ relation: 'organisms.citations' }, { relation: 'organisms', filters: [{ field: 'unauthorized_field', value: 10000 }] }] } }),
          ['search.includes.1.filters.0.field', 'search.includes.0.relation']));
      t.test('including_relation_with_filters', async (t) => {
        const d = await inc([{ relation: 'organisms', filters: [{ field: 'name', value: 'Aspergillus niger' }] }]);
        t.same(d.map((m) => [m.id, m.organisms.map((o: any) => o.id)]), [[1, [orgs[1].id]], [3, []]]);
        t.same(Object.keys(d[0].organisms[0]), ['id', 'name', 'iri', 'rank', 'domain', 'kingdom', 'phylum', 'class', 'order', 'family', 'tribe', 'genus', 'species', 'variety', 'ncbi_id', 'gbif_id', 'ott_id', 'wikidata_id', 'molecule_count']);
      });
      t.test('including_belongs_to_has_many_relation (a dotted BelongsToMany chain)', async (t) => {
        const d = await inc([{ relation: 'collections.molecules' }], [3]);
        t.same(d[0].collections.map((c: any) => [c.id, c.molecules.map((m: any) => m.id)]), [[cols[1].id, [3, 2]]]);
      });
      t.test('including_belongs_to_has_many_relation_using_nested_include', async (t) => {
        const d = await inc([{ relation: 'collections', includes: [{ relation: 'molecules' }] }], [3]);
        t.same(d[0].collections.map((c: any) => [c.id, c.molecules.map((m: any) => m.id)]), [[cols[1].id, [3, 2]]]);
      });
      t.test('including_unauthorized_nested_relation_returns_validation_error', async (t) =>
        refused(t, await search({ search: { includes: [{ relation: 'collections', includes: [{ relation: 'unauthorized' }] }] } }), ['search.includes.0.includes.0.relation'], { 'search.includes.0.includes.0.relation': 'The relation is not valid or allowed for this resource.' }));
      t.test('including_has_one_relation', async (t) => {
        const d = await inc([{ relation: 'properties' }], [1, 4]);
        t.equal(d[0].properties.molecular_weight, 194.19);
        t.equal(d[1].properties, null, 'no properties record: null');
      });
      t.test('including_has_many_relation (with sorts)', async (t) => {
        const d = await inc([{ relation: 'organisms', sorts: [{ field: 'id', direction: 'asc' }] }], [1]);
        t.same(d[0].organisms.map((o: any) => o.id), [orgs[0].id, orgs[1].id]);
      });
      t.test('including_belongs_to_many_relation', async (t) => {
        const d = await inc([{ relation: 'organisms' }]);
        t.same(d.map((m) => sorted(m.organisms.map((o: any) => o.id))), [[orgs[0].id, orgs[1].id], []]);
      });
      t.test('including_belongs_to_many_relation_and_limit_results', async (t) => {
        const extra = await b.store.insertMany('organisms', Array.from({ length: 12 }, (_, i) => ({ name: `Extra ${i}`, iri: null, rank: 'species', molecule_count: 0 })));
        await b.store.update('molecules', 5, { organism_ids: extra.map((o) => o.id) });
        t.teardown(async () => {
          await b.store.update('molecules', 5, { organism_ids: [] });
          await b.store.remove('organisms', extra.map((o) => o.id));
        });
        const d = await inc([{ relation: 'organisms', limit: 10 }], [3, 5]);
        t.same(d.map((m) => m.organisms.length), [0, 10]);
      });
    });
  });

  t.test(`original Lomkit pagination cases on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind);
    await b.store.insertMany('molecules', Array.from({ length: 25 }, (_, i) => ({ name: `m${i + 1}`, status: 'DRAFT' as const })));
    const search = (s: unknown) => b.call('POST', '/api/molecules/search', { search: s }, 'reader');
    t.test('paginating_unauthorized_limit', async (t) => refused(t, await search({ limit: 5 }), ['search.limit'], { 'search.limit': 'The selected search.limit is invalid.' }));
    t.test('using_string_page', async (t) => refused(t, await search({ page: 'hello' }), ['search.page'], { 'search.page': 'The search.page field must be an integer.' }));
    t.test('paginating_second_page', async (t) => {
      const r = await search({ page: 2, limit: 10 });
      t.match(r.json, { current_page: 2, per_page: 10, total: 25, last_page: 3 });
      t.same(r.json.data.map((m: any) => m.id), [15, 14, 13, 12, 11, 10, 9, 8, 7, 6]);
    });
    t.test('paginating_with_many_records', async (t) => {
      const r = await search({ page: 3, limit: 10 });
      t.same(r.json.data.map((m: any) => m.id), [5, 4, 3, 2, 1]);
    });
    t.test('to_get_a_list_of_paginated_resources_from_the_default_limit', async (t) => {
      const r = await b.call('POST', '/api/molecules/search', {}, 'reader');
      t.equal(r.status, 200);
      t.match(r.json, { per_page: 50, last_page: 1 });
      t.equal(r.json.data.length, 25);
    });
  });

  t.test(`original Lomkit details and delete cases on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind);
    const { orgs } = await seed(b.store);
    t.test('DetailsOperationsTest details_operation', async (t) => {
      const r = await b.call('GET', '/api/molecules', undefined, 'admin');
      t.equal(r.status, 200);
      t.same(Object.keys(r.json.data), ['actions', 'instructions', 'scout_instructions', 'fields', 'scout_fields', 'limits', 'scopes', 'relations', 'rules']);
      t.same(Object.keys(r.json.data.rules), ['all', 'create', 'update']);
    });
    const del = (resources: unknown[], role: 'admin' | 'curator' | 'reader') => b.call('DELETE', '/api/organisms', { resources }, role);
    t.test('DeleteOperationsTest deleting_a_non_authorized_model', async (t) => {
      const r = await del([orgs[2].id], 'curator');
      t.equal(r.status, 403);
      t.same(r.json, { message: 'This action is unauthorized.' });
      t.equal(await b.store.count('organisms', { id: orgs[2].id }), 1);
    });
    t.test('DeleteOperationsTest deleting_a_non_authorized_model_with_an_authorized_one', async (t) => {
      // natprod's abilities are per role and resource: a reader may delete neither; one denial deletes nothing
      const r = await del([orgs[1].id, orgs[2].id], 'reader');
      t.equal(r.status, 403);
      t.same(r.json, { message: 'This action is unauthorized.' });
      t.equal(await b.store.count('organisms', { id: { $in: [orgs[1].id, orgs[2].id] } }), 2);
    });
    t.test('DeleteOperationsTest deleting_a_non_existing_model', async (t) => {
      refused(t, await del([999999, orgs[2].id], 'admin'), ['resources.0'], { 'resources.0': 'The selected resources.0 is invalid.' });
      t.equal(await b.store.count('organisms', { id: orgs[2].id }), 1);
    });
    t.test('DeleteOperationsTest deleting_a_model', async (t) => {
      const r = await del([orgs[2].id], 'admin');
      t.equal(r.status, 200);
      t.same(r.json.data.map((o: any) => o.id), [orgs[2].id]);
      t.equal(await b.store.count('organisms', { id: orgs[2].id }), 0);
    });
  });

  t.test(`original Lomkit actions cases on ${kind}`, storeVariant(kind), async (t) => {
    const b = await build(t, kind);
    const act = (key: string, body: object) => b.call('POST', `/api/molecules/actions/${key}`, body, 'curator');
    const make = async (n: number, status: 'INREVIEW' | 'APPROVED', name = 'x') =>
      (await b.store.insertMany('molecules', Array.from({ length: n }, (_, i) => ({ name, status, active: status === 'APPROVED', canonical_smiles: `C${'C'.repeat(i % 5)}N` })))).map((m) => m.id);
    const statuses = async (ids: number[]) => (await b.store.findByIds('molecules', ids)).map((m) => m.status);
    const reset = async () => {
      const all = await b.store.find('molecules', {});
      if (all.length) await b.store.remove('molecules', all.map((m) => m.id));
    };
    t.beforeEach(reset);

    t.test('operate_action', async (t) => {
      const ids = await make(2, 'INREVIEW');
      t.same((await act('approve', {})).json, { data: { impacted: 2 } });
      t.same(await statuses(ids), ['APPROVED', 'APPROVED']);
    });
    t.test('operate_not_found_action', async (t) => {
      const r = await act('not-found-action', {});
      t.equal(r.status, 404);
    });
    t.test('operate_mass_action', async (t) => {
      const ids = await make(150, 'INREVIEW');
      t.same((await act('approve', {})).json, { data: { impacted: 150 } });
      t.equal(await b.store.count('molecules', { status: 'APPROVED', id: { $in: ids } }), 150);
    });
    t.test('operate_action_with_unauthorized_fields', async (t) => {
      await make(1, 'APPROVED');
      refused(t, await act('revoke', { fields: [{ name: 'unauthorized_field', value: 100000001 }] }), ['fields.0.name'], { 'fields.0.name': 'The selected fields.0.name is invalid.' });
    });
    t.test('operate_action_with_unauthorized_field_validation', async (t) => {
      await make(1, 'APPROVED');
      refused(t, await act('revoke', { fields: [{ name: 'reason', value: 1 }] }), ['fields.0.value'], { 'fields.0.value': 'The fields.0.value field must be a string.' });
    });
    t.test('operate_action_with_fields', async (t) => {
      const ids = await make(2, 'APPROVED');
      t.same((await act('revoke', { fields: [{ name: 'reason', value: 'wrong organism' }] })).json, { data: { impacted: 2 } });
      const docs = await b.store.findByIds('molecules', ids);
      t.same(docs.map((m) => m.status), ['REVOKED', 'REVOKED']);
      t.same(docs.map((m) => (m.comment as { comment: string }[]).at(-1)?.comment), ['wrong organism', 'wrong organism']);
    });
    t.test('operate_mass_action_with_fields', async (t) => {
      const ids = await make(150, 'APPROVED');
      t.same((await act('revoke', { fields: [{ name: 'reason', value: 'wrong organism' }] })).json, { data: { impacted: 150 } });
      t.equal(await b.store.count('molecules', { status: 'REVOKED', id: { $in: ids } }), 150);
    });
    t.test('operate_queueable_action', async (t) => {
      const ids = await make(2, 'APPROVED');
      t.same((await act('recompute-properties', {})).json, { data: { impacted: 2 } });
      await b.background.idle();
      t.same((await b.store.findByIds('molecules', ids)).map((m) => m.standard_inchi), ['InChI=1S/fake/CN', 'InChI=1S/fake/CCN']);
    });
    t.test('operate_action_with_search', async (t) => {
      const [match] = await make(1, 'INREVIEW', 'match');
      const others = await make(2, 'INREVIEW');
      t.same((await act('approve', { search: { filters: [{ field: 'name', value: 'match' }] } })).json, { data: { impacted: 1 } });
      t.same(await statuses([match, ...others]), ['APPROVED', 'INREVIEW', 'INREVIEW']);
    });
    t.test('operate_action_with_search_and_limit', async (t) => {
      await make(12, 'INREVIEW', 'match');
      await make(2, 'INREVIEW');
      t.same((await act('approve', { search: { filters: [{ field: 'name', value: 'match' }], limit: 10 } })).json, { data: { impacted: 10 } });
      t.equal(await b.store.count('molecules', { status: 'APPROVED' }), 10);
    });
  });

  t.test(`original Lomkit mutate cases on ${kind}`, storeVariant(kind), async (t) => {
    const b: Built = await build(t, kind);
    const { orgs } = await seed(b.store);
    const mutate = (items: unknown, res = 'molecules') => b.call('POST', `/api/${res}/mutate`, items === undefined ? {} : { mutate: items }, 'curator');
    const linked = async (id: number) => sorted(((await b.store.findByIds('molecules', [id]))[0].organism_ids as number[] | undefined) ?? []);
    const organism = async (id: number) => (await b.store.findByIds('organisms', [id]))[0];
    const setLinks = (id: number, ids: number[]) => b.store.update('molecules', id, { organism_ids: ids });
    const rel = (key: number, relations: object) => mutate([{ operation: 'update', key, relations }]);
    const onCreate = (relations: object) => mutate([{ operation: 'create', attributes: { name: 'new' }, relations }]);
    const ok = (t: Assert, r: Res) => t.equal(r.status, 200, JSON.stringify(r.json).slice(0, 300));
    const [o0, o1, o2] = orgs.map((o) => o.id);

    t.test('MutateCreateOperationsTest', async (t) => {
      t.test('using_not_authorized_field', async (t) =>
        refused(t, await mutate([{ operation: 'create', attributes: { not_authorized_field: true } }]), ['mutate.0.attributes'], { 'mutate.0.attributes': 'The not_authorized_field key is not valid for the mutate.0.attributes field.' }));
      t.test('using_no_mutate_key', async (t) => refused(t, await mutate(undefined), ['mutate'], { mutate: 'The mutate field is required.' }));
      t.test('using_not_authorized_attach_root_operator', async (t) =>
        refused(t, await mutate([{ operation: 'attach' }]), ['mutate.0.operation', 'mutate.0.key'], { 'mutate.0.operation': 'The selected mutate.0.operation is invalid.' }));
      t.test('using_not_authorized_detach_root_operator', async (t) =>
        refused(t, await mutate([{ operation: 'detach', key: 999 }]), ['mutate.0.operation', 'mutate.0.key'], { 'mutate.0.operation': 'The selected mutate.0.operation is invalid.', 'mutate.0.key': 'The selected mutate.0.key is invalid.' }));
      t.test('using_field_not_following_custom_rules', async (t) =>
        refused(t, await mutate([{ operation: 'create', attributes: { name: true } }]), ['mutate.0.attributes.name'], { 'mutate.0.attributes.name': 'The mutate.0.attributes.name field must be a string.' }));
      t.test('with_not_authorized_relation', async (t) =>
        refused(t, await mutate([{ operation: 'create', attributes: { name: 'x' }, relations: { not_authorized_relation: [{ operation: 'create', attributes: {} }] } }]), ['mutate.0.relations'], { 'mutate.0.relations': 'The not_authorized_relation key is not valid for the mutate.0.relations field.' }));
      t.test('using_pivot_field_not_following_custom_pivot_rules (differences.md: pivot refused on every relation)', async (t) =>
        refused(t, await onCreate({ organisms: [{ operation: 'create', attributes: { name: 'Pivot org' }, pivot: { number: true } }] }), ['mutate.0.relations.organisms.0.pivot'], { 'mutate.0.relations.organisms.0.pivot': 'The number key is not valid for the mutate.0.relations.organisms.0.pivot field.' }));
      t.test('creating_a_resource', async (t) => {
        const r = await mutate([{ operation: 'create', attributes: { name: 'Quercus robur', rank: 'species' } }], 'organisms');
        ok(t, r);
        t.equal(r.json.created.length, 1);
        t.same(r.json.updated, []);
        t.match(await organism(r.json.created[0]), { name: 'Quercus robur', rank: 'species' });
      });
      t.test('with_creating_has_one_relation', async (t) => {
        const r = await onCreate({ properties: { operation: 'create', attributes: { np_likeness: 1.5 } } });
        ok(t, r);
        t.match((await b.store.findByIds('molecules', r.json.created))[0].properties, { np_likeness: 1.5 });
      });
      t.test('with_updating_has_one_relation', async (t) => {
        const r = await onCreate({ properties: { operation: 'update', attributes: { np_likeness: 2.5 } } });
        ok(t, r);
        t.match((await b.store.findByIds('molecules', r.json.created))[0].properties, { np_likeness: 2.5 });
      });
      t.test('with_creating_belongs_to_many_relation', async (t) => {
        const r = await onCreate({ organisms: [{ operation: 'create', attributes: { name: 'Created org' } }] });
        ok(t, r);
        const [id] = r.json.created;
        const [org] = await linked(id);
        t.match(await organism(org), { name: 'Created org', molecule_count: 1 });
      });
      t.test('with_creating_belongs_to_many_relation_with_unauthorized_pivot_fields', async (t) =>
        refused(t, await onCreate({ organisms: [{ operation: 'create', attributes: { name: 'X' }, pivot: { unauthorized_pivot_field: 1 } }] }), ['mutate.0.relations.organisms.0.pivot']));
      t.test('with_creating_belongs_to_many_relation_with_pivot_fields (differences.md: pivot refused)', async (t) =>
        refused(t, await onCreate({ organisms: [{ operation: 'create', attributes: { name: 'X' }, pivot: { organism_parts: 'leaf' } }] }), ['mutate.0.relations.organisms.0.pivot']));
      t.test('with_creating_multiple_belongs_to_many_relation', async (t) => {
        const r = await onCreate({ organisms: [{ operation: 'create', attributes: { name: 'Multi 1' } }, { operation: 'create', attributes: { name: 'Multi 2' } }] });
        ok(t, r);
        const links = await linked(r.json.created[0]);
        t.same((await b.store.findByIds('organisms', links)).map((o) => o.name).sort(), ['Multi 1', 'Multi 2']);
      });
      t.test('with_attaching_belongs_to_many_relation', async (t) => {
        const r = await onCreate({ organisms: [{ operation: 'attach', key: o2 }] });
        ok(t, r);
        t.same(await linked(r.json.created[0]), [o2]);
      });
      t.test('with_attaching_multiple_belongs_to_many_relation', async (t) => {
        const r = await onCreate({ organisms: [{ operation: 'attach', key: o1 }, { operation: 'attach', key: o2 }] });
        ok(t, r);
        t.same(await linked(r.json.created[0]), sorted([o1, o2]));
      });
      t.test('with_attaching_belongs_to_many_relation_with_pivot_fields (differences.md: pivot refused)', async (t) =>
        refused(t, await onCreate({ organisms: [{ operation: 'attach', key: o2, pivot: { number: 20 } }] }), ['mutate.0.relations.organisms.0.pivot']));
      t.test('with_attaching_multiple_belongs_to_many_relation_with_pivot_fields (differences.md: pivot refused)', async (t) =>
        refused(t, await onCreate({ organisms: [{ operation: 'attach', key: o1, pivot: { number: 20 } }, { operation: 'attach', key: o2, pivot: { number: 30 } }] }),
          ['mutate.0.relations.organisms.0.pivot', 'mutate.0.relations.organisms.1.pivot']));
      t.test('with_updating_belongs_to_many_relation', async (t) => {
        const r = await onCreate({ organisms: [{ operation: 'update', key: o2, attributes: { rank: 'genus (updated)' } }] });
        ok(t, r);
        t.same(await linked(r.json.created[0]), [o2]);
        t.equal((await organism(o2)).rank, 'genus (updated)');
      });
      t.test('with_updating_multiple_belongs_to_many_relation', async (t) => {
        const r = await onCreate({ organisms: [{ operation: 'update', key: o1, attributes: { rank: 'r1' } }, { operation: 'update', key: o2, attributes: { rank: 'r2' } }] });
        ok(t, r);
        t.same(await linked(r.json.created[0]), sorted([o1, o2]));
        t.same([(await organism(o1)).rank, (await organism(o2)).rank], ['r1', 'r2']);
      });
      t.test('with_updating_belongs_to_many_relation_with_pivot_fields (differences.md: pivot refused)', async (t) =>
        refused(t, await onCreate({ organisms: [{ operation: 'update', key: o2, attributes: { rank: 'x' }, pivot: { number: 20 } }] }), ['mutate.0.relations.organisms.0.pivot']));
      t.test('with_updating_multiple_belongs_to_many_relation_with_pivot_fields (differences.md: pivot refused)', async (t) =>
        refused(t, await onCreate({ organisms: [{ operation: 'update', key: o1, pivot: { number: 20 } }, { operation: 'update', key: o2, pivot: { number: 30 } }] }),
          ['mutate.0.relations.organisms.0.pivot', 'mutate.0.relations.organisms.1.pivot']));
    });

    t.test('MutateUpdateOperationsTest', async (t) => {
      t.beforeEach(() => setLinks(4, []));
      t.test('using_not_authorized_field', async (t) =>
        refused(t, await mutate([{ operation: 'update', key: 4, attributes: { not_authorized_field: true } }]), ['mutate.0.attributes'], { 'mutate.0.attributes': 'The not_authorized_field key is not valid for the mutate.0.attributes field.' }));
      t.test('without_key', async (t) =>
        refused(t, await mutate([{ operation: 'update', attributes: { name: 'x' } }]), ['mutate.0.key']));
      t.test('using_pivot_field_not_following_custom_pivot_rules (differences.md: pivot refused)', async (t) =>
        refused(t, await rel(4, { organisms: [{ operation: 'attach', key: o0, pivot: { number: true } }] }), ['mutate.0.relations.organisms.0.pivot']));
      t.test('updating_a_resource', async (t) => {
        // `number` → name_trust_level here: annotation_level is computed by the server (read-only)
        const r = await mutate([{ operation: 'update', key: 4, attributes: { name: 'renamed', name_trust_level: 4 } }]);
        ok(t, r);
        t.same(r.json, { created: [], updated: [4] });
        t.match((await b.store.findByIds('molecules', [4]))[0], { name: 'renamed', name_trust_level: 4 });
      });
      t.test('with_creating_has_one_relation', async (t) => {
        ok(t, await rel(4, { properties: { operation: 'create', attributes: { np_likeness: 0.5 } } }));
        t.match((await b.store.findByIds('molecules', [4]))[0].properties, { np_likeness: 0.5 });
      });
      t.test('with_updating_has_one_relation', async (t) => {
        ok(t, await rel(1, { properties: { operation: 'update', attributes: { np_likeness: 0.7 } } }));
        t.match((await b.store.findByIds('molecules', [1]))[0].properties, { np_likeness: 0.7, molecular_weight: 194.19 });
      });
      t.test('with_creating_belongs_to_many_relation', async (t) => {
        ok(t, await rel(4, { organisms: [{ operation: 'create', attributes: { name: 'Update-created' } }] }));
        const links = await linked(4);
        t.equal(links.length, 1);
        t.equal((await organism(links[0])).name, 'Update-created');
      });
      t.test('with_toggling_belongs_to_many_relation', async (t) => {
        await setLinks(4, [o0]);
        ok(t, await rel(4, { organisms: [{ operation: 'toggle', key: o0 }, { operation: 'toggle', key: o1 }] }));
        t.same(await linked(4), [o1]);
      });
      t.test('with_toggling_empty_belongs_to_many_relation (differences.md: an empty key list is refused)', async (t) => {
        await setLinks(4, [o0]);
        refused(t, await rel(4, { organisms: [{ operation: 'toggle', key: [] }] }), ['mutate.0.relations.organisms.0.key'], { 'mutate.0.relations.organisms.0.key': 'The mutate.0.relations.organisms.0.key field is required when mutate.0.relations.organisms.0.operation is toggle.' });
        t.same(await linked(4), [o0], 'nothing changed');
      });
      t.test('with_toggling_multiple_belongs_to_many_relation', async (t) => {
        await setLinks(4, [o0]);
        ok(t, await rel(4, { organisms: [{ operation: 'toggle', key: [o0, o1, o2] }] }));
        t.same(await linked(4), sorted([o1, o2]));
      });
      t.test('with_toggling_belongs_to_many_relation_and_updating_attributes_and_pivot (differences.md: pivot refused)', async (t) => {
        refused(t, await rel(4, { organisms: [{ operation: 'toggle', key: o1, attributes: { rank: 'x' }, pivot: { number: 1 } }] }), ['mutate.0.relations.organisms.0.pivot']);
        ok(t, await rel(4, { organisms: [{ operation: 'toggle', key: o1, attributes: { rank: 'toggled' } }] }));
        t.same(await linked(4), [o1]);
        t.equal((await organism(o1)).rank, 'toggled', 'the attributes are written');
      });
      t.test('with_syncing_belongs_to_many_relation', async (t) => {
        await setLinks(4, [o0]);
        ok(t, await rel(4, { organisms: [{ operation: 'sync', key: o1 }] }));
        t.same(await linked(4), [o1]);
      });
      t.test('with_syncing_multiple_belongs_to_many_relation', async (t) => {
        await setLinks(4, [o0]);
        ok(t, await rel(4, { organisms: [{ operation: 'sync', key: [o1, o2] }] }));
        t.same(await linked(4), sorted([o1, o2]));
      });
      t.test('with_syncing_empty_belongs_to_many_relation (differences.md: an empty key list is refused)', async (t) => {
        await setLinks(4, [o0]);
        refused(t, await rel(4, { organisms: [{ operation: 'sync', key: [] }] }), ['mutate.0.relations.organisms.0.key'], { 'mutate.0.relations.organisms.0.key': 'The mutate.0.relations.organisms.0.key field is required when mutate.0.relations.organisms.0.operation is sync.' });
        t.same(await linked(4), [o0], 'nothing unlinked');
      });
      t.test('with_syncing_belongs_to_many_relation_without_detaching', async (t) => {
        await setLinks(4, [o0]);
        ok(t, await rel(4, { organisms: [{ operation: 'sync', key: o1, without_detaching: true }, { operation: 'sync', key: o2, without_detaching: true }] }));
        t.same(await linked(4), sorted([o0, o1, o2]));
      });
      t.test('with_syncing_belongs_to_many_relation_without_detaching_with_already_attached', async (t) => {
        await setLinks(4, [o0, o1]);
        ok(t, await rel(4, { organisms: [{ operation: 'sync', key: o1, without_detaching: true }] }));
        t.same(await linked(4), sorted([o0, o1]));
      });
      t.test('with_syncing_belongs_to_many_relation_with_detaching_with_already_attached', async (t) => {
        await setLinks(4, [o0, o1]);
        ok(t, await rel(4, { organisms: [{ operation: 'sync', key: o1, without_detaching: false }] }));
        t.same(await linked(4), [o1]);
      });
      t.test('with_creating_belongs_to_many_relation_with_pivot_fields (differences.md: pivot refused)', async (t) =>
        refused(t, await rel(4, { organisms: [{ operation: 'create', attributes: { name: 'X' }, pivot: { number: 20 } }] }), ['mutate.0.relations.organisms.0.pivot']));
      t.test('with_updating_belongs_to_many_relation_pivot_fields (differences.md: pivot refused)', async (t) =>
        refused(t, await rel(4, { organisms: [{ operation: 'update', key: o0, pivot: { number: 20 } }] }), ['mutate.0.relations.organisms.0.pivot']));
      t.test('with_updating_multiple_belongs_to_many_relation_pivot_fields (differences.md: pivot refused)', async (t) =>
        refused(t, await rel(4, { organisms: [{ operation: 'update', key: o0, pivot: { number: 20 } }, { operation: 'update', key: o1, pivot: { number: 30 } }] }),
          ['mutate.0.relations.organisms.0.pivot', 'mutate.0.relations.organisms.1.pivot']));
      t.test('with_updating_empty_belongs_to_many_relation_pivot_fields (differences.md: an empty key list is refused)', async (t) => {
        await setLinks(4, [o0]);
        refused(t, await rel(4, { organisms: [{ operation: 'update', key: [] }] }), ['mutate.0.relations.organisms.0.key'], { 'mutate.0.relations.organisms.0.key': 'The mutate.0.relations.organisms.0.key field is required when mutate.0.relations.organisms.0.operation is update.' });
        t.same(await linked(4), [o0], 'nothing changed');
      });
      t.test('with_creating_multiple_belongs_to_many_relation', async (t) => {
        ok(t, await rel(4, { organisms: [{ operation: 'create', attributes: { name: 'U1' } }, { operation: 'create', attributes: { name: 'U2' } }] }));
        t.same((await b.store.findByIds('organisms', await linked(4))).map((o) => o.name).sort(), ['U1', 'U2']);
      });
      t.test('with_attaching_belongs_to_many_relation', async (t) => {
        ok(t, await rel(4, { organisms: [{ operation: 'attach', key: o1 }] }));
        t.same(await linked(4), [o1]);
      });
      t.test('with_attaching_multiple_belongs_to_many_relation', async (t) => {
        ok(t, await rel(4, { organisms: [{ operation: 'attach', key: o1 }, { operation: 'attach', key: o2 }] }));
        t.same(await linked(4), sorted([o1, o2]));
      });
      t.test('with_attaching_empty_belongs_to_many_relation (differences.md: an empty key list is refused)', async (t) => {
        await setLinks(4, [o0]);
        refused(t, await rel(4, { organisms: [{ operation: 'attach', key: [] }] }), ['mutate.0.relations.organisms.0.key'], { 'mutate.0.relations.organisms.0.key': 'The mutate.0.relations.organisms.0.key field is required when mutate.0.relations.organisms.0.operation is attach.' });
        t.same(await linked(4), [o0], 'nothing changed');
      });
      t.test('with_detaching_belongs_to_many_relation', async (t) => {
        await setLinks(4, [o0, o1]);
        ok(t, await rel(4, { organisms: [{ operation: 'detach', key: o0 }] }));
        t.same(await linked(4), [o1]);
      });
      t.test('with_detaching_empty_array_belongs_to_many_relation (differences.md: an empty key list is refused)', async (t) => {
        await setLinks(4, [o0]);
        refused(t, await rel(4, { organisms: [{ operation: 'detach', key: [] }] }), ['mutate.0.relations.organisms.0.key'], { 'mutate.0.relations.organisms.0.key': 'The mutate.0.relations.organisms.0.key field is required when mutate.0.relations.organisms.0.operation is detach.' });
        t.same(await linked(4), [o0], 'the links are kept');
      });
      t.test('with_detaching_multiple_belongs_to_many_relation', async (t) => {
        await setLinks(4, [o0, o1, o2]);
        ok(t, await rel(4, { organisms: [{ operation: 'detach', key: o0 }, { operation: 'detach', key: o1 }] }));
        t.same(await linked(4), [o2]);
      });
      t.test('with_updating_belongs_to_many_relation', async (t) => {
        ok(t, await rel(4, { organisms: [{ operation: 'update', key: o2, attributes: { rank: 'updated from molecule' } }] }));
        t.same(await linked(4), [o2]);
        t.equal((await organism(o2)).rank, 'updated from molecule');
      });
    });
  });
}
