// The failure search's Web Worker starts here. The page posts it first the worker's WebAssembly
// module, compiled once for all its workers (so each starts with the code the browser has
// already compiled and optimized for the others), or, where the page could not compile it, any
// other value: then the worker loads the module's file itself.
importScripts('./lockstep-search-worker.js');
self.onmessage = (e) => {
  self.onmessage = null;
  const module = e.data instanceof WebAssembly.Module ? e.data : './lockstep-search-worker_bg.wasm';
  wasm_bindgen({ module_or_path: module });
};
