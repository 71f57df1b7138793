// Piscina thread entry for worker-thread.test.ts, shaped like shared/threads/thread-entry.mjs: it
// registers the TypeScript loader inside the thread, then runs one PDF task per call.
import { register } from 'tsx/esm/api';

register();
const { pdfTasks } = await import('../../shared/ops/pdf.tasks.ts');
const { loadConfig, threadConfig } = await import('../../shared/config.ts');
// What the service's pool gives its threads (shared/threads/pool.ts): the configuration, read once.
const config = threadConfig(loadConfig());

export default async function run({ task, args }) {
  const progress = [];
  const ctx = { rdkit: undefined, config, signal: new AbortController().signal, progress: (v) => progress.push(v) };
  try {
    return { ok: true, value: await pdfTasks[task](args, ctx), progress };
  } catch (e) {
    return { ok: false, error: { status: e?.status, detail: e?.detail, message: e?.message } };
  }
}
