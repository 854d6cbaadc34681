// The arbiters' dashboard: signs in (or says why not), loads the rounds and
// boards the session may see, follows the hall's live feed, and keeps the
// tiles, the attention panel and the open board current.

import * as api from "./api.js";
import * as f from "./format.js";
import { t } from "./t.js";
import { el, option } from "./dom.js";
import { noteLive, setDelay, serverNow } from "./clock.js";
import * as news from "./news.js";
import { Hall } from "./hall.js";
import { attention, worst, grouped } from "./attention.js";
import { BoardPanel } from "./board.js";
import { Actions } from "./actions.js";
import { Audit } from "./audit.js";
import { Standings } from "./standings.js";
import { followStream } from "./stream.js";
import { wireSignInLink } from "./link.js";
import { wireAddBoard } from "./addboard.js";

const $ = id => document.getElementById(id);

const state = {
  session: null,
  rounds: new Map(), // round id → Round
  boards: new Map(), // board id → {info, state, device, finishedLive}
  devices: new Map(), // device id → Device
  broadcasts: new Map(), // round id → RoundBroadcast
  ignored: new Set(), // board ids of rounds not shown
  view: "hall", // "hall": every round playing now; else a round id
  mode: "tiles",
  source: null,
  lastSeq: 0,
  dismissed: new Set(JSON.parse(localStorage.getItem("hall.dismissed") || "[]")),
  ended: false,
  expanded: new Set(), // the attention groups opened to their list of boards
};

let hall, panel, actions, standings;

// ---- signing in, and out ----------------------------------------------

function banner(msg, cls, withSignIn) {
  const b = $("banner");
  b.className = cls || "";
  b.replaceChildren(document.createTextNode(msg));
  if (withSignIn) {
    const a = el("a", "button", t("app.sign_in_again"));
    a.href = "/signin?next=" + encodeURIComponent(location.pathname + location.hash);
    b.append(" ", a);
  }
  b.hidden = !msg;
}

// signedOut stops everything and says why: a revoked token, an ended
// session, a sign-out elsewhere (a restart keeps sessions). The hall is
// shown as the page last heard it, greyed, its clocks stopped.
function signedOut(reason) {
  if (state.ended) return;
  state.ended = true;
  if (state.source) state.source.close();
  lose(serverNow());
  $("live").textContent = t("app.signed_out_short");
  $("live").className = "live bad";
  $("live").title = noNews();
  banner(t("app.signed_out_banner", { reason: reason.replace(/^unauthenticated: /, ""), since: f.wall(news.lostSince()) }), "bad", true);
}

// ---- a hall lost, a hall back -------------------------------------------

// quietMs: a feed quiet this long is checked by asking the hall (a quiet
// hall sends nothing; a dead network says nothing either).
const quietMs = 15_000;

// noNews says since when the page has heard nothing from the hall.
function noNews() {
  return t("app.no_news", { time: f.wall(news.lostSince()) });
}

// lose greys the hall and stops every clock where the page last knew it
// (at: since when nothing was heard; default the last news), and says so.
function lose(at) {
  if (news.lost(at)) {
    document.body.classList.add("stale");
    attentionEmpty();
    if (hall) hall.tick();
    if (panel) panel.tick();
  }
  if (state.ended) return;
  $("live").textContent = t("app.reconnecting", { news: noNews() });
  $("live").className = "live bad";
  $("live").title = t("app.feed_lost");
  banner(t("app.no_news_banner", { time: f.wall(news.lostSince()) }), "bad");
}

// regain shows the hall live again.
function regain() {
  if (news.back()) {
    document.body.classList.remove("stale");
    attentionEmpty();
    if (hall) hall.tick();
  }
  const live = $("live");
  live.textContent = t("app.live");
  live.className = "live ok";
  live.title = "";
  if (!state.ended) banner("");
}

// checkQuiet asks the hall whether it is still there when the feed has
// been quiet for a while: an answer is news, no answer means the hall is
// lost and the feed is opened again.
async function checkQuiet() {
  const es = state.source;
  if (state.ended || !es || es.readyState !== EventSource.OPEN || news.lostSince() || news.quietFor() < quietMs) return;
  try {
    await api.session(5000);
  } catch (e) {
    if (e.httpStatus === 401) { signedOut(e.message); return; }
    if (state.source !== es || news.quietFor() < quietMs) return;
    lose();
    watch();
  }
}

