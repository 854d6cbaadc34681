// One board: players and clocks, status, the clock device, the actions an
// arbiter may take, the timeline (the audit log, readable), the moves and
// position when an e-board sent them, and a chart of both clocks over the
// moves.

import * as f from "./format.js";
import { el, svg } from "./dom.js";
import { remaining, isRunning } from "./clock.js";
import { rulingText, alertText } from "./attention.js";
import { call } from "./api.js";
import { moveNumber, troubleCounts } from "./hall.js";
import * as blind from "./blind.js";
import { offerTablet } from "./tablet.js";
import { t, words } from "./t.js";

export class BoardPanel {
  // actions: {buttons(rec) → [elements]}; canAudit: the session may read
  // the audit log (arbiters and the chief).
  constructor(root, { onClose, actions, canAudit }) {
    this.root = root;
    this.onClose = onClose;
    this.actions = actions;
    this.canAudit = canAudit;
    this.rec = null;
    this.entries = [];
    this.shownSeq = -1;
    this.pick = null; // the move whose position is shown, null: the last
  }

  open(rec) {
    const same = this.rec && this.rec.info.boardId === rec.info.boardId;
    this.rec = rec;
    if (!same) {
      this.entries = [];
      this.shownSeq = -1;
      this.pick = null;
      this.build();
    }
    this.root.hidden = false;
    this.update(rec);
  }

  close() {
    this.root.hidden = true;
    this.rec = null;
  }

  error(msg) {
    this.root.hidden = false;
    this.rec = null;
    const box = el("div", "panel");
    const close = el("button", "close", "×");
    close.title = t("board.back");
    close.onclick = () => this.onClose();
    box.append(close, el("p", "error", msg));
    this.root.replaceChildren(box);
  }

  build() {
    const i = this.rec.info;
    const box = el("div", "panel");
    const close = el("button", "close", "×");
    close.title = t("board.back_esc");
    close.onclick = () => this.onClose();
    const h = el("h2", "", i.tournamentName + " · " + t("group.round", { round: i.roundNumber }) + " · " + t("tile.board", { board: f.boardLabel(i) }));
    const sub = el("p", "dim", [i.section ? t("board.section", { section: i.section }) : "", i.table ? t("tile.table", { table: i.table }) : "",
      i.timeControlInfo ? i.timeControlInfo.words + " (" + i.timeControlInfo.gameType + ", " + i.timeControlInfo.ruleset + ")" : "",
      f.drawOdds(i)].filter(Boolean).join(" · "));
    this.players = {};
    const clocks = el("div", "bigclocks");
    for (const s of f.SIDES) {
      const p = i[s] || {};
      const side = el("div", "bside " + s);
      const name = el("div", "bname", f.playerName(p));
      name.title = f.playerTitle(p);
      const meta = el("div", "bmeta dim", [p.rating ? t("player.rating", { rating: p.rating }) : "", p.fideId ? "FIDE " + p.fideId : "", p.federation || ""].filter(Boolean).join(" · "));
      const ck = el("div", "bclock");
      const note = el("div", "bnote");
      side.append(el("div", "bcolor", f.Side(s)), name, meta, ck, note);
      this.players[s] = { side, ck, note };
      clocks.append(side);
    }
    this.status = el("p", "bstatus");
    this.blind = el("p", "bblind");
    this.device = el("p", "bdevice");
    this.deviceText = el("span");
    this.device.append(this.deviceText);
    if (this.canAudit) {
      // Arbiters and the chief: a tablet or phone as this board's clock.
      const tablet = el("button", "tablet", i.table ? t("tablet.button_table", { table: i.table }) : t("tablet.button_board"));
      tablet.type = "button";
      tablet.title = t("tablet.button_title");
      tablet.onclick = () => offerTablet(this.rec.info);
      this.device.append(tablet);
    }
    this.alerts = el("ul", "balerts");
    this.actionBox = el("div", "actions");
    this.chart = el("div", "chart");
    this.position = el("div", "position");
    this.moves = el("ol", "moves");
    this.timeline = el("ol", "timeline");
    const sideBySide = el("div", "posmoves");
    sideBySide.append(this.position, this.moves);
    const parts = [close, h, sub, clocks, this.status, this.blind, this.device, this.alerts, this.actionBox];
    if (this.canAudit) {
      parts.push(el("h3", "", t("board.chart")), this.chart, el("h3", "", t("board.moves_position")), sideBySide,
        el("h3", "", t("board.timeline")), this.timeline);
    } else {
      parts.push(el("h3", "", t("board.position")), this.position, el("p", "dim", t("board.read_only")));
    }
    box.append(...parts);
    this.root.replaceChildren(box);
  }

