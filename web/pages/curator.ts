/**
 * /curator: sign in (POST /api/auth/login, or a pasted API token; the token is kept in
 * sessionStorage and sent only as `Authorization: Bearer`), the report queue (SUBMITTED reports,
 * Lomkit search on /api/reports) with approve and reject (the reports' actions; a rejection needs
 * a reason), and the import page (POST /api/imports, admins; the jobs listed with their progress).
 */
import { h, fill, field, status, setTitle, type Child } from '../dom.ts';
import { call, json, token, userName, signIn, signOut } from '../api.ts';

interface Report {
  id: number;
  title: string;
  status: string;
  report_category?: string;
  report_type?: string;
  evidence?: string;
  comment?: string;
  canonical_smiles?: string;
  name?: string;
  doi?: string;
  organism?: string;
  molecule_ids?: number[];
  suggested_changes?: unknown;
  created_at?: string;
}

export function curatorPage(main: HTMLElement): void {
  setTitle('Curator');
  if (!token()) return login(main);
  const who = userName() ?? 'API token';
  const out = h('button', {
    type: 'button',
    onclick: async () => {
      await call('/api/auth/logout').catch(() => undefined);
      signOut();
      curatorPage(main);
    },
  }, 'Sign out');
  const queue = h('section', { 'aria-labelledby': 'queue-h' });
  const imports = h('section', { 'aria-labelledby': 'imports-h' });
  fill(main, h('h1', {}, 'Curation'), h('p', {}, `Signed in as ${who}. `, out), queue, imports);
  void reportQueue(queue);
  importSection(imports);
}

function login(main: HTMLElement): void {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true }) as HTMLInputElement;
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true }) as HTMLInputElement;
  const pasted = h('input', { type: 'password', name: 'token', autocomplete: 'off' }) as HTMLInputElement;
  const err = status('error');
  const submit = async (e: Event) => {
    e.preventDefault();
    err.textContent = '';
    try {
      const ans = await json<{ access_token: string }>('/api/auth/login', { json: { email: email.value, password: password.value }, auth: false });
      signIn(ans.access_token, email.value);
      curatorPage(main);
    } catch (ex) {
      err.textContent = (ex as Error).message;
    }
  };
  const useToken = (e: Event) => {
    e.preventDefault();
    if (!pasted.value.trim()) return;
    signIn(pasted.value.trim(), 'API token');
    curatorPage(main);
  };
  fill(
    main,
    h('h1', {}, 'Sign in'),
    h('p', {}, 'Curators approve and reject reports here; admins import files. The token stays in this tab only.'),
    h('form', { onsubmit: submit, class: 'login' }, field('Email', email), field('Password', password), err, h('button', { type: 'submit', class: 'primary' }, 'Sign in')),
    h('form', { onsubmit: useToken, class: 'login' }, h('h2', {}, 'Or use an API token'), field('Token', pasted, 'From `npm run token`.'), h('button', { type: 'submit' }, 'Use this token')),
  );
  email.focus();
}

async function reportQueue(box: HTMLElement): Promise<void> {
  const state = status();
  const list = h('ul', { class: 'plain reports' });
  fill(box, h('h2', { id: 'queue-h' }, 'Reports waiting for a decision'), state, list);
  state.textContent = 'Loading…';
  let reports: Report[];
  try {
    reports = (await json<{ data: Report[] }>('/api/reports/search', { json: { search: { filters: [{ field: 'status', value: 'SUBMITTED' }], sorts: [{ field: 'id', direction: 'asc' }], limit: 50 } } })).data;
  } catch (err) {
    state.className = 'status error';
    state.textContent = (err as Error).message;
    return;
  }
  state.textContent = reports.length ? `${reports.length} submitted report${reports.length === 1 ? '' : 's'}.` : 'No report is waiting.';
  fill(list, reports.map((r) => reportItem(r, () => void reportQueue(box))));
}

