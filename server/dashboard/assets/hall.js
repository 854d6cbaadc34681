// The hall at a glance: every board as a tile (or a row of the list),
// grouped by round and section, sized so that the whole hall fits the
// screen. Tiles are made once and updated in place when their board
// changes; running clocks are redrawn by tick() on animation frames.

import * as f from "./format.js";
import { el } from "./dom.js";
import { remaining, isRunning } from "./clock.js";
import { rulingText } from "./attention.js";
import * as blind from "./blind.js";
import { t } from "./t.js";

const GAP = 3; // px between tiles, as in style.css

export class Hall {
  // onFit(font, shown) hears the tiles' type size (px) and how many are
  // shown, each time they are fitted.
  constructor(root, onOpen, onFit = () => {}) {
    this.root = root;
    this.onOpen = onOpen;
    this.onFit = onFit;
    this.mode = "tiles";
    this.views = new Map(); // board id → {rec, tile, row, group}
    this.groups = [];
    this.filter = { tournament: "", section: "", status: "", trouble: false, search: "", attention: null };
    this.marks = new Map();
    this.ctx = { rounds: new Map(), broadcasts: new Map() };
    this.addBoard = null; // (roundId, title, number) opens "Add a board", for those who may
    root.addEventListener("click", e => {
      const t = e.target.closest("[data-board]");
      if (t) this.onOpen(t.dataset.board);
    });
    root.addEventListener("keydown", e => {
      const t = e.target.closest("[data-board]");
      if (t && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); this.onOpen(t.dataset.board); }
    });
    new ResizeObserver(() => this.fit()).observe(root);
  }

  // setBoards lays the hall out afresh: recs are {info, state} in order.
  setBoards(recs, ctx) {
    this.ctx = ctx;
    this.views.clear();
    this.groups = [];
    const byKey = new Map();
    for (const rec of recs) {
      const key = rec.info.roundId + "\u0000" + (rec.info.section || "");
      let g = byKey.get(key);
      if (!g) {
        g = { key, roundId: rec.info.roundId, section: rec.info.section || "", recs: [], info: rec.info };
        byKey.set(key, g);
        this.groups.push(g);
      }
      g.recs.push(rec);
    }
    this.render();
  }

  setMode(mode) {
    this.mode = mode;
    this.render();
  }

  render() {
    this.root.replaceChildren();
    this.root.className = "mode-" + this.mode;
    if (this.mode === "list") return this.renderList();
    for (const g of this.groups) {
      const sec = el("section", "group");
      g.head = el("h3", "ghead");
      g.grid = el("div", "grid");
      sec.append(g.head, g.grid);
      g.el = sec;
      for (const rec of g.recs) {
        const v = { rec, tile: tile(rec), group: g };
        this.views.set(rec.info.boardId, v);
        g.grid.append(v.tile.el);
        this.paint(v);
      }
      this.head(g);
      this.root.append(sec);
    }
    this.applyFilter();
  }

  renderList() {
    const table = el("table", "list");
    const head = el("tr");
    for (const h of [t("list.round"), t("list.board"), t("side.white"), t("list.rating"), t("list.white_clock"), t("list.black_clock"), t("side.black"), t("list.rating"),
      t("list.meta"), t("list.game_type"), t("list.status"), t("list.result"), t("list.device"), "⚑"]) head.append(el("th", "", h));
    const thead = el("thead");
    thead.append(head);
    const tbody = el("tbody");
    table.append(thead, tbody);
    for (const g of this.groups) {
      g.el = null;
      for (const rec of g.recs) {
        const v = { rec, row: row(rec), group: g };
        this.views.set(rec.info.boardId, v);
        tbody.append(v.row.el);
        this.paint(v);
      }
    }
    this.root.append(table);
    this.applyFilter();
  }

  // update redraws a board whose state (or device) changed.
  update(rec) {
    const v = this.views.get(rec.info.boardId);
    if (!v) return;
    v.rec = rec;
    this.paint(v);
    if (v.group && v.group.head) this.head(v.group);
  }

  setMarks(marks) {
    const changed = [];
    for (const [id, v] of this.views) {
      const was = this.marks.get(id), is = marks.get(id);
      if (was !== is) changed.push(v);
    }
    this.marks = marks;
    for (const v of changed) this.paint(v);
    if (this.filter.status === "attention") this.applyFilter();
  }

  paint(v) {
    const { rec } = v;
    const st = rec.state || {};
    const cls = ["st-" + f.statusKey(st).slice(13).toLowerCase()];
    const off = st.source !== "CLOCK_SOURCE_VIRTUAL" && !st.deviceOnline && !f.finished(st);
    if (off) cls.push("off");
    const m = this.marks.get(rec.info.boardId);
    if (m) cls.push("att-" + m);
    const mover = f.sideOf(st.toMove);
    if (mover && !f.finished(st)) cls.push("move-" + mover);
    if (isRunning(st)) cls.push("run-" + f.sideOf(st.running));
    if (troubleCounts(st)) for (const s of f.SIDES) if (st[s] && st[s].timeTrouble) cls.push("tt-" + s);
    const parts = v.tile || v.row;
    parts.el.className = (v.tile ? "tile " : "row ") + cls.join(" ");
    markBlind(parts, rec.info);
    parts.meta.textContent = metaText(rec);
    parts.meta.title = metaTitle(rec);
    if (parts.status) parts.status.textContent = statusText(rec);
    if (parts.result) parts.result.textContent = f.stateResult(st);
  if (parts.res) {
    parts.res.textContent = f.finished(st) ? f.stateResult(st, true) : "";
    parts.res.classList.toggle("odds", !!f.counts(st));
  }
    if (parts.device) {
      parts.device.textContent = deviceText(rec);
      parts.device.classList.toggle("bad", off);
    }
    if (parts.attention) parts.attention.textContent = m ? "⚑".repeat(Math.max(1, 4 - m)) : "";
    this.tickOne(v);
  }

  // tick redraws the clocks of every running board.
  tick() {
    for (const v of this.views.values()) {
      if (isRunning(v.rec.state)) this.tickOne(v);
    }
  }

  tickOne(v) {
    const parts = v.tile || v.row;
    for (const s of f.SIDES) {
      const text = f.clock(remaining(v.rec.state, s));
      if (parts.ck[s].textContent !== text) parts.ck[s].textContent = text;
    }
  }

  // head writes a group's header: the round by name and number, the
  // section, the time control, the round's progress and latest results,
  // the relay's state.
  head(g) {
    const i = g.info;
    const round = this.ctx.rounds.get(g.roundId);
    const counts = { finished: 0, playing: 0, waiting: 0 };
    const results = [];
    for (const rec of g.recs) {
      const st = rec.state || {};
      if (f.finished(st) || st.status === "BOARD_STATUS_REFERRED") counts.finished++;
      else if (f.waiting(st)) counts.waiting++;
      else counts.playing++;
      if (f.finished(st)) results.push(rec);
    }
    results.sort((a, b) => (b.finishedLive || 0) - (a.finishedLive || 0) || a.info.number - b.info.number);
    const title = i.tournamentName + " · " + t("group.round", { round: i.roundNumber }) + (g.section ? " · " + t("group.section", { section: g.section }) : "");
    const tc = (i.timeControlInfo && (i.timeControlInfo.withUnits + " · " + i.timeControlInfo.gameType)) || "";
    const n = g.recs.length;
    const bar = el("span", "bar");
    const done = el("i", "done"), play = el("i", "play");
    done.style.width = (100 * counts.finished / n) + "%";
    play.style.width = (100 * counts.playing / n) + "%";
    bar.append(done, play);
    const prog = el("span", "prog");
    prog.append(bar, el("span", "", t("group.progress", { finished: counts.finished, playing: counts.playing, waiting: counts.waiting })));
    // A long tournament name gives way; its round and section never do.
    const gtitle = el("span", "gtitle");
    gtitle.append(el("span", "gname", i.tournamentName), el("span", "gwhere", title.slice(i.tournamentName.length)));
    const parts = [gtitle];
    if (this.addBoard) {
      const add = el("button", "gadd", t("group.add"));
      add.type = "button";
      add.title = t("group.add_title");
      add.onclick = e => {
        e.stopPropagation();
        this.addBoard(g.roundId, title, Math.max(0, ...g.recs.map(r => r.info.number || 0)) + 1);
      };
      parts.push(add);
    }
    parts.push(el("span", "gtc", tc), prog);
    if (results.length) {
      parts.push(el("span", "gres", t("group.latest") + " " + results.slice(0, 5).map(r => f.boardLabel(r.info) + " " + f.stateResult(r.state, true)).join(", ")));
    }
    const relay = this.ctx.broadcasts.get(g.roundId);
    if (relay && relay.relay) parts.push(relayBadge(relay.relay));
    if (round && round.status === "ROUND_STATUS_COMPLETE") parts.push(el("span", "gdone", t("group.complete")));
    g.head.replaceChildren(...parts);
    g.head.title = title + (i.timeControlInfo ? "\n" + i.timeControlInfo.words : "");
  }

  setFilter(flt) {
    this.filter = { ...this.filter, ...flt };
    this.applyFilter();
  }

  visible(rec) {
    const { tournament, section, status, trouble, search } = this.filter;
    const st = rec.state || {};
    if (tournament && (rec.info.tournamentName || "") !== tournament) return false;
    if (section && (rec.info.section || "") !== section) return false;
    if (trouble && !(troubleCounts(st) && f.SIDES.some(s => st[s] && st[s].timeTrouble))) return false;
    if (status) {
      const k = f.statusKey(st);
      const ok = {
        playing: k === "BOARD_STATUS_RUNNING" || k === "BOARD_STATUS_ADJOURNED" || k === "BOARD_STATUS_PAUSED",
        paused: k === "BOARD_STATUS_PAUSED",
        waiting: k === "BOARD_STATUS_WAITING",
        finished: k === "BOARD_STATUS_FINISHED" || k === "BOARD_STATUS_REFERRED",
        attention: this.marks.has(rec.info.boardId),
      }[status];
      if (!ok) return false;
    }
    if (search) return matches(rec, search);
    return true;
  }

  applyFilter() {
    for (const g of this.groups) {
      let shown = 0;
      for (const rec of g.recs) {
        const v = this.views.get(rec.info.boardId);
        if (!v) continue;
        const on = this.visible(rec);
        (v.tile || v.row).el.hidden = !on;
        if (on) shown++;
      }
      g.shown = shown;
      if (g.el) g.el.hidden = shown === 0;
    }
    this.fit();
  }

  // fit sizes the tiles so that every visible board fits the hall's area:
  // the largest type whose tiles, wide enough for a name and two clocks,
  // fit in rows under each group's header. Too many boards for the
  // smallest type scroll.
  fit() {
    if (this.mode === "list") return;
    const W = this.root.clientWidth - 8, H = this.root.clientHeight - 4;
    if (W <= 0 || H <= 0) return;
    const groups = this.groups.filter(g => g.shown > 0);
    const hall = this.mode === "hall";
    const lines = hall ? 2 : 3;
    const headH = hall ? 26 : 21;
    const minFont = W < 700 ? 12 : 9; // a phone scrolls rather than shrink the type
    const height = (font, cols) => {
      let rows = 0;
      for (const g of groups) rows += Math.ceil(g.shown / cols);
      return rows * (lines * 1.2 * font + 6 + GAP) + groups.length * headH;
    };
    let best = minFont, bestCols = Math.max(1, Math.floor((W + GAP) / (14.5 * minFont + GAP)));
    for (let font = hall ? 40 : 18; font >= minFont; font -= 0.25) {
      const cols = Math.floor((W + GAP) / ((hall ? 13 : 14.5) * font + GAP));
      if (cols >= 1 && height(font, cols) <= H) {
        best = font;
        bestCols = cols;
        // Fewer, wider tiles while they still fit: more of each name (but
        // not so wide that the clocks drift away from the names).
        const maxW = 26 * font;
        while (bestCols > 1 && (W + GAP) / (bestCols - 1) - GAP <= maxW && height(font, bestCols - 1) <= H) bestCols--;
        break;
      }
    }
    this.root.style.setProperty("--font", best + "px");
    this.root.style.setProperty("--cols", bestCols);
    this.onFit(best, groups.reduce((n, g) => n + g.shown, 0));
  }
}

