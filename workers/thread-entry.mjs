// Piscina loads this plain-JS entry in each thread; it registers the TypeScript loader there
// (loader hooks do not carry over from the main thread) and hands over to thread.ts.
import { register } from 'tsx/esm/api';

register();
const thread = await import('./thread.ts');
export default thread.default;
