package server

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// arbiterService implements the Arbiter service.
type arbiterService struct {
	pb.UnsafeArbiterServer
	s *Server
}

// mergeConfig fills what over leaves empty from base: the ruleset, the time
// control, and the regulations (taken whole).
func mergeConfig(base, over *pb.ClockConfig) *pb.ClockConfig {
	out := &pb.ClockConfig{Ruleset: base.GetRuleset(), TimeControl: base.GetTimeControl(), Regulations: base.GetRegulations()}
	if over.GetRuleset() != "" {
		out.Ruleset = over.GetRuleset()
	}
	if over.GetTimeControl() != "" {
		out.TimeControl = over.GetTimeControl()
	}
	if over.GetRegulations() != nil {
		out.Regulations = over.GetRegulations()
	}
	return out
}

func wireConfigOf(c rules.Config, tc string) *pb.ClockConfig {
	return &pb.ClockConfig{Ruleset: string(c.Ruleset), TimeControl: tc, Regulations: wire.WireRegulations(c.Regulations)}
}

// checkConfig parses a configuration that may lack a time control (a
// tournament's default).
func checkConfig(c *pb.ClockConfig, needTC bool) (rules.Config, error) {
	if c.GetTimeControl() == "" {
		if needTC {
			return rules.Config{}, badRequest("no time control: give one for the board, its round or its tournament (e.g. \"90+30\" or \"40/5400+30:1800+30\")")
		}
		r, err := rules.ParseRuleset(c.GetRuleset())
		if err != nil {
			return rules.Config{}, err
		}
		return rules.Config{Ruleset: r, Regulations: wire.Regulations(c.GetRegulations())}, nil
	}
	cfg, err := wire.Config(c)
	if err != nil {
		return cfg, err
	}
	if _, err := rules.NewState(cfg); err != nil {
		return cfg, err
	}
	return cfg, nil
}

func (a *arbiterService) CreateTournament(ctx context.Context, req *pb.CreateTournamentRequest) (*pb.Tournament, error) {
	s := a.s
	if strings.TrimSpace(req.GetName()) == "" {
		return nil, toStatus(badRequest("a tournament needs a name"))
	}
	cfg, err := checkConfig(req.GetDefaultConfig(), false)
	if err != nil {
		return nil, toStatus(err)
	}
	rec := storage.TournamentRecord{ID: s.newID("t"), Name: req.GetName(), Config: cfg, TimeControl: req.GetDefaultConfig().GetTimeControl()}
	err = s.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.CreateTournament(&rec); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{Actor: IdentityFrom(ctx).Actor(), What: "create_tournament " + rec.Name, Outcome: storage.OutcomeApplied})
	})
	if err != nil {
		return nil, toStatus(err)
	}
	s.mu.Lock()
	s.tournaments[rec.ID] = rec
	s.mu.Unlock()
	return tournamentToWire(rec), nil
}

func tournamentToWire(r storage.TournamentRecord) *pb.Tournament {
	return &pb.Tournament{TournamentId: r.ID, Name: r.Name, DefaultConfig: wireConfigOf(r.Config, r.TimeControl), CreatedUnixMs: r.Created.UnixMilli()}
}

// roundConfig returns a round's effective wire configuration.
func (s *Server) roundConfig(r storage.RoundRecord) *pb.ClockConfig {
	s.mu.Lock()
	t := s.tournaments[r.TournamentID]
	s.mu.Unlock()
	base := wireConfigOf(t.Config, t.TimeControl)
	if r.Config == nil {
		return base
	}
	return mergeConfig(base, wireConfigOf(*r.Config, r.TimeControl))
}