  // update redraws the board after a change; the timeline is read again
  // when the board has new events.
  update(rec) {
    if (!this.rec || rec.info.boardId !== this.rec.info.boardId) return;
    this.rec = rec;
    const st = rec.state || {};
    for (const s of f.SIDES) {
      const p = this.players[s];
      p.side.classList.toggle("run", isRunning(st) && f.sideOf(st.running) === s);
      p.side.classList.toggle("tomove", f.sideOf(st.toMove) === s && !f.finished(st));
      const trouble = !!(st[s] && st[s].timeTrouble) && troubleCounts(st);
      p.side.classList.toggle("trouble", trouble);
      const notes = [];
      const { n, p: per, count } = f.periodOf(rec.info, st, s);
      if (count > 1 || f.bonus(per)) notes.push((count > 1 ? t("board.period", { n }) + " " : "") + (f.bonus(per) || ""));
      notes.push(t("board.moves", { n: f.num(st[s] && st[s].moves) }));
      if (st[s] && st[s].absent) notes.push(t("board.absent"));
      if (trouble) notes.push(t("board.time_trouble"));
      if (st[s] && f.num(st[s].illegalMoves)) notes.push(t("board.illegal_moves", { n: f.num(st[s].illegalMoves) }));
      if (st[s] && st[s].flagAtMs !== undefined) notes.push(t("board.flag_fell"));
      const r = st.lastRuling;
      if (r && f.num(r[s + "ChangeMs"])) notes.push(t("board.last_ruling") + " " + f.change(f.num(r[s + "ChangeMs"])) + ": " + rulingText(r).split(" — ")[1] + (r.by ? " (" + f.actorName(r.by) + ", " + f.wall(r.unixMs) + ")" : ""));
      p.note.textContent = notes.join(" · ");
    }
    this.tick();
    const words = [f.statusWord(st)];
    if (!f.waiting(st)) words.push(t("board.move", { n: moveNumber(st) }));
    if (st.toMove && !f.finished(st)) words.push(t("board.to_move", { side: f.Side(st.toMove) }));
    if (st.result && st.result !== "*") words.push(t("board.result", { result: f.stateResult(st) }) + " " + f.termination(st.termination));
    if (st.firstFlag) words.push(t("board.flag_first", { side: f.Side(st.firstFlag) }));
    if (st.quickplayPostponed) words.push(t("board.quickplay_postponed"));
    if (st.status === "BOARD_STATUS_REFERRED") words.push(t("board.claim_referred", { side: f.Side(st.claimReferredBy) }));
    if (st.category) words.push(st.category);
    this.status.textContent = words.join(" · ");
    this.deviceText.textContent = deviceLine(rec);
    this.device.classList.toggle("bad", st.source !== "CLOCK_SOURCE_VIRTUAL" && !st.deviceOnline && !f.finished(st));
    this.alerts.replaceChildren(...(st.alerts || []).map((a, i) => el("li", "", alertText(st, i))));
    this.actionBox.replaceChildren(...this.actions.buttons(rec));
    this.drawPosition();
    const seq = f.num(st.boardSeq);
    if (this.canAudit && seq !== this.shownSeq) {
      this.shownSeq = seq;
      this.refresh();
    }
  }

  // refresh reads the audit log again (after an event or an action).
  async refresh() {
    if (!this.canAudit || !this.rec) return;
    const id = this.rec.info.boardId;
    try {
      const r = await call("AuditLog", { boardId: id });
      if (!this.rec || this.rec.info.boardId !== id) return;
      this.entries = r.entries || [];
      this.drawTimeline();
      this.drawMoves();
      this.drawChart();
      this.drawPosition();
    } catch (e) {
      this.timeline.replaceChildren(el("li", "error", t("board.timeline_error", { error: e.message })));
    }
  }

  tick() {
    if (!this.rec || this.root.hidden) return;
    for (const s of f.SIDES) {
      const t = f.clock(remaining(this.rec.state, s));
      if (this.players[s].ck.textContent !== t) this.players[s].ck.textContent = t;
    }
    const b = blind.line(this.rec.info, this.rec.state || {}, blind.used);
    if (this.blind.textContent !== b) this.blind.textContent = b;
    this.blind.classList.toggle("appd", !!blind.blindOf(this.rec.info));
  }

