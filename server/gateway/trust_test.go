package gateway_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/server/gateway"
)

// Only what the hall wrote reaches viewers. On a NATS server that lets
// anyone write (no authorization), forged hall settings making every
// round public — unsigned, signed by another key, and a genuine message's
// signature on altered content — are refused, each counted in
// hall_gateway_refused_total, and never applied: the private round stays
// private; the hall's own messages after them are applied.
func TestGatewayRefusesWhatTheHallDidNotWrite(t *testing.T) {
	n := startNATS(t)
	h := startPublishedHall(t, n.URL(), "bergen", halltest.InDir(tmpDir(t)))
	g := startGateway(t, n.URL(), gateway.Options{Halls: []string{"bergen"}})
	round := h.Round(t, "180+2", 1)[0].GetRoundId()
	g.caughtUp(t, h)
	halltest.Eventually(t, 10*time.Second, func() error {
		if code, _ := get(t, g.URL+"/api/pgn/round/"+round, ""); code != http.StatusUnauthorized {
			return fmt.Errorf("anonymous PGN of a private round: %d, want 401", code)
		}
		return nil
	})

	ctx := context.Background()
	nc := connect(t, n.URL())
	js, _ := jetstream.New(nc)
	s, err := js.Stream(ctx, hallstream.StreamName("bergen"))
	if err != nil {
		t.Fatal(err)
	}
	genuine, err := s.GetLastMsgForSubject(ctx, "hall.bergen.meta.hall")
	if err != nil {
		t.Fatal(err)
	}
	const subject, public = "hall.bergen.meta.hall", `{"delay_ms":0,"all_public":true}`
	_, thief, _ := ed25519.GenerateKey(rand.Reader)
	forge := func(seal func(h nats.Header, body []byte)) *nats.Msg {
		m := nats.NewMsg(subject)
		m.Data = []byte(public)
		seal(m.Header, m.Data)
		return m
	}
	forgeries := map[string]*nats.Msg{
		"unsigned": forge(func(h nats.Header, _ []byte) { h.Set(hallstream.HeaderOutbox, "100000") }),
		"signed by another key": forge(func(h nats.Header, body []byte) {
			hallstream.Signer{Key: thief}.Seal(h, subject, 100001, false, body)
		}),
		"the hall's signature on other content": forge(func(h nats.Header, _ []byte) {
			for k, v := range genuine.Header {
				if strings.HasPrefix(k, "Hall-") {
					h[k] = v
				}
			}
		}),
	}
	for name, m := range forgeries {
		if _, err := js.PublishMsg(ctx, m); err != nil {
			t.Fatalf("publishing the forgery %s: %v", name, err)
		}
	}
	after := h.NewRound(t, "after the forgeries", 1, nil).GetRoundId()
	halltest.Eventually(t, 10*time.Second, func() error {
		if code, _ := get(t, g.URL+"/api/pgn/round/"+after, ""); code != http.StatusUnauthorized {
			return fmt.Errorf("the hall's round after the forgeries: %d, want 401 (known, private)", code)
		}
		return nil
	})
	halltest.Eventually(t, 10*time.Second, func() error {
		_, metrics := get(t, g.URL+"/metrics", "")
		if want := fmt.Sprintf(`hall_gateway_refused_total{hall="bergen"} %d`, len(forgeries)); !strings.Contains(metrics, want) {
			return fmt.Errorf("metrics do not say %s", want)
		}
		return nil
	})
	if code, _ := get(t, g.URL+"/api/pgn/round/"+round, ""); code != http.StatusUnauthorized {
		t.Errorf("after the forgeries, anonymous PGN of the private round: %d, want 401", code)
	}
}

// A message marked Hall-Start after others (the hall restored from a
// backup started its stream again) replaces what the gateway had of the
// hall: a round only the replaced history had is gone; the stream's new
// history is served, still checked against the same key.
func TestGatewayStartsTheHallAgain(t *testing.T) {
	n := startNATS(t)
	nc := connect(t, n.URL())
	js, _ := jetstream.New(nc)
	ctx := context.Background()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: hallstream.StreamName("oslo"), Subjects: []string{hallstream.Subjects("oslo")}}); err != nil {
		t.Fatal(err)
	}
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	signer := hallstream.Signer{Key: key}
	var outbox uint64
	publish := func(m hallstream.Message, start bool) {
		t.Helper()
		subject, body, err := hallstream.Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		outbox++
		msg := nats.NewMsg(subject)
		msg.Data = body
		signer.Seal(msg.Header, subject, outbox, start, body)
		if _, err := js.PublishMsg(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	round := func(id string, start bool) {
		publish(hallstream.Message{Hall: "oslo", Kind: hallstream.KindTournament, ID: "t-" + id, Tournament: &hallstream.Tournament{ID: "t-" + id, Name: id}}, start)
		publish(hallstream.Message{Hall: "oslo", Kind: hallstream.KindRound, ID: id, Round: &hallstream.Round{ID: id, TournamentID: "t-" + id, Number: 1, Public: true}}, false)
	}
	g := startGateway(t, n.URL(), gateway.Options{Halls: []string{"oslo"}})
	known := func(id string) bool {
		code, _ := get(t, g.URL+"/api/pgn/round/"+id, "")
		return code != http.StatusNotFound
	}
	round("before", true)
	round("lost", false)
	halltest.Eventually(t, 10*time.Second, func() error {
		if !known("before") || !known("lost") {
			return fmt.Errorf("the gateway does not have the hall's rounds yet")
		}
		return nil
	})
	round("before", true) // the restored hall, whole
	round("after", false)
	halltest.Eventually(t, 10*time.Second, func() error {
		if !known("after") {
			return fmt.Errorf("the gateway does not have the restored hall's round yet")
		}
		return nil
	})
	if !known("before") || known("lost") {
		t.Errorf("after the hall started again: round before known %v (want true), round lost known %v (want false)", known("before"), known("lost"))
	}
	if _, metrics := get(t, g.URL+"/metrics", ""); !strings.Contains(metrics, `hall_gateway_refused_total{hall="oslo"} 0`) {
		t.Errorf("the restored hall's messages were refused:\n%s", metrics)
	}
}
