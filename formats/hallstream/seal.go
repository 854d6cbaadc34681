package hallstream

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Headers of format 2.
const (
	HeaderFormat    = "Hall-Format"
	HeaderKey       = "Hall-Key"
	HeaderSignature = "Hall-Signature"
	HeaderKeyChain  = "Hall-Key-Chain"
	HeaderStart     = "Hall-Start"
)

// Format is the format this package writes.
const Format = 2

// Header is a message's headers as NATS keeps them (nats.Header).
type Header interface {
	Get(key string) string
	Set(key, value string)
}

var b64 = base64.RawURLEncoding

// KeyString is a public key's text: base64url without padding, 43
// characters.
func KeyString(k ed25519.PublicKey) string { return b64.EncodeToString(k) }

// ParseKey reads a public key written by KeyString.
func ParseKey(s string) (ed25519.PublicKey, error) {
	b, err := b64.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("hallstream: key %q: want %d bytes in base64url (43 characters), as the hall prints it", s, ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// Endorsement is a key's signature of the key that follows it.
type Endorsement struct {
	By  ed25519.PublicKey // the key that endorses
	Sig []byte            // its signature of EndorsedBytes(hall, next)
}

// EndorsedBytes is what a key signs to endorse next as the hall's key
// after it. Keys are the hall's own (random, never shared): the hall's id
// is not in it, so that a rotation outlives a new hall id.
func EndorsedBytes(next ed25519.PublicKey) []byte {
	return []byte("hallstream key\n" + KeyString(next))
}

// Endorse returns by's endorsement of next as the hall's key after it.
func Endorse(by ed25519.PrivateKey, next ed25519.PublicKey) Endorsement {
	return Endorsement{By: by.Public().(ed25519.PublicKey), Sig: ed25519.Sign(by, EndorsedBytes(next))}
}

// SignedBytes is what the hall signs of a message in format 2.
func SignedBytes(subject string, outbox uint64, start bool, body []byte) []byte {
	return signedBytes(Format, subject, outbox, start, body)
}

// signedBytes is a message's bytes as a format signs them (format 3: as
// its batch's tree hashes them).
func signedBytes(format int, subject string, outbox uint64, start bool, body []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(subject) + len(body) + 40)
	b.WriteString("hallstream ")
	b.WriteString(strconv.Itoa(format))
	b.WriteByte('\n')
	b.WriteString(subject)
	b.WriteByte('\n')
	b.WriteString(strconv.FormatUint(outbox, 10))
	b.WriteByte('\n')
	if start {
		b.WriteByte('1')
	} else {
		b.WriteByte('0')
	}
	b.WriteByte('\n')
	b.Write(body)
	return b.Bytes()
}

// Signer signs a hall's messages.
type Signer struct {
	Key ed25519.PrivateKey
	// Chain holds the hall's earlier keys, oldest first, each endorsing
	// the next (the last one endorsing Key); empty for the hall's first
	// key.
	Chain []Endorsement
}

// Public is the signer's public key.
func (s Signer) Public() ed25519.PublicKey { return s.Key.Public().(ed25519.PublicKey) }

// Seal writes a message's format 2 headers: its outbox row, whether the
// stream starts the hall here, the key, the signature and the chain. The
// hall's publisher seals in batches (SealBatch, format 3); followers read
// both.
func (s Signer) Seal(h Header, subject string, outbox uint64, start bool, body []byte) {
	h.Set(HeaderFormat, strconv.Itoa(Format))
	h.Set(HeaderOutbox, strconv.FormatUint(outbox, 10))
	if start {
		h.Set(HeaderStart, "1")
	}
	h.Set(HeaderKey, KeyString(s.Public()))
	h.Set(HeaderSignature, b64.EncodeToString(ed25519.Sign(s.Key, SignedBytes(subject, outbox, start, body))))
	if chain := s.chainHeader(); chain != "" {
		h.Set(HeaderKeyChain, chain)
	}
}

// chainHeader is HeaderKeyChain's value, "" without a chain.
func (s Signer) chainHeader() string {
	if len(s.Chain) == 0 {
		return ""
	}
	links := make([]string, len(s.Chain))
	for i, e := range s.Chain {
		links[i] = KeyString(e.By) + ":" + b64.EncodeToString(e.Sig)
	}
	return strings.Join(links, " ")
}

// Seal is what a message's headers say of who wrote it.
type Seal struct {
	Format    int // 1: unsigned (no Hall-Format header), 2: signed, 3: signed in a batch
	Outbox    uint64
	Start     bool
	Key       ed25519.PublicKey // nil for format 1
	Signature []byte            // format 3: of the batch
	Chain     []Endorsement
	// Format 3: the message's place in its batch, of how many, and the
	// audit path from it to the batch's root.
	Leaf, Batch int
	Proof       []byte
}

// ErrUnreadable: the headers are not a hall's: a header missing or
// malformed, or a format this package does not know.
var ErrUnreadable = errors.New("hallstream: headers not a hall's")

// ReadSeal reads a message's headers.
func ReadSeal(h Header) (Seal, error) {
	var s Seal
	bad := func(format string, args ...any) (Seal, error) {
		return s, fmt.Errorf("%w: "+format, append([]any{ErrUnreadable}, args...)...)
	}
	var err error
	if s.Outbox, err = strconv.ParseUint(h.Get(HeaderOutbox), 10, 64); err != nil {
		return bad("%s %q", HeaderOutbox, h.Get(HeaderOutbox))
	}
	switch f := h.Get(HeaderFormat); f {
	case "":
		s.Format = 1
		return s, nil
	case "2":
		s.Format = Format
	case "3":
		s.Format = FormatBatch
		if !s.readLeaf(h) {
			return bad("%s %q, %s %q", HeaderLeaf, h.Get(HeaderLeaf), HeaderProof, h.Get(HeaderProof))
		}
	default:
		return bad("%s %q: this follower reads formats 1 to 3; a newer hall needs a newer follower", HeaderFormat, f)
	}
	switch v := h.Get(HeaderStart); v {
	case "":
	case "1":
		s.Start = true
	default:
		return bad("%s %q", HeaderStart, v)
	}
	if s.Key, err = ParseKey(h.Get(HeaderKey)); err != nil {
		return bad("%s: %v", HeaderKey, err)
	}
	if s.Signature, err = b64.DecodeString(h.Get(HeaderSignature)); err != nil || len(s.Signature) != ed25519.SignatureSize {
		return bad("%s %q", HeaderSignature, h.Get(HeaderSignature))
	}
	if chain := h.Get(HeaderKeyChain); chain != "" {
		for _, link := range strings.Fields(chain) {
			k, sig, ok := strings.Cut(link, ":")
			var e Endorsement
			if e.By, err = ParseKey(k); !ok || err != nil {
				return bad("%s link %q", HeaderKeyChain, link)
			}
			if e.Sig, err = b64.DecodeString(sig); err != nil || len(e.Sig) != ed25519.SignatureSize {
				return bad("%s link %q", HeaderKeyChain, link)
			}
			s.Chain = append(s.Chain, e)
		}
	}
	return s, nil
}

// Verify reports whether the seal's key signed this message (it says
// nothing of whether the key is the hall's: Trust does).
func (s Seal) Verify(subject string, body []byte) bool {
	return s.verify(subject, body, &verified{})
}

// verify is Verify, remembering in last the signature last checked: the
// messages of one batch share it.
func (s Seal) verify(subject string, body []byte, last *verified) bool {
	msg := s.signedMessage(subject, body)
	switch {
	case msg == nil:
		return false
	case s.Format == FormatBatch && last.holds(s.Key, msg, s.Signature):
		return true
	case !ed25519.Verify(s.Key, msg, s.Signature):
		return false
	}
	*last = verified{key: s.Key, msg: msg, sig: s.Signature}
	return true
}