  drawTimeline() {
    const items = [];
    let prev = null;
    // A command and the board event that carried it out are one ruling:
    // the event says who gave it; the command's own entry shows only
    // while the clock has not applied it.
    const applied = new Set(this.entries.filter(e => e.after && e.commandId).map(e => e.commandId));
    for (const e of this.entries) {
      if (e.outcome === "pending" && applied.has(e.commandId)) continue;
      const d = describe(e, prev);
      if (e.after) prev = e.after;
      const li = el("li", "tl " + d.cls);
      li.dataset.seq = e.boardSeq || "";
      li.append(el("time", "", f.wall(e.unixMs)), el("span", "who", d.who), el("span", "what", d.what));
      if (d.detail) li.append(el("span", "detail", d.detail));
      if (e.reason) li.append(el("q", "why", e.reason));
      if (d.outcome) li.append(el("span", "outcome", d.outcome));
      items.push(li);
    }
    items.reverse(); // the newest first
    this.timeline.replaceChildren(...items);
  }

  drawMoves() {
    const moves = this.entries.filter(e => e.action && e.action.kind === "ACTION_KIND_PRESS" && e.after);
    const items = [];
    let last = "";
    for (const e of moves) {
      const side = f.sideOf(e.action.side);
      const n = f.num(e.after[side] && e.after[side].moves);
      const li = el("li", "mv " + side);
      // 1. e4 e5 2. Nf3: Black's move after White's needs no number.
      const label = (side === "white" ? n + ". " : last === "white" ? "" : n + "… ") + (e.action.san || "—");
      last = side;
      const b = el("button", "", label);
      b.title = t("board.used_left", { side: f.Side(side), used: f.used(f.num(e.usedMs)), left: f.clock(f.num(e.after[side].remainingMs)) });
      b.onclick = () => { this.pick = e; this.drawPosition(); };
      li.append(b);
      items.push(li);
    }
    if (!items.length) items.push(el("li", "dim", t("board.no_moves")));
    this.moves.replaceChildren(...items);
  }

  drawPosition() {
    const st = (this.rec && this.rec.state) || {};
    let fen = st.fen;
    let caption = t("board.position_now");
    if (this.pick) {
      fen = this.pick.action.fen || (this.pick.after && this.pick.after.fen);
      caption = this.pick.action.san ? t("board.after", { move: this.pick.action.san }) : t("board.after_move");
    }
    if (!fen) {
      this.position.replaceChildren(el("p", "dim", t("board.no_position")));
      return;
    }
    this.position.replaceChildren(boardDiagram(fen), el("p", "dim caption", caption + (this.pick ? " " + t("board.click_for_now") : "")));
    this.position.firstChild.onclick = () => { this.pick = null; this.drawPosition(); };
  }

  // drawChart plots both remaining times after each press, with the
  // rulings marked where a clock jumped.
  drawChart() {
    const pts = [];
    for (const e of this.entries) {
      if (!e.after) continue;
      const press = e.action && e.action.kind === "ACTION_KIND_PRESS";
      const jump = !press && (f.num(e.whiteChangeMs) || f.num(e.blackChangeMs));
      if (!press && !jump && pts.length) continue;
      pts.push({ x: pts.length, w: f.num(e.after.white && e.after.white.remainingMs), b: f.num(e.after.black && e.after.black.remainingMs), e, jump });
    }
    if (pts.length < 2) {
      this.chart.replaceChildren(el("p", "dim", t("board.chart_empty")));
      return;
    }
    const W = 600, H = 140, pad = 4;
    const maxMs = Math.max(...pts.map(p => Math.max(p.w, p.b)), 1);
    const X = x => pad + (W - 2 * pad) * x / (pts.length - 1);
    const Y = ms => H - pad - (H - 2 * pad) * ms / maxMs;
    const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("board.chart_label") });
    s.append(svg("rect", { x: 0, y: 0, width: W, height: H, class: "bg" }));
    for (const side of ["w", "b"]) {
      s.append(svg("polyline", { class: "line " + side, points: pts.map(p => X(p.x) + "," + Y(p[side])).join(" ") }));
    }
    for (const p of pts.filter(p => p.jump)) {
      const c = svg("circle", { cx: X(p.x), cy: Y(f.num(p.e.whiteChangeMs) ? p.w : p.b), r: 4, class: "ruling" });
      const tip = svg("title");
      tip.textContent = describe(p.e, null).what + " " + changes(p.e);
      c.append(tip);
      s.append(c);
    }
    const legend = el("p", "legend");
    legend.append(el("span", "lw", t("side.white")), el("span", "lb", t("side.black")), el("span", "dim", " · " + t("board.chart_legend", { top: f.clock(maxMs) })));
    this.chart.replaceChildren(s, legend);
  }
}

