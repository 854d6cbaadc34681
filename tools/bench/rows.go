package main

import (
	"fmt"
	"time"
)

// liveRows turns the live measurements into table rows, hall against echo
// and the durable echo (nil if not measured), or against the hall itself
// without watchers.
func liveRows(c config, hall, echo, durable *live) []row {
	var rows []row
	scale := fmt.Sprintf("%s clocks, %s presses/s", count(c.clocks), count(int(c.rate)))
	// base is a baseline's figure: echo's, then the durable echo's.
	base := func(f func(*live) string) string {
		b := f(echo) + " echo"
		if durable != nil {
			b += "; " + f(durable) + " durable echo"
		}
		return b
	}
	where := "echo on " + echo.cpus + ", bench on " + echo.loadCPUs
	if durable != nil {
		where += "; durable echo on " + durable.cpus
	}
	rows = append(rows, row{figure: "where they ran (CPUs, as the kernel allowed them)", hall: "hall on " + hall.cpus + ", bench on " + hall.loadCPUs, base: where})
	if hall.ingest != nil && echo.ingest != nil && (durable == nil || durable.ingest != nil) {
		acked := func(l *live) float64 { return float64(l.ingest.acked.Load()) / c.duration.Seconds() }
		q := func(l *live, p float64) time.Duration { return l.ingest.lat.quantile(p) }
		ha := acked(hall)
		rows = append(rows,
			row{figure: scale + ": acknowledged presses/s (ratio: of offered)", hall: perSec(ha), base: base(func(l *live) string { return perSec(acked(l)) }),
				ratio: ratio(ha, c.rate), target: "≥ 0.99 of offered", holds: yesNo(ha >= 0.99*c.rate)})
		hp := q(hall, 0.99)
		p99 := row{figure: scale + ": p99 acknowledgement", hall: ms(hp), base: base(func(l *live) string { return ms(q(l, 0.99)) })}
		if durable != nil {
			// Against what durability alone costs on this disk.
			dp := q(durable, 0.99)
			p99.ratio, p99.target = ratio(float64(hp), float64(dp))+" of durable", "≤ 25 ms and ≤ 2× durable echo"
			p99.holds = yesNo(hp <= 25*time.Millisecond && hp <= 2*max(dp, time.Millisecond))
		} else {
			ep := q(echo, 0.99)
			p99.ratio, p99.target = ratio(float64(hp), float64(ep)), "≤ 25 ms and ≤ 3× echo"
			p99.holds = yesNo(hp <= 25*time.Millisecond && hp <= 3*max(ep, time.Millisecond))
		}
		rows = append(rows, p99)
		p50 := row{figure: scale + ": p50 acknowledgement", hall: ms(q(hall, 0.5)), base: base(func(l *live) string { return ms(q(l, 0.5)) }),
			ratio: ratio(float64(q(hall, 0.5)), float64(q(echo, 0.5)))}
		if durable != nil {
			p50.ratio += "; " + ratio(float64(q(hall, 0.5)), float64(q(durable, 0.5))) + " of durable"
		}
		rows = append(rows, p50)
		hc, ec := cpuPerPress(hall, c), cpuPerPress(echo, c)
		cpu := row{figure: scale + ": server CPU per press (heartbeats included)", hall: us(hc) + beatNote(hall),
			base:  base(func(l *live) string { return us(cpuPerPress(l, c)) + beatNote(l) }),
			ratio: ratio(float64(hc), float64(ec)), target: "≤ 1.5× echo, at the same heartbeat interval",
			holds: yesNo(hc > 0 && float64(hc) <= 1.5*float64(ec) && hall.beatEvery == echo.beatEvery)}
		if durable != nil {
			cpu.ratio += "; " + ratio(float64(hc), float64(cpuPerPress(durable, c))) + " of durable"
		}
		rows = append(rows, cpu)
		if hall.ingest.rtOK {
			rt := func(l *live) string {
				if !l.ingest.rtOK {
					return "?"
				}
				w := l.ingest.rt
				if w.Cycles == 0 && w.LongestPause == 0 {
					return fmt.Sprintf("no pause, no collection, a goroutine waited %s", ms(w.LongestWait))
				}
				return fmt.Sprintf("pause %s, assists %s a collection (%d), a goroutine waited %s", ms(w.LongestPause), ms(w.AssistPerCycle()), w.Cycles, ms(w.LongestWait))
			}
			alloc := func(l *live) string {
				if !l.ingest.rtOK {
					return "?"
				}
				return kb(allocPerPress(l.ingest))
			}
			rows = append(rows, row{figure: scale + ": heap allocated per press (heartbeats included; the same on a busy machine)", hall: alloc(hall), base: base(alloc),
				ratio: ratio(allocPerPress(hall.ingest), allocPerPress(echo.ingest))})
			w := hall.ingest.rt
			rows = append(rows, row{figure: scale + ": the server's runtime in the window: longest stop-the-world pause, assists (CPU) per collection, longest wait for a processor",
				hall: rt(hall), base: base(rt), target: "no pause or assist over 20 ms",
				holds: yesNo(w.LongestPause <= 20*time.Millisecond && w.AssistPerCycle() <= 20*time.Millisecond)})
		}
		if hall.collected != nil && echo.collected != nil && (durable == nil || durable.collected != nil) {
			rows = append(rows, collectedRow(scale, hall, echo, durable, base))
		}
	}
	if len(hall.sat) > 0 && len(echo.sat) > 0 {
		r := row{figure: "saturation: acknowledged presses/s (until p99 > 100 ms or no gain)", hall: perSec(hall.satAt) + satNote(hall.sat),
			base: perSec(echo.satAt) + " echo" + satNote(echo.sat), ratio: ratio(hall.satAt, echo.satAt), target: "≥ 0.5× echo", holds: yesNo(hall.satAt >= 0.5*echo.satAt)}
		if durable != nil && len(durable.sat) > 0 {
			r.base += "; " + perSec(durable.satAt) + " durable echo" + satNote(durable.sat)
			if durable.satAt > 0 {
				r.ratio += "; " + ratio(hall.satAt, durable.satAt) + " of durable"
			}
		}
		rows = append(rows, r)
	}
	if w := hall.watch; w != nil {
		at := "" // the watchers' rate, when not the ingest rows'
		if r := c.watchRateOr(); r != c.rate {
			at = fmt.Sprintf(" at %s presses/s", count(int(r)))
		}
		for _, k := range w.kinds {
			name := map[string]string{"grpc": "WatchHall (gRPC)", "sse": "SSE"}[k.kind]
			p99 := k.lat.quantile(0.99)
			r := row{figure: fmt.Sprintf("%s %s watchers%s: p99 acknowledgement → update", count(c.watchers), name, at),
				hall: ms(p99) + lostNote(k.lost), target: "≤ 250 ms", holds: yesNo(p99 <= 250*time.Millisecond && k.errs == 0)}
			if k.lat.count() == 0 {
				// No sampled update was timed: nothing holds.
				r.hall, r.holds = "no update timed"+lostNote(k.lost), "NO"
			}
			rows = append(rows, r)
			with, without := float64(k.with.acked.Load())/c.duration.Seconds(), float64(k.base.acked.Load())/c.duration.Seconds()
			rows = append(rows, row{figure: fmt.Sprintf("%s %s watchers%s: acknowledged presses/s", count(c.watchers), name, at),
				hall: perSec(with), base: perSec(without) + " without", ratio: ratio(with, without), target: "≥ 0.90", holds: yesNo(with >= 0.9*without)})
			if k.sat != nil {
				r := row{figure: fmt.Sprintf("%s %s watchers at %s presses/s offered (where saturation stopped): age of the oldest state a sampled watcher holds", count(c.watchers), name, count(int(k.satRate))),
					hall:   fmt.Sprintf("%s (p99 %s; ingest %.0f/s)", ms(k.satAgeMax), ms(k.satAge.quantile(0.99)), float64(k.sat.acked.Load())/c.duration.Seconds()),
					target: "≤ 1 s", holds: yesNo(k.satAge.count() > 0 && k.satAgeMax <= time.Second)}
				if k.satAge.count() == 0 {
					r.hall = "no age taken"
				}
				rows = append(rows, r)
			}
		}
		if w.slowBase != nil && w.slowWith != nil {
			pb, pw := w.slowBase.lat.quantile(0.99), w.slowWith.lat.quantile(0.99)
			rows = append(rows, row{figure: fmt.Sprintf("a watcher of each kind stops reading for %s%s: ingest p99", c.stall, at),
				hall: ms(pw), base: ms(pb) + " without", ratio: ratio(float64(pw), float64(pb)), target: "unchanged (≤ 1.5× or +5 ms)",
				holds: yesNo(pw <= max(pb*3/2, pb+5*time.Millisecond))})
			for _, o := range w.slow {
				name := map[string]string{"grpc": "gRPC", "sse": "SSE"}[o.kind]
				got := "no snapshot"
				if o.noStall {
					got = "not measured: no update came while it was not reading"
				}
				if o.err == nil && o.report.snapshot {
					got = fmt.Sprintf("snapshot %s after resuming, behind %d updates (%.0f KB) in flight", o.report.after.Round(time.Millisecond), o.report.updatesAhead, float64(o.report.bytesBefore)/1024)
				}
				rows = append(rows, row{figure: "the slow " + name + " watcher resumes", hall: got, target: "a fresh snapshot, not a backlog",
					holds: yesNo(o.err == nil && o.report.snapshot && o.report.after < 5*time.Second)})
			}
		}
	} else if hall.watchersFailed != "" {
		rows = append(rows, row{figure: "watchers", hall: "failed: " + hall.watchersFailed, holds: "NO"})
	}
	if c.parts["memory"] {
		hm, em := float64(hall.rss1-hall.rss0)/float64(c.clocks), float64(echo.rss1-echo.rss0)/float64(c.clocks)
		rows = append(rows, row{figure: fmt.Sprintf("resident memory per idle clock stream (%s clocks)", count(c.clocks)), hall: kb(hm), base: kb(em) + " echo",
			ratio: ratio(hm, em), target: "≤ 2× echo", holds: yesNo(hm <= 2*em)})
		hg, eg := float64(hall.g1-hall.g0)/float64(c.clocks), float64(echo.g1-echo.g0)/float64(c.clocks)
		rows = append(rows, row{figure: "goroutines per idle clock stream", hall: fmt.Sprintf("%.1f", hg), base: fmt.Sprintf("%.1f echo", eg), ratio: ratio(hg, eg)})
	}
	for _, l := range []*live{hall, echo, durable} {
		if l == nil {
			continue
		}
		if l.streamErrs > 0 {
			rows = append(rows, row{figure: l.kind + ": clock streams cut (the bench's clocks do not reconnect)",
				hall: fmt.Sprintf("%d of %d; errors %d (last: %v); the bench sent heartbeats up to %s late", l.streamCuts, l.clocks, l.streamErrs, l.lastStreamErr,
					l.beatLate.Round(time.Millisecond)), holds: "NO"})
		}
		if l.ingest != nil && l.ingest.rejected.Load() > 0 {
			rows = append(rows, row{figure: l.kind + ": presses rejected", hall: fmt.Sprint(l.ingest.rejected.Load()), holds: "NO"})
		}
	}
	return rows
}