function tile(rec) {
  const e = el("div", "tile");
  e.dataset.board = rec.info.boardId;
  e.tabIndex = 0;
  const i = rec.info;
  const no = el("span", "no", f.boardLabel(i));
  no.title = t("tile.board", { board: f.boardLabel(i) }) + (i.table ? ", " + t("tile.table", { table: i.table }) : "");
  const ck = {}, vd = {}, parts = [no];
  for (const s of f.SIDES) {
    const p = i[s] || {};
    const nm = el("span", "nm " + s, f.shortName(p));
    nm.title = f.Side(s) + ": " + f.playerTitle(p);
    vd[s] = el("abbr", "vd");
    nm.prepend(vd[s]);
    const rt = el("span", "rt " + s, p.rating ? String(p.rating) : "");
    rt.title = nm.title;
    ck[s] = el("span", "ck " + s, "");
    parts.push(nm, rt, ck[s]);
  }
  const meta = el("span", "meta");
  // The result, shown large in the clocks' place in hall view (where the
  // meta line is not shown).
  const res = el("span", "res");
  parts.push(meta, res);
  e.append(...parts);
  return { el: e, ck, meta, vd, res };
}

// markBlind shows who plays under the Laws' Appendix D (visually disabled,
// with an assistant) on a tile or row, and says it in its label.
function markBlind(parts, i) {
  for (const s of f.SIDES) {
    const m = blind.mark(i, s), a = parts.vd[s];
    if (a.textContent === m) continue;
    a.textContent = m;
    a.title = m ? f.Side(s) + " " + blind.words(i, s) + " " + t("tile.appendix_d") : "";
  }
  const sum = blind.summary(i);
  parts.el.setAttribute("aria-label", t("tile.board", { board: f.boardLabel(i) }) + ": " + f.playerName(i.white) + " – " + f.playerName(i.black) + (sum ? "; " + sum : ""));
}

