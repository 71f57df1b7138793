// Development and tests only (a process run from the sources whose threads' bundle could not be
// built; shared/threads/bundle.ts): tsx is a development dependency, absent from production.
// Piscina loads this plain-JS entry in each thread; it registers the TypeScript loader there
// (loader hooks do not carry over from the main thread), loads thread.ts with everything it
// imports, and unregisters the loader again.
//
// Why unregister: modules imported later in the thread (pdfjs-dist, 3 MB of plain JavaScript,
// imported on a thread's first PDF task by shared/pdf/load.ts) then load with Node's own loader,
// untransformed: through the TypeScript loader pdfjs costs a thread about 300 MB, and loaded up
// front it costs every thread about 130 MB whether it ever reads a PDF or not. The chemistry
// code has no dynamic TypeScript imports, so nothing needs the loader after start.
import { register } from 'tsx/esm/api';

const unregister = register();
const thread = await import('./thread.ts');
await unregister();
export default thread.default;
