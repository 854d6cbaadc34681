package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// armageddonTC is add-board -armageddon's time control: White 5 minutes,
// Black 4, 2 s a move from move 61.
const armageddonTC = "white 60/5m:0+2s | black 60/4m:0+2s"

func (c *cli) tournament(args []string) error {
	var tc, ruleset, scoring, odds, tiebreaks string
	sections := sectionLists{}
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.StringVar(&tiebreaks, "tiebreaks", "", "")
		fs.Var(sections, "section-tiebreaks", "")
		fs.StringVar(&tc, "tc", "", "")
		fs.StringVar(&odds, "draw-odds", "", "")
		fs.StringVar(&ruleset, "ruleset", "", "")
		fs.StringVar(&scoring, "scoring", "", "points for a win, a draw and a loss, e.g. 3-1-0 (default 1-½-0)")
	})
	if err != nil {
		return err
	}
	if err := need(pos, 1, "tournament NAME [-tc TC] [-ruleset R] [-scoring W-D-L] [-tiebreaks BH-C1,BH,SB] [-section-tiebreaks S=LIST]"); err != nil {
		return err
	}
	cfg := &pb.ClockConfig{Ruleset: ruleset, TimeControl: tc}
	if scoring != "" {
		sc, err := parseScoring(scoring)
		if err != nil {
			return err
		}
		cfg.Regulations = &pb.Regulations{Scoring: sc}
	}
	if odds != "" {
		if cfg.Regulations == nil {
			cfg.Regulations = &pb.Regulations{}
		}
		cfg.Regulations.DrawOdds = odds
	}
	t, err := c.arb.CreateTournament(c.ctx, &pb.CreateTournamentRequest{Name: pos[0], DefaultConfig: cfg, TieBreaks: tiebreaks, SectionTieBreaks: sections})
	if err != nil {
		return err
	}
	fmt.Fprintln(c.out, t.GetTournamentId())
	printTimeControl(c.out, t.GetTimeControlInfo())
	if sc := t.GetDefaultConfig().GetRegulations().GetScoring(); sc != nil {
		fmt.Fprintf(c.out, "scoring %s for a win, %s for a draw, %s for a loss\n", points(sc.GetWin()), points(sc.GetDraw()), points(sc.GetLoss()))
	}
	printDrawOdds(c.out, t.GetDefaultConfig())
	printTieBreaks(c.out, t)
	return nil
}

// drawOddsConfig is the configuration a -draw-odds flag asks for: only the
// draw odds in the regulations, which the server adds to the round's or
// tournament's regulations (scoring and supervision stay theirs).
func drawOddsConfig(cfg *pb.ClockConfig, odds string) *pb.ClockConfig {
	if odds == "" {
		return cfg
	}
	if cfg == nil {
		cfg = &pb.ClockConfig{}
	}
	cfg.Regulations = &pb.Regulations{DrawOdds: odds}
	return cfg
}

// printDrawOdds says a configuration's draw odds, if any.
func printDrawOdds(w io.Writer, cfg *pb.ClockConfig) {
	if o := cfg.GetRegulations().GetDrawOdds(); o != "" {
		fmt.Fprintf(w, "  draw odds for %s: a draw counts as %s's win (the board's result stays the draw)\n", o, o)
	}
}

// parseScoring reads a scoring as arbiters write it: "3-1-0", "1-½-0",
// "1-0.5-0", "2-1-0".
func parseScoring(s string) (*pb.Scoring, error) {
	parts := strings.Split(strings.ReplaceAll(s, "½", "0.5"), "-")
	var v [3]float64
	ok := len(parts) == 3
	for i := 0; ok && i < 3; i++ {
		f, err := strconv.ParseFloat(strings.TrimSpace(parts[i]), 64)
		ok = err == nil && f >= 0 && f <= 100
		v[i] = f
	}
	if !ok || v[0] <= v[1] || v[1] < v[2] {
		return nil, fmt.Errorf("%w: -scoring %q: points for a win, a draw and a loss, e.g. 3-1-0 or 1-0.5-0, a win worth more than a draw, a draw no less than a loss", errUsage, s)
	}
	return &pb.Scoring{Win: v[0], Draw: v[1], Loss: v[2]}, nil
}

func (c *cli) createRound(args []string) error {
	var tc, odds string
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.StringVar(&tc, "tc", "", "")
		fs.StringVar(&odds, "draw-odds", "", "")
	})
	if err != nil {
		return err
	}
	if err := need(pos, 2, "round TOURNAMENT NUMBER"); err != nil {
		return err
	}
	var n int32
	if _, err := fmt.Sscanf(pos[1], "%d", &n); err != nil {
		return fmt.Errorf("%w: round number %q", errUsage, pos[1])
	}
	req := &pb.CreateRoundRequest{TournamentId: pos[0], Number: n}
	if tc != "" {
		req.Config = &pb.ClockConfig{TimeControl: tc}
	}
	req.Config = drawOddsConfig(req.Config, odds)
	r, err := c.arb.CreateRound(c.ctx, req)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.out, r.GetRoundId())
	printTimeControl(c.out, r.GetTimeControlInfo())
	printDrawOdds(c.out, r.GetConfig())
	return nil
}

func (c *cli) addBoard(args []string) error {
	var dev, section, tc, odds string
	armageddon := false
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.StringVar(&dev, "device", "", "")
		fs.StringVar(&section, "section", "", "")
		fs.StringVar(&tc, "tc", "", "")
		fs.StringVar(&odds, "draw-odds", "", "")
		fs.BoolVar(&armageddon, "armageddon", false, "")
	})
	if err != nil {
		return err
	}
	if err := need(pos, 4, "add-board ROUND NUMBER WHITE BLACK"); err != nil {
		return err
	}
	var n int32
	if _, err := fmt.Sscanf(pos[1], "%d", &n); err != nil {
		return fmt.Errorf("%w: board number %q", errUsage, pos[1])
	}
	req := &pb.AddBoardRequest{RoundId: pos[0], Number: n, Section: section, DeviceId: dev,
		White: &pb.Player{Name: pos[2]}, Black: &pb.Player{Name: pos[3]}}
	if armageddon {
		// White 5 minutes, Black 4, 2 s a move from move 61, a draw
		// counting as Black's win; -tc and -draw-odds change either.
		if tc == "" {
			tc = armageddonTC
		}
		if odds == "" {
			odds = "black"
		}
	}
	if tc != "" {
		req.Config = &pb.ClockConfig{TimeControl: tc}
	}
	req.Config = drawOddsConfig(req.Config, odds)
	b, err := c.arb.AddBoard(c.ctx, req)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.out, b.GetBoardId())
	printTimeControl(c.out, b.GetTimeControlInfo())
	printDrawOdds(c.out, b.GetConfig())
	return nil
}
