package arbiter

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/chesshall/hallclock/formats/standings"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// checkTieBreaks reads a tournament's tie-break lists as standings.Parse
// does, and returns them as it writes them ("bh/c1, bh" is "BH-C1,BH"):
// a list that does not read is refused with what was wrong and what the
// regulations allow. "" is FIDE's recommended defaults.
func checkTieBreaks(list string, sections map[string]string) (string, map[string]string, error) {
	out, err := checkList("tie_breaks", list, false)
	if err != nil {
		return "", nil, err
	}
	var secs map[string]string
	for name, l := range sections {
		v, err := checkList("section_tie_breaks["+name+"]", l, false)
		if err != nil {
			return "", nil, err
		}
		if v != "" {
			if secs == nil {
				secs = map[string]string{}
			}
			secs[name] = v
		}
	}
	return out, secs, nil
}

// checkList reads one tie-break list (checkTieBreaks); field names it in
// a refusal. teams: the tournament is a team event (its TRF has team
// lines), where the team tie-breaks rank its teams.
func checkList(field, s string, teams bool) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", nil
	}
	tbs, err := standings.Parse(s)
	for i, tb := range tbs {
		if err == nil && tb.TeamOnly() && !teams {
			// A tournament of players: a team's tie-break would refuse
			// every table later, not now.
			err = &standings.ParseError{Item: i + 1, Entry: tb.String(), Msg: "a tie-break of team events (match and game points): the standings of this tournament rank players (its TRF has no team lines), want one of individuals (no :MP or :GP, not MPTS, GPTS or the extended SB)"}
		}
	}
	if err != nil {
		why := err.Error()
		if pe := (*standings.ParseError)(nil); errors.As(err, &pe) {
			why = fmt.Sprintf("entry %d %q: %s", pe.Item, pe.Entry, pe.Msg)
		}
		hint := "the FIDE Tie-Break Regulations' acronyms: " + strings.Join(standings.Names(), ", ") + "; "
		if strings.Contains(why, "APRO") {
			hint = "" // the reason lists them already
		}
		return "", hallerr.BadRequest("%s %q: %s (%smodifiers -C1, -C2, -M1, -M2; an empty list: FIDE's recommended defaults)",
			field, s, why, hint)
	}
	return standings.Format(tbs), nil
}

// SetTieBreaks changes a tournament's tie-break list, or a section's.
func (a *Service) SetTieBreaks(ctx context.Context, req *pb.SetTieBreaksRequest) (*pb.Tournament, error) {
	s := a
	t, err := s.hall.Tournament(req.GetTournament())
	if err != nil {
		return nil, err
	}
	field := "tie_breaks"
	if req.GetSection() != "" {
		field = "tie_breaks of section " + req.GetSection()
	}
	teams, err := s.teamEvent(ctx, t)
	if err != nil {
		return nil, err
	}
	list, err := checkList(field, req.GetTieBreaks(), teams)
	if err != nil {
		return nil, err
	}
	was := or(t.TieBreaks, "FIDE's defaults")
	if req.GetSection() != "" {
		was = or(t.SectionTieBreaks[req.GetSection()], "the tournament's")
	}
	now := or(list, "FIDE's defaults")
	if req.GetSection() != "" && list == "" {
		now = "the tournament's"
	}
	// The words' parameters: a list as it is, or a term the catalogues
	// write in each language (audit.now.fide, audit.was.tournament).
	params := map[string]string{"tournament": t.Name, "now": or(list, "fide"), "was": or(t.TieBreaks, "fide")}
	kind := "did.set_tie_breaks"
	if req.GetSection() != "" {
		kind = "did.set_section_tie_breaks"
		params["section"], params["now"], params["was"] = req.GetSection(), or(list, "tournament"), or(t.SectionTieBreaks[req.GetSection()], "tournament")
	}
	var rec storage.TournamentRecord
	err = s.store.Write(ctx, func(tx *storage.Tx) error {
		if rec, err = tx.SetTieBreaks(t.ID, req.GetSection(), list); err != nil {
			return err
		}
		what := fmt.Sprintf("set_tie_breaks %s: %s (was %s)", t.Name, now, was)
		if req.GetSection() != "" {
			what = fmt.Sprintf("set_tie_breaks %s section %s: %s (was %s)", t.Name, req.GetSection(), now, was)
		}
		params["text"] = what
		return tx.AddAudit(&storage.AuditRecord{Actor: auth.IdentityFrom(ctx).Actor(), What: what, Reason: req.GetReason(), Outcome: storage.OutcomeApplied,
			Kind: kind, Params: params})
	})
	if err != nil {
		return nil, err
	}
	s.hall.AddTournament(rec)
	s.hall.TouchTournament(rec.ID) // the standings on the screens follow
	return tournamentToWire(rec), nil
}