async function boot() {
  let s;
  try {
    s = await api.session();
  } catch (e) {
    if (e.httpStatus === 401 && /not signed in/.test(e.message)) {
      location.replace("/signin?next=" + encodeURIComponent(location.pathname + location.hash));
      return;
    }
    state.ended = true;
    banner(e.httpStatus === 401 ? t("app.signed_out", { reason: e.message.replace(/^unauthenticated: /, "") }) :
      t("app.no_answer", { error: e.cause || e.message }), "bad", e.httpStatus === 401);
    return;
  }
  if (s.role === "assistant") {
    // A player's assistant has one page, of his board only.
    location.replace("/assist");
    return;
  }
  state.session = s;
  f.setZone(s.time_zone); // the hall's clock times, not the browser's
  api.init(s, signedOut);
  setDelay(s.delay_ms || 0);
  $("signout-csrf").value = s.csrf;
  // "Anna (arbiter, sections A, B)"; a label that names the role already
  // ("chief arbiter") is not told it twice.
  const role = ({ chief: ["chief arbiter"], arbiter: ["arbiter"], broadcast: ["broadcast", "read-only"] }[s.role] || [s.role])
    .filter(w => !s.label.toLowerCase().includes(w.split(" ").pop()));
  if (s.sections && s.sections.length) role.push("sections " + s.sections.join(", "));
  $("who-label").textContent = s.label + (role.length ? " (" + role.join(", ") + ")" : "");
  document.body.classList.add("role-" + s.role);
  if (s.delay_ms) {
    $("delay").textContent = t("app.delayed", { ago: f.duration(s.delay_ms) });
    $("delay").hidden = false;
  }

  const canAct = s.role === "chief" || s.role === "arbiter";
  if (canAct) followStream($("stream"));
  hall = new Hall($("hall"), id => go({ board: id }), fitHint);
  actions = new Actions($("action-dialog"), {
    boards: () => [...state.boards.values()],
    devices: () => [...state.devices.values()],
    onDone: id => { panel.refresh(); refreshBoard(id); },
  });
  panel = new BoardPanel($("board"), {
    onClose: () => go({ board: null }),
    actions: canAct ? actions : { buttons: () => [] },
    canAudit: canAct,
  });
  if (canAct) {
    const audit = new Audit($("audit-view"), { rounds: () => [...state.rounds.values()] });
    $("audit-open").hidden = false;
    $("audit-open").onclick = () => audit.open();
    standings = new Standings($("standings-view"), {
      rounds: () => [...state.rounds.values()],
      sections: () => [...new Set([...state.boards.values()].map(b => b.info.section || ""))],
    });
    $("standings-open").hidden = false;
    $("standings-open").onclick = () => standings.open();
  }
  wireControls();
  wireSignInLink($("link-open"), $("link-dialog"));
  if (canAct) hall.addBoard = wireAddBoard($("addboard-dialog"));
  try {
    await loadRounds();
    readHash();
    await loadBoards();
  } catch (e) {
    if (e.httpStatus !== 401) banner(t("app.rounds_error", { error: e.message }), "bad");
    return;
  }
  watch();
  requestAnimationFrame(frame);
  setInterval(() => renderAttention(), 1000);
  setInterval(checkQuiet, 5000);
  if (canAct) {
    pollDevices();
    setInterval(pollDevices, 15000);
    pollBroadcasts();
    setInterval(pollBroadcasts, 30000);
  }
  setInterval(() => loadRounds().then(() => renderHeads()).catch(() => { /* the next time */ }), 30000);
}

// ---- what is shown ------------------------------------------------------

// current returns the rounds the hall view shows: of each tournament, its
// latest round with boards.
function current() {
  const latest = new Map();
  for (const r of state.rounds.values()) {
    if (!r.tally || !r.tally.boards) continue;
    const was = latest.get(r.tournamentId);
    if (!was || r.number > was.number) latest.set(r.tournamentId, r);
  }
  return [...latest.values()];
}

function shownRounds() {
  if (state.view === "hall") return current();
  const r = state.rounds.get(state.view);
  return r ? [r] : [];
}

