// ketcher-standalone's `binaryWasm` entry (the WASM as a file, Indigo in a module worker) has the
// package's main typings, which its exports map does not name.
declare module 'ketcher-standalone/dist/binaryWasm' {
  export { StandaloneStructServiceProvider } from 'ketcher-standalone';
}
