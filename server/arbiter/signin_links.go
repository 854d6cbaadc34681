package arbiter

import (
	"context"
	"net/url"
	"strings"

	"github.com/chesshall/hallclock/internal/qr"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
)

// IssueSignInLink makes a one-time sign-in link for the caller's own token
// or one they may make a link for (auth.MayLinkFor), with the link's QR
// code when the request says where the web pages are.
func (a *Service) IssueSignInLink(ctx context.Context, req *pb.IssueSignInLinkRequest) (*pb.SignInLink, error) {
	caller := auth.IdentityFrom(ctx)
	target := caller
	if ref := req.GetForToken(); ref != "" {
		var err error
		if target, err = a.tokens.Find(ref); err != nil {
			return nil, err
		}
	}
	if err := auth.MayLinkFor(caller, target); err != nil {
		return nil, err
	}
	base, err := baseURL(req.GetBaseUrl())
	if err != nil {
		return nil, err
	}
	code, expires, err := a.sessions.IssueLink(ctx, target.TokenID, caller.Actor())
	if err != nil {
		return nil, err
	}
	out := &pb.SignInLink{Path: "/signin?code=" + code, ExpiresUnixMs: expires.UnixMilli(), TokenId: target.TokenID, TimeZone: a.zoneName(),
		Label: target.Label, Role: target.Role.Wire(), Sections: target.Sections}
	out.Url, out.QrSvg, err = linkURL(base, out.Path)
	return out, err
}

// baseURL checks a request's base_url, where people open the web pages,
// and returns it without its trailing slash ("" if none).
func baseURL(raw string) (string, error) {
	base := strings.TrimRight(raw, "/")
	if base != "" {
		u, err := url.Parse(base)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return "", hallerr.BadRequest("base_url %q: want where the web pages are, such as https://hall.local:7080", raw)
		}
	}
	return base, nil
}

// linkURL is a one-time link's url and its QR code (SVG), for a phone's
// camera; both "" without a base.
func linkURL(base, path string) (string, string, error) {
	if base == "" {
		return "", "", nil
	}
	svg, err := qr.SVG(base + path)
	return base + path, svg, err
}