// allocPerPress is the server's heap allocation per press acknowledged
// over the window w (0 if unknown).
func allocPerPress(w *window) float64 {
	if !w.rtOK || w.acked.Load() == 0 {
		return 0
	}
	return float64(w.rt.Alloc) / float64(w.acked.Load())
}

// beatNote says how often the clocks heartbeat, as the server's Welcome
// asked.
func beatNote(l *live) string {
	if l.beatEvery <= 0 {
		return ""
	}
	return fmt.Sprintf(" (a heartbeat every %s)", l.beatEvery)
}

func cpuPerPress(l *live, c config) time.Duration {
	n := float64(l.ingest.acked.Load()) * (c.warmup + c.duration).Seconds() / c.duration.Seconds()
	if n == 0 {
		return 0
	}
	return time.Duration(float64(l.cpu) / n)
}

func us(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d)/1e3) }

func satNote(steps []satStep) string {
	last := steps[len(steps)-1]
	return fmt.Sprintf(" (offered up to %.0f/s)", last.offered)
}

func lostNote(n int64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d never seen)", n)
}

// count writes 10000 as 10k and 10000000 as 10M.
func count(n int) string {
	if n >= 1000000 && n%1000000 == 0 {
		return fmt.Sprintf("%dM", n/1000000)
	}
	if n >= 1000 && n%1000 == 0 {
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}

// watchRateOr is the offered rate of the watchers part.
func (c config) watchRateOr() float64 {
	if c.watchRate > 0 {
		return c.watchRate
	}
	return c.rate
}

// collectedRow is the window with a collection forced halfway through, on
// every server: its p99 and the runtime's longest pause and assists.
func collectedRow(scale string, hall, echo, durable *live, base func(func(*live) string) string) row {
	cell := func(l *live) string {
		w := l.collected
		if !w.rtOK {
			return "p99 " + ms(w.lat.quantile(0.99))
		}
		return fmt.Sprintf("p99 %s; pause %s, assists %s (%d collections)", ms(w.lat.quantile(0.99)), ms(w.rt.LongestPause), ms(w.rt.Assist), w.rt.Cycles)
	}
	w := hall.collected
	r := row{figure: scale + ", a collection forced halfway through the window: p99 acknowledgement; the runtime's longest stop-the-world pause and assists (CPU)",
		hall: cell(hall), base: base(cell), ratio: ratio(float64(w.lat.quantile(0.99)), float64(echo.collected.lat.quantile(0.99))),
		target: "no pause or assist over 20 ms"}
	if w.rtOK {
		r.holds = yesNo(w.rt.LongestPause <= 20*time.Millisecond && w.rt.Assist <= 20*time.Millisecond)
	}
	return r
}
