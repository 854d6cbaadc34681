package fanout

import (
	"testing"
	"time"
)

// Ingest is behind after a sample whose worst press took over 500 ms to
// be acknowledged, until a second passes without another; then the held
// watchers are released at once.
func TestIngest(t *testing.T) {
	var m Ingest
	t0 := time.Unix(1_700_000_000, 0)
	m.ObserveAck(400 * time.Millisecond)
	m.Sample(t0)
	if m.behind() != nil {
		t.Fatal("behind after a worst of 400 ms")
	}
	m.ObserveAck(100 * time.Millisecond)
	m.ObserveAck(600 * time.Millisecond)
	m.ObserveAck(200 * time.Millisecond)
	m.Sample(t0.Add(250 * time.Millisecond))
	release := m.behind()
	if release == nil {
		t.Fatal("not behind after a worst of 600 ms")
	}
	m.Sample(t0.Add(1000 * time.Millisecond)) // nothing since: the hold runs to 1.25 s
	select {
	case <-release:
		t.Fatal("released 750 ms after the slow sample")
	default:
	}
	if m.behind() != release {
		t.Fatal("a new hold while still behind")
	}
	m.Sample(t0.Add(1250 * time.Millisecond))
	select {
	case <-release:
	default:
		t.Fatal("not released a second after the slow sample")
	}
	if m.behind() != nil {
		t.Fatal("still behind once released")
	}
}
