// Play with visually disabled players (the Laws' Appendix D) on the
// dashboard: the mark on a tile, the board's line with each player's time
// used, and the arbiter's actions — set the board's play under the
// appendix, make the sign-in link of a player's assistant, have the hall
// announce the moves and the time used to a player.

import * as f from "./format.js";
import { t } from "./t.js";
import { elapsed, isRunning } from "./clock.js";

// blindOf reads a board's play under the appendix: {white, black}, each
// {vd, assistant, lang}; null when the board is not played under it.
export function blindOf(info) {
  const b = info && info.config && info.config.blindPlay;
  if (!b) return null;
  const side = p => ({ vd: !!(p && p.visuallyDisabled), assistant: !!(p && p.assistant), lang: (p && p.language) || "" });
  const out = { white: side(b.white), black: side(b.black) };
  return out.white.vd || out.black.vd || out.white.assistant || out.black.assistant ? out : null;
}

// mark is a player's mark on a tile: "VD", "VD+A", "+A" (a sighted
// player's assistant), "" for none.
export function mark(info, side) {
  const b = blindOf(info);
  if (!b) return "";
  const p = b[side];
  return (p.vd ? "VD" : "") + (p.assistant ? "+A" : "");
}

// words says a player's part in words: "visually disabled, with an
// assistant, his clock speaks de".
export function words(info, side) {
  const b = blindOf(info);
  if (!b) return "";
  const p = b[side], out = [];
  if (p.vd) out.push(t("blind.vd"));
  if (p.assistant) out.push(p.vd ? t("blind.assistant") : t("blind.sighted_assistant"));
  if (p.vd && p.lang) out.push(t("blind.speaks", { lang: p.lang }));
  return out.join(", ");
}

// summary says the board's play under the appendix for a tile's label.
export function summary(info) {
  if (!blindOf(info)) return "";
  return f.SIDES.map(s => (words(info, s) ? f.Side(s) + " " + words(info, s) : "")).filter(Boolean).join("; ");
}

// line is the board page's line: the play under the appendix and each
// player's time used (used_ms, run forward while his clock runs).
export function line(info, st, usedMs) {
  const parts = [];
  if (blindOf(info)) parts.push(t("blind.appendix", { summary: summary(info) }));
  parts.push(t("blind.time_used", { used: f.SIDES.map(s => f.Side(s) + " " + f.duration(usedMs(st, s))).join(" · ") }));
  return parts.join(" ");
}

// voice says what a clock device can say: "talking clock (en, de)".
export function voice(device) {
  if (!device || !device.canAnnounce) return "";
  return t("blind.talking_clock", { voices: device.voices && device.voices.length ? device.voices.join(", ") : t("blind.english") });
}

// used is a side's time used now: the state's, run forward while his
// clock runs.
export function used(st, side) {
  const p = (st && st[side]) || {};
  let ms = f.num(p.usedMs);
  if (isRunning(st) && st.running === "SIDE_" + side.toUpperCase()) ms += elapsed(st);
  return ms;
}
