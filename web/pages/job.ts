/**
 * /jobs/{id}: follows a job (GET /jobs/{id}, the JSON record: the page asks for JSON, so the
 * same path answers it the record) until it ends: its state and progress, a Cancel button
 * (DELETE /jobs/{id}), then its result (structures as depictions, the rest as a table or text) or
 * its error.
 */
import { h, fill, status, setTitle } from '../dom.ts';
import { json, call, depictUrl } from '../api.ts';
import { renderJson } from '../render.ts';

interface Job {
  id: string;
  op: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  progress?: unknown;
  result?: unknown;
  error?: { status?: number; detail?: unknown };
  created_at: string;
  started_at?: string;
  finished_at?: string;
}

const DONE = new Set(['succeeded', 'failed', 'cancelled']);

function progressOf(p: unknown): { fraction?: number; text: string } {
  // The runners write a percentage (0 when queued, 100 when done: shared/jobs/).
  if (typeof p === 'number') return { fraction: Math.min(1, Math.max(0, p / 100)), text: `${Math.round(p)} %` };
  if (p && typeof p === 'object') {
    const o = p as Record<string, unknown>;
    const fraction = typeof o.fraction === 'number' ? o.fraction : typeof o.done === 'number' && typeof o.total === 'number' && o.total ? o.done / o.total : undefined;
    return { fraction, text: Object.entries(o).map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(', ') };
  }
  return { text: '' };
}

/** SMILES lists in a result (structure generation, stereoisomers, ...), shown as depictions too. */
function structures(result: unknown): string[] {
  const list = Array.isArray(result) ? result : result && typeof result === 'object' ? (result as Record<string, unknown>).structures : undefined;
  return Array.isArray(list) && list.every((s) => typeof s === 'string') ? (list as string[]) : [];
}

export async function jobPage(main: HTMLElement, [id]: string[]): Promise<void> {
  setTitle(`Job ${id}`);
  const state = status();
  const bar = h('progress', { max: 1, 'aria-label': 'Progress' }) as HTMLProgressElement;
  const detail = h('p', { class: 'hint' });
  const cancel = h('button', {
    type: 'button',
    onclick: async () => {
      cancel.setAttribute('disabled', '');
      try {
        await call(`/jobs/${encodeURIComponent(id!)}`, { method: 'DELETE' });
      } catch (err) {
        state.className = 'status error';
        state.textContent = (err as Error).message;
      }
      void poll();
    },
  }, 'Cancel the job');
  const out = h('section', { 'aria-label': 'Result', id: 'result' });
  fill(main, h('h1', {}, 'Job ', h('code', {}, id!)), state, bar, detail, cancel, out);
  let delay = 300;
  async function poll(): Promise<void> {
    let job: Job;
    try {
      job = await json<Job>(`/jobs/${encodeURIComponent(id!)}`);
    } catch (err) {
      state.className = 'status error';
      state.textContent = (err as Error).message;
      cancel.remove();
      bar.remove();
      return;
    }
    const p = progressOf(job.progress);
    state.textContent = `${job.op}: ${job.status}${p.text ? ` (${p.text})` : ''}`;
    main.dataset.jobStatus = job.status;
    if (p.fraction !== undefined) bar.value = p.fraction;
    else bar.removeAttribute('value');
    detail.textContent = `Created ${job.created_at}${job.started_at ? `, started ${job.started_at}` : ''}${job.finished_at ? `, finished ${job.finished_at}` : ''}.`;
    if (!DONE.has(job.status)) {
      delay = Math.min(2000, delay * 1.5);
      setTimeout(() => void poll(), delay);
      return;
    }
    cancel.remove();
    bar.value = 1;
    if (job.status === 'failed') {
      state.className = 'status error';
      fill(out, h('h2', {}, 'Failed'), h('p', { role: 'alert' }, typeof job.error?.detail === 'string' ? job.error.detail : JSON.stringify(job.error)));
      return;
    }
    if (job.status === 'cancelled') return;
    const smiles = structures(job.result);
    fill(
      out,
      h('h2', {}, 'Result'),
      smiles.length
        ? h('ul', { class: 'grid', 'aria-label': 'Structures' }, smiles.slice(0, 48).map((s) => h('li', { class: 'card' }, h('img', { src: depictUrl(s, 200, 150), alt: s, width: 200, height: 150, loading: 'lazy' }), h('code', { class: 'name' }, s))))
        : null,
      renderJson(job.result),
    );
  }
  await poll();
}
