package hallstream

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"math/bits"
	"strconv"
	"strings"
)

// Format 3: one signature for a batch of messages.
//
// The hall signs the root of a Merkle tree over a batch of messages (as
// RFC 9162 §2.1.1 builds it: leaves hashed with a 0x00 byte before them,
// nodes with 0x01, a batch of n split at the largest power of two below
// n), and each message carries the signature of the root, its place in
// the batch and the hashes that lead from it to the root (the audit
// path, §2.1.3). So each message is checked on its own, as in format 2 —
// a follower waits for no other message, and a publisher that stops in
// the middle of a batch leaves messages that verify — while the hall
// signs once per batch, not once per message: an ed25519 signature is
// some 20 µs of a core, per press at a thousand presses a second.

// Headers format 3 adds to format 2's.
const (
	// HeaderLeaf is the message's place in its batch: "i/n", i from 0.
	HeaderLeaf = "Hall-Leaf"
	// HeaderProof is the audit path from the message to the batch's
	// root: the hashes, 32 bytes each, leaf end first (base64url, no
	// padding); absent for a batch of one.
	HeaderProof = "Hall-Proof"
)

// FormatBatch is the format of messages sealed together (SealBatch).
const FormatBatch = 3

// MaxBatch is the most messages SealBatch signs together: the audit path
// of a batch of 32 is five hashes (214 characters of header).
const MaxBatch = 32

// Sealing is one message to seal in a batch: its headers (written), what
// is signed of it.
type Sealing struct {
	Header  Header
	Subject string
	Outbox  uint64
	Start   bool
	Body    []byte
}

// SealBatch writes the format 3 headers of up to MaxBatch messages
// signed together (more panics: the publisher cuts its batches). Each
// verifies alone (Seal.Verify).
func (s Signer) SealBatch(ms []Sealing) {
	n := len(ms)
	if n == 0 {
		return
	}
	if n > MaxBatch {
		panic("hallstream: SealBatch of " + strconv.Itoa(n) + " messages, at most " + strconv.Itoa(MaxBatch))
	}
	var leaves [MaxBatch][sha256.Size]byte
	var paths [MaxBatch][]byte
	depth := bits.Len(uint(n - 1)) // hashes in the longest path
	room := make([]byte, n*depth*sha256.Size)
	for i := range n {
		paths[i] = room[i*depth*sha256.Size : i*depth*sha256.Size : (i+1)*depth*sha256.Size]
	}
	for i, m := range ms {
		leaves[i] = leafHash(m.Subject, m.Outbox, m.Start, m.Body)
	}
	root := treeHash(leaves[:n], paths[:n])
	sig := b64.EncodeToString(ed25519.Sign(s.Key, batchBytes(n, root)))
	key := KeyString(s.Public())
	chain := s.chainHeader()
	count := "/" + strconv.Itoa(n)
	for i, m := range ms {
		h := m.Header
		h.Set(HeaderFormat, strconv.Itoa(FormatBatch))
		h.Set(HeaderOutbox, strconv.FormatUint(m.Outbox, 10))
		if m.Start {
			h.Set(HeaderStart, "1")
		}
		h.Set(HeaderKey, key)
		h.Set(HeaderSignature, sig)
		h.Set(HeaderLeaf, strconv.Itoa(i)+count)
		if len(paths[i]) > 0 {
			h.Set(HeaderProof, b64.EncodeToString(paths[i]))
		}
		if chain != "" {
			h.Set(HeaderKeyChain, chain)
		}
	}
}

// leafHash is the hash of a message as a leaf of its batch's tree.
func leafHash(subject string, outbox uint64, start bool, body []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte{0})
	h.Write(signedBytes(FormatBatch, subject, outbox, start, body))
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// nodeHash is the hash of a tree's node.
func nodeHash(left, right []byte) [sha256.Size]byte {
	var b [1 + 2*sha256.Size]byte
	b[0] = 1
	copy(b[1:], left)
	copy(b[1+sha256.Size:], right)
	return sha256.Sum256(b[:])
}

// treeHash is the root of the tree over leaves (RFC 9162's MTH), and
// appends to paths[i] the audit path of leaf i, leaf end first.
func treeHash(leaves [][sha256.Size]byte, paths [][]byte) [sha256.Size]byte {
	n := len(leaves)
	if n == 1 {
		return leaves[0]
	}
	k := 1
	for k*2 < n {
		k *= 2
	}
	left := treeHash(leaves[:k], paths[:k])
	right := treeHash(leaves[k:], paths[k:])
	for i := range paths[:k] {
		paths[i] = append(paths[i], right[:]...)
	}
	for i := range paths[k:] {
		paths[k+i] = append(paths[k+i], left[:]...)
	}
	return nodeHash(left[:], right[:])
}

// rootFromPath is the root a leaf's audit path leads to (RFC 9162
// §2.1.3.2), false when the path cannot be one of leaf i of n.
func rootFromPath(leaf [sha256.Size]byte, i, n int, path []byte) ([sha256.Size]byte, bool) {
	if i < 0 || i >= n || len(path)%sha256.Size != 0 {
		return leaf, false
	}
	fn, sn := i, n-1
	r := leaf
	for ; len(path) > 0; path = path[sha256.Size:] {
		p := path[:sha256.Size]
		if sn == 0 {
			return r, false
		}
		if fn%2 == 1 || fn == sn {
			r = nodeHash(p, r[:])
			for fn%2 == 0 && fn != 0 {
				fn, sn = fn>>1, sn>>1
			}
		} else {
			r = nodeHash(r[:], p)
		}
		fn, sn = fn>>1, sn>>1
	}
	return r, sn == 0
}

// batchBytes is what the hall signs of a batch: its size and root.
func batchBytes(n int, root [sha256.Size]byte) []byte {
	b := make([]byte, 0, 40+sha256.Size)
	b = append(b, "hallstream 3 batch\n"...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, '\n')
	return append(b, root[:]...)
}

// readLeaf reads HeaderLeaf and HeaderProof into s.
func (s *Seal) readLeaf(h Header) bool {
	is, ns, ok := strings.Cut(h.Get(HeaderLeaf), "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || i < 0 || i >= n || n > MaxBatch {
		return false
	}
	path, err := b64.DecodeString(h.Get(HeaderProof))
	if err != nil || len(path)%sha256.Size != 0 {
		return false
	}
	s.Leaf, s.Batch, s.Proof = i, n, path
	return true
}

// signedMessage is what the seal's signature is over, given the message
// it came with: format 2, the message's own bytes; format 3, its batch's
// size and root (nil when the proof leads nowhere).
func (s Seal) signedMessage(subject string, body []byte) []byte {
	switch s.Format {
	case Format:
		return SignedBytes(subject, s.Outbox, s.Start, body)
	case FormatBatch:
		root, ok := rootFromPath(leafHash(subject, s.Outbox, s.Start, body), s.Leaf, s.Batch, s.Proof)
		if !ok {
			return nil
		}
		return batchBytes(s.Batch, root)
	}
	return nil
}

// verified remembers the last batch signature a follower checked, so
// that the other messages of the batch cost a hash each, not a
// signature's check: ed25519's verdict depends on key, message and
// signature alone.
type verified struct {
	key, msg, sig []byte
}

func (v *verified) holds(key, msg, sig []byte) bool {
	return v.msg != nil && bytes.Equal(v.key, key) && bytes.Equal(v.msg, msg) && bytes.Equal(v.sig, sig)
}
