package sim

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/internal/wire"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// The boards of a round played under the rules for visually disabled
// players (RoundSpec.BlindPlay, FIDE 2018 Appendix D): the arbiter sets
// each board BlindBoards names when the round is set up, and a visually
// disabled player with an assistant has him at the board (D.2.10). The
// assistant holds a token of his own, scoped to that board and player
// (ROLE_ASSISTANT), and does through the hall what the hall lets him:
// he presses the clock for his player once the move is made, the
// opponent's clock starting (D.2.10.3), and asks for the moves and the
// time used when the player wants them (D.2.10.4) — the board's talking
// clock says them. His token is revoked when the round is over.

// assistant is a visually disabled player's assistant at a board.
type assistant struct {
	side    rules.Side
	tokenID string
	token   string
}

// blindBoard sets board b (number n of a round of spec) up as spec says
// for play under the appendix, and returns its assistant (nil: none).
func (f *Fleet) blindBoard(ctx context.Context, spec *checked, b *hallv1.Board, n int) (*assistant, error) {
	bp := spec.boardBlind(n)
	if !bp.Applies() {
		return nil, nil
	}
	if want := wire.WireBlindPlay(bp); spec.BlindBoards > 0 && !proto.Equal(b.GetConfig().GetBlindPlay(), want) {
		_, err := call(ctx, f, func(ctx context.Context) (*hallv1.Board, error) {
			return f.arb.SetBlindPlay(ctx, &hallv1.SetBlindPlayRequest{BoardId: b.GetBoardId(), BlindPlay: want,
				Reason: "the player plays under the rules for visually disabled players (Appendix D)"})
		})
		if err != nil {
			return nil, fmt.Errorf("sim: board %d: play under the appendix: %w", n, err)
		}
	}
	for s, p := range bp.Players {
		if !p.VisuallyDisabled || !p.Assistant {
			continue
		}
		side := rules.Side(s)
		player := b.GetWhite()
		if side == rules.Black {
			player = b.GetBlack()
		}
		resp, err := call(ctx, f, func(ctx context.Context) (*hallv1.IssueTokenResponse, error) {
			return f.arb.IssueToken(ctx, &hallv1.IssueTokenRequest{Role: hallv1.Role_ROLE_ASSISTANT, BoardId: b.GetBoardId(),
				Side: wireSide(side), Label: fmt.Sprintf("assistant of %s (board %d)", player.GetName(), n)})
		})
		if err != nil {
			return nil, fmt.Errorf("sim: board %d: the assistant's token: %w", n, err)
		}
		return &assistant{side: side, tokenID: resp.GetTokenId(), token: resp.GetToken()}, nil
	}
	return nil, nil
}

// dismiss revokes an assistant's token: his game is over.
func (f *Fleet) dismiss(ctx context.Context, a *assistant) {
	_, err := call(ctx, f, func(ctx context.Context) (*hallv1.RevokeTokenResponse, error) {
		return f.arb.RevokeToken(ctx, &hallv1.RevokeTokenRequest{TokenId: a.tokenID})
	})
	if err != nil {
		f.log.Warn("an assistant's token was not revoked", "token", a.tokenID, "err", err)
	}
}

// The assistant's action did not reach the clock.
var (
	errNotPressed = errors.New("sim: the assistant's press was not applied")
	errNotClaimed = errors.New("sim: the assistant's flag claim was not applied")
)

// assistedFace is a board's clock where a visually disabled player's
// assistant presses for him and asks the hall for his announcements; the
// opponent, and everything else, reach the clock as before.
type assistedFace struct {
	clockFace
	t *table
	a *assistant
}

func (c assistedFace) press(ctx context.Context, side rules.Side, san, fen string) error {
	if side != c.a.side {
		return c.clockFace.press(ctx, side, san, fen)
	}
	if !c.t.virtual {
		// He presses once the hall has the opponent's move: the clock
		// on the table sends it in the meantime.
		c.t.synced(ctx, c.t.real(arbiterWalk))
	}
	a := &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_PRESS, Side: wireSide(side), San: san, Fen: fen}
	if !c.t.command(ctx, c.a.token, a, "the assistant presses the clock for the player, his move made (D.2.10.3)") {
		return errNotPressed
	}
	c.t.f.stats.assistedPresses.Add(1)
	return nil
}

// local is a player's own action on the clock; the assistant claims the
// opponent's flag for his player (D.2.10.5).
func (c assistedFace) local(ctx context.Context, e rules.Event) error {
	if e.Kind != rules.KindFlagClaim || e.Side != c.a.side {
		return c.clockFace.local(ctx, e)
	}
	a := &hallv1.ClockAction{Kind: hallv1.ActionKind_ACTION_KIND_FLAG_CLAIM, Side: wireSide(e.Side)}
	if !c.t.command(ctx, c.a.token, a, "the assistant claims the opponent's flag (D.2.10.5)") {
		return errNotClaimed
	}
	return nil
}

func (c assistedFace) announce(ctx context.Context, side rules.Side) error {
	if side != c.a.side {
		return c.clockFace.announce(ctx, side)
	}
	_, err := callAs(ctx, c.t.f, c.a.token, func(ctx context.Context) (*hallv1.AnnounceResponse, error) {
		return c.t.f.arb.Announce(ctx, &hallv1.AnnounceRequest{BoardId: c.t.board, Side: wireSide(side),
			Reason: "the player asked his assistant (D.2.10.4)"})
	})
	if err != nil {
		return err
	}
	c.t.f.stats.assistedAnnouncements.Add(1)
	return nil
}
