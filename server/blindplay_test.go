package server_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/formats/announce"
	"github.com/chesshall/hallclock/formats/words"
	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/wirewords"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
)

// Play with visually disabled players in the hall (FIDE 2018 and 2023
// Appendix D, 2009 Appendix E): a board set to be played under the
// appendix, its talking clock, the hall's announcements at a player's
// request, and what the rules let the player's assistant do.

// voice is a talking clock's speaker: it keeps what it said.
type voice struct {
	mu   sync.Mutex
	said []clockdev.Speech
}

func (v *voice) speak(s clockdev.Speech) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.said = append(v.said, s)
}

func (v *voice) heard() []clockdev.Speech {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Clone(v.said)
}

// whiteBlind is White visually disabled with an assistant, his clock
// speaking German to him (2018 D.2.6.1, D.2.10).
func whiteBlind() *pb.BlindPlay {
	return &pb.BlindPlay{White: &pb.BlindPlayer{VisuallyDisabled: true, Assistant: true, Language: "de"}}
}

// auditWhats returns what the board's audit log says, in order.
func auditWhats(t *testing.T, arb pb.ArbiterClient, ctx context.Context, board string) []*pb.AuditEntry {
	t.Helper()
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: board})
	if err != nil {
		t.Fatalf("AuditLog(%s): %v", board, err)
	}
	return log.GetEntries()
}

func findAudit(entries []*pb.AuditEntry, prefix string) *pb.AuditEntry {
	for _, e := range entries {
		if strings.HasPrefix(e.GetWhat(), prefix) {
			return e
		}
	}
	return nil
}

// A tournament's play under the appendix reaches its boards and their
// clocks: the talking clock learns the player's language from its
// assignment and speaks it at his button (D.2.6.1). The hall once merged
// configurations without it, and every live clock spoke English.
func TestBlindPlayReachesTheClock(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "90m+30s", 1, &pb.ClockConfig{Ruleset: "fide-2018", BlindPlay: whiteBlind()})[0]
	if got := b.GetConfig().GetBlindPlay().GetWhite(); !got.GetVisuallyDisabled() || got.GetLanguage() != "de" {
		t.Fatalf("AddBoard's config says %v of White; want him visually disabled, in German", got)
	}
	v := &voice{}
	d := h.Device(t, b.GetDeviceId(), clockdev.Config{Speak: v.speak, Voices: []string{"en", "de"}})
	if got := d.Assignment().GetConfig().GetBlindPlay(); got.GetWhite().GetLanguage() != "de" {
		t.Fatalf("the clock's assignment says %v; want White's German", got)
	}
	sp, err := d.RequestAnnouncement(rules.White)
	if err != nil || sp.Language != "de" || !strings.HasPrefix(sp.Text, "Weiß: 0 Züge") {
		t.Errorf("RequestAnnouncement(white) = %+v, %v; want German words", sp, err)
	}

	// A round of the tournament that says nothing of it keeps the
	// tournament's; one that sets nobody visually disabled is not under it.
	arb, ctx := h.Arbiter(t)
	for _, tc := range []struct {
		name   string
		number int32
		cfg    *pb.ClockConfig
		white  bool
	}{{"inherits", 2, nil, true}, {"overrides", 3, &pb.ClockConfig{BlindPlay: &pb.BlindPlay{}}, false}} {
		r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: mustTournamentOf(t, arb, ctx, b), Number: tc.number, Config: tc.cfg})
		if err != nil {
			t.Fatalf("%s: CreateRound: %v", tc.name, err)
		}
		nb, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: 1, White: &pb.Player{Name: "W"}, Black: &pb.Player{Name: "B"}})
		if err != nil {
			t.Fatalf("%s: AddBoard: %v", tc.name, err)
		}
		if got := nb.GetConfig().GetBlindPlay().GetWhite().GetVisuallyDisabled(); got != tc.white {
			t.Errorf("%s: the round's board has White visually disabled %v, want %v", tc.name, got, tc.white)
		}
	}
}

func mustTournamentOf(t *testing.T, arb pb.ArbiterClient, ctx context.Context, b *pb.Board) string {
	t.Helper()
	r, err := arb.GetRound(ctx, &pb.GetRoundRequest{RoundId: b.GetRoundId()})
	if err != nil {
		t.Fatal(err)
	}
	return r.GetTournamentId()
}

