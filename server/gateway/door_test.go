package gateway_test

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/server/gateway"
	"github.com/chesshall/hallclock/server/httpdoor"
)

// A gateway's HTTP port has the hall's door: connections that say nothing
// fill its anonymous places, and its health check is still answered on
// the reserve; the refusals are counted.
func TestGatewayServesHealthChecksWhenFull(t *testing.T) {
	t.Parallel()
	g := startGateway(t, startNATS(t).URL(), gateway.Options{HTTP: httpdoor.Limits{Conns: 6, Anonymous: 2, Reserve: 2}})
	addr := strings.TrimPrefix(g.URL, "http://")
	for range 12 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
	}
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	halltest.Eventually(t, 5*time.Second, func() error {
		resp, err := client.Get(g.URL + "/healthz")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return errorf("GET /healthz = %d, want 200", resp.StatusCode)
		}
		return nil
	})
	if code, body := get(t, g.URL+"/metrics", ""); code != 200 || !strings.Contains(body, `hall_gateway_http_refused_total{reason="made_way"}`) ||
		!strings.Contains(body, `hall_gateway_http_connections{class="anonymous"} 2`) {
		t.Errorf("GET /metrics = %d without the door's counts:\n%.2000s", code, body)
	}
}