func (a *arbiterService) CreateRound(ctx context.Context, req *pb.CreateRoundRequest) (*pb.Round, error) {
	s := a.s
	s.mu.Lock()
	t, ok := s.tournaments[req.GetTournamentId()]
	s.mu.Unlock()
	if !ok {
		return nil, toStatus(fmt.Errorf("%w: tournament %q", storage.ErrNotFound, req.GetTournamentId()))
	}
	if req.GetNumber() <= 0 {
		return nil, toStatus(badRequest("round number %d: rounds are numbered from 1", req.GetNumber()))
	}
	eff := mergeConfig(wireConfigOf(t.Config, t.TimeControl), req.GetConfig())
	cfg, err := checkConfig(eff, false)
	if err != nil {
		return nil, toStatus(err)
	}
	rec := storage.RoundRecord{ID: s.newID("r"), TournamentID: t.ID, Number: int(req.GetNumber())}
	if req.GetConfig() != nil {
		rec.Config, rec.TimeControl = &cfg, eff.GetTimeControl()
	}
	err = s.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.CreateRound(&rec); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{Actor: IdentityFrom(ctx).Actor(), What: fmt.Sprintf("create_round %d of %s", rec.Number, t.Name), Outcome: storage.OutcomeApplied})
	})
	if err != nil {
		return nil, toStatus(err)
	}
	s.mu.Lock()
	s.rounds[rec.ID] = rec
	s.mu.Unlock()
	return &pb.Round{RoundId: rec.ID, TournamentId: t.ID, Number: int32(rec.Number), Config: s.roundConfig(rec)}, nil
}

func (a *arbiterService) AddBoard(ctx context.Context, req *pb.AddBoardRequest) (*pb.Board, error) {
	s := a.s
	id := IdentityFrom(ctx)
	if !id.MaySection(req.GetSection()) {
		return nil, toStatus(fmt.Errorf("%w: %s may not act on section %q", ErrPermission, id.Actor(), req.GetSection()))
	}
	s.mu.Lock()
	r, ok := s.rounds[req.GetRoundId()]
	s.mu.Unlock()
	if !ok {
		return nil, toStatus(fmt.Errorf("%w: round %q", storage.ErrNotFound, req.GetRoundId()))
	}
	if req.GetNumber() <= 0 {
		return nil, toStatus(badRequest("board number %d: boards are numbered from 1", req.GetNumber()))
	}
	eff := mergeConfig(s.roundConfig(r), req.GetConfig())
	cfg, err := checkConfig(eff, true)
	if err != nil {
		return nil, toStatus(err)
	}
	rec := storage.BoardRecord{
		ID: s.newID("b"), RoundID: r.ID, Number: int(req.GetNumber()), Section: req.GetSection(),
		White: playerRecord(req.GetWhite()), Black: playerRecord(req.GetBlack()),
		Config: cfg, TimeControl: eff.GetTimeControl(), DeviceID: req.GetDeviceId(),
	}
	st, err := rules.NewState(cfg)
	if err != nil {
		return nil, toStatus(err)
	}
	b := newBoard(s, rec, st, 0, nil)
	s.place(rec.ID, rec.Section)
	err = s.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.CreateBoard(&b.rec); err != nil {
			return err
		}
		tx.AfterCommit(func() { s.publish(r.ID, b.wireState(st, 0), 0) })
		return tx.AddAudit(&storage.AuditRecord{BoardID: rec.ID, Actor: id.Actor(),
			What: fmt.Sprintf("add_board %d %s - %s", rec.Number, rec.White.Name, rec.Black.Name), Outcome: storage.OutcomeApplied})
	})
	if err != nil {
		return nil, toStatus(err)
	}
	if rec.DeviceID != "" {
		s.moveDevice(rec.DeviceID, rec.ID)
	}
	s.addBoard(b)
	if rec.DeviceID != "" {
		s.sendAssignment(s.ctx, rec.DeviceID, true)
	}
	return a.boardWire(ctx, b)
}

func playerRecord(p *pb.Player) storage.PlayerRecord {
	return storage.PlayerRecord{Name: p.GetName(), FideID: p.GetFideId(), Rating: int(p.GetRating())}
}

func playerWire(p storage.PlayerRecord) *pb.Player {
	return &pb.Player{Name: p.Name, FideId: p.FideID, Rating: int32(p.Rating)}
}