async function loadRounds() {
  const r = await api.call("ListRounds", {});
  state.rounds = new Map((r.rounds || []).map(x => [x.roundId, x]));
  const sel = $("view");
  const keep = sel.value;
  const opts = [["hall", t("app.view_hall")]];
  const rounds = [...state.rounds.values()].filter(x => x.tally && x.tally.boards)
    .sort((a, b) => a.tournamentName.localeCompare(b.tournamentName) || b.number - a.number);
  // A round a restored hall rebuilt from its clocks: its byes and clockless boards are not known.
  const rebuilt = x => x.source === "clocks" ? ", rebuilt from the clocks after a restore" : "";
  for (const x of rounds) opts.push([x.roundId, x.tournamentName + " · round " + x.number + " (" + x.tally.boards + " boards" + rebuilt(x) + ")"]);
  sel.replaceChildren(...opts.map(([v, t]) => option(v, t)));
  sel.value = keep && [...sel.options].some(o => o.value === keep) ? keep : state.view;
}

async function loadBoards() {
  const rounds = shownRounds();
  const asked = performance.now();
  const lists = await Promise.all(rounds.map(r => api.call("ListBoards", { roundId: r.roundId })));
  const old = state.boards;
  state.boards = new Map();
  for (const l of lists) {
    for (const b of l.boards || []) {
      const { state: st, ...info } = b;
      const was = old.get(b.boardId);
      const rec = { info, state: was && was.state, heard: was && was.heard, device: state.devices.get(b.deviceId), finishedLive: was && was.finishedLive };
      take(rec, st, asked);
      state.boards.set(b.boardId, rec);
    }
  }
  state.ignored.clear();
  const recs = [...state.boards.values()].sort((a, b) =>
    a.info.tournamentName.localeCompare(b.info.tournamentName) || a.info.roundNumber - b.info.roundNumber ||
    (a.info.section || "").localeCompare(b.info.section || "") || a.info.number - b.info.number);
  hall.setBoards(recs, { rounds: state.rounds, broadcasts: state.broadcasts });
  fillSections(recs);
  $("title").textContent = state.view === "hall" ? t("app.title_hall", { rounds: rounds.map(r => r.tournamentName + " R" + r.number).join(" · ") }) :
    rounds.length ? rounds[0].tournamentName + " · " + t("app.round", { round: rounds[0].number }) : t("app.no_round");
  renderAttention();
  const open = new URLSearchParams(location.hash.slice(1)).get("board");
  if (open) openBoard(open);
}

// take keeps st as the board's state if it is the later one, and says
// so. asOf is when the page last knew st to be the hall's (performance
// time): a feed's state when it arrived, a reply's when it was asked for.
// A state with fewer events is older. With as many, the live fields
// (online, alerts, pending) decide: a reply asked for before a feed's
// state arrived may predate it (the clock went offline in between), so
// the feed's stays; a reply asked for after it is as new or newer.
function take(rec, st, asOf) {
  const a = rec.state;
  if (a && (f.num(st.boardSeq) < f.num(a.boardSeq) || (f.num(st.boardSeq) === f.num(a.boardSeq) && asOf < rec.heard))) return false;
  rec.state = st;
  rec.heard = asOf;
  return true;
}

function fillSections(recs) {
  fillTournaments(recs);
  const sel = $("f-section");
  const keep = sel.value;
  const secs = [...new Set(recs.map(r => r.info.section || ""))].filter(Boolean).sort();
  sel.replaceChildren(option("", t("dash.all_sections")), ...secs.map(s => option(s, t("group.section", { section: s }))));
  sel.value = secs.includes(keep) ? keep : "";
  sel.hidden = secs.length === 0;
}

// readableHall: hall view's type (px) below which tiles are too small
// to read from a distance; the page then says how to show fewer.
const readableHall = 16;

// fitHint says, in hall view, when the tiles are too small to read and a
// tournament alone would be larger.
function fitHint(font, shown) {
  const hint = $("fit-hint"), sel = $("f-tournament");
  const small = state.mode === "hall" && font < readableHall && !sel.hidden && !sel.value;
  hint.hidden = !small;
  if (small) hint.textContent = t("app.small_type", { n: shown, px: Math.round(font) });
}