// An arbiter sets a board to be played under the appendix in the middle
// of its game (the organiser adapts the rules, 2018 D.1): audited, told
// to the clock, kept over a restart; what the rules refuse (an assistant
// where nobody is visually disabled, D.2.10) is refused and audited; an
// arbiter of another section may not; broadcast tokens are not told who
// is visually disabled.
func TestSetBlindPlay(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	r := h.NewRound(t, "Open", 1, &pb.ClockConfig{TimeControl: "90m+30s"})
	b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: 1, Section: "A",
		White: &pb.Player{Name: "Anna"}, Black: &pb.Player{Name: "Boris"}, DeviceId: "CLK-1"})
	if err != nil {
		t.Fatal(err)
	}
	id := b.GetBoardId()
	d := h.Device(t, "CLK-1")
	act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	press(t, d, rules.White)
	halltest.Synced(t, d)

	got, err := arb.SetBlindPlay(ctx, &pb.SetBlindPlayRequest{BoardId: id, BlindPlay: whiteBlind(), Reason: "Anna plays with her assistant"})
	if err != nil {
		t.Fatalf("SetBlindPlay: %v", err)
	}
	if w := got.GetConfig().GetBlindPlay().GetWhite(); !w.GetAssistant() || w.GetLanguage() != "de" {
		t.Errorf("SetBlindPlay answers the board with %v of White; want her assistant and German", w)
	}
	if got.GetState().GetWhite().GetMoves() != 1 || got.GetState().GetBoardSeq() != 2 {
		t.Errorf("the game after the setting: %v; want it as it was (1 move, 2 events)", got.GetState())
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if d.Assignment().GetConfig().GetBlindPlay().GetWhite().GetLanguage() != "de" {
			return context.DeadlineExceeded
		}
		return nil
	})
	if st := d.State(); st.P[rules.White].Moves != 1 {
		t.Errorf("the clock after the new setting has White at %d moves, want 1", st.P[rules.White].Moves)
	}
	e := findAudit(auditWhats(t, arb, ctx, id), "blind_play")
	if e == nil || e.GetWhat() != "blind_play W+A:de" || e.GetOutcome() != "applied" || e.GetReason() != "Anna plays with her assistant" {
		t.Errorf("audit entry %v, want blind_play W+A:de applied, with the reason", e)
	} else if ru := words.Render("ru", wirewords.Message(e.GetWords())); e.GetWords().GetKind() != "did.blind_play" || !strings.Contains(ru, "игроков") {
		t.Errorf("the setting's words: kind %q, in Russian %q; want did.blind_play", e.GetWords().GetKind(), ru)
	}

	// D.2.10: an assistant comes with a visually disabled player.
	_, err = arb.SetBlindPlay(ctx, &pb.SetBlindPlayRequest{BoardId: id, BlindPlay: &pb.BlindPlay{Black: &pb.BlindPlayer{Assistant: true}}})
	if codeOf(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "D.2.10") {
		t.Errorf("SetBlindPlay(an assistant alone) = %v, want InvalidArgument citing D.2.10", err)
	}
	if e := findAudit(auditWhats(t, arb, ctx, id), "blind_play B=A"); e == nil || !strings.HasPrefix(e.GetOutcome(), "refused") {
		t.Errorf("the refused setting is audited as %v, want refused", e)
	} else if ko := words.Render("ko", wirewords.Message(e.GetWords())); e.GetWords().GetKind() != "refused.blind_play" || !strings.Contains(ko, "보조자(흑)") {
		// the refusal is a kind that names the setting and the side in the reader's language
		t.Errorf("the refusal's words: kind %q, in Korean %q; want refused.blind_play saying 보조자(흑)", e.GetWords().GetKind(), ko)
	}
	deputyB := halltest.Ctx(context.Background(), h.Token(t, pb.Role_ROLE_ARBITER, "Bert", "", "B"))
	if _, err := arb.SetBlindPlay(deputyB, &pb.SetBlindPlayRequest{BoardId: id}); codeOf(err) != codes.NotFound {
		t.Errorf("SetBlindPlay by an arbiter of section B = %v, want NotFound (another section's board is none of his)", err)
	}
	bc := halltest.Ctx(context.Background(), h.Token(t, pb.Role_ROLE_BROADCAST, "feed", ""))
	if got, err := arb.GetBoard(bc, &pb.GetBoardRequest{BoardId: id}); err != nil || got.GetConfig().GetBlindPlay() != nil {
		t.Errorf("a broadcast token's GetBoard = %v, %v; want the board without its play under the appendix", got.GetConfig(), err)
	}

	h.Restart(t)
	arb, ctx = h.Arbiter(t)
	if got := fetchBoard(t, h, id); got.GetConfig().GetBlindPlay().GetWhite().GetLanguage() != "de" {
		t.Errorf("after a restart the board says %v, want White in German", got.GetConfig().GetBlindPlay())
	}
	// And no longer.
	if got, err := arb.SetBlindPlay(ctx, &pb.SetBlindPlayRequest{BoardId: id}); err != nil || got.GetConfig().GetBlindPlay() != nil {
		t.Errorf("SetBlindPlay(none) = %v, %v; want the board not under the appendix", got.GetConfig(), err)
	}
}