function row(rec) {
  const i = rec.info;
  const e = el("tr", "row");
  e.dataset.board = i.boardId;
  e.tabIndex = 0;
  const cells = {};
  const td = (cls, text, title) => {
    const c = el("td", cls, text);
    if (title) c.title = title;
    e.append(c);
    return c;
  };
  td("rd", i.tournamentName + " " + i.roundNumber);
  td("bd", f.boardLabel(i));
  const vd = { white: el("abbr", "vd"), black: el("abbr", "vd") };
  td("nm white", f.playerName(i.white), f.playerTitle(i.white)).prepend(vd.white);
  td("rt", i.white && i.white.rating ? String(i.white.rating) : "");
  const ck = { white: td("ck white", ""), black: td("ck black", "") };
  td("nm black", f.playerName(i.black), f.playerTitle(i.black)).prepend(vd.black);
  td("rt", i.black && i.black.rating ? String(i.black.rating) : "");
  cells.meta = td("meta", "");
  td("gt", (i.timeControlInfo && i.timeControlInfo.gameType) || "");
  cells.status = td("status", "");
  cells.result = td("result", "");
  cells.device = td("device", "");
  cells.attention = td("attn", "");
  return { el: e, ck, vd, ...cells };
}

// troubleCounts: time trouble (8.4: the players need not record the
// moves) matters in a standard game still going; rapid and blitz players
// need not record at all (A.2, B.2).
export function troubleCounts(st) {
  return st.category === "standard" && !f.finished(st) && !f.waiting(st);
}

