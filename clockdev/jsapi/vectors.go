package jsapi

import (
	"sort"

	"github.com/chesshall/hallclock/rules/conformance"
)

// Outcome is one vector's outcome, or a file's that could not be read
// (Name empty).
type Outcome struct {
	File    string `json:"file"`
	Name    string `json:"name,omitempty"`
	Pass    bool   `json:"pass"`
	Failure string `json:"failure,omitempty"`
}

// RunVectors runs the vectors of every file (name to its JSON text), in
// the order of the names, as tools/conformance does.
func RunVectors(files map[string]string) []Outcome {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []Outcome
	for _, n := range names {
		vs, err := conformance.Parse([]byte(files[n]), n)
		if err != nil {
			out = append(out, Outcome{File: n, Failure: err.Error()})
			continue
		}
		for i := range vs {
			o := Outcome{File: n, Name: vs[i].Name, Pass: true}
			if f := vs[i].Run(); f != nil {
				o.Pass, o.Failure = false, f.Error()
			}
			out = append(out, o)
		}
	}
	return out
}