// The hall tells a visually disabled player, at his request, the moves
// completed and the time used by both (2018 D.2.6.1, D.2.10.4): through
// his talking clock, once, in his language, or — no talking clock — in
// the words the page that asked speaks. Each request is audited with its
// words. A sighted player is told nothing (D.2.6.1).
func TestAnnounceThroughTheClock(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "90m+30s", 1, &pb.ClockConfig{Ruleset: "fide-2018", BlindPlay: whiteBlind()})[0]
	id := b.GetBoardId()
	arb, ctx := h.Arbiter(t)
	v := &voice{}
	clk := mono.NewFake(time.Now())
	d := h.Device(t, b.GetDeviceId(), clockdev.Config{Clock: clk, Speak: v.speak, Voices: []string{"en", "de"}})
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(61 * time.Second)
	press(t, d, rules.White)
	halltest.Synced(t, d)

	devs, err := arb.ListDevices(ctx, &pb.ListDevicesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(devs.GetDevices(), func(x *pb.Device) bool { return x.GetDeviceId() == b.GetDeviceId() }); i < 0 ||
		!devs.GetDevices()[i].GetCanAnnounce() || !slices.Equal(devs.GetDevices()[i].GetVoices(), []string{"en", "de"}) {
		t.Errorf("ListDevices = %v, want %s a talking clock speaking en, de", devs.GetDevices(), b.GetDeviceId())
	}

	resp, err := arb.Announce(ctx, &pb.AnnounceRequest{BoardId: id, Side: pb.Side_SIDE_WHITE, Reason: "Anna asks"})
	if err != nil {
		t.Fatalf("Announce: %v", err)
	}
	a := resp.GetAnnounce()
	if !resp.GetSent() || resp.GetDeviceId() != b.GetDeviceId() || a.GetLanguage() != "de" || a.GetWhiteMoves() != 1 || a.GetWhiteUsedMs() != 61_000 ||
		a.GetRequestedBy() != "chief:chief arbiter" {
		t.Errorf("Announce = %v, want sent to %s, in German, White 1 move and 61 s used, asked by the chief", resp, b.GetDeviceId())
	}
	want := announce.Say("de", announce.Facts{Moves: [2]int{1, 0}, UsedMs: [2]int64{61_000, a.GetBlackUsedMs()}}).Text
	if a.GetText() != want {
		t.Errorf("the words = %q, want %q", a.GetText(), want)
	}
	halltest.Eventually(t, 5*time.Second, func() error {
		if said := v.heard(); len(said) != 1 || said[0].Text != a.GetText() || said[0].AnnounceID != a.GetAnnounceId() || said[0].AskedBy != "chief:chief arbiter" {
			return context.DeadlineExceeded
		}
		return nil
	})
	e := findAudit(auditWhats(t, arb, ctx, id), "announce to white")
	if e == nil || !strings.Contains(e.GetWhat(), a.GetText()) || !strings.Contains(e.GetWhat(), "said by the clock "+b.GetDeviceId()) ||
		e.GetActor() != "chief:chief arbiter" || e.GetReason() != "Anna asks" {
		t.Errorf("audit entry %v, want who asked, the words and the clock that said them", e)
	}

	// D.2.6.1: the sighted Black is told nothing.
	if _, err := arb.Announce(ctx, &pb.AnnounceRequest{BoardId: id, Side: pb.Side_SIDE_BLACK}); codeOf(err) != codes.FailedPrecondition ||
		!strings.Contains(err.Error(), "D.2.6.1") {
		t.Errorf("Announce(black, sighted) = %v, want FailedPrecondition citing D.2.6.1", err)
	}
	if said := v.heard(); len(said) != 1 {
		t.Errorf("the clock said %d things, want only what was asked", len(said))
	}
}