// fillTournaments offers each tournament shown alone (where there are
// several): a hall of hundreds of boards, one tournament at a time.
function fillTournaments(recs) {
  const sel = $("f-tournament");
  const keep = sel.value;
  const names = [...new Set(recs.map(r => r.info.tournamentName || ""))].filter(Boolean).sort();
  sel.replaceChildren(option("", t("dash.all_tournaments")), ...names.map(n => option(n, n)));
  sel.value = names.includes(keep) ? keep : "";
  sel.hidden = names.length < 2;
}

// ---- the live feed ------------------------------------------------------

function watch() {
  if (state.source) state.source.close();
  if (state.ended) return;
  const url = "/api/watch" + (state.view === "hall" ? "" : "?round=" + encodeURIComponent(state.view));
  const es = new EventSource(url, { withCredentials: true });
  state.source = es;
  let open = false;
  es.onopen = () => { open = true; regain(); };
  es.onmessage = ev => {
    if (state.source !== es) return;
    news.heard();
    const u = JSON.parse(ev.data);
    state.lastSeq = f.num(u.seq);
    let unknown = false, moved = false;
    for (const st of u.boards || []) {
      if (!u.snapshot) noteLive(st);
      if (st.withdrawn) {
        if (state.boards.delete(st.boardId)) unknown = true;
        continue;
      }
      const rec = state.boards.get(st.boardId);
      if (!rec) {
        if (!state.ignored.has(st.boardId)) {
          state.ignored.add(st.boardId);
          if (!u.snapshot) unknown = true;
        }
        continue;
      }
      const was = rec.state;
      const counted = x => (x && (x.countingResult || x.result)) || "*";
      if (take(rec, st, performance.now())) {
        if (!u.snapshot && f.finished(st) && !f.finished(was || {})) rec.finishedLive = Date.now();
        if (counted(st) !== counted(was)) moved = true;
      }
      hall.update(rec);
      panel.update(rec);
    }
    renderAttention();
    // A result, or a correction, moves the standings on an open view.
    if (moved && standings) standings.moved();
    if (unknown) scheduleReload();
  };
  es.onerror = async () => {
    if (state.ended || state.source !== es) return;
    // The feed was open until now: the hall was heard until now. Nothing
    // it sends arrives from here on, so nothing may look live.
    lose(open ? serverNow() : undefined);
    open = false;
    // An EventSource says nothing of why: ask the session. A token revoked
    // or a session ended is said so, and the page stops trying.
    try {
      await api.session(5000);
    } catch (e) {
      if (e.httpStatus === 401) { signedOut(e.message); return; }
    }
    if (es.readyState === EventSource.CLOSED && !state.ended) {
      // Refused (not a dropped connection): the browser will not retry.
      setTimeout(() => { if (state.source === es) watch(); }, 3000);
    }
  };
}

let reloadTimer = 0;
// scheduleReload picks up a new round (or boards added) shortly after the
// feed names boards the page does not know.
function scheduleReload() {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(async () => {
    try {
      await loadRounds();
      await loadBoards();
    } catch (e) { /* the next change tries again */ }
  }, 1500);
}

async function refreshBoard(id) {
  try {
    const asked = performance.now();
    const b = await api.call("GetBoard", { boardId: id });
    const rec = state.boards.get(id);
    if (!rec) return;
    const { state: st, ...info } = b;
    rec.info = info;
    take(rec, st, asked);
    hall.update(rec);
    panel.update(rec);
  } catch (e) { /* shown by the action's outcome */ }
}

async function pollDevices() {
  try {
    const r = await api.call("ListDevices", {});
    state.devices = new Map((r.devices || []).map(d => [d.deviceId, d]));
    for (const rec of state.boards.values()) {
      const d = state.devices.get(rec.info.deviceId);
      if (d !== rec.device) { rec.device = d; hall.update(rec); panel.update(rec); }
    }
    renderAttention();
  } catch (e) { /* next time */ }
}

async function pollBroadcasts() {
  try {
    const r = await api.call("ListBroadcasts", {});
    state.broadcasts = new Map((r.broadcasts || []).map(b => [b.roundId, b]));
    hall.ctx.broadcasts = state.broadcasts;
    renderHeads();
  } catch (e) { /* next time */ }
}

function renderHeads() {
  hall.ctx.rounds = state.rounds;
  for (const g of hall.groups) if (g.head) hall.head(g);
}

// ---- needs attention ------------------------------------------------------

// listedMax: the panel lists the most urgent entries only (a hall in
// trouble has hundreds), and says how many it leaves out.
const listedMax = 200;

