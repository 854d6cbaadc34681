// Words and numbers as the hall writes them. protojson writes int64 as
// strings and leaves out zero values: num() reads either.

import { t, time } from "./t.js";

export const num = v => Number(v || 0);

export const SIDES = ["white", "black"];

// sideOf turns "SIDE_WHITE" into "white" ("" for none).
export function sideOf(s) {
  return s === "SIDE_WHITE" ? "white" : s === "SIDE_BLACK" ? "black" : "";
}

export function Side(s) {
  const x = typeof s === "string" && s.startsWith("SIDE_") ? sideOf(s) : s;
  return x === "white" ? t("side.white") : x === "black" ? t("side.black") : "";
}

export const other = side => (side === "white" ? "black" : "white");

// clock writes a remaining time: 1:23:45, 23:45, 0:45, and tenths under
// twenty seconds (9.7).
export function clock(ms) {
  ms = Math.max(0, ms);
  if (ms < 20000) {
    const t = Math.floor(ms / 100);
    return "0:" + String(Math.floor(t / 10)).padStart(2, "0") + "." + (t % 10);
  }
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  if (h > 0) return h + ":" + String(m).padStart(2, "0") + ":" + String(sec).padStart(2, "0");
  return m + ":" + String(sec).padStart(2, "0");
}

// duration writes a span of time for people: 2:00, 0:45, 1:02:03.
export function duration(ms) {
  const s = Math.round(Math.abs(ms) / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  if (h > 0) return h + ":" + String(m).padStart(2, "0") + ":" + String(sec).padStart(2, "0");
  return m + ":" + String(sec).padStart(2, "0");
}

// used writes the time a move took: 0:07, 2:05, 1:02:03, cut to whole
// seconds as the PGN's [%emt] is (formats/pgn), so the two agree to the
// second (formats/pgn/testdata/used.json holds the cases both are tested
// on).
export function used(ms) {
  const s = Math.floor(Math.max(0, ms) / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  if (h > 0) return h + ":" + String(m).padStart(2, "0") + ":" + String(sec).padStart(2, "0");
  return m + ":" + String(sec).padStart(2, "0");
}

// change writes a change of a clock: +2:00, −0:30.
export function change(ms) {
  return (ms < 0 ? "\u2212" : "+") + duration(ms);
}

// The hall's time zone (IANA, "Asia/Yerevan": the session's time_zone):
// the pages write the hall's local time, not the browser's. Undefined:
// the browser's own.
let zone;

// setZone sets the hall's time zone; one the browser does not know is
// left out (the browser's own zone, and the offset says which).
export function setZone(tz) {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz || undefined });
    zone = tz || undefined;
  } catch (e) {
    zone = undefined;
  }
}

// hallZone is the hall's zone's name, "" if the page does not know it.
export const hallZone = () => zone || "";

