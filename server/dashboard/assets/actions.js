// Every action hallctl has for a board, from the page: each opens a
// confirmation that shows what will happen — for clock actions the rules'
// own answer, from a dry run of BoardAction (the times and status the
// board would have, or the rules' refusal) — and takes a reason for the
// audit log. Confirmed, it goes through the Arbiter service like any
// arbiter's call; a refusal shows the rules' message.

import * as f from "./format.js";
import { el, option } from "./dom.js";
import { remaining } from "./clock.js";
import { call } from "./api.js";
import * as blind from "./blind.js";

const K = k => "ACTION_KIND_" + k;
const running = st => st.status === "BOARD_STATUS_RUNNING";
const paused = st => st.status === "BOARD_STATUS_PAUSED";
const live = st => !f.finished(st) && !f.waiting(st) && st.status !== "BOARD_STATUS_REFERRED";
const absent = st => f.SIDES.some(s => st[s] && st[s].absent);
const lastMover = st => f.other(f.sideOf(st.toMove) || "black");
// sealedOpen: the sealed move was made at the resumption and is not answered
// yet (the rules name its sealer until then, Guidelines I.8, I.10).
const sealedOpen = st => !!st.sealer && st.status !== "BOARD_STATUS_ADJOURNED";
const flagDown = st => !!st.firstFlag;

