// Print-ready pages for the wall of the hall, served for a signed-in
// arbiter like the dashboard and asking the hall as the session:
//
//	/print/pairings/<round>         the round's pairings by section and board
//	/print/results/<round>          the same with its results (a sheet to fill where none yet)
//	/print/standings/<tournament>   standings and crosstable (?after=N&section=S)
//
// ?paper=letter prints on US Letter; A4 otherwise.

import * as api from "./api.js";
import { resultText } from "./format.js";
import { el } from "./dom.js";
import { cell } from "./standings.js";
import { t } from "./t.js";

// printedAt is now, as the page's language writes a date and time.
const printedAt = () => (window.I18N ? new Intl.DateTimeFormat(window.I18N.lang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date()) : new Date().toLocaleString());

const $ = id => document.getElementById(id);
const BYES = { BYE_KIND_HALF: ["½", "half-point bye"], BYE_KIND_FULL: ["1", "full-point bye"], BYE_KIND_PAIRING: ["1", "pairing-allocated bye"], BYE_KIND_ZERO: ["0", "absent (zero-point bye)"] };

const says = (text, bad) => { $("print-says").textContent = text; $("print-says").className = bad ? "bad" : ""; };

async function boot() {
  const [, , kind, ...rest] = location.pathname.split("/");
  const name = decodeURIComponent(rest.join("/"));
  const q = new URLSearchParams(location.search);
  const paper = q.get("paper") === "letter" ? "letter" : "a4";
  document.body.classList.add("paper-" + paper, "kind-" + kind);
  $("paper").value = paper;
  $("paper").onchange = () => { q.set("paper", $("paper").value); location.search = q.toString(); };
  $("print-now").onclick = () => window.print();
  let s;
  try {
    s = await api.session();
  } catch (e) {
    if (e.httpStatus === 401 && /not signed in/.test(e.message)) {
      location.replace("/signin?next=" + encodeURIComponent(location.pathname + location.search));
      return;
    }
    return says(e.message, true);
  }
  api.init(s, reason => says(t("app.signed_out", { reason }), true));
  try {
    if (kind === "standings") await standings(name, q);
    else if (kind === "pairings" || kind === "results") await round(kind, name, q);
    else throw new Error("no such page: /print/" + kind + " (pairings, results or standings)");
  } catch (e) {
    return says(e.message, true);
  }
  says(t("print.ready", { paper: paper === "letter" ? t("print.letter") : "A4" }));
  document.body.dataset.ready = "1";
}

function heads(table, cols) {
  const tr = el("tr");
  for (const [label, cls] of cols) {
    const th = el("th", cls, label);
    th.scope = "col";
    tr.append(th);
  }
  const thead = el("thead");
  thead.append(tr);
  table.append(thead);
}

function player(p) {
  if (!p) return "";
  return [p.title, p.name].filter(Boolean).join(" ");
}

// round prints a round's pairings, or its results sheet: by section and
// board, White and Black with start number and rating, byes after.
async function round(kind, name, q) {
  const r = await api.call("GetRound", { roundId: name });
  const req = { roundId: r.roundId };
  if (q.get("section")) req.section = q.get("section");
  const boards = (await api.call("ListBoards", req)).boards || [];
  boards.sort((a, b) => (a.section || "").localeCompare(b.section || "") || (a.number || 0) - (b.number || 0));
  const results = kind === "results";
  document.title = r.tournamentName + " " + t("app.round", { round: r.number }) + " " + (results ? t("dash.results") : t("dash.pairings"));
  $("sheet-title").textContent = r.tournamentName + ": " + t("app.round", { round: r.number });
  $("sheet-sub").textContent = (results ? t("print.results") : t("print.pairings")) + (req.section ? ", " + t("board.section", { section: req.section }) : "") + " — " +
    t("app.boards", { n: boards.length }) + ", " + t("print.printed", { when: printedAt() });
  const tbl = $("sheet-table");
  tbl.className = kind;
  tbl.replaceChildren();
  const sections = new Set(boards.map(b => b.section || "")).size > 1;
  const cols = [[t("print.bd"), "num"]];
  if (sections) cols.push([t("print.sec"), ""]);
  cols.push([t("st.start"), "num"], [t("side.white"), ""], [t("standings.rating"), "num"], [t("list.result"), "res"], [t("st.start"), "num"], [t("side.black"), ""],
    [t("standings.rating"), "num"]);
  if (results) cols.push([t("print.signatures"), "sig"]);
  heads(tbl, cols);
  const body = el("tbody");
  for (const b of boards) {
    const tr = el("tr");
    tr.dataset.board = b.number;
    const w = b.white || {}, k = b.black || {}, st = b.state || {};
    const res = st.countingResult && st.countingResult !== "*" ? st.countingResult : st.result;
    const cells = [[b.number, "num"]];
    if (sections) cells.push([b.section || "", ""]);
    cells.push([w.startRank || "", "num"], [player(w), "name"], [w.rating || "", "num"], [results ? resultText(res) : "–", "res"],
      [k.startRank || "", "num"], [player(k), "name"], [k.rating || "", "num"]);
    if (results) cells.push(["", "sig"]);
    for (const [v, cls] of cells) tr.append(el("td", cls, String(v)));
    body.append(tr);
  }
  for (const y of r.byes || []) {
    if (req.section && y.section !== req.section) continue;
    const p = y.player || {}, [pts, what] = BYES[y.kind] || ["", "bye"];
    const tr = el("tr", "bye");
    const cells = [["", "num"]];
    if (sections) cells.push([y.section || "", ""]);
    cells.push([p.startRank || "", "num"], [player(p), "name"], [p.rating || "", "num"], [pts, "res"], ["", "num"], [what, ""], ["", "num"]);
    if (results) cells.push(["", "sig"]);
    for (const [v, cls] of cells) tr.append(el("td", cls, String(v)));
    body.append(tr);
  }
  tbl.append(body);
  $("sheet-foot").textContent = results ? t("print.results_foot") : "";
}

