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
import { t, refusal } from "./t.js";

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
  { id: "start", label: t("act.start"), group: t("actgroup.clock"), kind: K("START"), when: f.waiting, fields: ["absentWhite", "absentBlack"],
    says: t("act.start.says") },
  { id: "pause", label: t("act.pause"), group: t("actgroup.clock"), kind: K("PAUSE"), when: running, says: t("act.pause.says") },
  { id: "resume", label: t("act.resume"), group: t("actgroup.clock"), kind: K("RESUME"), when: st => paused(st) || st.status === "BOARD_STATUS_ADJOURNED",
    fields: ["absentWhite", "absentBlack"], says: t("act.resume.says") },
  { id: "add", label: t("act.add"), group: t("actgroup.clock"), kind: K("ADD_TIME"), when: live, fields: ["side", "ms"],
    says: t("act.add.says") },
  { id: "set", label: t("act.set"), group: t("actgroup.clock"), kind: K("SET_CLOCK"), when: paused, fields: ["whiteMs", "blackMs", "moves", "toMove"],
    says: t("act.set.says") },
  { id: "adjourn", label: t("act.adjourn"), group: t("actgroup.clock"), kind: K("ADJOURN"), when: st => running(st) || paused(st),
    says: t("act.adjourn.says") },
  { id: "envelope", label: t("act.envelope"), group: t("actgroup.clock"), kind: K("ENVELOPE_LOST"), when: st => st.status === "BOARD_STATUS_ADJOURNED",
    fields: ["absentWhite", "absentBlack"], says: t("act.envelope.says") },
  { id: "illegal", label: t("act.illegal"), group: t("actgroup.ruling"), kind: K("ILLEGAL_MOVE"), when: live, fields: ["side"], sideDefault: lastMover,
    says: t("act.illegal.says") },
  { id: "sealedillegal", label: t("act.sealedillegal"), group: t("actgroup.ruling"), kind: K("ILLEGAL_MOVE"), when: st => live(st) && sealedOpen(st),
    fixed: st => ({ side: st.sealer }), says: t("act.sealedillegal.says") },
  { id: "drawclaim", label: t("act.drawclaim"), group: t("actgroup.ruling"), kind: K("DRAW_CLAIM_REJECTED"), when: live, fields: ["side"],
    says: t("act.drawclaim.says") },
  { id: "flagclaim", label: t("act.flagclaim"), group: t("actgroup.ruling"), kind: K("FLAG_CLAIM"), when: live, fields: ["side"],
    says: t("act.flagclaim.says") },
  { id: "arbiterflag", label: t("act.arbiterflag"), group: t("actgroup.ruling"), kind: K("ARBITER_FLAG"), when: st => live(st) && flagDown(st), fields: ["side"],
    sideDefault: st => f.sideOf(st.firstFlag), says: t("act.arbiterflag.says") },
  { id: "qpinc", label: t("act.qpinc"), group: t("actgroup.ruling"), kind: K("QUICKPLAY_INCREMENT"), when: live, fields: ["side"],
    says: t("act.qpinc.says") },
  { id: "qpclaim", label: t("act.qpclaim"), group: t("actgroup.ruling"), kind: K("QUICKPLAY_CLAIM"), when: st => live(st) || st.quickplayPostponed,
    fields: ["side", "decision", "noExtraTime"], says: t("act.qpclaim.says") },
  { id: "found", label: t("act.found"), group: t("actgroup.ruling"), kind: K("ILLEGAL_MOVE_FOUND"), when: paused,
    fields: ["side", "move", "whiteMs", "blackMs"], says: t("act.found.says") },
  { id: "flags", label: t("act.flags"), group: t("actgroup.ruling"), kind: K("FLAGS_UNORDERED"), when: live,
    says: t("act.flags.says") },
  { id: "declare", label: t("act.declare"), group: t("actgroup.result"), kind: K("DECLARE_LOST"), when: st => !f.finished(st), fields: ["side", "optResult"],
    says: t("act.declare.says") },
  { id: "sealedends", label: t("act.sealedends"), group: t("actgroup.result"), kind: K("SEALED_MOVE_ENDS"),
    when: st => sealedOpen(st) && (live(st) || (f.finished(st) && (st.termination === "default" || st.termination === "time"))),
    fields: ["sealedResult"], says: t("act.sealedends.says") },
  { id: "result", label: t("act.result"), group: t("actgroup.result"), kind: K("RESULT"), when: () => true, fields: ["result", "termination"],
    says: t("act.result.says") },
  { id: "arrive", label: t("act.arrive"), group: t("actgroup.result"), kind: K("ARRIVE"), when: absent, fields: ["side"],
    says: t("act.arrive.says") },
  { id: "position", label: t("act.position"), group: t("actgroup.result"), kind: K("POSITION"), when: st => !f.finished(st), fields: ["fen"],
    says: t("act.position.says") },
  { id: "press", label: t("act.press"), group: t("actgroup.device"), kind: K("PRESS"), when: st => running(st) && st.source === "CLOCK_SOURCE_VIRTUAL",
    fields: ["side"], sideDefault: st => f.sideOf(st.toMove), says: t("act.press.says") },
  { id: "assign", label: t("act.assign"), group: t("actgroup.device"), rpc: "AssignDevice", when: () => true, fields: ["device", "replace"],
    says: t("act.assign.says") },
  { id: "swap", label: t("act.swap"), group: t("actgroup.device"), rpc: "SwapDevices", when: () => true, fields: ["otherBoard"],
    says: t("act.swap.says") },
  { id: "virtual", label: t("act.virtual"), group: t("actgroup.device"), rpc: "UseVirtualClock", when: st => st.source !== "CLOCK_SOURCE_VIRTUAL" && !f.finished(st),
    says: t("act.virtual.says") },
  { id: "blind", label: t("act.blind"), group: t("actgroup.appendix_d"), rpc: "SetBlindPlay", when: () => true, fields: ["blind"],
    says: t("act.blind.says") },
  { id: "assistant", label: t("act.assistant"), group: t("actgroup.appendix_d"), rpc: "IssueAssistantLink", when: (st, rec) => !!rec && sidesWith(rec, "assistant").length > 0,
    fields: ["assistantSide", "label"],
    says: t("act.assistant.says") },
  { id: "announce", label: t("act.announce"), group: t("actgroup.appendix_d"), rpc: "Announce", when: (st, rec) => !!rec && sidesWith(rec, "vd").length > 0, fields: ["vdSide"],
    says: t("act.announce.says") },
];

