package arbiter

import (
	"context"
	"fmt"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// Play with visually disabled players (FIDE 2018 and 2023 Appendix D,
// 2009 Appendix E): a board set to be played under the appendix, an
// announcement at a player's request, and the sign-in link of a player's
// assistant (package hall does the work; the rules judge it).

func (a *Service) SetBlindPlay(ctx context.Context, req *pb.SetBlindPlayRequest) (*pb.Board, error) {
	b, err := a.boardFor(ctx, req.GetBoardId())
	if err != nil {
		return nil, err
	}
	if err := b.SetBlind(ctx, auth.IdentityFrom(ctx), wire.BlindPlay(req.GetBlindPlay()), req.GetReason()); err != nil {
		return nil, err
	}
	return a.boardWire(ctx, b)
}

func (a *Service) Announce(ctx context.Context, req *pb.AnnounceRequest) (*pb.AnnounceResponse, error) {
	b, err := a.boardFor(ctx, req.GetBoardId())
	if err != nil {
		return nil, err
	}
	side, err := wire.RulesSide(req.GetSide())
	if err != nil {
		return nil, hallerr.BadRequest("side: %v", err)
	}
	return b.Announce(ctx, auth.IdentityFrom(ctx), side, req.GetReason())
}

func (a *Service) IssueAssistantLink(ctx context.Context, req *pb.IssueAssistantLinkRequest) (*pb.IssueAssistantLinkResponse, error) {
	rec, secret, err := a.issueAssistant(ctx, req.GetBoardId(), req.GetSide(), req.GetLabel())
	if err != nil {
		return nil, err
	}
	code, err := a.sessions.IssueCode(ctx, secret)
	if err != nil {
		return nil, err
	}
	return &pb.IssueAssistantLinkResponse{TokenId: rec.ID, Label: rec.Label, SigninPath: "/signin?code=" + code,
		ExpiresUnixMs: a.clock.Now().Add(auth.CodeTTL).UnixMilli(), BoardId: rec.BoardID, Side: req.GetSide()}, nil
}

// issueAssistant issues the token of the assistant of side on a board the
// caller may act on, which the board must give him: played under the
// appendix, with an assistant for that side (D.2.10, or a sighted
// player's, D.2.11). label "" names him by the board and side.
func (a *Service) issueAssistant(ctx context.Context, boardID string, s pb.Side, label string) (storage.TokenRecord, string, error) {
	b, err := a.boardFor(ctx, boardID)
	if err != nil {
		return storage.TokenRecord{}, "", err
	}
	side, err := wire.RulesSide(s)
	if err != nil {
		return storage.TokenRecord{}, "", hallerr.BadRequest("side: %v: name the player the assistant sits with", err)
	}
	rec, err := b.Record(ctx)
	if err != nil {
		return storage.TokenRecord{}, "", err
	}
	if rules.AssistantDuties(rec.Config, side) == nil {
		t, terr := rules.BlindTextOf(rec.Config.Ruleset)
		if terr != nil {
			return storage.TokenRecord{}, "", terr
		}
		return storage.TokenRecord{}, "", &rules.Refusal{What: "assistant", Code: rules.RefusedNotApplicable, Rule: t.Assistant,
			Reason: fmt.Sprintf("board %s gives %s no assistant (play under the appendix: %s); set it first (SetBlindPlay, hallctl blind)",
				boardID, side, blindOrNone(rec.Config.Blind))}
	}
	if label == "" {
		number, tournament := a.hall.RoundInfo(rec.RoundID)
		label = fmt.Sprintf("%s %d.%s%d %s", tournament, number, rec.Section, rec.Number, side)
	}
	return a.tokens.IssueAssistant(ctx, label, rec.ID, side.String(), auth.IdentityFrom(ctx).Actor())
}

func blindOrNone(b rules.BlindPlay) string {
	if s := b.String(); s != "" {
		return s
	}
	return "none"
}

// wireSideName is a token's side ("white", "black", "") on the wire.
func wireSideName(s string) pb.Side {
	side, err := rules.ParseSide(s)
	if err != nil {
		return pb.Side_SIDE_UNSPECIFIED
	}
	return wire.Side(side)
}
