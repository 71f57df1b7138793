/**
 * /collections: the catalog's collections (Lomkit search on /api/collections, which needs a
 * catalog token), each linking to a search of its molecules (COCONUT's `tags` search by
 * dataSource, public).
 */
import { h, fill, status, setTitle } from '../dom.ts';
import { json, token } from '../api.ts';

interface Collection {
  id: number;
  title: string;
  identifier?: string;
  description?: string;
  url?: string;
}

export async function collectionsPage(main: HTMLElement): Promise<void> {
  setTitle('Collections');
  const state = status();
  const list = h('ul', { class: 'plain collections' });
  fill(main, h('h1', {}, 'Collections'), state, list);
  if (!token()) {
    state.append('The catalog API lists collections to signed-in users. ', h('a', { href: '/curator' }, 'Sign in'), ', or search a collection by its title: ');
    main.append(h('form', { action: '/search', method: 'get', class: 'row' }, h('input', { type: 'hidden', name: 'type', value: 'tags' }), h('input', { type: 'hidden', name: 'tagType', value: 'dataSource' }), h('label', { for: 'coll-q' }, 'Collection title'), h('input', { id: 'coll-q', name: 'q', type: 'text' }), h('button', { type: 'submit' }, 'Search')));
    return;
  }
  state.textContent = 'Loading…';
  const more = h('button', { type: 'button', hidden: true }, 'More collections');
  let page = 0;
  const load = async () => {
    page++;
    // Lomkit's page sizes are 10, 25 or 50.
    const ans = await json<{ data: Collection[]; total?: number; last_page?: number }>('/api/collections/search', { json: { search: { sorts: [{ field: 'title', direction: 'asc' }], limit: 50, page } } });
    state.textContent = `${ans.total ?? ans.data.length} collections.`;
    more.hidden = page >= (ans.last_page ?? 1);
    list.append(...ans.data.map(item));
  };
  more.addEventListener('click', () => void load());
  main.append(more);
  await load();
}

function item(c: Collection): HTMLElement {
  return h(
    'li',
    {},
    h('a', { href: `/search?q=${encodeURIComponent(c.title)}&type=tags&tagType=dataSource` }, c.title),
    c.identifier ? ` (${c.identifier})` : '',
    c.description ? h('p', { class: 'hint' }, c.description) : null,
  );
}