let lastAttention = "";
function renderAttention() {
  if (!hall) return;
  const boards = [...state.boards.values()];
  const entries = attention(boards, state.dismissed);
  hall.setMarks(worst(entries));
  // The badge counts what the panel lists, coloured by the most urgent.
  const toggle = $("attn-toggle");
  $("attn-count").textContent = entries.length;
  toggle.className = entries.length ? "u" + Math.min(entries[0].urgency, 4) : "";
  toggle.title = t("app.attention_count", { n: entries.length });
  $("attn-total").textContent = entries.length ? "(" + entries.length + ")" : "";
  // Where several tournaments play, an entry names its tournament: "R1 ·
  // 34" alone could be any of them.
  const names = f.shortNames(boards.map(b => b.info.tournamentName || ""));
  const sig = entries.map(e => e.key + e.text).join("|") + "|" + names.size + "|" + [...state.expanded].join("|");
  if (sig === lastAttention) return;
  lastAttention = sig;
  const entry = e => {
    const li = el("li", "attn u" + e.urgency + " k-" + e.kind);
    li.dataset.board = e.board.info.boardId;
    const i = e.board.info;
    const where = (names.size > 1 ? names.get(i.tournamentName || "") + " " : "") + "R" + i.roundNumber + " · " + f.boardLabel(i);
    const go1 = el("button", "goto", where);
    go1.title = t("app.open_board", { board: f.boardLabel(i), tournament: i.tournamentName, round: i.roundNumber });
    const who = el("span", "players", f.shortName(i.white) + " – " + f.shortName(i.black));
    const what = el("span", "why", e.text);
    const x = el("button", "dismiss", "✓");
    x.title = t("app.seen_one");
    x.onclick = ev => {
      ev.stopPropagation();
      dismiss([e]);
    };
    li.append(go1, who, x, what);
    li.onclick = ev => { ev.stopPropagation(); showAttention(false); go({ board: i.boardId }); };
    return li;
  };
  // Many boards saying the same thing are one entry with their count,
  // opened to the list of them.
  const group = g => {
    const open = state.expanded.has(g.key);
    const li = el("li", "attn group u" + g.urgency + " k-" + g.kind.split("-")[0]);
    li.dataset.group = g.key;
    const count = el("button", "count", t("app.boards", { n: g.group.length }));
    count.title = open ? t("app.hide_boards") : t("app.show_boards");
    count.setAttribute("aria-expanded", String(open));
    const x = el("button", "dismiss", "✓");
    x.title = t("app.seen_many");
    x.onclick = ev => { ev.stopPropagation(); dismiss(g.group); };
    const list = el("ol", "members");
    list.hidden = !open;
    // A board's line repeats nothing the group says.
    if (open) list.append(...g.group.map(e => { const m = entry(e); if (e.text === g.gist) m.querySelector(".why").remove(); return m; }));
    li.append(count, el("span", "players", open ? "▾ " + t("app.hide") : "▸ " + t("app.show")), x, el("span", "why", g.gist), list);
    li.onclick = () => {
      if (state.expanded.has(g.key)) state.expanded.delete(g.key);
      else state.expanded.add(g.key);
      renderAttention();
    };
    return li;
  };
  const listed = grouped(entries);
  const items = listed.slice(0, listedMax).map(x => x.group ? group(x) : entry(x.entry));
  if (listed.length > listedMax) items.push(el("li", "dim more", t("app.more", { n: listed.length - listedMax })));
  $("attn-list").replaceChildren(...items);
  $("attn-empty").hidden = entries.length > 0;
}

// dismiss hides entries in this browser until they change.
function dismiss(entries) {
  for (const e of entries) state.dismissed.add(e.key);
  localStorage.setItem("hall.dismissed", JSON.stringify([...state.dismissed].slice(-2000)));
  renderAttention();
}

// attentionEmpty says that nothing waits, or that nothing waited when the
// page last heard the hall: it cannot know what waits now.
function attentionEmpty() {
  $("attn-empty").textContent = news.lostSince() ? t("app.nothing_waited", { time: f.wall(news.lostSince()) }) :
    t("dash.nothing_waits_for_an");
}