function reportItem(r: Report, reload: () => void): HTMLElement {
  const reason = h('input', { type: 'text', name: `reason-${r.id}`, maxlength: 1000 }) as HTMLInputElement;
  const err = status('error');
  const act = (action: 'approve' | 'reject') => async () => {
    err.textContent = '';
    if (action === 'reject' && !reason.value.trim()) {
      err.textContent = 'A rejection needs a reason.';
      reason.focus();
      return;
    }
    try {
      await call(`/api/reports/actions/${action}`, { json: { search: { filters: [{ field: 'id', value: r.id }] }, fields: reason.value.trim() ? [{ name: 'reason', value: reason.value.trim() }] : [] } });
      reload();
    } catch (ex) {
      err.textContent = (ex as Error).message;
    }
  };
  const facts: [string, Child][] = [
    ['Category', r.report_category ?? ''],
    ['Records', r.report_type ?? ''],
    ['Structure', r.canonical_smiles ? h('code', {}, r.canonical_smiles) : ''],
    ['Name', r.name ?? ''],
    ['Organism', r.organism ?? ''],
    ['DOI', r.doi ?? ''],
    ['Molecules', r.molecule_ids?.length ? r.molecule_ids.join(', ') : ''],
    ['Changes', r.suggested_changes ? h('code', {}, JSON.stringify(r.suggested_changes)) : ''],
    ['Evidence', r.evidence ?? ''],
    ['Comment', r.comment ?? ''],
    ['Submitted', r.created_at ?? ''],
  ];
  return h(
    'li',
    { class: 'report', 'data-report': r.id },
    h('h3', {}, `#${r.id} `, r.title),
    h('dl', { class: 'facts' }, facts.filter(([, v]) => v !== '').map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
    field('Reason (required to reject)', reason),
    err,
    h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary', onclick: act('approve') }, `Approve #${r.id}`), h('button', { type: 'button', onclick: act('reject') }, `Reject #${r.id}`)),
  );
}

interface ImportJob {
  id: string;
  status: string;
  file?: string;
  filename?: string;
  progress?: Record<string, unknown>;
  summary?: Record<string, unknown>;
  error?: unknown;
}

function importSection(box: HTMLElement): void {
  const file = h('input', { type: 'file', name: 'file', required: true, accept: '.tsv,.csv,.sdf,.gz,.zip,.txt' }) as HTMLInputElement;
  const molStatus = h('select', { name: 'status' }, ['APPROVED', 'INREVIEW', 'DRAFT'].map((s) => h('option', { value: s }, s))) as HTMLSelectElement;
  const state = status();
  const jobs = h('ul', { class: 'plain imports' });
  const list = async () => {
    try {
      const ans = await json<{ data: ImportJob[] }>('/api/imports');
      fill(jobs, ans.data.map((j) => h('li', {}, h('code', {}, j.id), ` ${j.filename ?? j.file ?? ''}: ${j.status}`, j.progress ? h('small', {}, ` ${JSON.stringify(j.progress)}`) : null, j.summary ? h('small', {}, ` ${JSON.stringify(j.summary)}`) : null)));
      if (ans.data.some((j) => j.status === 'queued' || j.status === 'running')) setTimeout(() => void list(), 1000);
    } catch (err) {
      state.textContent = (err as Error).message; // 403 for curators: imports are the admins'
    }
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file.files?.[0]) return;
    const fd = new FormData();
    fd.append('status', molStatus.value);
    fd.append('file', file.files[0]);
    state.className = 'status info';
    state.textContent = 'Uploading…';
    try {
      await call('/api/imports', { method: 'POST', body: fd });
      state.textContent = 'Import started.';
      void list();
    } catch (err) {
      state.className = 'status error';
      state.textContent = (err as Error).message;
    }
  };
  // Imports are the admins': the list is asked for when the section is opened, so a curator's
  // page makes no request that can only be refused.
  const details = h(
    'details',
    { ontoggle: () => details.open && void list() },
    h('summary', {}, 'Show the import form and the import jobs'),
    h('form', { onsubmit: submit }, field('TSV, CSV or SDF (also .gz or zipped COCONUT downloads)', file), field('Status of the new molecules', molStatus), h('button', { type: 'submit' }, 'Import')),
    state,
    jobs,
  ) as HTMLDetailsElement;
  fill(box, h('h2', { id: 'imports-h' }, 'Import a file (admins)'), details);
}