// The catalogue: id, label, group, when it is offered, its fields and what
// it says it does. kind: a BoardAction; rpc: another Arbiter method.
export const CATALOGUE = [
  { id: "start", label: "Start", group: "Clock", kind: K("START"), when: f.waiting, fields: ["absentWhite", "absentBlack"],
    says: "White's clock starts (6.6). An absent player's default time runs from now (6.7)." },
  { id: "pause", label: "Pause", group: "Clock", kind: K("PAUSE"), when: running, says: "The running clock stops; the times stand." },
  { id: "resume", label: "Resume", group: "Clock", kind: K("RESUME"), when: st => paused(st) || st.status === "BOARD_STATUS_ADJOURNED",
    fields: ["absentWhite", "absentBlack"], says: "The clock of the side to move runs again." },
  { id: "add", label: "Add or take time", group: "Clock", kind: K("ADD_TIME"), when: live, fields: ["side", "ms"],
    says: "The side's remaining time changes by the amount (a negative amount takes time away)." },
  { id: "set", label: "Set the clock", group: "Clock", kind: K("SET_CLOCK"), when: paused, fields: ["whiteMs", "blackMs", "moves", "toMove"],
    says: "The clock shows the times entered (6.10.2: the clock must be stopped). After a retrace to where the scoresheets agree (D.2.9, 2009 E2.8) the move may go to the other player: no penalty." },
  { id: "adjourn", label: "Adjourn", group: "Clock", kind: K("ADJOURN"), when: st => running(st) || paused(st),
    says: "The side to move seals a move and the clock stops." },
  { id: "envelope", label: "Envelope lost", group: "Clock", kind: K("ENVELOPE_LOST"), when: st => st.status === "BOARD_STATUS_ADJOURNED",
    fields: ["absentWhite", "absentBlack"], says: "The envelope is missing (I.12): play resumes from the adjourned position with the recorded times (set the clock first if they cannot be re-established); the sealer's clock runs and he makes the move he states he sealed." },
  { id: "illegal", label: "Illegal move", group: "Ruling", kind: K("ILLEGAL_MOVE"), when: live, fields: ["side"], sideDefault: lastMover,
    says: "The side completed an illegal move (7.5): the position before it is reinstated, the opponent gets the penalty time; a repeated illegal move loses." },
  { id: "sealedillegal", label: "Sealed move illegal", group: "Ruling", kind: K("ILLEGAL_MOVE"), when: st => live(st) && sealedOpen(st),
    fixed: st => ({ side: st.sealer }), says: "The sealed move, made at the resumption, is illegal (I.8): the player who sealed it loses the game, in every edition (drawn if the opponent cannot checkmate)." },
  { id: "drawclaim", label: "Incorrect draw claim", group: "Ruling", kind: K("DRAW_CLAIM_REJECTED"), when: live, fields: ["side"],
    says: "The side's claim under Art. 9 was incorrect (9.5.3): the opponent gets the penalty time." },
  { id: "flagclaim", label: "Flag claim", group: "Ruling", kind: K("FLAG_CLAIM"), when: live, fields: ["side"],
    says: "The side claims the opponent's flag: upheld if it has fallen (6.9), the game then goes as the rules say." },
  { id: "arbiterflag", label: "Call the flag", group: "Ruling", kind: K("ARBITER_FLAG"), when: st => live(st) && flagDown(st), fields: ["side"],
    sideDefault: st => f.sideOf(st.firstFlag), says: "The arbiter calls the side's fallen flag (2023 A.5.5, 2018 A.4.5): the game ends as on a valid claim. Refused in 2009 and 2005 (A4(d), B7), where only the player's claim counts." },
  { id: "qpinc", label: "Quickplay: 5 s a move", group: "Ruling", kind: K("QUICKPLAY_INCREMENT"), when: live, fields: ["side"],
    says: "The side's request is granted (III.4): both players get 5 s a move from now." },
  { id: "qpclaim", label: "Quickplay claim", group: "Ruling", kind: K("QUICKPLAY_CLAIM"), when: st => live(st) || st.quickplayPostponed,
    fields: ["side", "decision", "noExtraTime"], says: "The arbiter decides the side's claim (III.5, 10.2): drawn, postponed, rejected, or referred when no arbiter is present (III.6)." },
  { id: "found", label: "Illegal move found later", group: "Ruling", kind: K("ILLEGAL_MOVE_FOUND"), when: paused,
    fields: ["side", "move", "whiteMs", "blackMs"], says: "A move found illegal later (7.5.1; pause the clock first): the position before it is reinstated with the times entered, then the penalty." },
  { id: "flags", label: "Both flags down", group: "Ruling", kind: K("FLAGS_UNORDERED"), when: live,
    says: "The clock shows both flags fallen, the order unknown: drawn, or play goes on, as the ruleset says." },
  { id: "declare", label: "Declare lost", group: "Result", kind: K("DECLARE_LOST"), when: st => !f.finished(st), fields: ["side", "optResult"],
    says: "The arbiter declares the game lost by the side (12.9, e.g. a phone sounded); the opponent's score follows the rules." },
  { id: "sealedends", label: "Sealed move ended the game", group: "Result", kind: K("SEALED_MOVE_ENDS"),
    when: st => sealedOpen(st) && (live(st) || (f.finished(st) && (st.termination === "default" || st.termination === "time"))),
    fields: ["sealedResult"], says: "The sealed move, made at the resumption, ended the game (checkmate, stalemate, a dead position): that result applies, even over a late player's default (I.10)." },
  { id: "result", label: "Result", group: "Result", kind: K("RESULT"), when: () => true, fields: ["result", "termination"],
    says: "The game ends with this result (a referred claim or a postponed quickplay claim is decided by it)." },
  { id: "arrive", label: "Player arrives", group: "Result", kind: K("ARRIVE"), when: absent, fields: ["side"],
    says: "An absent player arrives (6.7)." },
  { id: "position", label: "Enter position", group: "Result", kind: K("POSITION"), when: st => !f.finished(st), fields: ["fen"],
    says: "The current position becomes known (FEN)." },
  { id: "press", label: "Press", group: "Clock device", kind: K("PRESS"), when: st => running(st) && st.source === "CLOCK_SOURCE_VIRTUAL",
    fields: ["side"], sideDefault: st => f.sideOf(st.toMove), says: "On the virtual clock: the side completes a move." },
  { id: "assign", label: "Replacement clock", group: "Clock device", rpc: "AssignDevice", when: () => true, fields: ["device", "replace"],
    says: "The clock device entered keeps this board from now (6.10.1): it gets the board's history and continues its time line; the old one is released." },
  { id: "swap", label: "Swap clocks", group: "Clock device", rpc: "SwapDevices", when: () => true, fields: ["otherBoard"],
    says: "The two boards exchange their clock devices; each game goes on on the other clock." },
  { id: "virtual", label: "Virtual clock", group: "Clock device", rpc: "UseVirtualClock", when: st => st.source !== "CLOCK_SOURCE_VIRTUAL" && !f.finished(st),
    says: "The server keeps this board's time from now (a dead clock, 6.10.1); arbiters record the presses from here." },
  { id: "blind", label: "Visually disabled player", group: "Appendix D", rpc: "SetBlindPlay", when: () => true, fields: ["blind"],
    says: "How the board is played under the rules for visually disabled players (Appendix D): who is visually disabled, who has an assistant (D.2.10; a sighted player's only when the visually disabled player has none, D.2.11), the language his clock speaks to him (D.2.6.1). The clock is told; the change is audited." },
  { id: "assistant", label: "Assistant's link", group: "Appendix D", rpc: "IssueAssistantLink", when: (st, rec) => !!rec && sidesWith(rec, "assistant").length > 0,
    fields: ["assistantSide", "label"],
    says: "A one-time sign-in link for the assistant's phone (15 minutes): his page shows this board only, and does only what the appendix lets an assistant do (D.2.10)." },
  { id: "announce", label: "Announce", group: "Appendix D", rpc: "Announce", when: (st, rec) => !!rec && sidesWith(rec, "vd").length > 0, fields: ["vdSide"],
    says: "At the player's request, the hall tells him the moves completed and the time used by both (D.2.6.1, D.2.10.4): his talking clock says it, or the words are shown here to read to him." },
];

