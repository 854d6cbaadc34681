// Package clockdev is the networked chess clock: the library that clock
// firmware, or the fleet simulator, embeds to keep a board's time and to
// report it to the hall server over the ClockLink stream.
//
// The device keeps time. It measures elapsed time with its own monotonic
// oscillator (a mono.Clock) on the board's time line, runs the same rules
// engine as the server (package rules) on every press, flag fall and
// arbiter command, and reports each event with its board-time instant, so
// network delay never costs a player a millisecond. It keeps running when
// the network is down, and keeps every event in an Outbox until the server
// acknowledges that it is committed.
//
// # Usage
//
//	ob, err := clockdev.OpenFileOutbox("/data/outbox.jsonl") // survives a reboot
//	d, err := clockdev.New(clockdev.Config{
//		DeviceID: "CLK-007", Token: secret, Firmware: "fw-2.1",
//		Target:      "hall.local:7443",
//		DialOptions: []grpc.DialOption{grpc.WithTransportCredentials(creds)},
//		Outbox:      ob,
//	})
//	defer d.Close()
//	go d.Run(ctx)                        // the link, until ctx is done
//	err = d.Press(rules.White, "e4", "") // a player's press; a refusal is returned
//	st := d.State()                      // for the display, projected to board-now
//
// # Transports
//
// The link's streams are gRPC's by default (Config.Conn or Target). A
// Config.Transport carries them otherwise: clockdev/wsdial speaks
// ClockLink over a WebSocket to the hall's HTTP port, as a browser's clock
// does (docs/protocol.md). The link is the same over either. The gRPC
// transport (grpc.go) and the contract's gRPC stubs are left out of
// js/wasm builds, so that a browser's build links no gRPC:
//
//	d, err := clockdev.New(clockdev.Config{DeviceID: id, Token: secret,
//		Transport: &wsdial.Transport{URL: "wss://hall.local/clocklink"}})
//
// The server assigns the device to a board (Assignment), sends arbiter
// commands (Command), acknowledges events (Ack), may refuse some of them
// (Rejection) and may ask a talking clock to announce (Announce); Events
// delivers all of these as Notices for a display or a test.
//
// # The link protocol
//
// Run opens a stream (ClockLink.Connect with "authorization: Bearer
// <token>", or the Transport's) and sends Hello (device id, firmware, last acknowledged seq, next seq,
// what the clock shows, and whether it can announce). The server answers Welcome{acked_seq,
// heartbeat_interval_ms}, the Assignment and any pending Commands. On the
// first Welcome of a stream the device drops its acknowledged events and
// resends the rest in seq order; a later Welcome on the same stream only
// acknowledges. If the server acknowledged more than the device ever
// numbered (the device lost its storage), the device's pending events are
// renumbered from acked_seq+1 and numbering continues after them. If it
// acknowledges less than it did before (the hall was restored from an
// older backup), the acknowledged events the outbox still keeps
// (Outbox.Resend: the last RetainedEvents, of whichever boards) are
// pending again and resent from acked_seq+1; the Hello lists the records
// of the boards they were recorded on (Outbox.Held), from which such a
// hall rebuilds the boards it no longer knows. The Welcome's rejected
// entries name the refusals among the events acknowledged while the
// device could not hear the Acks.
//
// Events are DeviceEvents: seq (per device, from 1, contiguous forever,
// across boards), board_id, the ClockAction with its board-time t_ms, the
// command_id (with who gave the command and why) when it applies an
// arbiter command, and the displayed remaining main times right after it. Ack{up_to_seq} is cumulative; its
// rejected entries are acknowledged all the same, dropped from the outbox
// and reported (Status().Rejected, Rejections, NoticeRejection).
//
// When a stream ends, with any status (OUT_OF_RANGE for a sequence gap
// among them), Run reconnects after an exponential backoff with jitter:
// from Config.MinBackoff (100ms) doubling to Config.MaxBackoff (3s), each
// wait uniform in [b/2, b]; the backoff starts over after a welcomed
// stream that stayed up at least MaxBackoff, unless the hall ended it for
// a fault of its own (INTERNAL, RESOURCE_EXHAUSTED, or UNAVAILABLE with a
// google.rpc.RetryInfo delay, as a hall that cannot store events answers):
// then a named delay is waited out, spread by up to half again, and the
// same failure is logged as a warning once a minute (NoticeDisconnected
// carries RetryIn). Heartbeats go out every heartbeat_interval_ms (5s if
// the Welcome names none).
//
// Local actions (Do, Press) are recorded and sent only if the local rules
// accept them; the refusal is returned. A press on the side not having the
// move does nothing (6.2.1) and is not recorded. Arbiter commands are
// applied at board-now with the arbiter's authority (a result may replace
// a result) and are recorded and sent even if the local rules refuse them,
// so the server can resolve them as refused; a command id seen before is
// ignored (ids are remembered for the device's lifetime, and recovered
// from the outbox's pending events after a restart).
//
// Flags: a timer is set at the state's NextDeadline; when due, a
// rules.KindFlag event of the side to move at the exact deadline instant
// is applied and, if the rules accept it (a flag fell, or an absent
// player's default time passed), recorded and sent. Any action first
// records the deadlines that passed before it, in order, so a late timer
// never changes an instant.
//
// Assignments: the device keeps its own state when the assignment is for
// the board it plays, with the same configuration, and its history already
// contains the server's history (at least as long, same actions in front),
// unless the server rejected one of the device's own accepted events for
// the board since. Otherwise it adopts the server's: the state is the fold
// of the history (results in it read as the arbiter's), and board-now
// continues from the latest of state.at_ms, the last action's t_ms and, on
// the board it already plays, its own board-now (a board's time line never
// goes back, so events still in the outbox stay in the past). An
// empty board_id unassigns the device; actions then fail with
// ErrNotAssigned and commands are reported with an empty board_id.
//
// # Talking clock
//
// With Config.Speak the device is a talking clock for a visually disabled
// player (FIDE 2018 Appendix D.2.6.1): its Hello says capabilities.announce
// and the languages of its voice (Config.Voices), and it says the
// completed moves and the time used by both players (rules.Player.UsedMs)
// only when asked — never at a press, a flag, a command or an assignment:
//
//	d, err := clockdev.New(clockdev.Config{ /* ... */ Speak: speaker.Queue, Voices: []string{"en", "de"}})
//	sp, err := d.RequestAnnouncement(rules.White) // White's player pressed the announce button
//	// sp.Text: "Weiß: 23 Züge, 1 Stunde 2 Minuten 5 Sekunden verbraucht. Schwarz: ..."
//
// At its own button the clock builds the words from its own state with
// formats/announce, in the player's language (the board's
// rules.BlindPlayer.Language) when its voice speaks it, English
// otherwise: it keeps the time, so its count is exact, and its player is
// answered when the network is down. When the player asks through the hall
// (his assistant's page, the arbiter: D.2.10.4), the hall sends an Announce
// with the words it built with the same package; the device says them as
// given, once per announce_id, and only for the board it keeps. Either
// way Speak is called and a NoticeAnnouncement reported; nothing is
// recorded or sent.
//
// # Time
//
// Board-now is base + elapsed × (1 + DriftPPM/1e6), in whole milliseconds
// rounded down, where elapsed is the Clock's time since the board time
// line was set (at an adoption, or at New). A device restarted on a saved
// board continues from the last recorded instant: the time it was off is
// not counted (the arbiter adjusts the clock, 6.10.1). The displayed times
// in events, Hello and heartbeats are each side's remaining main time
// (rules.Player.MainMs), not counting a running delay window.
//
// # Concurrency
//
// A Device is safe for concurrent use: one mutex guards its clock, board
// and outbox, and each public method holds it briefly (Do holds it while
// the Outbox stores the event, so a press returns once it is durable).
// Run owns two goroutines per stream — a receive loop and the send loop,
// the only caller of stream.Send — and stops both when its context is done
// or the stream ends. The flag timer runs its callback on the Clock's own
// goroutine and takes the mutex. Events never blocks the device: when its
// buffer (Config.NoticeBuffer, 256 by default) is full, notices are
// dropped and counted. Close stops the timers and closes the Outbox;
// cancel Run first.
//
// The Outbox is called with the Device's mutex held; implementations must
// not call back into the Device.
package clockdev