// moveNumber is the move in progress (or the last one, when over).
export function moveNumber(st) {
  const w = f.num(st.white && st.white.moves), b = f.num(st.black && st.black.moves);
  if (f.finished(st)) return Math.max(w, b);
  return st.toMove === "SIDE_BLACK" ? Math.max(w, 1) : w + 1;
}

function metaText(rec) {
  const st = rec.state || {}, i = rec.info;
  const bits = [];
  if (!f.waiting(st) && moveNumber(st) > 0) bits.push("m" + moveNumber(st));
  const side = f.sideOf(st.toMove) || "white";
  const { n, p, count } = f.periodOf(i, st, side);
  const other = f.periodOf(i, st, f.other(side)).n;
  if (count > 1) bits.push("P" + (other !== n ? f.periodOf(i, st, "white").n + "/" + f.periodOf(i, st, "black").n : n) + (f.bonus(p) ? " " + f.bonus(p) : ""));
  else if (f.bonus(p)) bits.push(f.bonus(p));
  if (st.category) bits.push(f.CATEGORY[st.category] || st.category);
  const status = statusText(rec);
  if (status) bits.push(status);
  if (st.lastRuling && f.num(st.lastRuling.unixMs) > Date.now() - 3600_000 * 6) {
    const r = st.lastRuling, w = f.num(r.whiteChangeMs), b = f.num(r.blackChangeMs);
    bits.push("⚖" + (w ? "W" + f.change(w) : "") + (b ? "B" + f.change(b) : ""));
  }
  return bits.join(" · ");
}

