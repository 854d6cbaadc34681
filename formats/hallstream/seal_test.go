package hallstream

import (
	"crypto/ed25519"
	"errors"
	"math/rand/v2"
	"testing"
)

// header is a message's headers, as nats.Header keeps them.
type header map[string]string

func (h header) Get(k string) string { return h[k] }
func (h header) Set(k, v string)     { h[k] = v }

// testKey is a deterministic key, so that failures repeat.
func testKey(seed byte) ed25519.PrivateKey {
	s := make([]byte, ed25519.SeedSize)
	for i := range s {
		s[i] = seed
	}
	return ed25519.NewKeyFromSeed(s)
}

func pub(k ed25519.PrivateKey) ed25519.PublicKey { return k.Public().(ed25519.PublicKey) }

// sealed is one message of a hall: subject, headers, body.
type sealed struct {
	subject string
	h       header
	body    []byte
}

func seal(s Signer, subject string, outbox uint64, start bool, body string) sealed {
	h := header{}
	s.Seal(h, subject, outbox, start, []byte(body))
	return sealed{subject, h, []byte(body)}
}

func TestSealVerifies(t *testing.T) {
	s := Signer{Key: testKey(1)}
	m := seal(s, "hall.bergen.board.b1", 7, true, `{"seq":1}`)
	got, err := ReadSeal(m.h)
	if err != nil {
		t.Fatal(err)
	}
	if got.Format != 2 || got.Outbox != 7 || !got.Start || !got.Key.Equal(pub(s.Key)) {
		t.Errorf("ReadSeal = %+v, want format 2, outbox 7, start, the signer's key", got)
	}
	if !got.Verify(m.subject, m.body) {
		t.Fatal("a sealed message does not verify")
	}
	// Whatever is changed, the signature no longer holds.
	for name, change := range map[string]func(s Seal) (Seal, string, []byte){
		"body":    func(s Seal) (Seal, string, []byte) { return s, m.subject, []byte(`{"seq":2}`) },
		"subject": func(s Seal) (Seal, string, []byte) { return s, "hall.bergen.board.b2", m.body },
		"outbox":  func(s Seal) (Seal, string, []byte) { s.Outbox = 8; return s, m.subject, m.body },
		"start":   func(s Seal) (Seal, string, []byte) { s.Start = false; return s, m.subject, m.body },
		"key":     func(s Seal) (Seal, string, []byte) { s.Key = pub(testKey(2)); return s, m.subject, m.body },
	} {
		s, subject, body := change(got)
		if s.Verify(subject, body) {
			t.Errorf("a message with its %s changed still verifies", name)
		}
	}
}

func TestReadSealRefusesMalformedHeaders(t *testing.T) {
	good := seal(Signer{Key: testKey(1)}, "hall.h.meta.hall", 1, false, "{}").h
	for name, h := range map[string]header{
		"no outbox":      {HeaderFormat: "2"},
		"future format":  with(good, HeaderFormat, "4"),
		"short key":      with(good, HeaderKey, "abc"),
		"bad signature":  with(good, HeaderSignature, "!!"),
		"bad start":      with(good, HeaderStart, "yes"),
		"bad chain link": with(good, HeaderKeyChain, "nocolon"),
	} {
		if _, err := ReadSeal(h); !errors.Is(err, ErrUnreadable) {
			t.Errorf("ReadSeal(%s) = %v, want ErrUnreadable", name, err)
		}
	}
	if s, err := ReadSeal(header{HeaderOutbox: "5"}); err != nil || s.Format != 1 || s.Outbox != 5 {
		t.Errorf("ReadSeal(format 1) = %+v, %v; want format 1, outbox 5", s, err)
	}
}

func with(h header, k, v string) header {
	out := header{}
	for a, b := range h {
		out[a] = b
	}
	out[k] = v
	return out
}

func TestParseKey(t *testing.T) {
	k := pub(testKey(3))
	if got, err := ParseKey(KeyString(k)); err != nil || !got.Equal(k) {
		t.Errorf("ParseKey(KeyString(k)) = %v, %v", got, err)
	}
	for _, bad := range []string{"", "abc", KeyString(k) + "AA", "!" + KeyString(k)[1:]} {
		if _, err := ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) accepted", bad)
		}
	}
}

// trustStep is one message a follower reads and whether it is the hall's.
type trustStep struct {
	name string
	m    sealed
	want error // nil: accepted
}

func runTrust(t *testing.T, tr *Trust, steps []trustStep) {
	t.Helper()
	for _, s := range steps {
		_, err := tr.Check(s.m.subject, s.m.h, s.m.body)
		if s.want == nil && err != nil {
			t.Errorf("%s: Check = %v, want accepted", s.name, err)
		}
		if s.want != nil && !errors.Is(err, s.want) {
			t.Errorf("%s: Check = %v, want %v", s.name, err, s.want)
		}
		if err != nil && !errors.Is(err, ErrNotTheHalls) {
			t.Errorf("%s: %v does not say the hall did not write it", s.name, err)
		}
	}
}

