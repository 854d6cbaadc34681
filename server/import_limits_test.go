package server_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/chesshall/hallclock/formats/trf"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// bigOpen writes a TRF of n players (n odd) who played rounds 1 to
// played, each round j against j+n/2, White winning, the last player
// with the pairing-allocated bye; and the pairing output of the next
// round, the same pairs.
func bigOpen(t *testing.T, n, played int) (content, pairings []byte) {
	t.Helper()
	half := n / 2
	f := &trf.File{Header: []string{"012 Big Open", "XXR 11"}}
	for i := 1; i <= n; i++ {
		p := trf.Player{StartRank: i, Sex: "m", Name: fmt.Sprintf("Player%04d, Test", i), Rating: 2800 - i/5, Federation: "NOR",
			FideID: fmt.Sprint(1_000_000 + i)}
		for r := 1; r <= played; r++ {
			switch {
			case i == n:
				p.Rounds = append(p.Rounds, trf.Game{Colour: trf.NoColour, Result: trf.PairingBye})
				p.Points++
			case i <= half:
				p.Rounds = append(p.Rounds, trf.Game{Opponent: i + half, Colour: trf.White, Result: trf.Win})
				p.Points++
			default:
				p.Rounds = append(p.Rounds, trf.Game{Opponent: i - half, Colour: trf.Black, Result: trf.Loss})
			}
		}
		f.Players = append(f.Players, p)
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	var ps strings.Builder
	fmt.Fprintf(&ps, "%d\n", half+1)
	for i := 1; i <= half; i++ {
		fmt.Fprintf(&ps, "%d %d\n", i, i+half)
	}
	fmt.Fprintf(&ps, "%d 0\n", n)
	return b.Bytes(), []byte(ps.String())
}

// A 9,999-player TRF (the most its four-digit start ranks hold), with its
// history, imports: 4,999 boards and the bye. A file larger than an
// import takes is refused saying how large it is and what is taken — over
// gRPC and through the web pages' bridge — instead of gRPC's bare
// RESOURCE_EXHAUSTED at 4 MiB.
//
// Writing 4,999 boards takes five seconds under -race, the most of any
// test of the package: the default pass imports 999 players (499 boards
// and the bye) through the same path, the long pass (HALL_LONG, in CI)
// the whole 9,999.
func TestImportSizes(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	if _, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Big Open", DefaultConfig: &pb.ClockConfig{TimeControl: "5400+30"}}); err != nil {
		t.Fatal(err)
	}
	players := longtest.Scale(999, 9999)
	content, pairs := bigOpen(t, players, 3)
	imp, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Big Open", Content: content, Pairings: pairs, FirstTable: 1})
	if err != nil {
		t.Fatalf("importing %d players (%d bytes): %v", players, len(content), err)
	}
	if imp.GetRound().GetNumber() != 4 || len(imp.GetBoards()) != players/2 || len(imp.GetRound().GetByes()) != 1 {
		t.Errorf("round %d, %d boards, %d byes; want round 4, %d boards and a bye", imp.GetRound().GetNumber(), len(imp.GetBoards()), len(imp.GetRound().GetByes()), players/2)
	}

	big := bytes.Repeat([]byte("### a comment line of a file far too large for a tournament\n"), 10_500_000/60)
	want := fmt.Sprintf("content: and pairings are %s; an import takes at most 10,485,760 bytes (10.0 MiB)", pb.Bytes(len(big)))
	_, err = arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Big Open", Content: big})
	if code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), want) {
		t.Errorf("a file of %d bytes: %v; want InvalidArgument saying %q", len(big), err, want)
	}

	w := newWeb(t, h)
	// Base64 needs no escaping in JSON; %q would walk the 14 MB rune by rune.
	body := `{"tournament":"Big Open","content":"` + base64.StdEncoding.EncodeToString(big) + `"}`
	status, resp := w.call("ImportRound", body, map[string]string{"Authorization": "Bearer " + h.Chief})
	var e struct{ Code, Message string }
	_ = json.Unmarshal([]byte(resp), &e)
	if status != 400 || e.Code != "InvalidArgument" || !strings.Contains(e.Message, want) {
		t.Errorf("the same file through the web pages: %d %s; want 400 saying %q", status, resp[:min(len(resp), 300)], want)
	}
}
