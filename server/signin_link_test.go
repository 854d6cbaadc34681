package server_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Who may make a sign-in link for whom: the chief for anyone but a clock,
// an arbiter for themself and their deputies (arbiter tokens within their
// own sections), a broadcast token for itself. A token out of reach is
// NOT_FOUND, as an unknown one. A link made signs in as its token.
func TestSignInLinkForWhom(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb := pb.NewArbiterClient(h.Conn(t))
	toks := map[string]string{
		"chief":     h.Chief,
		"AnnaAB":    h.Token(t, pb.Role_ROLE_ARBITER, "AnnaAB", "", "A", "B"),
		"BoA":       h.Token(t, pb.Role_ROLE_ARBITER, "BoA", "", "A"),
		"CarlC":     h.Token(t, pb.Role_ROLE_ARBITER, "CarlC", "", "C"),
		"DoraAll":   h.Token(t, pb.Role_ROLE_ARBITER, "DoraAll", ""),
		"screen":    h.Token(t, pb.Role_ROLE_BROADCAST, "screen", ""),
		"otherFeed": h.Token(t, pb.Role_ROLE_BROADCAST, "otherFeed", ""),
	}
	h.DeviceToken(t, "CLK-1")
	for _, c := range []struct {
		maker, forToken string
		want            codes.Code
	}{
		{"chief", "BoA", codes.OK},
		{"chief", "screen", codes.OK},
		{"chief", "", codes.OK}, // the chief's own other device
		{"chief", "CLK-1", codes.InvalidArgument},
		{"chief", "nobody", codes.NotFound},
		{"AnnaAB", "", codes.OK},
		{"AnnaAB", "AnnaAB", codes.OK},
		{"AnnaAB", "BoA", codes.OK}, // a deputy of section A
		{"AnnaAB", "CarlC", codes.NotFound},
		{"AnnaAB", "DoraAll", codes.NotFound}, // more sections than Anna's
		{"AnnaAB", "chief arbiter", codes.NotFound},
		{"AnnaAB", "screen", codes.NotFound},
		{"AnnaAB", "CLK-1", codes.NotFound}, // a clock, as any token out of reach
		{"BoA", "AnnaAB", codes.NotFound},
		{"DoraAll", "CarlC", codes.OK},
		{"screen", "", codes.OK},
		{"screen", "otherFeed", codes.NotFound},
	} {
		ctx := halltest.Ctx(context.Background(), toks[c.maker])
		l, err := arb.IssueSignInLink(ctx, &pb.IssueSignInLinkRequest{ForToken: c.forToken, BaseUrl: "http://hall.test:7080/"})
		if status.Code(err) != c.want {
			t.Errorf("%s makes a link for %q: %v, want %v", c.maker, c.forToken, err, c.want)
			continue
		}
		if err != nil {
			if c.want == codes.NotFound && strings.Contains(err.Error(), "section") {
				t.Errorf("%s makes a link for %q: the refusal %q tells of sections", c.maker, c.forToken, err)
			}
			continue
		}
		want := c.forToken
		if want == "" {
			want = map[string]string{"chief": "chief arbiter"}[c.maker]
			if want == "" {
				want = c.maker
			}
		}
		if l.GetLabel() != want || !strings.HasPrefix(l.GetUrl(), "http://hall.test:7080/signin?code=sc_") ||
			l.GetUrl() != "http://hall.test:7080"+l.GetPath() || !strings.HasPrefix(l.GetQrSvg(), "<svg") {
			t.Errorf("%s makes a link for %q: %v; want one for %s with its URL and QR code", c.maker, c.forToken, l, want)
		}
	}
	ctx := halltest.Ctx(context.Background(), toks["AnnaAB"])
	if _, err := arb.IssueSignInLink(ctx, &pb.IssueSignInLinkRequest{BaseUrl: "javascript:alert(1)"}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("a link with base_url javascript: = %v, want InvalidArgument", err)
	}
	// The deputy's link signs a browser in as the deputy, once.
	l, err := arb.IssueSignInLink(ctx, &pb.IssueSignInLinkRequest{ForToken: "BoA"})
	if err != nil || l.GetUrl() != "" || l.GetQrSvg() != "" {
		t.Fatalf("a link without base_url: %v, %v; want the path only", l, err)
	}
	w := newWeb(t, h)
	code := strings.TrimPrefix(l.GetPath(), "/signin?code=")
	if resp, _ := w.do("POST", "/signin", url.Values{"code": {code}}, nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("signing in with the deputy's link = %d", resp.StatusCode)
	}
	if in := w.session(); in.Label != "BoA" || strings.Join(in.Sections, ",") != "A" {
		t.Errorf("the deputy's link signed in as %+v, want BoA of section A", in)
	}
}
