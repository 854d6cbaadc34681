// The hall-wide audit (AuditLog without a board): who did what, on which
// board, when and why — "who changed which result today" — filtered by
// tournament, round, who, kind and time, on the hall. An arbiter's token
// sees the boards of its sections only; the hall says so by answering
// nothing else.

import * as f from "./format.js";
import { el, option } from "./dom.js";
import { call } from "./api.js";
import { t } from "./t.js";
import { describe } from "./board.js";

// KINDS are offered in the kind field: the rules' event kinds an arbiter
// asks about most (named by formats/words' audit.event.<kind>), and the
// hall's own actions (auditp.kind.<kind>).
const EVENTS = ["result", "add_time", "set_clock", "pause", "resume", "start", "illegal_move", "flag_claim", "declare_lost", "press"];
const ACTIONS = ["assign", "use", "issue_token", "revoke_token"];

export class Audit {
  constructor(dialog, { rounds }) {
    this.dialog = dialog;
    this.rounds = rounds; // () → the rounds the page knows
    this.form = dialog.querySelector("form");
    this.list = dialog.querySelector("#audit-list");
    this.says = dialog.querySelector("#audit-says");
    const kinds = dialog.querySelector("#audit-kinds");
    kinds.replaceChildren(...EVENTS.map(k => option(k, t("audit.event." + k))), ...ACTIONS.map(k => option(k, t("auditp.kind." + k))));
    this.form.addEventListener("submit", e => { e.preventDefault(); this.search(); });
    this.form.elements.tournament.addEventListener("change", () => this.fillRounds());
    dialog.querySelector("#audit-close").onclick = () => dialog.close();
  }

  open() {
    const rs = this.rounds();
    const sel = this.form.elements.tournament, keep = sel.value;
    const ts = [...new Set(rs.map(r => r.tournamentName))].sort();
    sel.replaceChildren(option("", t("auditp.every_tournament")), ...ts.map(t => option(t, t)));
    sel.value = ts.includes(keep) ? keep : "";
    this.fillRounds();
    if (!this.dialog.open) this.dialog.showModal();
    this.search();
  }

  fillRounds() {
    const tour = this.form.elements.tournament.value, sel = this.form.elements.round, keep = sel.value;
    const rs = this.rounds().filter(r => !tour || r.tournamentName === tour).sort((a, b) => a.tournamentName.localeCompare(b.tournamentName) || a.number - b.number);
    sel.replaceChildren(option("", t("auditp.every_round")),
      ...rs.map(r => option(r.roundId, tour ? t("app.round", { round: r.number }) : t("auditp.t_round", { tournament: r.tournamentName, round: r.number }))));
    sel.value = rs.some(r => r.roundId === keep) ? keep : "";
  }

  // request reads the filters into an AuditLogRequest.
  request() {
    const v = name => String(this.form.elements[name].value || "").trim();
    const today = f.todayAt; // the hall's clock time today
    const req = { limit: 500 };
    if (v("tournament")) req.tournament = v("tournament");
    if (v("round")) req.roundId = v("round");
    if (v("actor")) req.actor = v("actor");
    if (v("kind")) req.kinds = v("kind").split(/[\s,]+/).filter(Boolean);
    if (today(v("since"))) req.sinceUnixMs = String(today(v("since")));
    if (today(v("until"))) req.untilUnixMs = String(today(v("until")));
    return req;
  }

  async search() {
    const n = (this.asked = (this.asked || 0) + 1);
    this.says.className = "dim";
    this.says.textContent = t("st.asking");
    let r;
    try {
      r = await call("AuditLog", this.request());
    } catch (e) {
      if (n !== this.asked) return;
      this.says.className = "error";
      this.says.textContent = e.message;
      this.list.replaceChildren();
      return;
    }
    if (n !== this.asked) return;
    // A command and the board event that carried it out are one ruling,
    // as on the board's timeline: its pending entry goes once applied.
    const applied = new Set((r.entries || []).filter(e => e.commandId && f.num(e.boardSeq) > 0 && (e.outcome || "applied") === "applied").map(e => e.commandId));
    const entries = (r.entries || []).filter(e => !(e.outcome === "pending" && applied.has(e.commandId)));
    // The times are the hall's, and the line says which zone.
    const zone = f.zoneLabel(Date.now());
    this.says.textContent = (entries.length === 0 ? t("auditp.none") : t(r.more ? "auditp.count_more" : "auditp.count", { n: entries.length })) + " " + t("auditp.times_in", { zone });
    this.list.replaceChildren(...entries.map(entry));
  }
}

// entry writes one entry: when, where, who, what, what came of it, why —
// in the page's language, as the board's timeline does (describe): the
// clock's action, or the entry's Words (what the hall did, a refusal, an
// alert) rendered by the catalogues, whatever language the hall wrote
// it in.
function entry(e) {
  const li = el("li", "aentry");
  li.dataset.board = e.board || "";
  const d = describe(e, null);
  if (d.cls.startsWith("refused") || d.cls.startsWith("alert")) li.classList.add(d.cls.split(" ")[0]);
  const head = el("div", "ahead");
  head.append(el("span", "awhen", f.wall(e.unixMs)), el("span", "aboard", e.board || t("auditp.hall")), el("span", "awho", d.who));
  li.append(head, el("div", "awhat", d.what + (d.outcome ? " → " + d.outcome : "")));
  if (e.reason) li.append(el("div", "areason", "“" + e.reason + "”"));
  return li;
}
