//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"syscall/js"
	"time"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/clockdev/jsapi"
	"github.com/chesshall/hallclock/clockdev/wsdial"
	"github.com/chesshall/hallclock/rules"
)

// openDevice({url, token, deviceID, voices}) is the page's clock: a
// clockdev.Device on the WebSocket to url, its outbox and board kept in
// localStorage (key "hallclock.outbox.<deviceID>"), so that a reload
// finds its presses and its board again. It answers an object:
//
//	dev.press(side)        JSON {} or {error, refused}
//	dev.announce(side)     the talking clock's button: JSON {} or {error}
//	dev.state()            JSON jsapi.FaceView
//	dev.onNotice(cb)       cb(JSON jsapi.NoticeView) for each notice
//	dev.close()            stops the link (returns at once)
//
// Every call returns at once: the link runs on goroutines, and nothing
// called from JavaScript waits for JavaScript.
func openDevice(_ js.Value, args []js.Value) any {
	if len(args) != 1 || args[0].Type() != js.TypeObject {
		return jsonString(map[string]string{"error": "openDevice wants {url, token, deviceID}"})
	}
	o := args[0]
	str := func(k string) string {
		if v := o.Get(k); v.Type() == js.TypeString {
			return v.String()
		}
		return ""
	}
	id, token, url := str("deviceID"), str("token"), str("url")
	var voices []string
	if v := o.Get("voices"); v.Type() == js.TypeObject {
		for i := range min(v.Length(), 16) {
			voices = append(voices, v.Index(i).String())
		}
	}
	if id == "" || token == "" || url == "" {
		return jsonString(map[string]string{"error": "openDevice wants deviceID, token and url"})
	}
	store := &localJournal{prefix: "hallclock.outbox." + id}
	ob, err := clockdev.OpenStoreOutbox(store)
	if err != nil {
		return jsonString(map[string]string{"error": err.Error()})
	}
	wall := &wallNote{key: "hallclock.wall." + id}
	unknown := false
	cfg := clockdev.Config{
		DeviceID: id, Token: token, Firmware: "browser-" + runtime.Version(),
		Transport:  &wsdial.Transport{URL: url},
		Outbox:     ob,
		MaxBackoff: 2 * time.Second,
		Resume: func(board string, last int64) int64 {
			t, ok := wall.resume(board, last)
			unknown = !ok
			return t
		},
	}
	if len(voices) > 0 {
		cfg.Voices = voices
		cfg.Speak = func(clockdev.Speech) {} // the page speaks on the announcement notice
	}
	d, err := clockdev.New(cfg)
	if err != nil {
		_ = ob.Close()
		return jsonString(map[string]string{"error": err.Error()})
	}
	face := jsapi.NewFace(d, unknown)
	if a := d.Assignment(); a != nil {
		face.SetPause(wall.pause(a.GetBoardId()))
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { _ = d.Run(ctx); close(ran) }()

	var cbMu sync.Mutex
	var cb js.Value
	go func() { // the notices, to the page
		for n := range d.Events() {
			v := face.Note(n)
			if n.Kind == clockdev.NoticeCommand {
				wall.save(d, face) // a pause's reason survives a reload at once
			}
			if v.TakenOver {
				cancel() // another browser is this clock now: do not come back
			}
			cbMu.Lock()
			f := cb
			cbMu.Unlock()
			if f.Type() == js.TypeFunction {
				b, _ := json.Marshal(v)
				f.Invoke(string(b))
			}
		}
	}()
	go func() { // the board time against the wall, for a reload
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
				wall.save(d, face)
			}
		}
	}()

	obj := js.Global().Get("Object").New()
	var fns []js.Func
	bind := func(name string, f func(args []js.Value) any) {
		fn := js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args) })
		fns = append(fns, fn)
		obj.Set(name, fn)
	}
	answer := func(err error) any {
		if err == nil {
			return js.ValueOf("{}")
		}
		return jsonString(map[string]any{"error": err.Error(), "refused": isRefusal(err)})
	}
	bind("press", func(a []js.Value) any {
		if len(a) != 1 || a[0].Type() != js.TypeString {
			return answer(errors.New("press wants a side: white or black"))
		}
		err := face.Press(a[0].String())
		if err == nil {
			wall.save(d, face)
		}
		return answer(err)
	})
	bind("announce", func(a []js.Value) any {
		if len(a) != 1 || a[0].Type() != js.TypeString {
			return answer(errors.New("announce wants a side: white or black"))
		}
		return answer(face.Announce(a[0].String()))
	})
	bind("state", func([]js.Value) any { return jsonString(face.State()) })
	bind("onNotice", func(a []js.Value) any {
		cbMu.Lock()
		defer cbMu.Unlock()
		if len(a) == 1 {
			cb = a[0]
		}
		return nil
	})
	bind("close", func([]js.Value) any {
		cancel()
		go func() {
			<-ran
			wall.save(d, face)
			_ = d.Close()
		}()
		return nil
	})
	return obj
}

// isRefusal: the law refused it (a typed refusal, not a fault).
func isRefusal(err error) bool {
	return errors.Is(err, rules.ErrRefused) || errors.Is(err, rules.ErrInvalid)
}