// Without a talking clock the hall still builds the words (the assistant's
// page says them): in the player's language, as the board stands now.
func TestAnnounceWithoutATalkingClock(t *testing.T) {
	t.Parallel()
	clock := mono.NewFake(time.Now())
	h := halltest.Start(t, halltest.WithOptions(server.Options{Clock: clock}))
	b := h.Round(t, "90m+30s", 1, &pb.ClockConfig{BlindPlay: whiteBlind()})[0]
	id := b.GetBoardId()
	arb, ctx := h.Arbiter(t)
	if _, err := arb.UseVirtualClock(ctx, &pb.UseVirtualClockRequest{BoardId: id, Reason: "no clock"}); err != nil {
		t.Fatal(err)
	}
	act(t, arb, ctx, id, &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, pb.CommandStatus_COMMAND_STATUS_APPLIED)
	clock.Advance(3*time.Minute + 500*time.Millisecond)
	resp, err := arb.Announce(ctx, &pb.AnnounceRequest{BoardId: id, Side: pb.Side_SIDE_WHITE})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Weiß: 0 Züge, 3 Minuten 1 Sekunde verbraucht. Schwarz: 0 Züge, 0 Sekunden verbraucht."; resp.GetSent() ||
		resp.GetAnnounce().GetText() != want || !strings.Contains(resp.GetNote(), "virtual clock") {
		t.Errorf("Announce on a virtual clock = %v; want the words %q, not sent, saying why", resp, want)
	}
	// A board not under the appendix: nobody to announce to.
	plain := h.Round(t, "90m+30s", 1)[0]
	if _, err := arb.Announce(ctx, &pb.AnnounceRequest{BoardId: plain.GetBoardId(), Side: pb.Side_SIDE_WHITE}); codeOf(err) != codes.FailedPrecondition {
		t.Errorf("Announce on a board not under the appendix = %v, want FailedPrecondition", err)
	}
}

// A round imported from a CSV with a Blind column plays the boards it
// marks under the appendix; what the rules refuse names the board and its
// line, and nothing is imported.
func TestImportBlindColumn(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Open", DefaultConfig: &pb.ClockConfig{TimeControl: "90m+30s", Ruleset: "fide-2018"}})
	if err != nil {
		t.Fatal(err)
	}
	bad := "Round;Board;White;Black;Blind\n1;1;Anna;Boris;W+A:de\n1;2;Carl;Dora;B=A,W+A\n"
	_, err = arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: tr.GetTournamentId(), Content: []byte(bad)})
	if codeOf(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "board 2 (line 3)") || !strings.Contains(err.Error(), "D.2.11") {
		t.Errorf("ImportRound(a Blind the rules refuse) = %v; want InvalidArgument naming board 2, line 3, and D.2.11", err)
	}
	good := "Round;Board;White;Black;Blind\n1;1;Anna;Boris;W+A:de\n1;2;Carl;Dora;\n"
	resp, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: tr.GetTournamentId(), Content: []byte(good)})
	if err != nil {
		t.Fatal(err)
	}
	got := map[int32]*pb.BlindPlay{}
	for _, b := range resp.GetBoards() {
		got[b.GetNumber()] = b.GetConfig().GetBlindPlay()
	}
	if w := got[1].GetWhite(); !w.GetVisuallyDisabled() || !w.GetAssistant() || w.GetLanguage() != "de" || got[2] != nil {
		t.Errorf("imported boards' play under the appendix: 1 %v, 2 %v; want W+A:de on board 1 only", got[1], got[2])
	}
}

// A board's play under the appendix changes on its actor while the
// broadcast feeds read the round's boards off it: the feeds read what
// never changes, and the race detector finds nothing.
func TestSetBlindPlayWhileTheFeedsRead(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "90m+30s", 1)[0]
	arb, ctx := h.Arbiter(t)
	w := newWeb(t, h)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 20 {
			bp := whiteBlind()
			if i%2 == 1 {
				bp = &pb.BlindPlay{}
			}
			if _, err := arb.SetBlindPlay(ctx, &pb.SetBlindPlayRequest{BoardId: b.GetBoardId(), BlindPlay: bp}); err != nil {
				t.Errorf("SetBlindPlay: %v", err)
				return
			}
		}
	}()
	for reading := true; reading; {
		select {
		case <-done:
			reading = false
		default:
		}
		resp, body := w.send("GET", "/api/pgn/round/"+b.GetRoundId(), nil, map[string]string{"Authorization": "Bearer " + h.Chief})
		if resp.StatusCode != 200 || !strings.Contains(body, "White 1") {
			t.Fatalf("the round's PGN: %d %.200s", resp.StatusCode, body)
		}
	}
}
