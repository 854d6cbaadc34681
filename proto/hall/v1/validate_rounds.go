package hallv1

import "fmt"

// MaxImportBytes is the most ImportRound takes of a round's files,
// content and pairings together: a TRF of 9999 players over 30 rounds is
// under 4 MB; a team file, its comments and a code page's room to spare
// fit too. The server's gRPC and JSON doors take requests this large.
const MaxImportBytes = 10 << 20

func (r *ListRoundsRequest) Validate() error { return text("tournament", r.GetTournament(), false) }

func roundRef(id, tournament string, number int32) error {
	if id == "" && (tournament == "" || number <= 0) {
		return bad("round_id", "is required, or tournament and number (from 1)")
	}
	return first(textN("round_id", id, false, MaxID), text("tournament", tournament, false))
}

func (r *GetRoundRequest) Validate() error {
	return roundRef(r.GetRoundId(), r.GetTournament(), r.GetNumber())
}

func (r *ExportRoundRequest) Validate() error {
	if _, ok := ExportFormat_name[int32(r.GetFormat())]; !ok {
		return bad("format", "%d is unknown: TRF, CSV or PGN", r.GetFormat())
	}
	return first(roundRef(r.GetRoundId(), r.GetTournament(), r.GetNumber()), id("encoding", r.GetEncoding(), false))
}

func (r *ImportRoundRequest) Validate() error {
	switch {
	case len(r.GetContent()) == 0:
		return bad("content", "is empty: an import takes the pairing program's file of the round, a TRF-16 or a round CSV")
	case len(r.GetContent())+len(r.GetPairings()) > MaxImportBytes:
		return bad("content", "and pairings are %s; an import takes at most %s", Bytes(len(r.GetContent())+len(r.GetPairings())), Bytes(MaxImportBytes))
	}
	if err := first(number("number", "round", r.GetNumber(), true), number("first_table", "table", r.GetFirstTable(), true)); err != nil {
		return err
	}
	if _, ok := ImportFormat_name[int32(r.GetFormat())]; !ok {
		return bad("format", "%d is unknown: TRF or CSV", r.GetFormat())
	}
	return first(text("tournament", r.GetTournament(), true), text("venue", r.GetVenue(), false),
		id("section", r.GetSection(), false), r.GetConfig().validate("config"), id("encoding", r.GetEncoding(), false))
}

// Bytes writes a size as people read it: "10,485,760 bytes (10.0 MiB)".
func Bytes(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if n < 1<<20 {
		return s + " bytes"
	}
	return fmt.Sprintf("%s bytes (%.1f MiB)", s, float64(n)/(1<<20))
}

func (r *SetPlanRequest) Validate() error {
	for i, t := range r.GetTables() {
		if err := number(fmt.Sprintf("tables[%d].table", i), "table", t.GetTable(), false); err != nil {
			return err
		}
		if err := id(fmt.Sprintf("tables[%d].device_id", i), t.GetDeviceId(), false); err != nil {
			return err
		}
	}
	return first(text("venue", r.GetVenue(), false), id("from_round_id", r.GetFromRoundId(), false))
}

func (r *GetPlanRequest) Validate() error { return text("venue", r.GetVenue(), false) }

func (r *SetBroadcastRequest) Validate() error {
	if r.Public == nil && r.RelayUrl == nil && r.RelayToken == nil {
		return bad("public", "nothing to set: give public, relay_url or relay_token")
	}
	return first(roundRef(r.GetRoundId(), r.GetTournament(), r.GetNumber()), text("relay_url", r.GetRelayUrl(), false),
		text("relay_token", r.GetRelayToken(), false))
}

func (r *ListBroadcastsRequest) Validate() error { return text("tournament", r.GetTournament(), false) }
