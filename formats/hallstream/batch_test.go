package hallstream

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"testing"
)

// The tree is RFC 6962's (RFC 9162's): the reference roots and audit
// paths of Certificate Transparency's test data (the eight leaves below,
// as certificate-transparency-go's merkle tests and the RFC's authors'
// implementations use them) come out of treeHash and rootFromPath.
func TestTreeIsRFC6962s(t *testing.T) {
	var leaves [][sha256.Size]byte
	for _, in := range []string{"", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"} {
		d, _ := hex.DecodeString(in)
		leaves = append(leaves, sha256.Sum256(append([]byte{0}, d...)))
	}
	roots := []string{
		"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
		"fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
		"aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
		"d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
		"4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
		"76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
		"ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
		"5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
	}
	for n := 1; n <= len(leaves); n++ {
		if got := treeHash(leaves[:n], make([][]byte, n)); hex.EncodeToString(got[:]) != roots[n-1] {
			t.Errorf("root of %d: %x, RFC 6962's %s", n, got, roots[n-1])
		}
	}
	for _, c := range []struct {
		i, n int
		path []string
	}{
		{0, 8, []string{"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7", "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e", "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"}},
		{5, 8, []string{"bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b", "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0", "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}},
		{2, 3, []string{"fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"}},
	} {
		var want []byte
		for _, h := range c.path {
			b, _ := hex.DecodeString(h)
			want = append(want, b...)
		}
		paths := make([][]byte, c.n)
		treeHash(leaves[:c.n], paths)
		if !bytes.Equal(paths[c.i], want) {
			t.Errorf("audit path of leaf %d of %d: %x, RFC 6962's %x", c.i, c.n, paths[c.i], want)
		}
		root, ok := rootFromPath(leaves[c.i], c.i, c.n, want)
		if !ok || hex.EncodeToString(root[:]) != roots[c.n-1] {
			t.Errorf("the RFC's path of leaf %d of %d leads to %x (%v), want its root", c.i, c.n, root, ok)
		}
	}
}

// In every batch size up to MaxBatch, every leaf's path leads to the
// root, and to no root from another place or with a hash changed. (A
// path may lead to the same root in a batch of another size: the size is
// in what the hall signs, batchBytes, and TestSealBatchVerifiesEachMessageAlone
// changes it.)
func TestEveryPathLeadsToTheRootAndOnlyFromItsPlace(t *testing.T) {
	for n := 1; n <= MaxBatch; n++ {
		leaves := make([][sha256.Size]byte, n)
		for i := range leaves {
			leaves[i] = sha256.Sum256([]byte{0, byte(n), byte(i)})
		}
		paths := make([][]byte, n)
		root := treeHash(leaves, paths)
		for i := range n {
			if got, ok := rootFromPath(leaves[i], i, n, paths[i]); !ok || got != root {
				t.Fatalf("leaf %d of %d: its path leads to %x (%v), not the root", i, n, got, ok)
			}
			for _, j := range []int{i - 1, i + 1} {
				if got, ok := rootFromPath(leaves[i], j, n, paths[i]); ok && got == root {
					t.Errorf("leaf %d of %d also verifies as leaf %d", i, n, j)
				}
			}
			for b := 0; b < len(paths[i]); b += 7 {
				bad := bytes.Clone(paths[i])
				bad[b] ^= 1
				if got, ok := rootFromPath(leaves[i], i, n, bad); ok && got == root {
					t.Errorf("leaf %d of %d verifies with byte %d of its path changed", i, n, b)
				}
			}
		}
	}
}

// batch seals n messages together.
func batch(s Signer, n int, firstOutbox uint64, start bool) []sealed {
	ms := make([]Sealing, n)
	out := make([]sealed, n)
	for i := range ms {
		h := header{}
		body := []byte(fmt.Sprintf(`{"seq":%d}`, i))
		subject := "hall.bergen.board.b" + strconv.Itoa(i%3)
		ms[i] = Sealing{Header: h, Subject: subject, Outbox: firstOutbox + uint64(i), Start: start && i == 0, Body: body}
		out[i] = sealed{subject, h, body}
	}
	s.SealBatch(ms)
	return out
}

func TestSealBatchVerifiesEachMessageAlone(t *testing.T) {
	s := Signer{Key: testKey(1)}
	for _, n := range []int{1, 2, 5, MaxBatch} {
		ms := batch(s, n, 40, true)
		for i, m := range ms {
			got, err := ReadSeal(m.h)
			if err != nil {
				t.Fatal(err)
			}
			if got.Format != FormatBatch || got.Outbox != 40+uint64(i) || got.Start != (i == 0) || got.Leaf != i || got.Batch != n || !got.Key.Equal(pub(s.Key)) {
				t.Fatalf("batch of %d, message %d: ReadSeal = %+v", n, i, got)
			}
			if !got.Verify(m.subject, m.body) {
				t.Fatalf("batch of %d: message %d does not verify", n, i)
			}
			for name, change := range map[string]func(s Seal) (Seal, string, []byte){
				"body":    func(s Seal) (Seal, string, []byte) { return s, m.subject, []byte(`{"seq":99}`) },
				"subject": func(s Seal) (Seal, string, []byte) { return s, "hall.bergen.board.b9", m.body },
				"outbox":  func(s Seal) (Seal, string, []byte) { s.Outbox++; return s, m.subject, m.body },
				"start":   func(s Seal) (Seal, string, []byte) { s.Start = !s.Start; return s, m.subject, m.body },
				"key":     func(s Seal) (Seal, string, []byte) { s.Key = pub(testKey(2)); return s, m.subject, m.body },
				"place":   func(s Seal) (Seal, string, []byte) { s.Leaf = (s.Leaf + 1) % s.Batch; return s, m.subject, m.body },
				"size":    func(s Seal) (Seal, string, []byte) { s.Batch++; return s, m.subject, m.body },
			} {
				if n == 1 && name == "place" {
					continue
				}
				if c, subject, body := change(got); c.Verify(subject, body) {
					t.Errorf("batch of %d, message %d: with its %s changed it still verifies", n, i, name)
				}
			}
		}
	}
	// A message of one batch with the signature of another.
	a, b := batch(s, 4, 1, false), batch(s, 4, 5, false)
	a[2].h[HeaderSignature] = b[2].h[HeaderSignature]
	if got, _ := ReadSeal(a[2].h); got.Verify(a[2].subject, a[2].body) {
		t.Error("a message verifies with the signature of another batch")
	}
}

func TestReadSealRefusesMalformedBatchHeaders(t *testing.T) {
	good := batch(Signer{Key: testKey(1)}, 3, 1, false)[1].h
	for name, h := range map[string]header{
		"no leaf":          with(good, HeaderLeaf, ""),
		"leaf past batch":  with(good, HeaderLeaf, "3/3"),
		"negative leaf":    with(good, HeaderLeaf, "-1/3"),
		"batch too large":  with(good, HeaderLeaf, "1/"+strconv.Itoa(MaxBatch+1)),
		"not a number":     with(good, HeaderLeaf, "one/3"),
		"proof not base64": with(good, HeaderProof, "!!"),
		"proof cut short":  with(good, HeaderProof, good[HeaderProof][:20]),
	} {
		if _, err := ReadSeal(h); !errors.Is(err, ErrUnreadable) {
			t.Errorf("ReadSeal(%s) = %v, want ErrUnreadable", name, err)
		}
	}
}

// A follower checks the batch's signature once and each message's path:
// what it remembers of the signature never lets a changed message of
// the same batch through, nor one of a key it does not trust.
func TestTrustReadsBatches(t *testing.T) {
	k1, k2, thief := testKey(1), testKey(2), testKey(9)
	s1 := Signer{Key: k1}
	s2 := Signer{Key: k2, Chain: []Endorsement{Endorse(k1, pub(k2))}}
	first := batch(s1, 5, 1, true)
	tampered := first[3]
	tampered.body = []byte(`{"seq":77}`)
	rotated := batch(s2, 3, 6, false)
	stolen := batch(Signer{Key: thief}, 2, 9, false)
	runTrust(t, NewTrust([]ed25519.PublicKey{pub(k1)}, false), []trustStep{
		{"the batch's first message", first[0], nil},
		{"its second", first[1], nil},
		{"its fourth, changed", tampered, ErrBadSignature},
		{"its fifth", first[4], nil},
		{"its third, late", first[2], nil},
		{"a thief's batch", stolen[0], ErrUntrustedKey},
		{"a format 2 message of the same key", seal(s1, "hall.bergen.board.b0", 6, false, "{}"), nil},
		{"a batch by the rotated key", rotated[0], nil},
		{"and the rest of it", rotated[2], nil},
		{"the replaced key's batch again", first[1], ErrUntrustedKey},
	})
}

// benchBatch is a batch of MaxBatch events of one board, unsealed.
func benchBatch() []Sealing {
	body := []byte(`{"seq":123456,"board_id":"b-3f9a1c2e","board_seq":87,"event":{"kind":"press","side":1,"t":5400123},"actor":"clk-017","wall_unix_ms":1796172353033}`)
	ms := make([]Sealing, MaxBatch)
	for i := range ms {
		ms[i] = Sealing{Header: header{}, Subject: "hall.bergen.board.b-3f9a1c2e", Outbox: uint64(98765 + i), Body: body}
	}
	return ms
}

// What the publisher pays per message sealed in batches of MaxBatch, and
// a gateway per message it checks.
func BenchmarkSealBatch(b *testing.B) {
	s := Signer{Key: testKey(1)}
	ms := benchBatch()
	b.ReportAllocs()
	for b.Loop() {
		s.SealBatch(ms)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*MaxBatch), "ns/message")
}

func BenchmarkCheckBatch(b *testing.B) {
	s := Signer{Key: testKey(1)}
	ms := benchBatch()
	s.SealBatch(ms)
	b.ReportAllocs()
	for b.Loop() {
		tr := NewTrust(nil, false)
		for _, m := range ms {
			if _, err := tr.Check(m.Subject, m.Header, m.Body); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*MaxBatch), "ns/message")
}