// wall writes an instant as the hall's clock time, 14:30:05.
export function wall(unixMs) {
  if (!unixMs) return "";
  const d = new Date(num(unixMs));
  return time(d, { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", timeZone: zone });
}

// offsetMs is the hall's zone's offset from UTC at an instant, ms.
function offsetMs(ms) {
  const part = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(new Date(ms)).find(p => p.type === "timeZoneName");
  const m = /([+\u2212-])(\d\d):?(\d\d)?/.exec(part ? part.value : "");
  return m ? (m[1] === "+" ? 1 : -1) * (Number(m[2]) * 60 + Number(m[3] || 0)) * 60_000 : 0;
}

// offset writes the zone's offset at an instant as hallctl and the
// sign-in page do: +04, -0330, UTC.
export function offset(unixMs) {
  const o = offsetMs(num(unixMs));
  if (o === 0) return "UTC";
  const m = Math.abs(o) / 60_000, pad = n => String(n).padStart(2, "0");
  return (o < 0 ? "-" : "+") + pad(Math.floor(m / 60)) + (m % 60 ? pad(m % 60) : "");
}

// zoneLabel names the hall's zone at an instant: "+04 (Asia/Yerevan)",
// "UTC".
export function zoneLabel(unixMs) {
  const o = offset(unixMs);
  return zone && zone !== "UTC" && zone !== "Etc/UTC" ? o + " (" + zone + ")" : o;
}

// until writes an expiry where it could be mistaken (a link read on
// another device): the hall's clock time to the minute with its zone,
// "14:30 +04 (Asia/Yerevan)", as the sign-in page and hallctl say it.
export function until(unixMs) {
  if (!unixMs) return "";
  const d = new Date(num(unixMs));
  return time(d, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone }) + " " + zoneLabel(unixMs);
}

// zoned writes an instant to the second with its zone's offset:
// "14:30:05 +04".
export function zoned(unixMs) {
  return unixMs ? wall(unixMs) + " " + offset(unixMs) : "";
}

// todayAt is the instant of a clock time ("14:30") today in the hall's
// zone, or 0 for none.
export function todayAt(hm) {
  if (!hm) return 0;
  const [h, m] = hm.split(":").map(Number);
  const now = Date.now(), off = offsetMs(now), hall = new Date(now + off);
  const at = Date.UTC(hall.getUTCFullYear(), hall.getUTCMonth(), hall.getUTCDate(), h, m || 0);
  return at - offsetMs(at - off);
}

export const STATUS = {
  BOARD_STATUS_WAITING: t("status.waiting"), BOARD_STATUS_RUNNING: t("status.running"), BOARD_STATUS_PAUSED: t("status.paused"),
  BOARD_STATUS_ADJOURNED: t("status.adjourned"), BOARD_STATUS_FINISHED: t("status.finished"), BOARD_STATUS_REFERRED: t("status.referred"),
};

export const statusKey = st => (st && st.status) || "BOARD_STATUS_WAITING";
export const statusWord = st => STATUS[statusKey(st)] || "?";

export const finished = st => statusKey(st) === "BOARD_STATUS_FINISHED";
export const waiting = st => statusKey(st) === "BOARD_STATUS_WAITING";

// resultText writes a result for people: 1-0, ½-½, +/− for forfeits.
export function resultText(r) {
  if (!r || r === "*") return "";
  return r.replaceAll("1/2", "½");
}

// counts is the result that counts when the board's draw odds make it
// differ from the result over the board (a drawn Armageddon: 0-1), else "".
export function counts(st) {
  const c = st && st.countingResult;
  return c && c !== "*" && c !== st.result ? c : "";
}

// drawOdds says a board's draw odds: "draw odds for Black: a draw counts as
// Black's win", or "".
export function drawOdds(info) {
  const o = info && info.config && info.config.regulations && info.config.regulations.drawOdds;
  if (!o) return "";
  return o === "white" ? t("odds.white") : t("odds.black");
}

// stateResult writes a board's result and, under draw odds, what it counts
// as: "½-½, counts 0-1"; short: "½-½ → 0-1".
export function stateResult(st, short = false) {
  const r = resultText(st && st.result), c = counts(st);
  if (!c) return r;
  return short ? r + " → " + resultText(c) : t("result.counts", { result: r, counts: resultText(c) });
}

export const TERMINATION = {
  normal: "", time: t("term.time"), illegal_move: t("term.illegal_move"), default: t("term.default"), quickplay_claim: t("term.quickplay_claim"),
  arbiter: t("term.arbiter"), agreement: t("term.agreement"),
};

export function termination(t) {
  return t in TERMINATION ? TERMINATION[t] : (t || "").replaceAll("_", " ");
}

// bonus writes what a period gives a move: +30s, d5, b3.
export function bonus(p) {
  if (!p || !p.bonus) return "";
  const s = num(p.bonusMs) / 1000;
  return { increment: "+" + s + "s", delay: "d" + s, bronstein: "b" + s }[p.bonus] || "";
}

// periodOf returns the period in force for a side (from 1) and its info.
export function periodOf(info, st, side) {
  const n = Math.max(1, num(st && st[side] && st[side].period));
  const tci = (info && info.timeControlInfo) || {};
  // Time odds: Black's own periods when they differ from White's.
  const ps = (side === "black" && tci.blackPeriods && tci.blackPeriods.length ? tci.blackPeriods : tci.periods) || [];
  return { n, p: ps[Math.min(n, ps.length) - 1], count: ps.length };
}

export const CATEGORY = { blitz: "B", rapid: "R", standard: "S" };

// playerName writes "GM Carlsen, Magnus" from a Player.
export function playerName(p, withTitle = true) {
  if (!p || !p.name) return "—";
  return (withTitle && p.title ? p.title + " " : "") + p.name;
}

// playerTitle is what hovering a player says: FIDE id, rating, federation.
export function playerTitle(p) {
  if (!p) return "";
  const bits = [playerName(p)];
  if (p.rating) bits.push(t("player.rating", { rating: p.rating }));
  if (p.fideId) bits.push("FIDE id " + p.fideId);
  if (p.federation) bits.push(p.federation);
  if (p.startRank) bits.push(t("player.start_rank", { n: p.startRank }));
  return bits.join(" · ");
}

// surname keeps a tile's name short: "Carlsen, Magnus" → "Carlsen M".
export function shortName(p) {
  if (!p || !p.name) return "—";
  const [last, first] = p.name.split(",").map(s => s.trim());
  if (first) return last + " " + first[0];
  return p.name;
}

// shortNames gives each tournament name its shortest form that still
// tells it from the others: its first word, or as many words as it takes
// ("Classical Open", "Rapid Cup", "Blitz Night" → "Classical", "Rapid",
// "Blitz"). It returns a Map of name → short form.
export function shortNames(names) {
  const words = new Map([...new Set(names)].map(n => [n, n.split(/\s+/).filter(Boolean)]));
  const out = new Map();
  for (const [n, w] of words) {
    let k = 1;
    const head = (v, k) => v.slice(0, k).join(" ");
    while (k < w.length && [...words].some(([m, v]) => m !== n && head(v, k) === head(w, k))) k++;
    out.set(n, head(w, k) || n);
  }
  return out;
}

// boardLabel is how arbiters name a board: "A12" in a section, "12" otherwise.
export function boardLabel(info) {
  return (info.section || "") + (info.number || "?");
}

// actorName makes an audit log's actor readable: "arbiter:Anna" → "Anna
// (arbiter)", "chief:chief arbiter" → "chief arbiter" (a label that names
// the role already is not told it twice). hallctl's audit writes the same.
export function actorName(a) {
  if (!a) return "";
  const i = a.indexOf(":");
  if (i < 0) return a;
  const role = a.slice(0, i), who = a.slice(i + 1);
  // (the label is the hall's, in English: "Chief arbiter Anna" names the role)
  const as = (r, word) => (who.toLowerCase().includes(r) ? who : who + " (" + word + ")");
  return { device: t("actor.device", { who }), chief: as("arbiter", t("actor.chief")), arbiter: as("arbiter", t("actor.arbiter")), broadcast: who,
    assistant: as("assistant", t("actor.assistant")) }[role] || a;
}