// moveDevice records in memory that dev now keeps board's clock, taking it
// off any other board.
func (s *Server) moveDevice(dev, boardID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.byDevice[dev]; ok && old != boardID {
		if ob := s.boards[old]; ob != nil {
			ob.post(func() {
				if ob.rec.DeviceID == dev {
					ob.rec.DeviceID = ""
					ob.online = false // the device left with its link
					ob.publishLive()
				}
			})
		}
	}
	s.byDevice[dev] = boardID
}

// boardWire returns a board with its live state, read on its actor.
func (a *arbiterService) boardWire(ctx context.Context, b *board) (*pb.Board, error) {
	var out *pb.Board
	err := b.do(ctx, func() {
		out = &pb.Board{
			BoardId: b.rec.ID, RoundId: b.rec.RoundID, Number: int32(b.rec.Number), Section: b.rec.Section,
			White: playerWire(b.rec.White), Black: playerWire(b.rec.Black), DeviceId: b.rec.DeviceID,
			Config: wireConfigOf(b.rec.Config, b.rec.TimeControl),
			State:  b.wireState(b.state.Project(b.now()), b.seq),
		}
		for _, c := range b.pending {
			out.Pending = append(out.Pending, &pb.PendingCommand{CommandId: c.rec.ID, Action: c.action, Reason: c.rec.Reason,
				IssuedBy: c.rec.IssuedBy, IssuedUnixMs: c.rec.Issued.UnixMilli(), DeviceOnline: b.online})
		}
	})
	if err != nil {
		return nil, toStatus(err)
	}
	return out, nil
}

// boardFor returns a board the caller may act on.
func (a *arbiterService) boardFor(ctx context.Context, boardID string) (*board, error) {
	b, err := a.s.board(boardID)
	if err != nil {
		return nil, err
	}
	id := IdentityFrom(ctx)
	if id.Role == RoleArbiter && !id.MaySection(b.rec.Section) {
		return nil, fmt.Errorf("%w: %s may not act on board %s (section %q)", ErrPermission, id.Actor(), boardID, b.rec.Section)
	}
	return b, nil
}

func (a *arbiterService) AssignDevice(ctx context.Context, req *pb.AssignDeviceRequest) (*pb.Board, error) {
	b, err := a.boardFor(ctx, req.GetBoardId())
	if err != nil {
		return nil, toStatus(err)
	}
	dev := req.GetDeviceId()
	if dev == "" {
		return nil, toStatus(badRequest("no device id: give the device that will keep board %s's clock", b.rec.ID))
	}
	if err := a.assign(ctx, b, dev, req.GetReason()); err != nil {
		return nil, toStatus(err)
	}
	return a.boardWire(ctx, b)
}

// assign makes dev keep b's clock (a new or replacement device, 6.10.1):
// the previous device is told it has no board, the new one gets the board
// with its history and continues its time line.
func (a *arbiterService) assign(ctx context.Context, b *board, dev, reason string) error {
	s := a.s
	var prev string
	var werr error
	err := b.do(ctx, func() {
		prev = b.rec.DeviceID
		werr = s.store.Write(ctx, func(tx *storage.Tx) error {
			if err := tx.SetBoardDevice(b.rec.ID, dev); err != nil {
				return err
			}
			if err := tx.SetBoardSource(b.rec.ID, storage.SourceDevice); err != nil {
				return err
			}
			return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: IdentityFrom(ctx).Actor(),
				What: fmt.Sprintf("assign device %s (was %q)", dev, prev), Reason: reason, Outcome: storage.OutcomeApplied})
		})
		if werr != nil {
			return
		}
		b.rec.DeviceID = dev
		b.rec.Source = storage.SourceDevice
		if b.timer != nil {
			b.timer.Stop()
			b.timer = nil
		}
		b.online = s.linkOf(dev) != nil
		b.publishLive()
	})
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	s.moveDevice(dev, b.rec.ID)
	if prev != "" && prev != dev {
		s.mu.Lock()
		if s.byDevice[prev] == b.rec.ID {
			delete(s.byDevice, prev)
		}
		s.mu.Unlock()
		s.sendAssignment(s.ctx, prev, false)
	}
	s.sendAssignment(s.ctx, dev, true)
	return nil
}

