package main

import (
	"flag"
	"fmt"
	"strconv"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// clockLink makes a one-time clock link for a board or a table of the
// hall plan and prints it with its QR code: the tablet or phone that opens
// it and presses its button becomes that clock.
func (c *cli) clockLink(args []string) error {
	var venue, web string
	var noQR bool
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.StringVar(&venue, "venue", "", "")
		fs.StringVar(&web, "web", c.web, "")
		fs.BoolVar(&noQR, "no-qr", false, "")
	})
	if err != nil {
		return err
	}
	if err := need(pos, 1, "clock-link BOARD|TABLE [-venue V] [-web URL] [-no-qr]"); err != nil {
		return err
	}
	req := &pb.IssueClockLinkRequest{Venue: venue, BaseUrl: web}
	if t, err := strconv.Atoi(pos[0]); err == nil {
		req.Table = int32(t)
	} else if req.BoardId, err = c.boardID(pos[0]); err != nil {
		return err
	}
	l, err := c.arb.IssueClockLink(c.ctx, req)
	if err != nil {
		return err
	}
	loc := c.zone("")
	until := at(l.GetExpiresUnixMs(), "15:04:05", loc)
	if loc != time.UTC {
		until += " (" + loc.String() + ")"
	}
	fmt.Fprintf(c.out, "%s\n\nmakes one tablet or phone the clock of %s, once, until %s.\n", l.GetUrl(), l.GetWhat(), until)
	fmt.Fprintln(c.out, "Open it on the device at the table and press its button: the device gets a clock token of its own")
	fmt.Fprintln(c.out, "(hallctl devices lists it as a tablet; revoke its token to end it).")
	return c.printQR(l.GetUrl(), noQR)
}