// showAttention opens or closes the attention panel where it is a panel
// of its own (a phone); on a larger screen it is always beside the hall.
function showAttention(on) {
  document.body.classList.toggle("show-attention", on);
  $("attn-toggle").setAttribute("aria-expanded", String(on));
}

// ---- navigation: #board=<id>, #view=<round id>, #mode=hall ---------------

function go(change) {
  const p = new URLSearchParams(location.hash.slice(1));
  for (const [k, v] of Object.entries(change)) {
    if (v === null || v === undefined || v === "") p.delete(k);
    else p.set(k, v);
  }
  location.hash = p.toString();
}

function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  const view = p.get("view") || "hall";
  state.view = view === "hall" || state.rounds.has(view) ? view : "hall";
  $("view").value = state.view;
  setMode(p.get("mode") || "tiles", false);
}

async function onHash() {
  try {
    await followHash();
  } catch (e) {
    banner(t("app.view_error", { error: e.message }), "bad");
  }
}

async function followHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  const view = p.get("view") || "hall";
  const mode = p.get("mode") || "tiles";
  if (mode !== state.mode) setMode(mode, false);
  if (view !== state.view && (view === "hall" || state.rounds.has(view))) {
    state.view = view;
    $("view").value = view;
    await loadBoards();
    watch();
    return;
  }
  const board = p.get("board");
  if (board) openBoard(board);
  else panel.close();
}

async function openBoard(id) {
  const rec = state.boards.get(id);
  if (rec) { panel.open(rec); return; }
  // Not in view (another round, or not the session's to see): ask.
  try {
    const b = await api.call("GetBoard", { boardId: id });
    const { state: st, ...info } = b;
    panel.open({ info, state: st, device: state.devices.get(b.deviceId) });
  } catch (e) {
    panel.error(t("tile.board", { board: id }) + ": " + e.message);
  }
}

function setMode(mode, push = true) {
  state.mode = mode;
  document.body.classList.toggle("hallview", mode === "hall");
  for (const m of ["tiles", "list", "hall"]) $("mode-" + m).classList.toggle("on", m === mode);
  if (mode !== "hall") $("fit-hint").hidden = true;
  hall.setMode(mode);
  if (push) go({ mode: mode === "tiles" ? null : mode });
}

function wireControls() {
  $("view").onchange = e => go({ view: e.target.value === "hall" ? null : e.target.value, board: null });
  $("mode-tiles").onclick = () => setMode("tiles");
  $("mode-list").onclick = () => setMode("list");
  $("mode-hall").onclick = () => {
    setMode("hall");
    if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
  };
  $("attn-toggle").onclick = () => showAttention(!document.body.classList.contains("show-attention"));
  $("attn-close").onclick = () => showAttention(false);
  // The attention panel opens below the top bar, whatever its height.
  new ResizeObserver(() => document.documentElement.style.setProperty("--top-h", $("top").offsetHeight + "px")).observe($("top"));
  const filter = () => hall.setFilter({ tournament: $("f-tournament").value, section: $("f-section").value, status: $("f-status").value, trouble: $("f-trouble").checked, search: $("f-search").value });
  for (const id of ["f-tournament", "f-section", "f-status", "f-trouble", "f-search"]) $(id).addEventListener("input", filter);
  // In hall view PageDown and PageUp show the next or previous tournament.
  document.addEventListener("keydown", e => {
    const sel = $("f-tournament");
    if (state.mode !== "hall" || sel.hidden || (e.key !== "PageDown" && e.key !== "PageUp")) return;
    e.preventDefault();
    const n = sel.options.length;
    sel.selectedIndex = (sel.selectedIndex + (e.key === "PageDown" ? 1 : n - 1)) % n;
    filter();
  });
  window.addEventListener("hashchange", onHash);
  document.addEventListener("keydown", e => {
    if (e.key !== "Escape" || $("action-dialog").open) return;
    if (!$("board").hidden) go({ board: null });
    else if (document.body.classList.contains("show-attention")) showAttention(false);
    else if (state.mode === "hall") setMode("tiles");
  });
}

// ---- the clocks tick --------------------------------------------------------

let lastTick = 0;
function frame(t) {
  if (t - lastTick >= 100) {
    lastTick = t;
    hall.tick();
    panel.tick();
    if (actions) actions.tick();
  }
  requestAnimationFrame(frame);
}

boot();

// For the browser tests and the curious: the page's state.
window.hallDashboard = state;
