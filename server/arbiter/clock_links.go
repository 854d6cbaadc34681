package arbiter

import (
	"context"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/enrol"
	"github.com/chesshall/hallclock/server/hallerr"
)

// IssueClockLink makes a one-time clock link (package enrol): the browser
// that spends it becomes a tablet clock of the board or the table, with
// the link's QR code when the request says where the web pages are.
func (a *Service) IssueClockLink(ctx context.Context, req *pb.IssueClockLinkRequest) (*pb.EnrolLink, error) {
	if a.opts.Enrol == nil {
		return nil, hallerr.ErrUnknownMethod
	}
	base, err := baseURL(req.GetBaseUrl())
	if err != nil {
		return nil, err
	}
	l, err := a.opts.Enrol.Issue(ctx, auth.IdentityFrom(ctx), enrol.Target{BoardID: req.GetBoardId(), Venue: req.GetVenue(), Table: int(req.GetTable())})
	if err != nil {
		return nil, err
	}
	out := &pb.EnrolLink{Path: enrol.Path + "?code=" + l.Code, ExpiresUnixMs: l.Expires.UnixMilli(), BoardId: req.GetBoardId(),
		Table: req.GetTable(), Venue: req.GetVenue(), What: l.What}
	out.Url, out.QrSvg, err = linkURL(base, out.Path)
	return out, err
}
