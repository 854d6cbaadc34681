// Package jsapi is the law a browser clock runs, as the page's JavaScript
// calls it: JSON in, JSON out, no goroutines, no time of its own (the page
// passes each instant as board-time milliseconds). cmd/clockwasm binds it
// to JavaScript in the WebAssembly build; natively it is a plain package,
// so what the page gets is tested here and through the WebAssembly build
// (internal/clockwasm) against the same answers.
//
// It is built on rules and rules/conformance only, so the browser build
// links no gRPC. A Clock keeps a board as a clockdev.Device does — flags
// recorded at their exact deadlines before any later action, a press on
// the side not having the move doing nothing (6.2.1), arbiter commands
// applied with the arbiter's authority — until the device library's
// transport is behind an interface and the Device itself can be linked.
//
// # Usage
//
//	c, err := jsapi.NewClock(`{"time_control": "5m+3s", "ruleset": "fide-2023"}`)
//	v, err := c.Do(`{"t": 0, "do": "start"}`)   // an action in the vectors' vocabulary
//	v, err = c.Press("white", 2500)             // a player's press at board time 2.5 s
//	v = c.View(4000)                            // for the display, projected to 4 s
//	out := jsapi.RunVectors(map[string]string{"flag.json": text})
package jsapi
