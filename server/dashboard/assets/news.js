// Whether the page still hears the hall. Every answer of the hall — a
// state on the live feed, the feed opening, a reply to a call — is news.
// The page has lost the hall when its feed fails, or when the feed has
// been quiet for a while and the hall does not answer a question either (a
// network that drops everything closes nothing). Lost, the page stops every
// clock where it last knew it (clock.js freeze) and says since when it has
// heard nothing; back, the clocks run again from the hall's states.

import { serverNow, freeze, thaw } from "./clock.js";

let heardAt = 0; // server time of the last news; 0: none yet
let lostAt = 0; // server time since which nothing was heard; 0: not lost

// heard notes news from the hall, now.
export function heard() { heardAt = serverNow(); }

// quietFor is how long (ms) the page has heard nothing.
export const quietFor = () => (heardAt ? serverNow() - heardAt : Infinity);

// lostSince is the server time since which the page has heard nothing,
// 0 while it hears the hall.
export const lostSince = () => lostAt;

// lost marks the hall lost since at (default: the last news) and stops
// the clocks there; it reports whether the hall was heard until now.
export function lost(at = heardAt || serverNow()) {
  if (lostAt) return false;
  lostAt = at;
  freeze(at);
  return true;
}

// back marks the hall heard again and lets the clocks run; it reports
// whether it had been lost.
export function back() {
  heard();
  if (!lostAt) return false;
  lostAt = 0;
  thaw();
  return true;
}