func (a *arbiterService) SwapDevices(ctx context.Context, req *pb.SwapDevicesRequest) (*pb.SwapDevicesResponse, error) {
	ba, err := a.boardFor(ctx, req.GetBoardA())
	if err != nil {
		return nil, toStatus(err)
	}
	bb, err := a.boardFor(ctx, req.GetBoardB())
	if err != nil {
		return nil, toStatus(err)
	}
	if ba == bb {
		return nil, toStatus(badRequest("cannot swap board %s with itself", ba.rec.ID))
	}
	var da, db string
	_ = ba.do(ctx, func() { da = ba.rec.DeviceID })
	_ = bb.do(ctx, func() { db = bb.rec.DeviceID })
	if da == "" || db == "" {
		return nil, toStatus(fmt.Errorf("%w: both boards need a device to swap (%s has %q, %s has %q)", ErrNoDevice, ba.rec.ID, da, bb.rec.ID, db))
	}
	if err := a.assign(ctx, ba, db, req.GetReason()); err != nil {
		return nil, toStatus(err)
	}
	if err := a.assign(ctx, bb, da, req.GetReason()); err != nil {
		return nil, toStatus(err)
	}
	wa, err := a.boardWire(ctx, ba)
	if err != nil {
		return nil, err
	}
	wb, err := a.boardWire(ctx, bb)
	if err != nil {
		return nil, err
	}
	return &pb.SwapDevicesResponse{A: wa, B: wb}, nil
}

func (a *arbiterService) UseVirtualClock(ctx context.Context, req *pb.UseVirtualClockRequest) (*pb.Board, error) {
	s := a.s
	b, err := a.boardFor(ctx, req.GetBoardId())
	if err != nil {
		return nil, toStatus(err)
	}
	var prev string
	var werr error
	err = b.do(ctx, func() {
		prev = b.rec.DeviceID
		werr = s.store.Write(ctx, func(tx *storage.Tx) error {
			if err := tx.SetBoardSource(b.rec.ID, storage.SourceVirtual); err != nil {
				return err
			}
			if err := tx.SetBoardDevice(b.rec.ID, ""); err != nil {
				return err
			}
			return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: IdentityFrom(ctx).Actor(),
				What: fmt.Sprintf("use virtual clock (device %q retired)", prev), Reason: req.GetReason(), Outcome: storage.OutcomeApplied})
		})
		if werr != nil {
			return
		}
		// The board's time line continues on the server's clock from the
		// estimate of board time now.
		b.setRef(b.now())
		b.rec.Source = storage.SourceVirtual
		b.rec.DeviceID = ""
		// Commands that waited for the dead device are applied now.
		for _, c := range append([]*command(nil), b.pending...) {
			e := c.event
			e.T = b.now()
			next, err := rules.Apply(b.state, e)
			if err != nil {
				if werr = s.store.Write(ctx, func(tx *storage.Tx) error {
					if err := tx.ResolveCommand(c.rec.ID, storage.CommandRefused, err.Error()); err != nil {
						return err
					}
					return tx.AddAudit(&storage.AuditRecord{BoardID: b.rec.ID, Actor: "server", What: describe(c.action),
						Reason: c.rec.Reason, Outcome: storage.OutcomeRefused(err.Error()), Action: c.rec.Action})
				}); werr != nil {
					return
				}
				b.resolve(c, commandResult{status: pb.CommandStatus_COMMAND_STATUS_REFUSED, message: err.Error()})
				continue
			}
			if werr = b.commit(ctx, next, e, "", 0, c, "server", c.rec.Reason, ""); werr != nil {
				return
			}
		}
		b.armTimer()
		b.publishLive()
	})
	if err != nil {
		return nil, toStatus(err)
	}
	if werr != nil {
		return nil, toStatus(werr)
	}
	if prev != "" {
		s.mu.Lock()
		if s.byDevice[prev] == b.rec.ID {
			delete(s.byDevice, prev)
		}
		s.mu.Unlock()
		s.sendAssignment(s.ctx, prev, false)
	}
	return a.boardWire(ctx, b)
}