// localJournal is the outbox's journal in localStorage: the head
// ("<prefix>/head": {"gen", "n"}) names the generation of the journal
// and how many lines it holds, each line a key of its own
// ("<prefix>/<gen>/<i>"), so that an append writes one line and the head,
// not the whole journal. A line written whose head was not is not part
// of the journal (the append did not return). localStorage writes are
// synchronous: when Append returns the line is stored, the outbox's
// durability contract (IndexedDB's asynchronous transactions could only
// be awaited from Go by a goroutine holding the device's lock while the
// page's own calls into Go wait for it: a deadlock).
type localJournal struct {
	prefix string
	gen, n int
}

type head struct {
	Gen int `json:"gen"`
	N   int `json:"n"`
}

func storage() js.Value { return js.Global().Get("localStorage") }

func (j *localJournal) key(gen, i int) string {
	return j.prefix + "/" + strconv.Itoa(gen) + "/" + strconv.Itoa(i)
}

func (j *localJournal) Load() ([]byte, error) {
	ls := storage()
	if ls.IsUndefined() || ls.IsNull() {
		return nil, errors.New("this browser keeps no localStorage: it cannot be a clock")
	}
	h := ls.Call("getItem", j.prefix+"/head")
	if h.IsNull() {
		return nil, nil
	}
	var hd head
	if err := json.Unmarshal([]byte(h.String()), &hd); err != nil {
		return nil, fmt.Errorf("%s/head: %w", j.prefix, err)
	}
	j.gen, j.n = hd.Gen, hd.N
	var out []byte
	for i := range hd.N {
		v := ls.Call("getItem", j.key(hd.Gen, i))
		if v.IsNull() {
			return nil, fmt.Errorf("line %d of the outbox is missing from localStorage", i+1)
		}
		out = append(out, v.String()...)
	}
	return out, nil
}

func (j *localJournal) setItem(k, v string) error {
	return jsTry(func() { storage().Call("setItem", k, v) })
}

func (j *localJournal) writeHead(gen, n int) error {
	b, _ := json.Marshal(head{gen, n})
	return j.setItem(j.prefix+"/head", string(b))
}

func (j *localJournal) Append(line []byte) error {
	if err := j.setItem(j.key(j.gen, j.n), string(line)); err != nil {
		return err
	}
	if err := j.writeHead(j.gen, j.n+1); err != nil {
		return err
	}
	j.n++
	return nil
}

func (j *localJournal) Replace(text []byte) error {
	gen := j.gen + 1
	var lines []string
	for start := 0; start < len(text); {
		end := start
		for end < len(text) && text[end] != '\n' {
			end++
		}
		if end < len(text) {
			end++
		}
		lines = append(lines, string(text[start:end]))
		start = end
	}
	for i, l := range lines {
		if err := j.setItem(j.key(gen, i), l); err != nil {
			return err
		}
	}
	if err := j.writeHead(gen, len(lines)); err != nil {
		return err
	}
	ls := storage()
	for i := range j.n { // the old generation
		ls.Call("removeItem", j.key(j.gen, i))
	}
	j.gen, j.n = gen, len(lines)
	return nil
}

// wallNote keeps, in localStorage, the board time a device showed at a
// wall-clock instant, so that a page reloaded (or a tablet restarted)
// resumes its board with the time that passed meanwhile counted, as a
// real clock's oscillator would have.
type wallNote struct {
	key string
	mu  sync.Mutex
}

type note struct {
	Board   string `json:"board"`
	T       int64  `json:"t"`
	Wall    int64  `json:"wall"`
	Pause   string `json:"pause,omitempty"` // the arbiter's reason for the pause in force
	PauseBy string `json:"pause_by,omitempty"`
}

func now() int64 { return int64(js.Global().Get("Date").Call("now").Float()) }

func (w *wallNote) save(d *clockdev.Device, f *jsapi.Face) {
	a := d.Assignment()
	if a == nil {
		return
	}
	t := d.BoardNow()
	reason, by := f.Pause()
	b, _ := json.Marshal(note{Board: a.GetBoardId(), T: t, Wall: now(), Pause: reason, PauseBy: by})
	w.mu.Lock()
	defer w.mu.Unlock()
	_ = jsTry(func() { storage().Call("setItem", w.key, string(b)) })
}

// pause is the pause reason the note kept for board.
func (w *wallNote) pause(board string) (reason, by string) {
	v := storage().Call("getItem", w.key)
	var n note
	if v.IsNull() || json.Unmarshal([]byte(v.String()), &n) != nil || n.Board != board {
		return "", ""
	}
	return n.Pause, n.PauseBy
}

// resume answers clockdev.Config.Resume: the board time now, and whether
// the page knows it (a note of the same board, the wall clock not gone
// back).
func (w *wallNote) resume(board string, last int64) (int64, bool) {
	v := storage().Call("getItem", w.key)
	if v.IsNull() {
		return last, false
	}
	var n note
	if err := json.Unmarshal([]byte(v.String()), &n); err != nil || n.Board != board {
		return last, false
	}
	gone := now() - n.Wall
	if gone < 0 {
		return last, false
	}
	return max(last, n.T+gone), true
}

// jsTry runs f and turns a JavaScript exception (a full localStorage)
// into an error.
func jsTry(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	f()
	return nil
}
