/**
 * Options for close-with-grace, the ordered shutdown of the api and worker processes.
 *
 * close-with-grace listens to every signal it knows by default, SIGSEGV, SIGBUS, SIGFPE and SIGILL
 * among them. A JavaScript listener for those makes libuv install its own handler in place of
 * V8's, and V8 needs SIGSEGV itself: a WebAssembly memory access out of bounds (how RDKit's
 * WASM fails when a structure exhausts its stack) reaches V8's handler through the guard pages
 * around the module's memory and becomes a `RuntimeError` in the thread, which the pool answers
 * 422 `wasm_fault` and replaces the thread. With the listener, the same input sent the process a
 * real SIGSEGV: `npm start` logged "shutting down", then "second SIGSEGV, exiting", and every
 * connection closed without an answer (issue 3; the tests build the app without this entry, so
 * they never saw it: test/faults/entry-answers.test.ts runs the entry). A synchronous fault is not
 * a request to shut down: leave those signals to V8 and the default action.
 */
export const FAULT_SIGNALS = ['SIGSEGV', 'SIGBUS', 'SIGFPE', 'SIGILL'] as const;

export const graceOptions = (delay: number) => ({ delay, skip: [...FAULT_SIGNALS] });