// sidesWith lists the sides of a board whose play under the appendix has
// the mark k ("vd", "assistant").
function sidesWith(rec, k) {
  const b = blind.blindOf(rec.info);
  return b ? f.SIDES.filter(s => b[s][k]) : [];
}

const RESULTS = ["1-0", "0-1", "1/2-1/2", "+-", "-+", "--", "0-0", "1/2-0", "0-1/2"];
const TERMS = ["", "normal", "time", "illegal_move", "default", "quickplay_claim", "arbiter", "agreement"];

// parseTime reads 1:30:00, 90:00, 45, 1m30s, 2m, -1:00 into ms (null if not).
export function parseTime(s) {
  s = String(s || "").trim().replace("\u2212", "-");
  const neg = s.startsWith("-");
  if (neg || s.startsWith("+")) s = s.slice(1).trim();
  let ms = null;
  let m;
  if ((m = s.match(/^(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/))) ms = ((+m[1] * 60 + +m[2]) * 60 + +m[3]) * 1000;
  else if ((m = s.match(/^(\d+):(\d{1,2}(?:\.\d+)?)$/))) ms = (+m[1] * 60 + +m[2]) * 1000;
  else if ((m = s.match(/^(?:(\d+)h)?\s*(?:(\d+)m)?\s*(?:(\d+(?:\.\d+)?)s)?$/)) && (m[1] || m[2] || m[3])) ms = ((+(m[1] || 0) * 60 + +(m[2] || 0)) * 60 + +(m[3] || 0)) * 1000;
  if (ms === null || !isFinite(ms)) return null;
  return Math.round(neg ? -ms : ms);
}

export class Actions {
  constructor(dialog, { boards, devices, onDone }) {
    this.dialog = dialog;
    this.boards = boards; // () → the boards the page holds
    this.devices = devices; // () → the devices known
    this.onDone = onDone;
    this.form = dialog.querySelector("form");
    this.fields = dialog.querySelector("#action-fields");
    this.preview = dialog.querySelector("#action-preview");
    this.outcome = dialog.querySelector("#action-outcome");
    this.reason = dialog.querySelector("#action-reason");
    this.confirm = dialog.querySelector("#action-confirm");
    // Any field but the reason changes what the action does: ask again.
    const recheck = e => { if (e.target !== this.reason) this.check(); };
    this.form.addEventListener("input", recheck);
    this.form.addEventListener("change", recheck);
    this.form.addEventListener("submit", e => {
      if (e.submitter && e.submitter.value === "confirm") {
        e.preventDefault();
        this.submit();
      }
    });
  }

  // buttons returns the actions offered for a board now, grouped.
  buttons(rec) {
    const st = rec.state || {};
    const groups = new Map();
    for (const a of CATALOGUE) {
      if (!a.when(st, rec)) continue;
      if (!groups.has(a.group)) groups.set(a.group, []);
      const b = el("button", "act", a.label);
      b.dataset.action = a.id;
      b.title = a.says;
      b.onclick = () => this.open(a, rec);
      groups.get(a.group).push(b);
    }
    return [...groups].map(([name, bs]) => {
      const g = el("div", "actgroup");
      g.append(el("span", "actlabel", name), ...bs);
      return g;
    });
  }

  open(action, rec) {
    this.action = action;
    this.rec = rec;
    this.done = false;
    const i = rec.info;
    this.dialog.querySelector("#action-title").textContent = action.label + " — board " + f.boardLabel(i) + ": " + f.playerName(i.white) + " – " + f.playerName(i.black);
    this.fields.replaceChildren(el("p", "says", action.says), ...(action.fields || []).map(k => this.field(k, rec)));
    this.reason.value = "";
    this.outcome.textContent = "";
    this.outcome.className = "";
    this.confirm.disabled = false;
    this.confirm.textContent = "Confirm";
    this.dialog.showModal();
    this.check();
  }

  field(k, rec) {
    const st = rec.state || {};
    const label = (text, input) => {
      const l = el("label", "field", text + " ");
      l.append(input);
      return l;
    };
    const select = (name, options, value) => {
      const s = el("select");
      s.name = name;
      for (const [v, t] of options) s.append(option(v, t));
      s.value = value;
      return s;
    };
    const input = (name, value, attrs = {}) => {
      const e = el("input");
      e.name = name;
      e.value = value;
      Object.assign(e, attrs);
      return e;
    };
    switch (k) {
      case "side": {
        const def = (this.action.sideDefault && this.action.sideDefault(st)) || f.sideOf(st.toMove) || "white";
        return label(this.action.id === "illegal" ? "Offender" : this.action.id === "add" ? "Whose time" : "Side",
          select("side", [["white", "White — " + f.playerName(rec.info.white)], ["black", "Black — " + f.playerName(rec.info.black)]], def));
      }
      case "ms": return label("Time (+1:00 gives a minute, -0:30 takes 30 s)", input("ms", "+1:00", { required: true, size: 8 }));
      case "whiteMs": return label("White's time", input("whiteMs", f.clock(remaining(st, "white")).replace(/\.\d$/, ""), { required: true, size: 9 }));
      case "blackMs": return label("Black's time", input("blackMs", f.clock(remaining(st, "black")).replace(/\.\d$/, ""), { required: true, size: 9 }));
      case "moves": {
        const w = f.num(st.white && st.white.moves), b = f.num(st.black && st.black.moves);
        return label("Moves made (White, Black; empty: unchanged)", input("moves", w + "," + b, { size: 9, placeholder: "e.g. 39,39" }));
      }
      case "toMove": {
        const now = f.sideOf(st.toMove) || "white";
        return label("To move when the clock restarts", select("toMove", [["", "as now (" + f.Side(now) + ")"],
          ["white", "White — a retrace (D.2.9)"], ["black", "Black — a retrace (D.2.9)"]], ""));
      }
      case "absentWhite": return label("White absent", input("absentWhite", "", { type: "checkbox" }));
      case "absentBlack": return label("Black absent", input("absentBlack", "", { type: "checkbox" }));
      case "decision": return label("Decision", select("decision", [["QUICKPLAY_DECISION_DRAW", "drawn"], ["QUICKPLAY_DECISION_POSTPONE", "postponed (decided later)"],
        ["QUICKPLAY_DECISION_REJECT", "rejected (+2 min to the opponent)"], ["QUICKPLAY_DECISION_REFER", "referred (no arbiter present)"]], "QUICKPLAY_DECISION_POSTPONE"));
      case "noExtraTime": return label("No extra time for the opponent", input("noExtraTime", "", { type: "checkbox" }));
      case "result": return label("Result", select("result", RESULTS.map(r => [r, f.resultText(r)]), "1/2-1/2"));
      case "optResult": return label("Score (empty: as the rules say)", select("result", [["", "as the rules say"], ...RESULTS.map(r => [r, f.resultText(r)])], ""));
      case "sealedResult": {
        const win = st.sealer === "SIDE_BLACK" ? "0-1" : "1-0";
        return label("The sealed move gave", select("result", [[win, f.Side(st.sealer) + " checkmates (" + win + ")"], ["1/2-1/2", "stalemate or a dead position (½-½)"]], win));
      }
      case "termination": return label("How", select("termination", TERMS.map(t => [t, t ? t.replaceAll("_", " ") : "(not said)"]), "arbiter"));
      case "move": return label("The offender's move number", input("move", String(Math.max(1, f.num(st[f.sideOf(st.toMove) || "white"] && st[f.sideOf(st.toMove) || "white"].moves))), { type: "number", min: 1, required: true }));
      case "fen": return label("FEN", input("fen", st.fen || "", { required: true, size: 50 }));
      case "device": {
        const e = input("device", "", { required: true, size: 14, placeholder: "CLK-017" });
        const list = el("datalist");
        list.id = "device-list";
        const busy = new Set(this.boards().filter(b => !f.finished(b.state || {})).map(b => b.info.deviceId));
        for (const d of this.devices()) {
          if (d.deviceId === rec.info.deviceId) continue;
          const o = el("option");
          o.value = d.deviceId;
          o.textContent = (d.online ? "online" : "offline") + (busy.has(d.deviceId) ? ", keeps another board" : ", free");
          list.append(o);
        }
        e.setAttribute("list", "device-list");
        const l = label("Clock device", e);
        l.append(list);
        return l;
      }
      case "replace": return label("Take it from a board still playing", input("replace", "", { type: "checkbox" }));
      case "blind": {
        const b = blind.blindOf(rec.info) || { white: {}, black: {} };
        const box = el("fieldset", "blindset");
        box.append(el("legend", "", "Players"));
        for (const s of f.SIDES) {
          const row = el("div", "blindrow");
          const who = f.Side(s) + " (" + f.playerName(rec.info[s]) + ")";
          row.append(el("span", "who", who),
            label("visually disabled", Object.assign(input(s + "Vd", "", { type: "checkbox", checked: !!b[s].vd }), { ariaLabel: who + " is visually disabled" })),
            label("assistant", Object.assign(input(s + "Assistant", "", { type: "checkbox", checked: !!b[s].assistant }), { ariaLabel: who + " has an assistant" })),
            label("language", Object.assign(input(s + "Lang", b[s].lang || "", { size: 6, placeholder: "en" }), { ariaLabel: "The language " + who + "'s clock speaks to him" })));
          box.append(row);
        }
        return box;
      }
      case "assistantSide": {
        const sides = sidesWith(rec, "assistant");
        return label("The assistant of", select("side", sides.map(s => [s, f.Side(s) + " — " + f.playerName(rec.info[s])]), sides[0]));
      }
      case "vdSide": {
        const sides = sidesWith(rec, "vd");
        return label("Tell", select("side", sides.map(s => [s, f.Side(s) + " — " + f.playerName(rec.info[s])]), sides[0]));
      }
      case "label": return label("Who the assistant is (kept in the audit log)", input("label", "", { size: 24, placeholder: "e.g. Maria Svensson" }));
      case "otherBoard": {
        const opts = this.boards().filter(b => b.info.boardId !== rec.info.boardId && b.info.roundId === rec.info.roundId && b.info.deviceId)
          .map(b => [b.info.boardId, "board " + f.boardLabel(b.info) + " (" + b.info.deviceId + ")"]);
        return label("With board", select("otherBoard", opts, opts.length ? opts[0][0] : ""));
      }
    }
    return el("span");
  }

  // request reads the form into the call it will make, or throws why not.
  request() {
    const a = this.action, id = this.rec.info.boardId;
    const v = name => { const e = this.form.elements[name]; return e ? (e.type === "checkbox" ? e.checked : e.value) : undefined; };
    const time = name => {
      const ms = parseTime(v(name));
      if (ms === null) throw new Error("write the time as 1:30:00, 25:00, 0:45 or 1m30s");
      return ms;
    };
    const reason = this.reason.value.trim();
    if (a.rpc === "AssignDevice") {
      if (!v("device")) throw new Error("enter the clock device");
      return ["AssignDevice", { boardId: id, deviceId: v("device").trim(), reason, replace: !!v("replace") }];
    }
    if (a.rpc === "SwapDevices") {
      if (!v("otherBoard")) throw new Error("no other board of this round has a clock");
      return ["SwapDevices", { boardA: id, boardB: v("otherBoard"), reason }];
    }
    if (a.rpc === "UseVirtualClock") return ["UseVirtualClock", { boardId: id, reason }];
    if (a.rpc === "SetBlindPlay") {
      const p = s => ({ visuallyDisabled: !!v(s + "Vd"), assistant: !!v(s + "Assistant"), language: String(v(s + "Lang") || "").trim() });
      return ["SetBlindPlay", { boardId: id, blindPlay: { white: p("white"), black: p("black") }, reason }];
    }
    if (a.rpc === "IssueAssistantLink") return ["IssueAssistantLink", { boardId: id, side: "SIDE_" + v("side").toUpperCase(), label: String(v("label") || "").trim() }];
    if (a.rpc === "Announce") return ["Announce", { boardId: id, side: "SIDE_" + v("side").toUpperCase(), reason }];
    const act = { kind: a.kind, ...(a.fixed ? a.fixed(this.rec.state || {}) : {}) };
    for (const k of a.fields || []) {
      switch (k) {
        case "side": act.side = "SIDE_" + v("side").toUpperCase(); break;
        case "ms": act.ms = time("ms"); break;
        case "whiteMs": act.whiteMs = time("whiteMs"); break;
        case "blackMs": act.blackMs = time("blackMs"); break;
        case "moves": {
          const m = String(v("moves") || "").match(/^\s*(\d+)\s*,\s*(\d+)\s*$/);
          if (v("moves") && !m) throw new Error("moves as White,Black, e.g. 39,39");
          if (m) { act.whiteMoves = +m[1]; act.blackMoves = +m[2]; }
          break;
        }
        case "toMove": if (v("toMove")) act.toMove = "SIDE_" + String(v("toMove")).toUpperCase(); break;
        case "absentWhite": act.absentWhite = v("absentWhite"); break;
        case "absentBlack": act.absentBlack = v("absentBlack"); break;
        case "decision": act.decision = v("decision"); break;
        case "noExtraTime": act.noExtraTime = v("noExtraTime"); break;
        case "result": case "optResult": case "sealedResult": if (v("result")) act.result = v("result"); break;
        case "termination": if (v("termination")) act.termination = v("termination"); break;
        case "move": act.move = Number(v("move")); break;
        case "fen": act.fen = String(v("fen")).trim(); break;
      }
    }
    return ["BoardAction", { boardId: id, action: act, reason, waitMs: 4000 }];
  }

  // check shows what the action will do: the rules' answer to a dry run.
  async check() {
    this.dry = null;
    if (this.done) return;
    const n = (this.checks = (this.checks || 0) + 1);
    let method, req;
    try {
      [method, req] = this.request();
    } catch (e) {
      this.show([el("p", "error", e.message)], false);
      return;
    }
    if (method !== "BoardAction") {
      this.show([el("p", "", this.action.says), el("p", "dim", deviceNote(this.rec))], true);
      return;
    }
    this.show([el("p", "dim", "Asking the rules…")], false);
    try {
      const r = await call("BoardAction", { ...req, dryRun: true, waitMs: 0 });
      if (n !== this.checks || this.done) return;
      if (r.status === "COMMAND_STATUS_REFUSED") {
        this.show([el("p", "error", "The rules refuse it: " + r.message)], false);
        return;
      }
      this.dry = { before: r.before || null, after: r.state };
      this.show(whatHappens(this.rec, this.dry), true);
    } catch (e) {
      if (n === this.checks) this.show([el("p", "error", e.message)], false);
    }
  }

  // tick runs the preview's clocks with the board's: both sides of each
  // arrow at the same instant, now. An event on the board since the dry
  // run (a press) asks the rules again.
  tick() {
    if (!this.dry || this.done || !this.dialog.open) return;
    const st = this.rec.state || {};
    if (f.num(st.boardSeq) !== f.num(this.dry.after.boardSeq)) {
      this.check();
      return;
    }
    const ul = this.preview.querySelector("ul.changes");
    if (!ul) return;
    const lines = changeLines(this.rec, this.dry);
    if (lines.map(l => l.textContent).join("\n") !== [...ul.children].map(l => l.textContent).join("\n")) ul.replaceChildren(...lines);
  }

  show(nodes, ok) {
    this.preview.replaceChildren(el("h3", "", "What will happen"), ...nodes);
    this.confirm.disabled = !ok;
  }

  async submit() {
    if (this.done) { this.dialog.close(); return; }
    let method, req;
    try {
      [method, req] = this.request();
    } catch (e) {
      this.outcome.textContent = e.message;
      return;
    }
    this.confirm.disabled = true;
    this.outcome.className = "";
    this.outcome.textContent = "Sending…";
    try {
      const r = await call(method, req);
      let text = "Done.", cls = "ok";
      if (method === "BoardAction") {
        if (r.status === "COMMAND_STATUS_APPLIED") text = "Applied" + (this.rec.state.source === "CLOCK_SOURCE_VIRTUAL" ? "." : " by the clock.");
        else if (r.status === "COMMAND_STATUS_PENDING") { text = "Sent: " + (r.message || "waiting for the clock") + ". It stays pending until the clock applies it."; cls = "pending"; }
        else { text = "Refused: " + r.message; cls = "error"; }
      }
      if (method === "IssueAssistantLink") {
        text = "The assistant's link (it works once, until " + f.wall(r.expiresUnixMs) + "): " + location.origin + r.signinPath;
      }
      if (method === "Announce") {
        const a = r.announce || {};
        text = (r.sent ? "Said by the clock " + r.deviceId + ": " : "Read it to him (" + r.note + "): ") + a.text;
      }
      this.outcome.className = cls;
      this.outcome.textContent = text;
      this.done = cls !== "error";
      this.confirm.textContent = "Close";
      this.confirm.disabled = false;
      this.onDone(this.rec.info.boardId);
    } catch (e) {
      this.outcome.className = "error";
      this.outcome.textContent = "Refused: " + e.message;
      this.confirm.disabled = false;
    }
  }
}

function deviceNote(rec) {
  const st = rec.state || {};
  if (st.source === "CLOCK_SOURCE_VIRTUAL") return "The board is on the virtual clock.";
  if (!rec.info.deviceId) return "The board has no clock device.";
  return "Its clock now: " + rec.info.deviceId + (st.deviceOnline ? " (online)." : " (offline).");
}

// whatHappens compares the board now with the dry run's state.
function whatHappens(rec, dry) {
  const st = rec.state || {}, after = dry.after;
  const out = [];
  const ul = el("ul", "changes");
  ul.append(...changeLines(rec, dry));
  out.push(ul);
  if (after.toMove && after.toMove !== st.toMove) out.push(el("p", "", "To move: " + f.Side(st.toMove) + " → " + f.Side(after.toMove) + "."));
  if (f.statusKey(after) !== f.statusKey(st)) out.push(el("p", "", "The game: " + f.statusWord(st) + " → " + f.statusWord(after) + "."));
  if (after.result && after.result !== "*" && after.result !== st.result) {
    out.push(el("p", "strong", "Result: " + f.resultText(after.result) + " " + f.termination(after.termination) + "."));
  }
  if (after.quickplayPostponed && !st.quickplayPostponed) out.push(el("p", "", "The claim waits for the arbiter's decision."));
  out.push(el("p", "dim", deviceNote(rec) + (st.source !== "CLOCK_SOURCE_VIRTUAL" && rec.info.deviceId ? " The clock applies the command at its own time; the times above are as of now." : "")));
  return out;
}

// changeLines says each side's clock now and with the action. The dry
// run's board before and after it are both as of one instant of the
// hall's, so their difference is the action's own; the clock now is the
// board before, run forward, and the clock with the action is that plus
// the difference — a side that the action stops (an illegal move given
// back) would otherwise gain every second the dialog stays open.
function changeLines(rec, dry) {
  const st = rec.state || {}, after = dry.after, before = dry.before;
  return f.SIDES.map(s => {
    const d = before ? f.num(after[s] && after[s].remainingMs) - f.num(before[s] && before[s].remainingMs)
      : remaining(after, s) - remaining(st, s);
    const was = remaining(before || st, s), is = Math.max(0, was + d);
    const li = el("li", "", f.Side(s) + ": " + f.clock(was) + " → " + f.clock(is));
    if (Math.abs(d) >= 1000) li.append(el("b", d > 0 ? "plus" : "minus", " (" + f.change(d) + ")"));
    if (f.num(after[s] && after[s].moves) !== f.num(st[s] && st[s].moves)) li.append(el("span", "", ", moves " + f.num(st[s] && st[s].moves) + " → " + f.num(after[s].moves)));
    return li;
  });
}