function deviceLine(rec) {
  const st = rec.state || {}, i = rec.info;
  if (st.source === "CLOCK_SOURCE_VIRTUAL") return t("board.virtual");
  if (!i.deviceId) return t("board.no_device");
  const d = rec.device;
  const tablet = d && d.kind === "tablet", p = { device: i.deviceId };
  const bits = [tablet ? t(st.deviceOnline ? "board.tablet_online" : "board.tablet_offline", p)
    : t(st.deviceOnline ? "board.device_online" : "board.device_offline", p)];
  if (d) {
    if (f.num(d.batteryPct) > 0) bits.push(t("board.battery", { pct: f.num(d.batteryPct) }));
    if (d.firmware) bits.push(t("board.firmware", { firmware: d.firmware }));
    if (d.lastSeenUnixMs) bits.push(t("board.last_heard", { time: f.zoned(d.lastSeenUnixMs) }));
    if (blind.voice(d)) bits.push(blind.voice(d));
  }
  if (f.num(st.pendingCommands)) bits.push(t("board.pending", { n: f.num(st.pendingCommands) }));
  return bits.join(" · ");
}

const DECISION = {
  QUICKPLAY_DECISION_DRAW: t("decision.draw"), QUICKPLAY_DECISION_POSTPONE: t("decision.postpone"), QUICKPLAY_DECISION_REJECT: t("decision.reject"),
  QUICKPLAY_DECISION_REFER: t("decision.refer"),
};

function changes(e) {
  const out = [];
  if (f.num(e.whiteChangeMs)) out.push(t("side.white") + " " + f.change(f.num(e.whiteChangeMs)));
  if (f.num(e.blackChangeMs)) out.push(t("side.black") + " " + f.change(f.num(e.blackChangeMs)));
  return out.join(", ");
}