func (a *arbiterService) StartRound(ctx context.Context, req *pb.StartRoundRequest) (*pb.StartRoundResponse, error) {
	s := a.s
	ids := req.GetBoardIds()
	if len(ids) == 0 {
		s.mu.Lock()
		if _, ok := s.rounds[req.GetRoundId()]; !ok {
			s.mu.Unlock()
			return nil, toStatus(fmt.Errorf("%w: round %q", storage.ErrNotFound, req.GetRoundId()))
		}
		for id, b := range s.boards {
			if b.rec.RoundID == req.GetRoundId() {
				ids = append(ids, id)
			}
		}
		s.mu.Unlock()
		sort.Strings(ids)
	}
	absent := map[string]*pb.ClockAction{}
	for _, id := range ids {
		absent[id] = &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}
	}
	for _, ab := range req.GetAbsent() {
		act, ok := absent[ab.GetBoardId()]
		if !ok {
			return nil, toStatus(badRequest("absence on board %q, which is not being started", ab.GetBoardId()))
		}
		switch ab.GetSide() {
		case pb.Side_SIDE_WHITE:
			act.AbsentWhite = true
		case pb.Side_SIDE_BLACK:
			act.AbsentBlack = true
		default:
			return nil, toStatus(badRequest("absence on board %q needs a side", ab.GetBoardId()))
		}
	}
	// Every clock at once: the commands go out together, then we wait.
	out := make([]*pb.BoardActionResponse, len(ids))
	done := make(chan struct{}, len(ids))
	for i, id := range ids {
		go func() {
			defer func() { done <- struct{}{} }()
			r, err := a.act(ctx, id, absent[id], "start of round", 0)
			if err != nil {
				r = &pb.BoardActionResponse{BoardId: id, Status: pb.CommandStatus_COMMAND_STATUS_REFUSED, Message: err.Error()}
			}
			out[i] = r
		}()
	}
	for range ids {
		<-done
	}
	return &pb.StartRoundResponse{Boards: out}, nil
}

func (a *arbiterService) BoardAction(ctx context.Context, req *pb.BoardActionRequest) (*pb.BoardActionResponse, error) {
	r, err := a.act(ctx, req.GetBoardId(), req.GetAction(), req.GetReason(), req.GetWaitMs())
	if err != nil {
		return nil, toStatus(err)
	}
	return r, nil
}

