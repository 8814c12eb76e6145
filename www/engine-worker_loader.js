// Starts the engine worker: wasm-bindgen's no-modules glue, then its module
// (passed as an object: the positional form is deprecated and warns).
importScripts("./engine-worker.js");
wasm_bindgen({ module_or_path: "./engine-worker_bg.wasm" });
