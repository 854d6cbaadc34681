// The Standings view: a tournament's (or a section's) standings and
// crosstable after any round, as the hall's Standings RPC answers them —
// rank, start number, title, name, rating, federation, each round's
// opponent, colour and result, points and the tie-breaks as configured.
// An arbiter limited to sections is answered with theirs only. Columns
// sort on a click (again: the other way), the search narrows the rows by
// name, and standings of a round still playing say they are provisional.
// A result arriving on the hall's feed, or corrected, moves them at once.
// A team event's answer has its teams too: their table (rank, team, match
// and game points, the teams' tie-breaks) stands above the players'.

import { el, option } from "./dom.js";
import { call } from "./api.js";
import { t } from "./t.js";

export class Standings {
  constructor(dialog, { rounds, sections }) {
    this.dialog = dialog;
    this.rounds = rounds; // () → the rounds the page knows
    this.sections = sections; // () → the sections the page knows
    this.form = dialog.querySelector("form");
    this.says = dialog.querySelector("#st-says");
    this.table = dialog.querySelector("#st-table");
    this.teams = dialog.querySelector("#st-teams");
    this.print = dialog.querySelector("#st-print");
    this.pairings = dialog.querySelector("#st-pairings");
    this.results = dialog.querySelector("#st-results");
    this.sort = { key: "rank", dir: 1 };
    this.answer = null;
    this.form.addEventListener("submit", e => { e.preventDefault(); this.show(); });
    for (const n of ["tournament", "section"]) this.form.elements[n].addEventListener("change", () => { this.form.elements.after.value = ""; this.show(); });
    this.form.elements.after.addEventListener("change", () => this.show());
    this.form.elements.search.addEventListener("input", () => this.render());
    dialog.querySelector("#st-close").onclick = () => dialog.close();
  }

  open() {
    const sel = this.form.elements.tournament, keep = sel.value;
    const ts = [...new Set(this.rounds().map(r => r.tournamentName))].sort();
    sel.replaceChildren(...ts.map(t => option(t, t)));
    sel.value = ts.includes(keep) ? keep : (ts[0] || "");
    const sec = this.form.elements.section, keepSec = sec.value;
    const ss = this.sections().filter(Boolean).sort();
    sec.replaceChildren(option("", ss.length ? t("st.every_section") : t("st.the_tournament")), ...ss.map(s => option(s, t("group.section", { section: s }))));
    sec.value = ss.includes(keepSec) ? keepSec : "";
    if (!this.dialog.open) this.dialog.showModal();
    this.show();
  }

  // moved asks again, soon, when a result came in or was corrected while
  // the view is open (several at once are one question).
  moved() {
    if (!this.dialog.open || this.soon) return;
    this.soon = setTimeout(() => { this.soon = 0; this.show(true); }, 150);
  }

  request() {
    const v = n => String(this.form.elements[n].value || "").trim();
    const req = { tournament: v("tournament") };
    if (v("after")) req.afterRound = Number(v("after"));
    if (v("section")) req.section = v("section");
    return req;
  }

  // show asks the hall; quiet keeps the table and what it says until the
  // answer (a refresh on a result does not blink).
  async show(quiet = false) {
    const req = this.request();
    if (!req.tournament) {
      this.says.className = "dim";
      this.says.textContent = t("st.no_tournament");
      return;
    }
    const n = (this.asked = (this.asked || 0) + 1);
    if (!quiet) {
      this.says.className = "dim";
      this.says.textContent = t("st.asking");
    }
    let r;
    try {
      r = await call("Standings", req);
    } catch (e) {
      if (n !== this.asked) return;
      this.says.className = "error";
      this.says.textContent = e.message;
      this.answer = null;
      this.table.replaceChildren();
      this.teams.hidden = true;
      return;
    }
    if (n !== this.asked) return;
    this.answer = r;
    this.fillAfter(r);
    const q = new URLSearchParams();
    if (r.afterRound) q.set("after", r.afterRound);
    if (req.section) q.set("section", req.section);
    this.print.href = "/print/standings/" + encodeURIComponent(r.tournamentName || req.tournament) + (q.size ? "?" + q : "");
    // The round's pairings and results sheet, when the hall holds the
    // round (an imported TRF's earlier rounds have no boards here).
    const round = this.rounds().find(x => x.tournamentId === r.tournamentId && x.number === r.afterRound);
    const sec = req.section ? "?section=" + encodeURIComponent(req.section) : "";
    for (const [a, kind] of [[this.pairings, "pairings"], [this.results, "results"]]) {
      a.hidden = !round;
      if (round) a.href = "/print/" + kind + "/" + encodeURIComponent(round.roundId) + sec;
    }
    this.render();
  }

  // fillAfter offers every round up to the latest the hall counts.
  fillAfter(r) {
    const sel = this.form.elements.after, keep = sel.value;
    const latest = Math.max(r.afterRound || 0, this.latest || 0);
    if (!keep) this.latest = r.afterRound || 0;
    const opts = [option("", t("dash.the_latest_round"))];
    for (let i = 1; i <= Math.max(latest, this.latest); i++) opts.push(option(String(i), t("app.round", { round: i })));
    sel.replaceChildren(...opts);
    sel.value = keep;
  }

