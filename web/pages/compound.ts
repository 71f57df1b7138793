/**
 * /compounds/{identifier} (COCONUT's path): the public search record (`POST /api/search`, type
 * identifier), and with a catalog token the whole record (Lomkit search with properties,
 * organisms, citations, collections) and, for curators, its audit trail. Without a token the
 * properties are computed on the spot by /chem/descriptors. 2D depiction, the 3D viewer
 * (/depict/3D, in a frame on request), similar compounds, downloads (SDF, MOL, SMILES).
 */
import { h, fill, status, setTitle, type Child } from '../dom.ts';
import { call, json, token, depictUrl, ApiError } from '../api.ts';
import { grid, type SearchRecord } from '../results.ts';

interface Organism {
  id: number;
  name: string;
  rank?: string;
  iri?: string;
  ncbi_id?: number;
  gbif_id?: number;
  ott_id?: number;
  wikidata_id?: string;
  [lineage: string]: unknown;
}
interface Citation {
  id: number;
  doi?: string;
  title?: string;
  authors?: string;
  citation_text?: string;
}
interface Collection {
  id: number;
  title: string;
  identifier?: string;
  url?: string;
}
interface FullRecord extends SearchRecord {
  synonyms?: string[];
  cas?: string[];
  standard_inchi?: string;
  status?: string;
  properties?: Record<string, unknown>;
  organisms?: Organism[];
  citations?: Citation[];
  collections?: Collection[];
}

const LINEAGE = ['domain', 'kingdom', 'phylum', 'class', 'order', 'family', 'genus', 'species'];
const CLASS_FIELDS: [string, string][] = [
  ['np_classifier_pathway', 'NPClassifier pathway'],
  ['np_classifier_superclass', 'NPClassifier superclass'],
  ['np_classifier_class', 'NPClassifier class'],
  ['chemical_super_class', 'ClassyFire superclass'],
  ['chemical_class', 'ClassyFire class'],
  ['chemical_sub_class', 'ClassyFire subclass'],
  ['direct_parent_classification', 'ClassyFire direct parent'],
];