func TestTrust(t *testing.T) {
	k1, k2, k3, thief := testKey(1), testKey(2), testKey(3), testKey(9)
	s1 := Signer{Key: k1}
	s2 := Signer{Key: k2, Chain: []Endorsement{Endorse(k1, pub(k2))}}
	s3 := Signer{Key: k3, Chain: []Endorsement{Endorse(k1, pub(k2)), Endorse(k2, pub(k3))}}
	forgedChain := Signer{Key: thief, Chain: []Endorsement{Endorse(thief, pub(thief))}}
	badLink := Signer{Key: k2, Chain: []Endorsement{{By: pub(k1), Sig: Endorse(k1, pub(k3)).Sig}}}
	unsigned := sealed{"hall.h.board.b", header{HeaderOutbox: "3"}, []byte("{}")}
	tampered := seal(s1, "hall.h.board.b", 4, false, `{"result":"1-0"}`)
	tampered.body = []byte(`{"result":"0-1"}`)
	msg := func(s Signer, outbox uint64) sealed { return seal(s, "hall.h.board.b", outbox, false, "{}") }

	t.Run("first use", func(t *testing.T) {
		runTrust(t, NewTrust(nil, false), []trustStep{
			{"unsigned first", unsigned, ErrUnsigned},
			{"the first signed message", msg(s1, 1), nil},
			{"by the same key", msg(s1, 2), nil},
			{"by another key", msg(Signer{Key: thief}, 3), ErrUntrustedKey},
			{"a thief's own chain", msg(forgedChain, 3), ErrUntrustedKey},
			{"tampered", tampered, ErrBadSignature},
			{"unsigned after signed", unsigned, ErrUnsigned},
			{"a chain endorsing another key", msg(badLink, 3), ErrUntrustedKey},
			{"rotated", msg(s2, 3), nil},
			{"by the replaced key", msg(s1, 4), ErrUntrustedKey},
			{"rotated again", msg(s3, 5), nil},
			{"by the first key", msg(s1, 6), ErrUntrustedKey},
		})
	})
	t.Run("pinned", func(t *testing.T) {
		runTrust(t, NewTrust([]ed25519.PublicKey{pub(k1)}, false), []trustStep{
			{"a stranger first", msg(Signer{Key: thief}, 1), ErrUntrustedKey},
			{"two rotations at once from the pinned key", msg(s3, 2), nil},
			{"by the middle key", msg(s2, 3), ErrUntrustedKey},
		})
		runTrust(t, NewTrust([]ed25519.PublicKey{pub(k3)}, false), []trustStep{
			{"a key before the pinned one", msg(s1, 1), ErrUntrustedKey},
			{"the pinned key", msg(s3, 2), nil},
		})
	})
	t.Run("unsigned allowed", func(t *testing.T) {
		runTrust(t, NewTrust(nil, true), []trustStep{
			{"unsigned", unsigned, nil},
			{"unsigned again", unsigned, nil},
			{"the hall starts signing", msg(s1, 4), nil},
			{"unsigned after signed", unsigned, ErrUnsigned},
		})
	})
}

// Random bytes for headers and bodies are never taken for the hall's.
func TestTrustRefusesNoise(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tr := NewTrust([]ed25519.PublicKey{pub(testKey(1))}, false)
	noise := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return string(b)
	}
	// A message of each format, each header in turn replaced by noise
	// (format 3's place and audit path too), the body too.
	goods := []header{
		seal(Signer{Key: testKey(1)}, "hall.h.board.b", 1, false, "{}").h,
		batch(Signer{Key: testKey(1)}, 5, 1, false)[3].h,
	}
	keys := []string{HeaderKey, HeaderSignature, HeaderKeyChain, HeaderOutbox, HeaderStart, HeaderLeaf, HeaderProof}
	for i := range 4000 {
		h := with(goods[i%2], keys[(i/2)%len(keys)], noise(r.IntN(100)))
		if _, err := tr.Check("hall.h.board.b", h, []byte(noise(8))); err == nil {
			t.Fatalf("noise %v accepted", h)
		}
	}
}

// What the publisher pays for each message it seals (one ed25519
// signature), and a gateway for each it checks (one verification).
func BenchmarkSeal(b *testing.B) {
	s := Signer{Key: testKey(1)}
	body := []byte(`{"seq":123456,"board_id":"b-3f9a1c2e","board_seq":87,"event":{"kind":"press","side":1,"t":5400123},"actor":"clk-017","wall_unix_ms":1796172353033}`)
	h := header{}
	b.ReportAllocs()
	for b.Loop() {
		s.Seal(h, "hall.bergen.board.b-3f9a1c2e", 98765, false, body)
	}
}

func BenchmarkCheck(b *testing.B) {
	s := Signer{Key: testKey(1)}
	body := []byte(`{"seq":123456,"board_id":"b-3f9a1c2e","board_seq":87,"event":{"kind":"press","side":1,"t":5400123},"actor":"clk-017","wall_unix_ms":1796172353033}`)
	h := header{}
	s.Seal(h, "hall.bergen.board.b-3f9a1c2e", 98765, false, body)
	tr := NewTrust(nil, false)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.Check("hall.bergen.board.b-3f9a1c2e", h, body); err != nil {
			b.Fatal(err)
		}
	}
}