// sidesWith lists the sides of a board whose play under the appendix has
// the mark k ("vd", "assistant").
function sidesWith(rec, k) {
  const b = blind.blindOf(rec.info);
  return b ? f.SIDES.filter(s => b[s][k]) : [];
}

const RESULTS = ["1-0", "0-1", "1/2-1/2", "+-", "-+", "--", "0-0", "1/2-0", "0-1/2"];
const TERMS = ["", "normal", "time", "illegal_move", "default", "quickplay_claim", "arbiter", "agreement"];

// termWord names a termination in the select (rules.Termination).
function termWord(x) {
  return { normal: t("term.normal"), time: t("term.time"), illegal_move: t("term.illegal_move"), default: t("term.default"),
    quickplay_claim: t("term.quickplay_claim"), arbiter: t("term.arbiter"), agreement: t("term.agreement") }[x] || x.replaceAll("_", " ");
}

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
    this.dialog.querySelector("#action-title").textContent = action.label + " — " + t("af.board", { board: f.boardLabel(i) }) + ": " + f.playerName(i.white) + " – " + f.playerName(i.black);
    this.fields.replaceChildren(el("p", "says", action.says), ...(action.fields || []).map(k => this.field(k, rec)));
    this.reason.value = "";
    this.outcome.textContent = "";
    this.outcome.className = "";
    this.confirm.disabled = false;
    this.confirm.textContent = t("dash.confirm");
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
      for (const [v, text] of options) s.append(option(v, text));
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
        return label(this.action.id === "illegal" ? t("af.offender") : this.action.id === "add" ? t("af.whose_time") : t("af.side"),
          select("side", [["white", t("side.white") + " — " + f.playerName(rec.info.white)], ["black", t("side.black") + " — " + f.playerName(rec.info.black)]], def));
      }
      case "ms": return label(t("af.ms"), input("ms", "+1:00", { required: true, size: 8 }));
      case "whiteMs": return label(t("af.white_ms"), input("whiteMs", f.clock(remaining(st, "white")).replace(/\.\d$/, ""), { required: true, size: 9 }));
      case "blackMs": return label(t("af.black_ms"), input("blackMs", f.clock(remaining(st, "black")).replace(/\.\d$/, ""), { required: true, size: 9 }));
      case "moves": {
        const w = f.num(st.white && st.white.moves), b = f.num(st.black && st.black.moves);
        return label(t("af.moves"), input("moves", w + "," + b, { size: 9, placeholder: t("af.moves_eg") }));
      }
      case "toMove": {
        const now = f.sideOf(st.toMove) || "white";
        return label(t("af.to_move"), select("toMove", [["", t("af.as_now", { side: f.Side(now) })],
          ["white", t("af.retrace_white")], ["black", t("af.retrace_black")]], ""));
      }
      case "absentWhite": return label(t("tl.absent", { side: t("side.white") }), input("absentWhite", "", { type: "checkbox" }));
      case "absentBlack": return label(t("tl.absent", { side: t("side.black") }), input("absentBlack", "", { type: "checkbox" }));
      case "decision": return label(t("af.decision"), select("decision", [["QUICKPLAY_DECISION_DRAW", t("decision.draw")], ["QUICKPLAY_DECISION_POSTPONE", t("af.postponed")],
        ["QUICKPLAY_DECISION_REJECT", t("af.rejected")], ["QUICKPLAY_DECISION_REFER", t("af.referred")]], "QUICKPLAY_DECISION_POSTPONE"));
      case "noExtraTime": return label(t("af.no_extra_time"), input("noExtraTime", "", { type: "checkbox" }));
      case "result": return label(t("list.result"), select("result", RESULTS.map(r => [r, f.resultText(r)]), "1/2-1/2"));
      case "optResult": return label(t("af.score"), select("result", [["", t("af.as_rules_say")], ...RESULTS.map(r => [r, f.resultText(r)])], ""));
      case "sealedResult": {
        const win = st.sealer === "SIDE_BLACK" ? "0-1" : "1-0";
        return label(t("af.sealed_gave"), select("result", [[win, t("af.checkmates", { side: f.Side(st.sealer), result: win })], ["1/2-1/2", t("af.stalemate")]], win));
      }
      case "termination": return label(t("af.how"), select("termination", TERMS.map(x => [x, x ? termWord(x) : t("af.not_said")]), "arbiter"));
      case "move": return label(t("af.move"), input("move", String(Math.max(1, f.num(st[f.sideOf(st.toMove) || "white"] && st[f.sideOf(st.toMove) || "white"].moves))), { type: "number", min: 1, required: true }));
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
          o.textContent = (d.online ? t("af.online") : t("device.offline")) + ", " + (busy.has(d.deviceId) ? t("af.busy") : t("af.free"));
          list.append(o);
        }
        e.setAttribute("list", "device-list");
        const l = label(t("dash.clock_device"), e);
        l.append(list);
        return l;
      }
      case "replace": return label(t("af.replace"), input("replace", "", { type: "checkbox" }));
      case "blind": {
        const b = blind.blindOf(rec.info) || { white: {}, black: {} };
        const box = el("fieldset", "blindset");
        box.append(el("legend", "", t("af.players")));
        for (const s of f.SIDES) {
          const row = el("div", "blindrow");
          const who = f.Side(s) + " (" + f.playerName(rec.info[s]) + ")";
          row.append(el("span", "who", who),
            label(t("blind.vd"), Object.assign(input(s + "Vd", "", { type: "checkbox", checked: !!b[s].vd }), { ariaLabel: t("af.is_vd", { who }) })),
            label(t("actor.assistant"), Object.assign(input(s + "Assistant", "", { type: "checkbox", checked: !!b[s].assistant }), { ariaLabel: t("af.has_assistant", { who }) })),
            label(t("af.language"), Object.assign(input(s + "Lang", b[s].lang || "", { size: 6, placeholder: "en" }), { ariaLabel: t("af.clock_language", { who }) })));
          box.append(row);
        }
        return box;
      }
      case "assistantSide": {
        const sides = sidesWith(rec, "assistant");
        return label(t("af.assistant_of"), select("side", sides.map(s => [s, f.Side(s) + " — " + f.playerName(rec.info[s])]), sides[0]));
      }
      case "vdSide": {
        const sides = sidesWith(rec, "vd");
        return label(t("af.tell"), select("side", sides.map(s => [s, f.Side(s) + " — " + f.playerName(rec.info[s])]), sides[0]));
      }
      case "label": return label(t("af.assistant_who"), input("label", "", { size: 24, placeholder: t("af.assistant_eg") }));
      case "otherBoard": {
        const opts = this.boards().filter(b => b.info.boardId !== rec.info.boardId && b.info.roundId === rec.info.roundId && b.info.deviceId)
          .map(b => [b.info.boardId, t("af.board", { board: f.boardLabel(b.info) }) + " (" + b.info.deviceId + ")"]);
        return label(t("af.with_board"), select("otherBoard", opts, opts.length ? opts[0][0] : ""));
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
      if (ms === null) throw new Error(t("af.err_time"));
      return ms;
    };
    const reason = this.reason.value.trim();
    if (a.rpc === "AssignDevice") {
      if (!v("device")) throw new Error(t("af.err_device"));
      return ["AssignDevice", { boardId: id, deviceId: v("device").trim(), reason, replace: !!v("replace") }];
    }
    if (a.rpc === "SwapDevices") {
      if (!v("otherBoard")) throw new Error(t("af.err_other"));
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
          if (v("moves") && !m) throw new Error(t("af.err_moves"));
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
    this.show([el("p", "dim", t("af.asking"))], false);
    try {
      const r = await call("BoardAction", { ...req, dryRun: true, waitMs: 0 });
      if (n !== this.checks || this.done) return;
      if (r.status === "COMMAND_STATUS_REFUSED") {
        this.show([el("p", "error", refusal(r, "af.rules_refuse"))], false);
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
    this.preview.replaceChildren(el("h3", "", t("af.what_happens")), ...nodes);
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
    this.outcome.textContent = t("af.sending");
    try {
      const r = await call(method, req);
      let text = t("af.done"), cls = "ok";
      if (method === "BoardAction") {
        if (r.status === "COMMAND_STATUS_APPLIED") text = this.rec.state.source === "CLOCK_SOURCE_VIRTUAL" ? t("af.applied") : t("af.applied_clock");
        else if (r.status === "COMMAND_STATUS_PENDING") { text = t("af.pending", { message: r.message || t("af.waiting_clock") }); cls = "pending"; }
        else { text = refusal(r); cls = "error"; }
      }
      if (method === "IssueAssistantLink") {
        text = t("af.assistant_link", { until: f.until(r.expiresUnixMs), url: location.origin + r.signinPath });
      }
      if (method === "Announce") {
        const a = r.announce || {};
        text = (r.sent ? t("af.said_by_clock", { device: r.deviceId }) : t("af.read_it", { note: r.note })) + " " + a.text;
      }
      this.outcome.className = cls;
      this.outcome.textContent = text;
      this.done = cls !== "error";
      this.confirm.textContent = t("dash.close");
      this.confirm.disabled = false;
      this.onDone(this.rec.info.boardId);
    } catch (e) {
      this.outcome.className = "error";
      this.outcome.textContent = t("assist.refused", { reason: e.message });
      this.confirm.disabled = false;
    }
  }
}

function deviceNote(rec) {
  const st = rec.state || {};
  if (st.source === "CLOCK_SOURCE_VIRTUAL") return t("af.note_virtual");
  if (!rec.info.deviceId) return t("af.note_none");
  return st.deviceOnline ? t("af.note_online", { device: rec.info.deviceId }) : t("af.note_offline", { device: rec.info.deviceId });
}

// whatHappens compares the board now with the dry run's state.
function whatHappens(rec, dry) {
  const st = rec.state || {}, after = dry.after;
  const out = [];
  const ul = el("ul", "changes");
  ul.append(...changeLines(rec, dry));
  out.push(ul);
  if (after.toMove && after.toMove !== st.toMove) out.push(el("p", "", t("af.to_move_change", { from: f.Side(st.toMove), to: f.Side(after.toMove) })));
  if (f.statusKey(after) !== f.statusKey(st)) out.push(el("p", "", t("af.game_change", { from: f.statusWord(st), to: f.statusWord(after) })));
  if (after.result && after.result !== "*" && after.result !== st.result) {
    out.push(el("p", "strong", t("af.result_change", { result: (f.resultText(after.result) + " " + f.termination(after.termination)).trim() })));
  }
  if (after.quickplayPostponed && !st.quickplayPostponed) out.push(el("p", "", t("af.claim_waits")));
  out.push(el("p", "dim", deviceNote(rec) + (st.source !== "CLOCK_SOURCE_VIRTUAL" && rec.info.deviceId ? " " + t("af.clock_applies") : "")));
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
    if (f.num(after[s] && after[s].moves) !== f.num(st[s] && st[s].moves)) li.append(el("span", "", ", " + t("af.moves_change", { from: f.num(st[s] && st[s].moves), to: f.num(after[s].moves) })));
    return li;
  });
}