const text = (v: unknown): string => (Array.isArray(v) ? v.map(String).join(', ') : v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const dl = (rows: [string, Child][]) => h('dl', { class: 'facts' }, rows.filter(([, v]) => v !== '' && v !== null && v !== undefined).map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
const section = (title: string, ...body: Child[]) => h('section', { 'aria-labelledby': `s-${title.replace(/\W+/g, '-').toLowerCase()}` }, h('h2', { id: `s-${title.replace(/\W+/g, '-').toLowerCase()}` }, title), ...body);

/** A DOI as a link to doi.org (only a DOI-shaped value becomes a URL). */
function doiLink(doi: string): Child {
  return /^10\.\d{4,9}\/\S+$/.test(doi) ? h('a', { href: `https://doi.org/${encodeURI(doi)}`, rel: 'noopener noreferrer', target: '_blank' }, doi) : doi;
}

function download(label: string, name: string, type: string, make: () => Promise<string>): HTMLElement {
  return h('button', {
    type: 'button',
    onclick: async () => {
      const blob = new Blob([await make()], { type });
      const url = URL.createObjectURL(blob);
      const a = h('a', { href: url, download: name });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  }, label);
}

export async function compoundPage(main: HTMLElement, [identifier]: string[]): Promise<void> {
  setTitle(identifier!);
  const state = status();
  fill(main, h('h1', {}, identifier!), state);
  state.textContent = 'Loading…';
  const found = await json<{ data: { data: SearchRecord[] } }>('/api/search', { json: { query: identifier, type: 'identifier', limit: 10 }, auth: false });
  const basic = found.data.data.find((r) => r.identifier === identifier);
  if (!basic) {
    state.className = 'status error';
    state.textContent = `No compound ${identifier} in this catalog.`;
    return;
  }
  let full: FullRecord = basic;
  let signedIn = false;
  if (token()) {
    try {
      const ans = await json<{ data: FullRecord[] }>('/api/molecules/search', {
        json: { search: { filters: [{ field: 'identifier', value: identifier }], includes: [{ relation: 'properties' }, { relation: 'organisms' }, { relation: 'citations' }, { relation: 'collections' }] } },
      });
      if (ans.data[0]) (full = ans.data[0]), (signedIn = true);
    } catch (err) {
      if (!(err instanceof ApiError && (err.status === 401 || err.status === 403))) throw err;
    }
  }
  const title = full.name || full.iupac_name || full.identifier;
  setTitle(`${title} (${full.identifier})`);
  const smiles = full.canonical_smiles;
  const molblock = async () => String((await call(`/convert/mol2D?smiles=${encodeURIComponent(smiles)}`)).body);
  const sdf = async () => {
    const props = [['identifier', full.identifier], ['name', full.name ?? ''], ['canonical_smiles', smiles], ['standard_inchi_key', full.standard_inchi_key ?? '']];
    const mol = (await molblock()).replace(/\s*$/, '\n');
    return `${full.identifier}${mol.slice(mol.indexOf('\n'))}${props.filter(([, v]) => v).map(([k, v]) => `> <${k}>\n${v}\n\n`).join('')}$$$$\n`;
  };
  const viewer3d = h('div', { class: 'viewer3d' });
  const show3d = h('button', {
    type: 'button',
    onclick: () => {
      fill(viewer3d, h('iframe', { src: `/depict/3D?smiles=${encodeURIComponent(smiles)}`, title: `3D structure of ${title}`, width: 480, height: 360, loading: 'lazy' }));
      show3d.remove();
    },
  }, 'Show in 3D');

  const head = h(
    'div',
    { class: 'compound-head' },
    h('figure', {}, h('img', { src: depictUrl(smiles, 420, 320), alt: `Structure of ${title}`, width: 420, height: 320 }), h('figcaption', {}, h('a', { href: `/depict/3D?smiles=${encodeURIComponent(smiles)}` }, 'Open the 3D viewer'), ' ', show3d), viewer3d),
    h(
      'div',
      {},
      dl([
        ['Identifier', full.identifier],
        ['Name', full.name ?? ''],
        ['IUPAC name', full.iupac_name ?? ''],
        ['Synonyms', text(full.synonyms)],
        ['CAS', text(full.cas)],
        ['SMILES', h('code', {}, smiles)],
        ['InChI', full.standard_inchi ? h('code', {}, full.standard_inchi) : ''],
        ['InChIKey', full.standard_inchi_key ? h('code', {}, full.standard_inchi_key) : ''],
        ['Annotation level', full.annotation_level === undefined ? '' : `${full.annotation_level} of 5`],
        ['Status', full.status ?? (full.active === false ? 'revoked' : 'active')],
        ['Organisms, citations', `${full.organism_count ?? full.organisms?.length ?? 0} organisms, ${full.citation_count ?? full.citations?.length ?? 0} citations`],
      ]),
      h('div', { class: 'actions', 'aria-label': 'Downloads' }, download('Download SDF', `${full.identifier}.sdf`, 'chemical/x-mdl-sdfile', sdf), download('Download MOL', `${full.identifier}.mol`, 'chemical/x-mdl-molfile', molblock), download('Download SMILES', `${full.identifier}.smi`, 'chemical/x-daylight-smiles', async () => `${smiles} ${full.identifier}\n`)),
    ),
  );
  fill(main, h('h1', {}, title, ' ', h('small', {}, full.identifier)), head, state);
  state.textContent = '';

  // Properties and classes: the stored ones, or computed now for a visitor without a token.
  let props = full.properties;
  let computed = false;
  if (!props) {
    try {
      props = (await json<Record<string, unknown>>(`/chem/descriptors?smiles=${encodeURIComponent(smiles)}`)) ?? undefined;
      computed = true;
    } catch {
      props = undefined;
    }
  }
  if (props) {
    const classes = CLASS_FIELDS.map(([k, label]) => [label, text(props![k])] as [string, Child]).filter(([, v]) => v);
    if (classes.length) main.append(section('Classes', dl(classes)));
    const rows = Object.entries(props)
      .filter(([k, v]) => !CLASS_FIELDS.some(([c]) => c === k) && !['id', 'molecule_id', 'created_at', 'updated_at'].includes(k) && v !== null && typeof v !== 'object')
      .map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k.replace(/_/g, ' ')), h('td', {}, typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(3) : String(v))));
    main.append(section('Properties', computed ? h('p', { class: 'hint' }, 'Computed now by /chem/descriptors; sign in to see the stored values.') : null, h('table', { class: 'props' }, h('tbody', {}, rows))));
  }
  if (!signedIn) {
    main.append(section('Organisms, citations and collections', h('p', {}, 'The catalog API answers these to signed-in users. ', h('a', { href: '/curator' }, 'Sign in'), ' to see them here.')));
  } else {
    main.append(
      section(
        'Organisms',
        full.organisms?.length
          ? h('ul', { class: 'plain' }, full.organisms.map((o) => h('li', {}, h('a', { href: `/search?q=${encodeURIComponent(o.name)}&type=tags&tagType=organisms` }, h('em', {}, o.name)), o.rank ? ` (${o.rank})` : '', h('br'), h('small', {}, LINEAGE.map((k) => text(o[k])).filter(Boolean).join(' › ')), ' ', ids(o))))
          : h('p', {}, 'None recorded.'),
      ),
      section('Citations', full.citations?.length ? h('ul', { class: 'plain' }, full.citations.map((c) => h('li', {}, c.title ?? c.citation_text ?? '', c.authors ? h('small', {}, ` ${c.authors}`) : '', ' ', c.doi ? doiLink(c.doi) : ''))) : h('p', {}, 'None recorded.')),
      section('Collections', full.collections?.length ? h('ul', { class: 'plain' }, full.collections.map((c) => h('li', {}, h('a', { href: `/search?q=${encodeURIComponent(c.title)}&type=tags&tagType=dataSource` }, c.title), c.identifier ? ` (${c.identifier})` : ''))) : h('p', {}, 'None recorded.')),
    );
    void audits(main, full.id);
  }
  void similar(main, full);
}

