package acceptgzip

import (
	"net/http"
	"testing"
)

func TestAccepts(t *testing.T) {
	for _, c := range []struct {
		header []string
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"gzip"}, true},
		{[]string{"GZip"}, true},
		{[]string{"x-gzip"}, true},
		{[]string{"gzip, deflate, br, zstd"}, true}, // Chromium's
		{[]string{"deflate, br"}, false},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0.000"}, false},
		{[]string{"gzip;q=0.5"}, true},
		{[]string{"gzip;q=nonsense"}, false},
		{[]string{"*"}, true},
		{[]string{"*;q=0"}, false},
		{[]string{"*, gzip;q=0"}, false}, // named beats the wildcard
		{[]string{"*;q=0, gzip"}, true},
		{[]string{"identity", "gzip"}, true}, // more than one header line
	} {
		r := &http.Request{Header: http.Header{}}
		for _, h := range c.header {
			r.Header.Add("Accept-Encoding", h)
		}
		if got := Accepts(r); got != c.want {
			t.Errorf("Accept-Encoding %q: Accepts = %v, want %v", c.header, got, c.want)
		}
	}
}