// describe writes one audit entry for people: who, what, the detail (time
// used and left, how the clocks changed, a period begun) and the outcome.
export function describe(e, prev) {
  const a = e.action || {};
  const side = f.Side(a.side);
  let what = e.what || "";
  let detail = "";
  const after = e.after;
  switch (a.kind) {
    case "ACTION_KIND_START": what = t("tl.start") + (a.absentWhite ? ", " + t("tl.absent", { side: t("side.white") }) : "") + (a.absentBlack ? ", " + t("tl.absent", { side: t("side.black") }) : ""); break;
    case "ACTION_KIND_ARRIVE": what = t("tl.arrive", { side }); break;
    case "ACTION_KIND_PRESS": {
      const s = f.sideOf(a.side);
      const n = after ? f.num(after[s] && after[s].moves) : 0;
      what = (n ? (s === "white" ? n + ". " : n + "… ") : "") + (a.san || t("tl.pressed", { side }));
      if (after) detail = t("board.used_left", { side, used: f.used(f.num(e.usedMs)), left: f.clock(f.num(after[s] && after[s].remainingMs)) });
      break;
    }
    case "ACTION_KIND_PAUSE": what = t("tl.pause"); break;
    case "ACTION_KIND_RESUME": what = t("tl.resume"); break;
    case "ACTION_KIND_ADJOURN": what = t("tl.adjourn"); break;
    case "ACTION_KIND_FLAG_CLAIM": what = t("tl.flag_claim", { side }); break;
    case "ACTION_KIND_ILLEGAL_MOVE":
      what = prev && prev.sealer && prev.sealer === a.side ? t("tl.sealed_illegal", { side }) : t("tl.illegal", { side });
      break;
    case "ACTION_KIND_DRAW_CLAIM_REJECTED": what = t("tl.draw_claim_rejected", { side }); break;
    case "ACTION_KIND_QUICKPLAY_INCREMENT": what = t("tl.quickplay_increment", { side }); break;
    case "ACTION_KIND_QUICKPLAY_CLAIM": what = t("tl.quickplay_claim", { side, decision: DECISION[a.decision] || "" }) + (a.noExtraTime ? ", " + t("tl.no_extra_time") : ""); break;
    case "ACTION_KIND_ADD_TIME": what = side + " " + f.change(f.num(a.ms)); break;
    case "ACTION_KIND_SET_CLOCK": what = t("tl.set_clock", { white: f.clock(f.num(a.whiteMs)), black: f.clock(f.num(a.blackMs)) }) + (a.toMove ? ", " + t("tl.retrace", { side: f.Side(a.toMove) }) : ""); break;
    case "ACTION_KIND_POSITION": what = t("tl.position"); break;
    case "ACTION_KIND_RESULT": what = t("board.result", { result: f.resultText(a.result) }) + (a.termination ? " (" + f.termination(a.termination) + ")" : "") + (a.unplayed ? ", " + t("tl.unplayed") : ""); break;
    case "ACTION_KIND_FLAG": what = t("tl.flag", { side }); break;
    case "ACTION_KIND_ILLEGAL_MOVE_FOUND": what = t("tl.illegal_found", { side, move: f.num(a.move) }); break;
    case "ACTION_KIND_FLAGS_UNORDERED": what = t("tl.flags_unordered"); break;
    case "ACTION_KIND_DECLARE_LOST": what = t("tl.declare_lost", { side }) + (a.result ? " (" + f.resultText(a.result) + ")" : ""); break;
    case "ACTION_KIND_ARBITER_FLAG": what = t("tl.arbiter_flag", { side }); break;
    case "ACTION_KIND_SEALED_MOVE_ENDS": what = t("tl.sealed_ends", { result: f.resultText(a.result) }); break;
    case "ACTION_KIND_ENVELOPE_LOST": what = t("tl.envelope_lost"); break;
  }
  if (after && a.kind !== "ACTION_KIND_PRESS") detail = changes(e);
  if (after && prev) {
    for (const s of f.SIDES) {
      const was = f.num(prev[s] && prev[s].period), is = f.num(after[s] && after[s].period);
      if (is > was) detail = (detail ? detail + "; " : "") + t("tl.enters_period", { side: f.Side(s), n: is });
    }
    if (after.result && after.result !== "*" && (!prev.result || prev.result === "*")) {
      detail = (detail ? detail + "; " : "") + t("tl.game_over", { result: f.stateResult(after) }) + " " + f.termination(after.termination);
    }
  }
  let who = f.actorName(e.actor);
  if (e.issuedBy) who = t("tl.via", { who: f.actorName(e.issuedBy), via: who });
  let outcome = "", cls = "applied";
  const o = e.outcome || "";
  // The entry's Words: why it was refused, the alert, or (no clock
  // action) what the hall did — in the page's language.
  const said = e.words && e.words.kind ? words(e.words) : "";
  const ruled = o.startsWith("refused") || o.startsWith("alert");
  if (said && !ruled && !e.action) what = said;
  if (o.startsWith("refused")) { outcome = said ? said + (e.words.params && e.words.params.rule ? " (" + e.words.params.rule + ")" : "") : o; cls = "refused"; }
  else if (o.startsWith("alert")) { outcome = said ? t("tl.alert", { alert: said }) : o; cls = "alert"; }
  else if (o === "pending") { outcome = t("tl.pending"); cls = "pending"; }
  if (a.kind === "ACTION_KIND_PRESS" && o === "applied") cls += " press";
  return { who, what, detail, outcome, cls };
}

const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };

// boardDiagram draws a FEN's position as an 8×8 grid (a8 first).
function boardDiagram(fen) {
  const g = el("div", "diagram");
  g.title = fen;
  const rows = (fen.split(" ")[0] || "").split("/");
  for (let r = 0; r < 8; r++) {
    const cells = [];
    for (const ch of rows[r] || "8") {
      if (/\d/.test(ch)) for (let k = 0; k < +ch; k++) cells.push("");
      else cells.push(ch);
    }
    for (let c = 0; c < 8; c++) {
      const p = cells[c] || "";
      const sq = el("span", "sq " + ((r + c) % 2 ? "dark" : "light") + (p ? (p === p.toUpperCase() ? " pw" : " pb") : ""), p ? GLYPH[p.toLowerCase()] || "" : "");
      g.append(sq);
    }
  }
  return g;
}
