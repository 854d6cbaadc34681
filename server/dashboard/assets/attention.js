// What needs an arbiter, most urgent first. attention() is a pure
// function of the boards the page holds (each {info, state, device,
// finishedLive}) and of the time: the panel, the tiles' marks and the
// "Needs attention" filter all read it.
//
// Urgency, 1 first:
//  1  a flag fallen in a game that goes on (it must be claimed or ruled),
//     a claim referred to the arbiter (III.6), a quickplay claim postponed
//     (III.5), an absent player whose default time is up or within 2 min
//  2  a clock offline, a command its clock has not applied, an absent
//     player's default time within 10 min
//  3  a clock paused (a player stopped it: an arbiter is called), a clock
//     whose times disagree with the rules, a clock low on battery
//  4  what was ruled lately: an illegal move and its penalty, a time
//     penalty or correction (15 min); a game just lost on time (5 min)
//  5  time trouble (8.4) in a standard game: under five minutes without
//     a 30 s increment (rapid and blitz players need not record the moves)

import { num, Side, change, duration, finished, waiting, SIDES, termination } from "./format.js";
import { boardNow, remaining, now } from "./clock.js";
import { t, words } from "./t.js";

export const LOW_BATTERY = 20; // per cent
const RECENT_RULING_MS = 15 * 60_000;
const RECENT_FLAG_MS = 5 * 60_000;

// RULING: a ruling's kind and its catalogue key, att.r.<key> (by a side)
// or att.r.<key>_any (no side said); time given or a clock set name none.
const RULING = {
  ACTION_KIND_ILLEGAL_MOVE: "illegal_move", ACTION_KIND_ILLEGAL_MOVE_FOUND: "illegal_move_found",
  ACTION_KIND_DRAW_CLAIM_REJECTED: "draw_claim_rejected", ACTION_KIND_QUICKPLAY_CLAIM: "quickplay_claim",
  ACTION_KIND_QUICKPLAY_INCREMENT: "quickplay_increment", ACTION_KIND_ADD_TIME: "add_time",
  ACTION_KIND_SET_CLOCK: "set_clock",
};
const SIDELESS = new Set(["add_time", "set_clock"]);

// rulingText says which ruling made a jump: "White +2:00 — illegal move by Black".
export function rulingText(r) {
  if (!r) return "";
  const parts = [];
  if (num(r.whiteChangeMs)) parts.push(t("side.white") + " " + change(num(r.whiteChangeMs)));
  if (num(r.blackChangeMs)) parts.push(t("side.black") + " " + change(num(r.blackChangeMs)));
  const k = RULING[r.kind];
  const what = !k ? r.kind : SIDELESS.has(k) ? t("att.r." + k) : r.side ? t("att.r." + k, { side: Side(r.side) }) : t("att.r." + k + "_any");
  return parts.join(", ") + " — " + what;
}

