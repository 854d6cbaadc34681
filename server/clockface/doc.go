// Package clockface is the tablet clock's face: the page at GET /clock
// that makes a browser a clock of the hall (docs/tablet-clock.md).
//
// The page is only the face — the halves to press, the times, the
// players, the connection, sound, speech and keeping the screen awake.
// The clock itself is the device library (clockdev) compiled to
// WebAssembly (cmd/clockwasm, served by package clockwasm): the same
// local clock, outbox, resend, commands and refusals a hardware clock's
// firmware runs, speaking ClockLink over a WebSocket to /clocklink.
//
// The page reads its credentials from localStorage, key "hallclock.device":
// {"device_id", "token", "label"}, written by the enrolment page (a clock
// link from the arbiter). The device's outbox and board are kept in
// localStorage too (cmd/clockwasm), so a reload or a restarted tablet
// finds its presses and its game again.
//
// # Serving
//
//	GET /clock                  the page
//	GET /clockface/{file}       its script and style
//	GET /clockface/wasm.json    {"wasm", "exec"}: the current WebAssembly and its loader
//
// All under the dashboard's strict Content-Security-Policy, with one
// difference: the page may compile WebAssembly ('wasm-unsafe-eval',
// webassets.CSPWasm). No other page of the hall may.
package clockface