// act submits an action on a board and waits up to waitMs for the device.
func (a *arbiterService) act(ctx context.Context, boardID string, action *pb.ClockAction, reason string, waitMs int64) (*pb.BoardActionResponse, error) {
	b, err := a.boardFor(ctx, boardID)
	if err != nil {
		return nil, err
	}
	if action.GetKind() == pb.ActionKind_ACTION_KIND_FLAG {
		return nil, badRequest("a flag is reported by the clock, not declared: claim it (FLAG_CLAIM) or record the result")
	}
	id := IdentityFrom(ctx)
	var cmd *command
	var res commandResult
	var serr error
	wait := make(chan commandResult, 1)
	if err := b.do(ctx, func() {
		cmd, res, serr = b.submit(ctx, id, action, reason)
		if cmd != nil {
			cmd.waiters = append(cmd.waiters, wait)
		}
	}); err != nil {
		return nil, err
	}
	resp := &pb.BoardActionResponse{BoardId: boardID, Status: res.status, Message: res.message}
	if serr != nil {
		if rules.RefusalOf(serr) == nil {
			return nil, serr
		}
		resp.Status, resp.Message = pb.CommandStatus_COMMAND_STATUS_REFUSED, serr.Error()
	}
	if cmd != nil {
		resp.CommandId = cmd.rec.ID
		d := a.s.opts.CommandWait
		if waitMs > 0 {
			d = time.Duration(waitMs) * time.Millisecond
		}
		// Wait for the device to apply it, unless it is offline: then the
		// command waits, visibly, and the arbiter is told at once.
		if waitMs >= 0 && res.sent {
			t := a.s.clock.After(d)
			select {
			case r := <-wait:
				resp.Status, resp.Message = r.status, r.message
			case <-t:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	_ = b.do(ctx, func() { resp.State = b.wireState(b.state.Project(b.now()), b.seq) })
	return resp, nil
}

func (a *arbiterService) ListBoards(ctx context.Context, req *pb.ListBoardsRequest) (*pb.ListBoardsResponse, error) {
	s := a.s
	id := IdentityFrom(ctx)
	s.mu.Lock()
	var bs []*board
	for _, b := range s.boards {
		if req.GetRoundId() != "" && b.rec.RoundID != req.GetRoundId() {
			continue
		}
		bs = append(bs, b)
	}
	s.mu.Unlock()
	out := &pb.ListBoardsResponse{}
	for _, b := range bs {
		w, err := a.boardWire(ctx, b)
		if err != nil {
			return nil, err
		}
		if req.GetSection() != "" && w.GetSection() != req.GetSection() {
			continue
		}
		if id.Role == RoleArbiter && !id.MaySection(w.GetSection()) {
			continue
		}
		out.Boards = append(out.Boards, w)
	}
	sort.Slice(out.Boards, func(i, j int) bool {
		x, y := out.Boards[i], out.Boards[j]
		if x.GetRoundId() != y.GetRoundId() {
			return x.GetRoundId() < y.GetRoundId()
		}
		if x.GetSection() != y.GetSection() {
			return x.GetSection() < y.GetSection()
		}
		return x.GetNumber() < y.GetNumber()
	})
	return out, nil
}

func (a *arbiterService) GetBoard(ctx context.Context, req *pb.GetBoardRequest) (*pb.Board, error) {
	b, err := a.boardFor(ctx, req.GetBoardId())
	if err != nil {
		return nil, toStatus(err)
	}
	return a.boardWire(ctx, b)
}

// AuditLog merges the board's events (who pressed, who commanded) with the
// audit entries (refusals, commands, assignments, alerts), in time order.
func (a *arbiterService) AuditLog(ctx context.Context, req *pb.AuditLogRequest) (*pb.AuditLogResponse, error) {
	s := a.s
	b, err := a.boardFor(ctx, req.GetBoardId())
	if err != nil {
		return nil, toStatus(err)
	}
	limit := int(req.GetLimit())
	if limit <= 0 {
		limit = 500
	}
	audits, err := s.store.Audit(ctx, b.rec.ID, req.GetAfterSeq(), limit)
	if err != nil {
		return nil, toStatus(err)
	}
	evs, err := s.store.Events(ctx, b.rec.ID, 0)
	if err != nil {
		return nil, toStatus(err)
	}
	out := &pb.AuditLogResponse{}
	for _, r := range audits {
		e := &pb.AuditEntry{Seq: r.Seq, UnixMs: r.Wall.UnixMilli(), Actor: r.Actor, What: r.What, Reason: r.Reason, Outcome: r.Outcome, BoardSeq: r.BoardSeq}
		if len(r.Action) > 0 {
			var act pb.ClockAction
			if protojson.Unmarshal(r.Action, &act) == nil {
				e.Action = &act
			}
		}
		out.Entries = append(out.Entries, e)
	}
	for _, ev := range evs {
		act := wire.Action(ev.Event)
		what := describe(act)
		if ev.CommandID != "" {
			what += " (command " + ev.CommandID + ")"
		}
		out.Entries = append(out.Entries, &pb.AuditEntry{UnixMs: ev.Wall.UnixMilli(), Actor: ev.Actor, What: what,
			Reason: ev.Reason, Outcome: storage.OutcomeApplied, Action: act, BoardSeq: ev.BoardSeq})
	}
	sort.SliceStable(out.Entries, func(i, j int) bool { return out.Entries[i].GetUnixMs() < out.Entries[j].GetUnixMs() })
	return out, nil
}

func (a *arbiterService) ListDevices(ctx context.Context, _ *pb.ListDevicesRequest) (*pb.ListDevicesResponse, error) {
	s := a.s
	recs, err := s.store.Devices(ctx)
	if err != nil {
		return nil, toStatus(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	out := &pb.ListDevicesResponse{}
	add := func(r storage.DeviceRecord, info *deviceInfo) {
		d := &pb.Device{DeviceId: r.ID, Firmware: r.Firmware, LastSeenUnixMs: r.LastSeen.UnixMilli(),
			BatteryPct: int32(r.BatteryPct), DriftPpm: r.DriftPPM, BoardId: s.byDevice[r.ID]}
		if info != nil {
			d.Online, d.AckedSeq = info.online, info.acked
		}
		out.Devices = append(out.Devices, d)
	}
	for _, info := range s.devices {
		seen[info.rec.ID] = true
		add(info.rec, info)
	}
	for _, r := range recs {
		if !seen[r.ID] {
			add(r, nil)
		}
	}
	sort.Slice(out.Devices, func(i, j int) bool { return out.Devices[i].GetDeviceId() < out.Devices[j].GetDeviceId() })
	return out, nil
}

func (a *arbiterService) IssueToken(ctx context.Context, req *pb.IssueTokenRequest) (*pb.IssueTokenResponse, error) {
	role, err := roleFromWire(req.GetRole())
	if err != nil {
		return nil, toStatus(err)
	}
	if strings.TrimSpace(req.GetLabel()) == "" {
		return nil, toStatus(badRequest("a token needs a label saying who holds it"))
	}
	rec, secret, err := a.s.tokens.Issue(ctx, role, req.GetLabel(), req.GetDeviceId(), req.GetSections(), IdentityFrom(ctx).Actor())
	if err != nil {
		return nil, toStatus(err)
	}
	return &pb.IssueTokenResponse{TokenId: rec.ID, Token: secret}, nil
}

func (a *arbiterService) RevokeToken(ctx context.Context, req *pb.RevokeTokenRequest) (*pb.RevokeTokenResponse, error) {
	if req.GetTokenId() == "" {
		return nil, toStatus(badRequest("no token id"))
	}
	if err := a.s.tokens.Revoke(ctx, req.GetTokenId(), IdentityFrom(ctx).Actor()); err != nil {
		return nil, toStatus(err)
	}
	a.s.cutToken(req.GetTokenId())
	return &pb.RevokeTokenResponse{}, nil
}

func (a *arbiterService) ListTokens(ctx context.Context, _ *pb.ListTokensRequest) (*pb.ListTokensResponse, error) {
	recs, err := a.s.store.Tokens(ctx)
	if err != nil {
		return nil, toStatus(err)
	}
	out := &pb.ListTokensResponse{}
	for _, r := range recs {
		out.Tokens = append(out.Tokens, &pb.TokenInfo{TokenId: r.ID, Role: roleToWire(Role(r.Role)), Label: r.Label,
			DeviceId: r.DeviceID, Sections: r.Sections, CreatedUnixMs: r.Created.UnixMilli(), Revoked: !r.Active()})
	}
	return out, nil
}

// commandFromRecord rebuilds a pending command after a restart.
func commandFromRecord(r storage.CommandRecord) (*command, error) {
	var act pb.ClockAction
	if err := protojson.Unmarshal(r.Action, &act); err != nil {
		return nil, err
	}
	e, err := wire.Event(&act, true)
	if err != nil {
		return nil, err
	}
	return &command{rec: r, action: &act, event: e}, nil
}