// standings prints the standings and crosstable after a round.
async function standings(name, q) {
  const req = { tournament: name };
  if (Number(q.get("after")) > 0) req.afterRound = Number(q.get("after"));
  if (q.get("section")) req.section = q.get("section");
  const r = await api.call("Standings", req);
  const after = r.afterRound || 0, tbs = r.tieBreaks || [];
  document.title = r.tournamentName + " " + t("print.standings_after", { round: after });
  $("sheet-title").textContent = r.tournamentName + (r.section ? ", " + t("board.section", { section: r.section }) : "") + ": " + t("print.standings_after", { round: after });
  const sub = $("sheet-sub");
  sub.replaceChildren();
  if (r.provisional) sub.append(el("span", "provisional", t("st.provisional", { round: after })), " ");
  sub.append((tbs.length ? t("print.tie_breaks", { list: tbs.join(", ") }) : t("print.no_tie_breaks")) + (r.roundRobin ? " " + t("st.round_robin") : "") + ". " +
    t("print.printed_cap", { when: printedAt() }));
  teams(r);
  const tbl = $("sheet-table");
  tbl.className = "standings";
  tbl.replaceChildren();
  const cols = [[t("st.rank"), "num"], [t("st.start"), "num"], [t("standings.name"), ""], [t("standings.rating"), "num"], [t("standings.fed"), ""]];
  for (let i = 1; i <= after; i++) cols.push([String(i), "round"]);
  cols.push([t("standings.pts"), "num"], ...tbs.map(x => [x, "num"]));
  heads(tbl, cols);
  const body = el("tbody");
  for (const x of r.rows || []) {
    const tr = el("tr");
    tr.dataset.start = x.start;
    const cells = [[x.rank, "num"], [x.start, "num"], [player(x), "name"], [x.rating || "", "num"], [x.federation || "", ""]];
    for (let i = 0; i < after; i++) cells.push([cell((x.rounds || [])[i]), "round"]);
    cells.push([x.points || "0", "num"], ...tbs.map((_, i) => [(x.tieBreaks || [])[i] || "", "num"]));
    for (const [v, cls] of cells) tr.append(el("td", cls, String(v)));
    body.append(tr);
  }
  tbl.append(body);
  $("sheet-foot").textContent = t("print.crosstable_foot");
}

// teams prints a team event's table (rank, team, match and game points,
// the teams' tie-breaks) above the players', or hides it.
function teams(r) {
  const tbl = $("sheet-teams"), list = r.teams || [], tbs = r.teamTieBreaks || [];
  tbl.hidden = !list.length;
  tbl.replaceChildren();
  if (!list.length) return;
  heads(tbl, [[t("st.rank"), "num"], [t("st.team"), ""], [t("st.mp"), "num"], [t("st.gp"), "num"], ...tbs.map(x => [x, "num"])]);
  const body = el("tbody");
  for (const x of list) {
    const tr = el("tr");
    const cells = [[x.rank, "num"], [x.name || "", "name"], [x.matchPoints || "0", "num"], [x.gamePoints || "0", "num"], ...tbs.map((_, i) => [(x.tieBreaks || [])[i] || "", "num"])];
    for (const [v, cls] of cells) tr.append(el("td", cls, String(v)));
    body.append(tr);
  }
  tbl.append(body);
}

boot();
