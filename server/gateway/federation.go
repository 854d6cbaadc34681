package gateway

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// The federation view: every hall followed, its rounds, boards and
// results on one read-only page (/), from /api/federation. Like every
// feed of a gateway it shows each hall with its broadcast delay, and only
// the rounds the viewer may read: the public ones, and a hall's others
// with one of its broadcast tokens.

// FederationHall is one hall in the federation view.
type FederationHall struct {
	Hall    string            `json:"hall"`
	DelayMs int64             `json:"delayMs"`           // the delay it is shown with, ms
	Ready   bool              `json:"ready"`             // read to the end of its stream
	Problem string            `json:"problem,omitempty"` // why its stream is not read now
	Rounds  []FederationRound `json:"rounds"`
}

// FederationRound is one round of a hall.
type FederationRound struct {
	ID         string `json:"id"`
	Tournament string `json:"tournament"`
	Number     int    `json:"number"`
	Venue      string `json:"venue,omitempty"`
	Public     bool   `json:"public"`
	// Boards finished, playing (running, paused, adjourned, referred) and
	// waiting to start.
	Finished int               `json:"finished"`
	Playing  int               `json:"playing"`
	Waiting  int               `json:"waiting"`
	Boards   []FederationBoard `json:"boards"`
}

// FederationBoard is one board as the federation view shows it.
type FederationBoard struct {
	ID       string `json:"id"`
	Number   int    `json:"number"`
	Section  string `json:"section,omitempty"`
	White    string `json:"white"`
	Black    string `json:"black"`
	WhiteElo int    `json:"whiteElo,omitempty"`
	BlackElo int    `json:"blackElo,omitempty"`
	Status   string `json:"status"` // waiting, running, paused, adjourned, finished, referred
	Result   string `json:"result"` // "*" while it goes on
	// Running is the side whose clock runs ("" when none); WhiteMs and
	// BlackMs the remaining times at ServerUnixMs (a page counts down the
	// running one from there).
	Running      string `json:"running,omitempty"`
	WhiteMs      int64  `json:"whiteMs"`
	BlackMs      int64  `json:"blackMs"`
	ServerUnixMs int64  `json:"serverUnixMs"`
	Moves        int    `json:"moves"` // completed moves of the side that moved last
}

// Federation returns the federation view for a viewer (its Authorization
// header).
func (g *Gateway) Federation(authorization string) []FederationHall {
	var out []FederationHall
	for _, h := range g.hallList() {
		token, err := g.viewerOf(authorization, h)
		if err != nil {
			token = false
		}
		hub := h.hub()
		fh := FederationHall{Hall: h.id, DelayMs: h.delay().Milliseconds(), Rounds: []FederationRound{}}
		for _, rid := range h.roundIDs() {
			h.mu.Lock()
			r := h.rounds[rid]
			public := h.publicLocked(rid)
			fr := FederationRound{ID: r.ID, Tournament: h.tournaments[r.TournamentID].Name, Number: r.Number, Venue: r.Venue, Public: public, Boards: []FederationBoard{}}
			var boards []*board
			for _, b := range h.boards {
				if b.rec.RoundID == rid {
					boards = append(boards, b)
				}
			}
			h.mu.Unlock()
			if !public && !token {
				continue
			}
			sort.Slice(boards, func(i, j int) bool {
				if boards[i].rec.Section != boards[j].rec.Section {
					return boards[i].rec.Section < boards[j].rec.Section
				}
				return boards[i].rec.Number < boards[j].rec.Number
			})
			for _, b := range boards {
				fb := FederationBoard{ID: b.rec.ID, Number: b.rec.Number, Section: b.rec.Section,
					White: b.rec.White.Name, Black: b.rec.Black.Name, WhiteElo: b.rec.White.Rating, BlackElo: b.rec.Black.Rating,
					Status: "waiting", Result: "*"}
				if st, _, ok := hub.State(b.rec.ID); ok && !st.GetWithdrawn() {
					fb.Status = strings.ToLower(strings.TrimPrefix(st.GetStatus().String(), "BOARD_STATUS_"))
					fb.Result = st.GetResult()
					if st.GetRunning() != pb.Side_SIDE_UNSPECIFIED {
						fb.Running = strings.ToLower(strings.TrimPrefix(st.GetRunning().String(), "SIDE_"))
					}
					fb.WhiteMs, fb.BlackMs = st.GetWhite().GetRemainingMs(), st.GetBlack().GetRemainingMs()
					fb.ServerUnixMs = st.GetServerUnixMs()
					fb.Moves = int(max(st.GetWhite().GetMoves(), st.GetBlack().GetMoves()))
				}
				if fb.Result == "" {
					fb.Result = "*"
				}
				switch fb.Status {
				case "finished":
					fr.Finished++
				case "waiting":
					fr.Waiting++
				default:
					fr.Playing++
				}
				fr.Boards = append(fr.Boards, fb)
			}
			fh.Rounds = append(fh.Rounds, fr)
		}
		h.mu.Lock()
		fh.Ready, fh.Problem = h.caughtUp, h.problem
		h.mu.Unlock()
		out = append(out, fh)
	}
	return out
}

// serveFederation answers GET /api/federation with the federation view.
func (g *Gateway) serveFederation(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	halls := g.Federation(r.Header.Get("Authorization"))
	if halls == nil {
		halls = []FederationHall{}
	}
	_ = json.NewEncoder(w).Encode(halls)
}
