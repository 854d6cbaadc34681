package wire

import (
	"github.com/chesshall/hallclock/formats/announce"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// Announce builds what a talking clock says to player to of the board in
// state st, projected to the instant of the announcement: the completed
// moves and the time used by both (FIDE 2018 D.2.6.1, D.2.10.4), in to's
// language (rules.BlindPlayer.Language) when the clock's voice speaks it
// (voices, from its Hello), in English otherwise. The caller fills
// announce_id, board_id and requested_by.
func Announce(st rules.State, to rules.Side, voices []string) *pb.Announce {
	f := announce.FromState(st)
	lang := announce.Choose(st.Config.Blind.Players[to].Language, voices)
	a := announce.Say(lang, f)
	return &pb.Announce{
		To: Side(to), Language: a.Language, Text: a.Text,
		WhiteMoves: int32(f.Moves[rules.White]), BlackMoves: int32(f.Moves[rules.Black]),
		WhiteUsedMs: f.UsedMs[rules.White], BlackUsedMs: f.UsedMs[rules.Black],
	}
}
