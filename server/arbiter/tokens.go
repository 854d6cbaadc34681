package arbiter

import (
	"context"
	"strings"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
)

func (a *Service) IssueToken(ctx context.Context, req *pb.IssueTokenRequest) (*pb.IssueTokenResponse, error) {
	role, err := auth.RoleFromWire(req.GetRole())
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.GetLabel()) == "" {
		return nil, hallerr.BadRequest("a token needs a label saying who holds it")
	}
	if role == auth.RoleAssistant {
		rec, secret, err := a.issueAssistant(ctx, req.GetBoardId(), req.GetSide(), req.GetLabel())
		if err != nil {
			return nil, err
		}
		return &pb.IssueTokenResponse{TokenId: rec.ID, Token: secret}, nil
	}
	rec, secret, err := a.tokens.Issue(ctx, role, req.GetLabel(), req.GetDeviceId(), req.GetSections(), auth.IdentityFrom(ctx).Actor())
	if err != nil {
		return nil, err
	}
	return &pb.IssueTokenResponse{TokenId: rec.ID, Token: secret}, nil
}

func (a *Service) RevokeToken(ctx context.Context, req *pb.RevokeTokenRequest) (*pb.RevokeTokenResponse, error) {
	if req.GetTokenId() == "" {
		return nil, hallerr.BadRequest("no token id")
	}
	if err := a.tokens.Revoke(ctx, req.GetTokenId(), auth.IdentityFrom(ctx).Actor()); err != nil {
		return nil, err
	}
	a.streams.Cut(req.GetTokenId())
	return &pb.RevokeTokenResponse{}, nil
}

func (a *Service) ListTokens(ctx context.Context, _ *pb.ListTokensRequest) (*pb.ListTokensResponse, error) {
	recs, err := a.store.Tokens(ctx)
	if err != nil {
		return nil, err
	}
	out := &pb.ListTokensResponse{}
	for _, r := range recs {
		out.Tokens = append(out.Tokens, &pb.TokenInfo{TokenId: r.ID, Role: auth.Role(r.Role).Wire(), Label: r.Label,
			DeviceId: r.DeviceID, Sections: r.Sections, CreatedUnixMs: r.Created.UnixMilli(), Revoked: !r.Active(),
			BoardId: r.BoardID, Side: wireSideName(r.Side)})
	}
	return out, nil
}
