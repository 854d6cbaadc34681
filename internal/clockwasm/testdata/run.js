// Runs a request through the browser clock's WebAssembly under Node, as a
// page would call it, and prints the answers as JSON on stdout:
//
//   node run.js wasm_exec.js clock.wasm request.json
//
// request.json: {"vectors": {name: text}} for hallclock.runVectors, or
// {"setup": json, "calls": [["press", "white", 1000], ["do", json], ["view", 2000]]}.
"use strict";
const fs = require("fs");
const [execJS, wasmFile, requestFile] = process.argv.slice(2);
globalThis.require = require;
globalThis.fs = fs;
globalThis.path = require("path");
require(require("path").resolve(execJS)); // defines globalThis.Go

(async () => {
  const go = new Go();
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmFile), go.importObject);
  go.run(instance); // sets globalThis.hallclock before it returns
  const api = globalThis.hallclock;
  const req = JSON.parse(fs.readFileSync(requestFile, "utf8"));
  let out;
  if (req.vectors) {
    out = { version: api.version, outcomes: JSON.parse(api.runVectors(req.vectors)) };
  } else {
    const c = api.newClock(req.setup);
    if (typeof c === "string") {
      out = JSON.parse(c);
    } else {
      out = req.calls.map(([fn, ...args]) => JSON.parse(c[fn](...args)));
      c.release();
    }
  }
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
