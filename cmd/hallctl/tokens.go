package main

import (
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

func (c *cli) token(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: token issue|revoke|list", errUsage)
	}
	switch args[0] {
	case "list":
		r, err := c.arb.ListTokens(c.ctx, &pb.ListTokensRequest{})
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tROLE\tLABEL\tDEVICE\tSECTIONS\tREVOKED")
		for _, t := range r.GetTokens() {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%v\n", t.GetTokenId(), strings.TrimPrefix(t.GetRole().String(), "ROLE_"), t.GetLabel(),
				t.GetDeviceId(), strings.Join(t.GetSections(), ","), t.GetRevoked())
		}
		return tw.Flush()
	case "revoke":
		if err := need(args[1:], 1, "token revoke TOKEN_ID"); err != nil {
			return err
		}
		if _, err := c.arb.RevokeToken(c.ctx, &pb.RevokeTokenRequest{TokenId: args[1]}); err != nil {
			return err
		}
		fmt.Fprintf(c.out, "revoked %s: it no longer opens the hall, and its open streams are closed\n", args[1])
		return nil
	case "issue":
		var dev, sections string
		pos, err := parse(args[1:], func(fs *flag.FlagSet) {
			fs.StringVar(&dev, "device", "", "")
			fs.StringVar(&sections, "sections", "", "")
		})
		if err != nil {
			return err
		}
		if err := need(pos, 2, "token issue ROLE LABEL"); err != nil {
			return err
		}
		roles := map[string]pb.Role{"device": pb.Role_ROLE_DEVICE, "arbiter": pb.Role_ROLE_ARBITER, "chief": pb.Role_ROLE_CHIEF_ARBITER, "broadcast": pb.Role_ROLE_BROADCAST}
		role, ok := roles[pos[0]]
		if !ok {
			return fmt.Errorf("%w: role %q: device, arbiter, chief or broadcast", errUsage, pos[0])
		}
		req := &pb.IssueTokenRequest{Role: role, Label: pos[1], DeviceId: dev}
		if sections != "" {
			req.Sections = strings.Split(sections, ",")
		}
		r, err := c.arb.IssueToken(c.ctx, req)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.out, "%s %s\n", r.GetTokenId(), r.GetToken())
		return nil
	}
	return fmt.Errorf("%w: token issue|revoke|list", errUsage)
}
