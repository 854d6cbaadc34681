// Package fuzzframe turns a fuzzer's bytes into a sequence of protobuf
// messages and back: length-prefixed (uvarint) chunks, each one message.
// The ClockLink fuzz targets of the server and of the clock use it to
// speak whole conversations.
package fuzzframe

import (
	"encoding/binary"

	"google.golang.org/protobuf/proto"
)

// Join writes messages as length-prefixed chunks (a seed input).
func Join[M proto.Message](ms ...M) []byte {
	var out []byte
	for _, m := range ms {
		b, _ := proto.Marshal(m)
		out = binary.AppendUvarint(out, uint64(len(b)))
		out = append(out, b...)
	}
	return out
}

// Split reads up to max messages from data; a chunk that does not decode
// is skipped, a cut chunk ends the sequence.
func Split[M proto.Message](data []byte, newM func() M, max int) []M {
	var out []M
	for len(data) > 0 && len(out) < max {
		n, k := binary.Uvarint(data)
		if k <= 0 || n > uint64(len(data)-k) {
			return out
		}
		m := newM()
		if proto.Unmarshal(data[k:k+int(n)], m) == nil {
			out = append(out, m)
		}
		data = data[k+int(n):]
	}
	return out
}