function metaTitle(rec) {
  const st = rec.state || {}, i = rec.info;
  const lines = [f.boardLabel(i) + ": " + f.playerName(i.white) + " – " + f.playerName(i.black)];
  if (i.timeControlInfo) lines.push(i.timeControlInfo.words + " (" + i.timeControlInfo.gameType + ")");
  lines.push(f.statusWord(st) + (st.result && st.result !== "*" ? " " + f.stateResult(st) + " " + f.termination(st.termination) : ""));
  if (st.lastRuling) lines.push(t("tile.last_ruling") + " " + rulingText(st.lastRuling));
  lines.push(deviceText(rec));
  return lines.join("\n");
}

function statusText(rec) {
  const st = rec.state || {};
  switch (f.statusKey(st)) {
    case "BOARD_STATUS_FINISHED": return (f.stateResult(st) + " " + f.termination(st.termination)).trim();
    case "BOARD_STATUS_PAUSED": return t("status.paused");
    case "BOARD_STATUS_ADJOURNED": return t("status.adjourned");
    case "BOARD_STATUS_REFERRED": return t("tile.referred");
    case "BOARD_STATUS_WAITING": return t("status.waiting");
  }
  if (st.firstFlag) return st.firstFlag === "SIDE_WHITE" ? t("tile.flag_white") : t("tile.flag_black");
  return "";
}

function deviceText(rec) {
  const st = rec.state || {}, i = rec.info;
  if (st.source === "CLOCK_SOURCE_VIRTUAL") return t("device.virtual");
  if (!i.deviceId) return t("device.none");
  let s = i.deviceId + (st.deviceOnline ? "" : " " + t("device.offline"));
  if (rec.device && f.num(rec.device.batteryPct) > 0) s += " " + f.num(rec.device.batteryPct) + "%";
  if (f.num(st.pendingCommands)) s += " · " + t("device.pending", { n: f.num(st.pendingCommands) });
  return s;
}

function relayBadge(r) {
  const ok = r.state === "up_to_date" && !r.behind;
  const b = el("span", "grelay " + (ok ? "ok" : r.consecutiveFailures ? "bad" : "busy"),
    t("relay.badge") + " " + (ok ? "✓" : (r.state || "").replaceAll("_", " ") + (r.consecutiveFailures ? " " + t("relay.failing", { n: r.consecutiveFailures }) : "")));
  b.title = r.url + (r.lastError ? "\n" + t("relay.last_error", { error: r.lastError }) : "") + "\n" + t("relay.counts", { pushes: f.num(r.pushes), failures: f.num(r.failures) });
  return b;
}

// matches reads a search: a board ("12", "3.12", "A12") or part of a name.
function matches(rec, q) {
  q = q.trim().toLowerCase();
  const i = rec.info;
  const m = q.match(/^(?:(\d+)\.)?([a-z]*)(\d+)$/);
  if (m) {
    if (m[1] && Number(m[1]) !== i.roundNumber) return false;
    if (m[2] && (i.section || "").toLowerCase() !== m[2]) return false;
    if (Number(m[3]) === i.number) return true;
  }
  for (const p of [i.white, i.black]) {
    if (!p) continue;
    if ((p.name || "").toLowerCase().includes(q) || (p.fideId && p.fideId === q)) return true;
  }
  return false;
}
