package text

import "testing"

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want string
	}{
		{[]byte("Müller"), "Müller"},                      // UTF-8
		{[]byte("\ufeffBo.;White"), "Bo.;White"},          // a byte-order mark goes
		{[]byte{'M', 0xfc, 'l', 'l', 'e', 'r'}, "Müller"}, // ISO 8859-1
	} {
		if got := Decode(c.in); got != c.want {
			t.Errorf("Decode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