export function attention(boards, dismissed = new Set()) {
  const out = [];
  const nowMs = now();
  for (const b of boards) {
    const st = b.state;
    if (!st) continue;
    // gist: what the entry says without naming its board or clock, the
    // same words for every board it applies to (grouped() reads it).
    const add = (urgency, kind, text, order = 0, key = kind, gist = text) => {
      const k = b.info.boardId + ":" + key;
      if (!dismissed.has(k)) out.push({ board: b, urgency, kind, text, order, key: k, gist });
    };
    const over = finished(st);
    const live = !over && !waiting(st) && st.status !== "BOARD_STATUS_REFERRED";
    if (st.firstFlag && !over) {
      add(1, "flag", t(bothFlags(st) ? "att.flag_both" : "att.flag", { side: Side(st.firstFlag) }),
        num(st.firstFlag === "SIDE_WHITE" ? st.white.flagAtMs : st.black.flagAtMs));
    }
    if (st.status === "BOARD_STATUS_REFERRED") {
      add(1, "referred", t("att.referred", { side: Side(st.claimReferredBy) }));
    }
    if (st.quickplayPostponed && !over) {
      add(1, "quickplay", t("att.quickplay"));
    }
    for (const side of SIDES) {
      const p = st[side] || {};
      if (!p.absent || over || waiting(st)) continue;
      const d = num(st.nextDeadlineMs);
      const left = d ? d - boardNow(st) : Infinity;
      const who = Side(side);
      if (left <= 2 * 60_000) add(1, "absent-" + side, left <= 0 ? t("att.absent_passed", { side: who }) : t("att.absent_in", { side: who, left: duration(left) }), left);
      else if (left <= 10 * 60_000) add(2, "absent-" + side, t("att.absent_in", { side: who, left: duration(left) }), left);
      else add(4, "absent-" + side, d ? t("att.not_yet_in", { side: who, left: duration(left) }) : t("att.not_yet", { side: who }), left);
    }
    if (st.source !== "CLOCK_SOURCE_VIRTUAL" && !over) {
      if (!b.info.deviceId) add(2, "nodevice", t("att.nodevice"));
      else if (!st.deviceOnline) {
        const n = num(st.pendingCommands), device = b.info.deviceId;
        add(2, "offline", n ? t("att.offline_waiting", { device, n }) : t("att.offline", { device }), 0, "offline", t("att.clock_offline"));
      }
    }
    if (num(st.pendingCommands) && (st.deviceOnline || st.source === "CLOCK_SOURCE_VIRTUAL")) {
      add(2, "pending", t("att.pending", { n: num(st.pendingCommands) }));
    }
    if (st.status === "BOARD_STATUS_PAUSED") add(3, "paused", t("att.paused"));
    const alerts = st.alerts || [];
    if (alerts.length) add(3, "alert", t("att.alert", { alert: alertText(st, alerts.length - 1) }), 0, "alert" + alerts.length);
    // batteryPct: -1 (or left out, 0) while the clock has not said.
    const battery = b.device && b.device.online ? num(b.device.batteryPct) : -1;
    if (battery > 0 && battery < LOW_BATTERY && !over) {
      add(3, "battery", t("att.battery", { device: b.device.deviceId, pct: num(b.device.batteryPct) }), 0, "battery", t("att.battery_low", { pct: LOW_BATTERY }));
    }
    const r = st.lastRuling;
    if (r && nowMs - num(r.unixMs) < RECENT_RULING_MS) {
      add(4, "ruling", rulingText(r), -num(r.unixMs), "ruling" + r.boardSeq);
    }
    if (over && st.termination === "time" && b.finishedLive && nowMs - b.finishedLive < RECENT_FLAG_MS) {
      const p = { result: st.result || "", termination: termination(st.termination) };
      add(4, "flagged", st.firstFlag ? t("att.flagged", { side: Side(st.firstFlag), ...p }) : t("att.over", p), -b.finishedLive, "flagged" + st.boardSeq);
    }
    if (live && st.category === "standard") {
      const trouble = SIDES.filter(s => st[s] && st[s].timeTrouble);
      if (trouble.length) {
        const least = Math.min(...trouble.map(s => remaining(st, s)));
        add(5, "trouble", trouble.length > 1 ? t("att.trouble_both") : t("att.trouble", { side: Side(trouble[0]) }), least);
      }
    }
  }
  out.sort((a, b) => a.urgency - b.urgency || rank(a.kind) - rank(b.kind) || a.order - b.order ||
    (a.board.info.roundNumber - b.board.info.roundNumber) || (a.board.info.number - b.board.info.number));
  return out;
}

// The kinds in the order of the list: within an urgency, a flag
// before a claim, a claim before an absent player...
const KINDS = ["flag", "referred", "quickplay", "absent", "offline", "nodevice", "pending", "paused", "alert", "battery", "ruling", "flagged", "trouble"];
const rank = kind => KINDS.indexOf(kind.split("-")[0]);

// alertText is the board's alert i in the page's language: its Words
// (alertWords, one for each of alerts), else the English the hall sent.
export function alertText(st, i) {
  const w = (st.alertWords || [])[i];
  return w && w.kind ? words(w) : (st.alerts || [])[i] || "";
}

function bothFlags(st) {
  return st.white && st.black && st.white.flagAtMs !== undefined && st.black.flagAtMs !== undefined;
}

// GROUP_MIN: as many entries saying the same thing (kind, urgency and
// gist) are listed as one, with their count; fewer are listed each.
export const GROUP_MIN = 5;

// grouped turns the entries (in attention's order) into what the panel
// lists: {entry} alone, or {group: [entries], key, urgency, kind, gist} in
// the place of the group's most urgent entry. A hall of imported rounds
// without clocks is one "no clock" entry with its count, not hundreds.
export function grouped(entries, min = GROUP_MIN) {
  const by = new Map();
  for (const e of entries) {
    const k = e.urgency + "|" + e.kind.split("-")[0] + "|" + e.gist;
    if (!by.has(k)) by.set(k, []);
    by.get(k).push(e);
  }
  const out = [], done = new Set();
  for (const e of entries) {
    const k = e.urgency + "|" + e.kind.split("-")[0] + "|" + e.gist;
    const all = by.get(k);
    if (all.length < min) { out.push({ entry: e }); continue; }
    if (done.has(k)) continue;
    done.add(k);
    out.push({ group: all, key: k, urgency: e.urgency, kind: e.kind, gist: e.gist });
  }
  return out;
}

// worst returns the most urgent urgency per board id.
export function worst(entries) {
  const m = new Map();
  for (const e of entries) {
    const id = e.board.info.boardId;
    if (!m.has(id) || m.get(id) > e.urgency) m.set(id, e.urgency);
  }
  return m;
}
