// The hall's stream to NATS JetStream, as arbiters watch it: a badge in
// the top bar saying whether the publisher reaches the stream and how far
// behind it is (changes not yet published and the age of the oldest).
// Presses never wait for the stream; a growing backlog means NATS is away
// and gateways and the federation view fall behind.

import * as f from "./format.js";

// staleMs: a backlog older than this shows as a fault (red).
const staleMs = 10_000;

// followStream polls GET /api/stream every few seconds and keeps badge
// current; a hall that publishes nowhere (404) hides it.
export function followStream(badge, everyMs = 3000) {
  let timer = 0;
  const poll = async () => {
    let st;
    try {
      const r = await fetch("/api/stream", { credentials: "same-origin", cache: "no-store" });
      if (r.status === 404 || r.status === 401 || r.status === 403) { badge.hidden = true; return; }
      if (!r.ok) throw new Error(r.status + " " + (await r.text()).trim());
      st = await r.json();
    } catch (e) {
      show(badge, "stream: unknown", "live busy", "the hall did not say how its stream fares: " + e.message);
      timer = setTimeout(poll, everyMs);
      return;
    }
    show(badge, ...describe(st));
    timer = setTimeout(poll, everyMs);
  };
  poll();
  return () => clearTimeout(timer);
}

// describe turns a StreamStatus (server/stream.go) into the badge's text,
// class and tooltip.
export function describe(st) {
  const where = "stream " + st.stream + " on " + st.nats;
  const behind = (st.backlog || 0) + " change" + (st.backlog === 1 ? "" : "s") + " not yet published";
  const age = st.backlog ? ", the oldest " + f.duration(st.oldestAgeMs || 0) + " old" : "";
  const err = st.lastError ? "; last error: " + st.lastError : "";
  if (st.ahead) {
    return ["stream: ahead of the hall", "live bad", where + " holds changes this hall never made (restored from an older backup): delete the stream and the hall publishes itself again" + err];
  }
  if (!st.connected) {
    return ["stream: NATS away · " + (st.backlog || 0) + " waiting", "live bad", where + " unreachable; " + behind + age + ". Presses are kept and acknowledged as ever; the backlog drains when NATS returns" + err];
  }
  if (st.backlog && (st.oldestAgeMs || 0) > staleMs) {
    return ["stream: " + st.backlog + " behind, " + f.duration(st.oldestAgeMs) + " old", "live busy", where + ": " + behind + age + err];
  }
  return ["stream: up to date", "live ok", where + ": " + behind + age + "; " + (st.acked || 0) + " acknowledged since the server started"];
}

function show(badge, text, cls, title) {
  badge.textContent = text;
  badge.className = cls + " stream";
  badge.title = title;
  badge.hidden = false;
}
