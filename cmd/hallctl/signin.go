package main

import (
	"flag"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/chesshall/hallclock/internal/qr"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// webBase is where the hall's web pages are: HALL_WEB if set, else the
// gRPC address's host on the web port's default (7080), over HTTPS when
// the gRPC connection uses TLS (the server serves both with one
// certificate).
func webBase(env, addr string, tls bool) string {
	if env != "" {
		return strings.TrimRight(env, "/")
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if host == "" {
		host = "localhost"
	}
	scheme := "http"
	if tls {
		scheme = "https"
	}
	return scheme + "://" + net.JoinHostPort(host, "7080")
}

// signInLink makes a one-time sign-in link and prints it with its QR code,
// for a phone's camera.
func (c *cli) signInLink(args []string) error {
	var forToken, web string
	var noQR bool
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.StringVar(&forToken, "for", "", "")
		fs.StringVar(&web, "web", c.web, "")
		fs.BoolVar(&noQR, "no-qr", false, "")
	})
	if err != nil {
		return err
	}
	if err := need(pos, 0, "signin-link [-for TOKEN] [-web URL] [-no-qr]"); err != nil {
		return err
	}
	l, err := c.arb.IssueSignInLink(c.ctx, &pb.IssueSignInLinkRequest{ForToken: forToken, BaseUrl: web})
	if err != nil {
		return err
	}
	who := l.GetLabel() + " (" + strings.ToLower(strings.TrimPrefix(l.GetRole().String(), "ROLE_"))
	if len(l.GetSections()) > 0 {
		who += ", sections " + strings.Join(l.GetSections(), ", ")
	}
	who += ")"
	loc := c.zone(l.GetTimeZone())
	until := at(l.GetExpiresUnixMs(), "15:04:05", loc)
	if loc != time.UTC {
		until += " (" + loc.String() + ")"
	}
	fmt.Fprintf(c.out, "%s\n\nsigns one browser in as %s, once, until %s.\n", l.GetUrl(), who, until)
	fmt.Fprintln(c.out, "Opening it shows a button; only the button signs in. Send it to that person only.")
	return c.printQR(l.GetUrl(), noQR)
}

// printQR prints a one-time link's QR code, for a phone's camera, unless
// noQR.
func (c *cli) printQR(url string, noQR bool) error {
	if noQR {
		return nil
	}
	code, err := qr.Terminal(url)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "\n%s", code)
	return nil
}