  render() {
    const r = this.answer;
    if (!r) return;
    const rows = r.rows || [], tbs = r.tieBreaks || [], after = r.afterRound || 0;
    const needle = String(this.form.elements.search.value || "").trim().toLowerCase();
    const shown = rows.filter(x => !needle || (x.name || "").toLowerCase().includes(needle));
    const key = this.sort.key, dir = this.sort.dir;
    shown.sort((a, b) => dir * compare(valueOf(a, key), valueOf(b, key)) || (a.rank || 0) - (b.rank || 0) || (a.start || 0) - (b.start || 0));
    this.dialog.classList.toggle("provisional", !!r.provisional);
    this.says.className = r.provisional ? "provisional" : "dim";
    this.says.textContent = (r.provisional ? t("st.provisional", { round: after }) + " " : "") +
      (r.tournamentName || "") + (r.section ? ", " + t("board.section", { section: r.section }) : "") + ", " + t("standings.after", { round: after }) +
      (r.roundRobin ? " " + t("st.round_robin") : "") + ": " +
      (needle ? t("st.players_of", { shown: shown.length, n: rows.length }) : t("st.players", { n: rows.length })) +
      (tbs.length ? "; " + t("st.tie_breaks", { list: tbs.join(", ") }) : "") + ".";
    const cols = [["rank", t("st.rank"), "num"], ["start", t("st.start"), "num"], ["title", t("st.title"), ""], ["name", t("standings.name"), "name"],
      ["rating", t("standings.rating"), "num"], ["federation", t("standings.fed"), ""]];
    for (let i = 1; i <= after; i++) cols.push(["r" + i, String(i), "round"]);
    cols.push(["points", t("standings.pts"), "num pts"]);
    tbs.forEach((tb, i) => cols.push(["tb" + i, tb, "num tb"]));
    const head = el("tr");
    for (const [k, label, cls] of cols) {
      const th = el("th", cls, label);
      th.dataset.key = k;
      th.scope = "col";
      th.title = k.startsWith("r") && cls === "round" ? t("st.round_col", { round: k.slice(1) }) : t("st.sort_by", { label });
      if (k === key) th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
      th.tabIndex = 0;
      const sortBy = () => { this.sort = { key: k, dir: k === key ? -dir : 1 }; this.render(); };
      th.onclick = sortBy;
      th.onkeydown = e => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(); } };
      head.append(th);
    }
    const body = shown.map(x => {
      const tr = el("tr");
      tr.dataset.start = x.start;
      for (const [k, , cls] of cols) tr.append(el("td", cls, text(x, k)));
      return tr;
    });
    const thead = el("thead"), tbody = el("tbody");
    thead.append(head);
    tbody.append(...body);
    this.table.replaceChildren(thead, tbody);
    this.renderTeams(r);
  }

  // renderTeams fills the teams' table (its first four headings are the
  // page's), hidden when the tournament has no teams.
  renderTeams(r) {
    const teams = r.teams || [], tbs = r.teamTieBreaks || [];
    this.teams.hidden = !teams.length;
    const head = this.teams.tHead.rows[0];
    while (head.cells.length > 4) head.lastElementChild.remove();
    for (const t of tbs) head.append(el("th", "num tb", t));
    this.teams.tBodies[0].replaceChildren(...teams.map(x => {
      const tr = el("tr");
      tr.dataset.team = x.start;
      tr.append(el("td", "num", String(x.rank || "")), el("td", "name", x.name || ""), el("td", "num pts", x.matchPoints || "0"), el("td", "num", x.gamePoints || "0"));
      for (const v of x.tieBreaks || []) tr.append(el("td", "num tb", v));
      return tr;
    }));
  }
}

// valueOf is a row's value in a column, for sorting: numbers as numbers.
function valueOf(x, k) {
  if (k === "title" || k === "name" || k === "federation") return (x[k] || "").toLowerCase();
  if (k === "points") return Number(x.points || 0);
  if (k.startsWith("tb")) return Number((x.tieBreaks || [])[Number(k.slice(2))] || 0);
  if (k.startsWith("r") && k !== "rank" && k !== "rating") {
    const c = (x.rounds || [])[Number(k.slice(1)) - 1] || {};
    return Number(c.points || 0);
  }
  return Number(x[k] || 0);
}

function compare(a, b) {
  if (typeof a === "string") return a.localeCompare(b);
  return a - b;
}

// text is what a cell shows.
function text(x, k) {
  if (k === "points") return x.points || "0";
  if (k.startsWith("tb")) return (x.tieBreaks || [])[Number(k.slice(2))] || "";
  if (k.startsWith("r") && k !== "rank" && k !== "rating") return cell((x.rounds || [])[Number(k.slice(1)) - 1]);
  return x[k] === undefined || x[k] === 0 ? "" : String(x[k]);
}

// cell writes a crosstable cell as hallctl does: "12w1", "7b½", "3w+",
// or a bye's letter.
export function cell(c) {
  if (!c) return "";
  if (!c.opponent) return c.result || "–";
  return c.opponent + (c.colour || "") + (c.result || "");
}