function ids(o: Organism): Child {
  const links: Child[] = [];
  if (o.ncbi_id) links.push(h('a', { href: `https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=${Number(o.ncbi_id)}`, rel: 'noopener noreferrer' }, `NCBI ${o.ncbi_id}`));
  if (o.gbif_id) links.push(h('a', { href: `https://www.gbif.org/species/${Number(o.gbif_id)}`, rel: 'noopener noreferrer' }, `GBIF ${o.gbif_id}`));
  if (o.ott_id) links.push(h('a', { href: `https://tree.opentreeoflife.org/taxonomy/browse?id=${Number(o.ott_id)}`, rel: 'noopener noreferrer' }, `OTT ${o.ott_id}`));
  if (o.wikidata_id && /^Q\d+$/.test(o.wikidata_id)) links.push(h('a', { href: `https://www.wikidata.org/wiki/${o.wikidata_id}`, rel: 'noopener noreferrer' }, `Wikidata ${o.wikidata_id}`));
  return links.length ? h('span', { class: 'ext' }, links.flatMap((l, i) => (i ? [' · ', l] : [l]))) : null;
}

async function similar(main: HTMLElement, r: SearchRecord): Promise<void> {
  const box = section('Similar compounds', h('p', { class: 'hint' }, 'Searching…'));
  main.append(box);
  try {
    const ans = await json<{ data: { data: SearchRecord[] } }>('/api/search', { json: { query: r.canonical_smiles, type: 'similarity', threshold: 0.6, limit: 13 }, auth: false });
    const others = ans.data.data.filter((x) => x.identifier !== r.identifier).slice(0, 12);
    fill(box, box.firstChild as Node, others.length ? grid(others) : h('p', {}, 'No other compound with Tanimoto ≥ 0.6.'));
  } catch (err) {
    fill(box, box.firstChild as Node, h('p', { class: 'status error' }, (err as Error).message));
  }
}

interface Audit {
  id: number;
  event: string;
  user_id: number | null;
  tags?: string[] | string;
  created_at: string;
  old_values?: Record<string, unknown>;
  new_values?: Record<string, unknown>;
}

async function audits(main: HTMLElement, id: number): Promise<void> {
  try {
    const ans = await json<{ data: Audit[] }>(`/api/molecules/${id}/audits`);
    const rows = ans.data.map((a) =>
      h('tr', {}, h('td', {}, a.created_at), h('td', {}, a.event), h('td', {}, a.user_id === null ? 'import' : `user ${a.user_id}`), h('td', {}, text(a.tags)), h('td', {}, Object.keys({ ...a.old_values, ...a.new_values }).join(', '))),
    );
    main.append(
      section('History (curators)', h('table', { class: 'audits' }, h('thead', {}, h('tr', {}, ['When', 'Event', 'By', 'Tags', 'Fields'].map((c) => h('th', { scope: 'col' }, c)))), h('tbody', {}, rows))),
    );
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 403)) throw err; // readers do not see the trail
  }
}
