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

export const LOW_BATTERY = 20; // per cent
const RECENT_RULING_MS = 15 * 60_000;
const RECENT_FLAG_MS = 5 * 60_000;

const RULING = {
  ACTION_KIND_ILLEGAL_MOVE: "illegal move", ACTION_KIND_ILLEGAL_MOVE_FOUND: "illegal move found later",
  ACTION_KIND_DRAW_CLAIM_REJECTED: "incorrect draw claim", ACTION_KIND_QUICKPLAY_CLAIM: "quickplay claim",
  ACTION_KIND_QUICKPLAY_INCREMENT: "quickplay: 5 s a move", ACTION_KIND_ADD_TIME: "time given or taken",
  ACTION_KIND_SET_CLOCK: "clock set",
};

// rulingText says which ruling made a jump: "White +2:00 — illegal move by Black".
export function rulingText(r) {
  if (!r) return "";
  const parts = [];
  if (num(r.whiteChangeMs)) parts.push("White " + change(num(r.whiteChangeMs)));
  if (num(r.blackChangeMs)) parts.push("Black " + change(num(r.blackChangeMs)));
  let what = RULING[r.kind] || r.kind;
  if (r.side && r.kind !== "ACTION_KIND_ADD_TIME") what += " by " + Side(r.side);
  return parts.join(", ") + " — " + what;
}

export function attention(boards, dismissed = new Set()) {
  const out = [];
  const t = now();
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
      add(1, "flag", Side(st.firstFlag) + "'s flag has fallen" + (bothFlags(st) ? " (first of both)" : "") + ": the game goes on until it is claimed",
        num(st.firstFlag === "SIDE_WHITE" ? st.white.flagAtMs : st.black.flagAtMs));
    }
    if (st.status === "BOARD_STATUS_REFERRED") {
      add(1, "referred", Side(st.claimReferredBy) + "'s claim is referred to the arbiter (III.6): decide the result");
    }
    if (st.quickplayPostponed && !over) {
      add(1, "quickplay", "a quickplay claim awaits the arbiter's decision (III.5)");
    }
    for (const side of SIDES) {
      const p = st[side] || {};
      if (!p.absent || over || waiting(st)) continue;
      const d = num(st.nextDeadlineMs);
      const left = d ? d - boardNow(st) : Infinity;
      if (left <= 2 * 60_000) add(1, "absent-" + side, Side(side) + " absent: " + (left <= 0 ? "the default time has passed" : "default in " + duration(left)), left);
      else if (left <= 10 * 60_000) add(2, "absent-" + side, Side(side) + " absent: default in " + duration(left), left);
      else add(4, "absent-" + side, Side(side) + " not yet at the board" + (d ? " (default in " + duration(left) + ")" : ""), left);
    }
    if (st.source !== "CLOCK_SOURCE_VIRTUAL" && !over) {
      if (!b.info.deviceId) add(2, "nodevice", "no clock: assign one or use a virtual clock");
      else if (!st.deviceOnline) add(2, "offline", "clock " + b.info.deviceId + " offline" + (num(st.pendingCommands) ? "; " + num(st.pendingCommands) + " command(s) wait for it" : ""), 0, "offline", "clock offline");
    }
    if (num(st.pendingCommands) && (st.deviceOnline || st.source === "CLOCK_SOURCE_VIRTUAL")) {
      add(2, "pending", num(st.pendingCommands) + " command(s) not yet applied by the clock");
    }
    if (st.status === "BOARD_STATUS_PAUSED") add(3, "paused", "clock paused: an arbiter is called, or one stopped it");
    const alerts = st.alerts || [];
    if (alerts.length) add(3, "alert", "clock and rules disagree: " + alerts[alerts.length - 1], 0, "alert" + alerts.length);
    // batteryPct: -1 (or left out, 0) while the clock has not said.
    const battery = b.device && b.device.online ? num(b.device.batteryPct) : -1;
    if (battery > 0 && battery < LOW_BATTERY && !over) {
      add(3, "battery", "clock " + b.device.deviceId + " battery " + num(b.device.batteryPct) + "%", 0, "battery", "clock battery under " + LOW_BATTERY + "%");
    }
    const r = st.lastRuling;
    if (r && t - num(r.unixMs) < RECENT_RULING_MS) {
      add(4, "ruling", rulingText(r), -num(r.unixMs), "ruling" + r.boardSeq);
    }
    if (over && st.termination === "time" && b.finishedLive && t - b.finishedLive < RECENT_FLAG_MS) {
      const loser = st.firstFlag ? Side(st.firstFlag) : "";
      add(4, "flagged", (loser ? loser + "'s flag fell: " : "") + "game over " + (st.result || "") + " " + termination(st.termination), -b.finishedLive, "flagged" + st.boardSeq);
    }
    if (live && st.category === "standard") {
      const trouble = SIDES.filter(s => st[s] && st[s].timeTrouble);
      if (trouble.length) {
        const least = Math.min(...trouble.map(s => remaining(st, s)));
        add(5, "trouble", trouble.map(s => Side(s)).join(" and ") + " in time trouble (8.4)", least);
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
