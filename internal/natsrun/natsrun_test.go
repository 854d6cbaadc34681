package natsrun

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/chesshall/hallclock/internal/testkit/longtest"
)

// A three-node cluster keeps an R3 stream through a node's restart and
// through all of them stopped and started again.
func TestClusterKeepsAStream(t *testing.T) {
	longtest.Skip(t)
	c, err := StartCluster("test", t.TempDir(), 3)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Shutdown()
	nc, err := nats.Connect(c.URLs(), nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx := context.Background()
	publish := func(what string, want uint64) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			ack, err := js.Publish(cctx, "s.x", []byte(what))
			cancel()
			if err == nil {
				if ack.Sequence != want {
					t.Fatalf("%s: stored at %d, want %d", what, ack.Sequence, want)
				}
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %v", what, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	began := time.Now()
	deadline := time.Now().Add(30 * time.Second)
	for {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err = js.CreateStream(cctx, jetstream.StreamConfig{Name: "S", Subjects: []string{"s.>"}, Replicas: 3})
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("the stream was created %v after the cluster started", time.Since(began).Round(time.Millisecond))
	publish("first", 1)
	c.Nodes[1].Shutdown()
	publish("with a node down", 2)
	if err := c.Nodes[1].Restart(); err != nil {
		t.Fatal(err)
	}
	c.Shutdown()
	start := time.Now()
	for _, n := range c.Nodes {
		if err := n.Restart(); err != nil {
			t.Fatal(err)
		}
	}
	publish("after all restarted", 3)
	t.Logf("the stream took %v to take messages again after the whole cluster restarted", time.Since(start).Round(time.Millisecond))
}
