//go:build js && wasm

// Command clockwasm is the browser's clock, compiled to WebAssembly: the
// device library (clockdev, on its WebSocket transport) and the law
// (package clockdev/jsapi) bound to JavaScript. tools/wasm/build.sh builds it
// into internal/clockwasm, whence the hall serves it.
//
// Loaded with Go's wasm_exec.js (served beside it), it sets
// globalThis.hallclock before go.run returns and then waits:
//
//	hallclock.version                    the Go version that built it
//	dev = hallclock.openDevice({url, token, deviceID, voices})
//	                                     the page's clock device (device.go)
//	hallclock.runVectors({name: json})   conformance vectors' outcomes, as JSON
//	c = hallclock.newClock(setupJSON)    a board clock, or {error} as JSON
//	c.press("white", t)                  JSON {view} or {error, refused}
//	c.do('{"t": 0, "do": "start"}')      an action in the vectors' vocabulary
//	c.view(t)                            JSON {view}
//	c.release()                          frees the clock's functions
//
// Every answer is a JSON string (JSON.parse it); board times are
// milliseconds on the board's time line, kept by the page.
package main

import (
	"encoding/json"
	"runtime"
	"syscall/js"

	"github.com/chesshall/hallclock/clockdev/jsapi"
)

func main() {
	api := js.Global().Get("Object").New()
	api.Set("version", runtime.Version())
	api.Set("runVectors", js.FuncOf(runVectors))
	api.Set("newClock", js.FuncOf(newClock))
	api.Set("openDevice", js.FuncOf(openDevice))
	js.Global().Set("hallclock", api)
	select {}
}

func jsonString(v any) js.Value {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	return js.ValueOf(string(b))
}

// runVectors(files): files is an object of file name to the file's text.
func runVectors(_ js.Value, args []js.Value) any {
	if len(args) != 1 || args[0].Type() != js.TypeObject {
		return jsonString(map[string]string{"error": "runVectors wants one object: file name to its JSON text"})
	}
	keys := js.Global().Get("Object").Call("keys", args[0])
	files := make(map[string]string, keys.Length())
	for i := range keys.Length() {
		k := keys.Index(i).String()
		files[k] = args[0].Get(k).String()
	}
	return jsonString(jsapi.RunVectors(files))
}

// newClock(setup): setup is the board's configuration in JSON.
func newClock(_ js.Value, args []js.Value) any {
	if len(args) != 1 || args[0].Type() != js.TypeString {
		return jsonString(map[string]string{"error": "newClock wants the setup as a JSON string"})
	}
	c, err := jsapi.NewClock(args[0].String())
	if err != nil {
		return jsonString(map[string]string{"error": err.Error()})
	}
	obj := js.Global().Get("Object").New()
	var fns []js.Func
	bind := func(name string, f func(args []js.Value) string) {
		fn := js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args) })
		fns = append(fns, fn)
		obj.Set(name, fn)
	}
	bind("press", func(a []js.Value) string {
		if len(a) != 2 || a[0].Type() != js.TypeString || a[1].Type() != js.TypeNumber {
			return jsapi.Answer(c.View(0), errArgs("press(side, t)"))
		}
		return jsapi.Answer(c.Press(a[0].String(), int64(a[1].Float())))
	})
	bind("do", func(a []js.Value) string {
		if len(a) != 1 || a[0].Type() != js.TypeString {
			return jsapi.Answer(c.View(0), errArgs("do(actionJSON)"))
		}
		return jsapi.Answer(c.Do(a[0].String()))
	})
	bind("view", func(a []js.Value) string {
		if len(a) != 1 || a[0].Type() != js.TypeNumber {
			return jsapi.Answer(c.View(0), errArgs("view(t)"))
		}
		return jsapi.Answer(c.View(int64(a[0].Float())), nil)
	})
	bind("release", func([]js.Value) string {
		for _, fn := range fns {
			fn.Release()
		}
		return "{}"
	})
	return obj
}

type errArgs string

func (e errArgs) Error() string { return "wrong arguments: want " + string(e) }
