// The running clock, in the browser. A board's state says its times at
// server_unix_ms (server wall time); the page runs the running side's
// clock forward from there on its own, so no traffic is needed to tick.
// skew is the server's clock minus the browser's, learnt from the server's
// answers (X-Server-Unix-Ms) and from live states, which cannot be from
// the future. delay is the broadcast delay of a read-only session: its
// states are as old as that, and so is what it shows. A page that has lost
// the hall stops every clock where it last knew it (freeze): the real
// clocks run on, and nothing on the page may look as if it knew.

import { num } from "./format.js";

let skew = 0, delay = 0;
let frozenAt = 0; // the server's time at which the page lost the hall; 0: live

// setServerTime takes the server's clock from an answer sent between
// sentAt and receivedAt (browser time).
export function setServerTime(serverMs, sentAt, receivedAt) {
  if (!serverMs) return;
  skew = num(serverMs) - (sentAt + receivedAt) / 2;
}

export function setDelay(ms) { delay = num(ms); }

// noteLive learns from a state just published: the server's clock is at
// least its server_unix_ms (a scaled test clock runs ahead of ours).
export function noteLive(st) {
  const t = num(st.serverUnixMs) + delay;
  if (t > Date.now() + skew) skew = t - Date.now();
}

// serverNow is the server's time now (the broadcast delay not taken off).
export const serverNow = () => Date.now() + skew;

// now is the server's time now, as the session sees the hall; while the
// page has lost the hall, the time at which it lost it.
export const now = () => (frozenAt || serverNow()) - delay;

// freeze stops every clock at serverMs (server time), thaw lets them run.
export function freeze(serverMs) { frozenAt = serverMs; }
export function thaw() { frozenAt = 0; }

export const isRunning = st => st && st.status === "BOARD_STATUS_RUNNING" && !!st.running;

// elapsed is how long the state's running clock has run since the state.
export function elapsed(st) {
  if (!isRunning(st)) return 0;
  return Math.max(0, now() - num(st.serverUnixMs));
}

// remaining is a side's clock now: the running side's main time less the
// time since the state, after the rest of its simple delay.
export function remaining(st, side) {
  const p = (st && st[side]) || {};
  let ms = num(p.remainingMs);
  if (isRunning(st) && st.running === "SIDE_" + side.toUpperCase()) {
    ms -= Math.max(0, elapsed(st) - num(p.delayLeftMs));
  }
  return Math.max(0, ms);
}

// boardNow is the board's own time now (at_ms runs with the clock).
export function boardNow(st) {
  return num(st && st.atMs) + elapsed(st);
}
