// Package acceptgzip reads a request's Accept-Encoding for gzip: the one
// content coding the hall sends (its pages' scripts, the browser clock's
// WebAssembly, PGN feeds, the dashboards' live feeds), each compressed
// once for every client that takes it.
package acceptgzip

import (
	"net/http"
	"strconv"
	"strings"
)

// Accepts reports whether r's Accept-Encoding takes gzip (RFC 9110,
// 12.5.3): listed by name ("gzip", or "x-gzip") with a weight above 0,
// or, when it is not named, the wildcard "*" with a weight above 0.
func Accepts(r *http.Request) bool {
	named, star := -1.0, -1.0
	for _, h := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(h, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			name = strings.ToLower(strings.TrimSpace(name))
			q := weight(params)
			switch name {
			case "gzip", "x-gzip":
				named = max(named, q)
			case "*":
				star = max(star, q)
			}
		}
	}
	if named >= 0 {
		return named > 0
	}
	return star > 0
}

// weight is a coding's q parameter, 1 if it has none, 0 if unreadable.
func weight(params string) float64 {
	for _, p := range strings.Split(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || q < 0 {
			return 0
		}
		return q
	}
	return 1
}
