// Package wirewords converts the hall's words for people (formats/words)
// to and from the contract's Words. It stands apart from internal/wire,
// which the browser clock links: the words' catalogues are the hall's and
// its pages', and the clock need not carry them.
package wirewords

import (
	"github.com/chesshall/hallclock/formats/words"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Words is m for the contract, with its English words as text; nil for a
// message that says nothing.
func Words(m words.Message) *pb.Words {
	if m.IsZero() {
		return nil
	}
	return &pb.Words{Kind: m.Kind, Params: m.Params, Text: m.English()}
}

// Message is the message of w (zero for nil).
func Message(w *pb.Words) words.Message {
	if w == nil || w.GetKind() == "" {
		return words.Message{}
	}
	return words.Message{Kind: w.GetKind(), Params: w.GetParams()}
}
