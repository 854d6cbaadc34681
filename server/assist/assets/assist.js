// The assistant's page (see the package documentation): one board, one
// player, four actions. Everything it shows and does goes through the
// hall's API as the signed-in assistant; the hall refuses what the Laws do
// not let an assistant do, and the page says why. It speaks only when
// the assistant asks for an announcement, and only if the player's clock
// did not say it.

const { t, refusal } = window.I18N;
const $ = id => document.getElementById(id);
const num = v => Number(v || 0);
const SIDE = { white: t("side.white"), black: t("side.black") };
const other = s => (s === "white" ? "black" : "white");
const wireSide = s => (s === "white" ? "SIDE_WHITE" : "SIDE_BLACK");
const sideOf = w => (w === "SIDE_WHITE" ? "white" : w === "SIDE_BLACK" ? "black" : "");

let session = null; // {board_id, side, csrf, label, ...}
let board = null; // the last GetBoard
let fetchedAt = 0; // Date.now() when board came
let serverOffset = 0; // the hall's clock minus this one's, ms
let stopArmed = 0; // the stop button's first tap, Date.now(); 0: not armed
let timer = 0;

// say writes the status line, which a screen reader reads out.
function say(text, refused = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("refused", refused);
}

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function errorOf(r) {
  const text = await r.text();
  try {
    return new ApiError(r.status, JSON.parse(text).message || text);
  } catch {
    return new ApiError(r.status, text.trim() || r.statusText);
  }
}

// call calls a method of the hall's Arbiter service as the assistant.
async function call(method, req) {
  let r;
  try {
    r = await fetch("/api/arbiter/" + method, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf },
      body: JSON.stringify(req),
    });
  } catch (e) {
    throw new ApiError(0, t("assist.noanswer", { error: e.message }));
  }
  if (!r.ok) throw await errorOf(r);
  const at = Number(r.headers.get("X-Server-Unix-Ms"));
  if (at) serverOffset = at - Date.now();
  return r.json();
}

// minutes writes a time for people: "1 h 2 min 5 s", "4 min 0 s", "7 s".
function minutes(ms) {
  const s = Math.ceil(Math.max(0, ms) / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  if (h > 0) return t("time.hms", { h, m, s: sec });
  if (m > 0) return t("time.ms", { m, s: sec });
  return t("time.s", { s: sec });
}

// termination names how a game ended (rules.Termination) in the reader's language.
function termination(x) {
  const words = { normal: t("term.normal"), time: t("term.time"), illegal_move: t("term.illegal_move"), default: t("term.default"),
    quickplay_claim: t("term.quickplay_claim"), arbiter: t("term.arbiter"), agreement: t("term.agreement") };
  return words[x] || x.replaceAll("_", " ");
}

function nameOf(side) {
  const p = board && board[side];
  return (p && p.name) || SIDE[side];
}

const status = () => (board && board.state && board.state.status) || "BOARD_STATUS_WAITING";

// used is side's time used now: the board's, run forward while his clock runs.
function used(side) {
  const st = board.state || {};
  let ms = num(st[side] && st[side].usedMs);
  if (status() === "BOARD_STATUS_RUNNING" && sideOf(st.running) === side) {
    ms += Math.max(0, Date.now() + serverOffset - num(st.serverUnixMs));
  }
  return ms;
}

// left is side's time left now: the board's remaining main time, run
// down while his clock runs once the move's simple delay is spent, as the
// dashboard's clocks run.
function left(side) {
  const st = board.state || {}, p = st[side] || {};
  let ms = num(p.remainingMs);
  if (status() === "BOARD_STATUS_RUNNING" && sideOf(st.running) === side) {
    ms -= Math.max(0, Date.now() + serverOffset - num(st.serverUnixMs) - num(p.delayLeftMs));
  }
  return Math.max(0, ms);
}

// setButton changes a button only where it changed, so that a screen
// reader is not told the same label again.
function setButton(id, label, hint, disabled) {
  const b = $(id);
  const name = hint ? label + ": " + hint : label;
  if (b.getAttribute("aria-label") !== name) {
    b.setAttribute("aria-label", name);
    b.replaceChildren(label, Object.assign(document.createElement("span"), { className: "hint", textContent: hint }));
  }
  b.setAttribute("aria-disabled", disabled ? "true" : "false");
}

function render() {
  if (!board) return;
  const me = session.side, opp = other(me), st = board.state || {};
  $("title").textContent = t("assist.title", { name: nameOf(me), side: SIDE[me] });
  const no = (board.section || "") + num(board.number);
  const where = board.tournamentName ? t("assist.where_round", { tournament: board.tournamentName, round: num(board.roundNumber), board: no }) :
    t("assist.where", { board: no });
  $("board").textContent = t("assist.pairing", { where, white: nameOf("white"), black: nameOf("black") });
  const toMove = sideOf(st.toMove);
  switch (status()) {
    case "BOARD_STATUS_RUNNING":
      $("turn").textContent = (sideOf(st.running) || toMove) === "white" ? t("assist.turn_white", { name: nameOf(toMove) }) : t("assist.turn_black", { name: nameOf(toMove) });
      break;
    case "BOARD_STATUS_PAUSED":
      $("turn").textContent = t("assist.paused");
      break;
    case "BOARD_STATUS_ADJOURNED":
      $("turn").textContent = t("assist.adjourned");
      break;
    case "BOARD_STATUS_FINISHED":
    case "BOARD_STATUS_REFERRED":
      $("turn").textContent = st.termination ? t("assist.over_how", { result: st.result || "", how: termination(st.termination) }) : t("assist.over", { result: st.result || "" });
      break;
    default:
      $("turn").textContent = t("assist.waiting");
  }
  for (const s of ["white", "black"]) {
    const p = st[s] || {};
    const n = num(p.moves);
    $("side-" + s).textContent = t("assist.side", { side: SIDE[s], name: nameOf(s), n, left: minutes(left(s)), used: minutes(used(s)) }) +
      (p.flagAtMs !== undefined ? t("assist.flag_fallen") : "");
  }
  const running = status() === "BOARD_STATUS_RUNNING";
  const myMove = running && toMove === me;
  const oppWhite = opp === "white";
  setButton("press", t("assist.press", { side: SIDE[me] }), myMove ? (oppWhite ? t("assist.press_hint_white", { name: nameOf(me) }) : t("assist.press_hint_black", { name: nameOf(me) })) :
    (running ? t("assist.not_now_to_move", { side: SIDE[opp] }) : t("assist.not_now_stopped")), !myMove);
  setButton("announce", t("assist.announce"), t("assist.announce_hint", { name: nameOf(me) }), false);
  setButton("flag", oppWhite ? t("assist.flag_white") : t("assist.flag_black"), oppWhite ? t("assist.flag_hint_white") : t("assist.flag_hint_black"), false);
  const armed = stopArmed && Date.now() - stopArmed < 4000;
  setButton("stop", armed ? t("assist.stop_again") : t("assist.stop"), armed ? t("assist.stop_again_hint") : t("assist.stop_hint"), !running);
  $("stop").classList.toggle("armed", !!armed);
  $("clock").hidden = false;
  $("actions").hidden = false;
}

async function refresh() {
  try {
    board = await call("GetBoard", { boardId: session.board_id });
    fetchedAt = Date.now();
    render();
  } catch (e) {
    if (e.status === 401 || e.status === 403) {
      stop(t("assist.signed_out", { error: e.message }));
      return;
    }
    say(e.message, true);
  }
}

function stop(message) {
  clearInterval(timer);
  timer = 0;
  $("actions").hidden = true;
  $("clock").hidden = true;
  say(message, true);
}

// act asks the hall for a clock action for the player, and says what came of it.
async function act(kind, reason, applied) {
  try {
    const r = await call("BoardAction", { boardId: session.board_id, action: { kind, side: wireSide(session.side) }, reason });
    if (r.state) {
      board.state = r.state;
      fetchedAt = Date.now();
    }
    switch (r.status) {
      case "COMMAND_STATUS_APPLIED":
        say(applied(r.state || {}));
        break;
      case "COMMAND_STATUS_REFUSED":
        // why, in the reader's language where the catalogues know its kind
        say(refusal(r.words, r.message, "assist.refused"), true);
        break;
      default:
        say(t("assist.sent", { message: r.message || t("assist.waiting_for_it") }));
    }
  } catch (e) {
    say(t("assist.refused", { reason: e.message }), true);
  }
  render();
  refresh();
}

function press() {
  const me = session.side;
  act("ACTION_KIND_PRESS", "the assistant presses the clock for the player, his move made (D.2.10.3)",
    () => (me === "white" ? t("assist.pressed_white") : t("assist.pressed_black")));
}

function flag() {
  act("ACTION_KIND_FLAG_CLAIM", "the assistant claims the opponent's flag (D.2.10.5)",
    st => (st.termination ? t("assist.flag_claimed_how", { result: st.result || "", how: termination(st.termination) }) : t("assist.flag_claimed", { result: st.result || "" })));
}

function stopClock() {
  if (!stopArmed || Date.now() - stopArmed >= 4000) {
    stopArmed = Date.now();
    say(t("assist.stop_armed", { n: 4 }));
    render();
    return;
  }
  stopArmed = 0;
  act("ACTION_KIND_PAUSE", "the assistant stops the clock to call the arbiter (D.2.10.5)",
    () => t("assist.stopped"));
}

// speak says text aloud on this phone, in lang.
function speak(text, lang) {
  const synth = window.speechSynthesis;
  if (!synth || typeof window.SpeechSynthesisUtterance !== "function") return false;
  const u = new window.SpeechSynthesisUtterance(text);
  u.lang = lang || "en";
  synth.speak(u);
  return true;
}

async function announce() {
  try {
    const r = await call("Announce", { boardId: session.board_id, side: wireSide(session.side),
      reason: "the player asked his assistant (D.2.10.4)" });
    const a = r.announce || {};
    $("words").textContent = a.text || "";
    $("words").lang = a.language || "en";
    $("said").hidden = false;
    if (r.sent) {
      say(t("assist.said_by_clock", { name: nameOf(session.side) }));
    } else if (speak(a.text || "", a.language)) {
      say(t("assist.said_here"));
    } else {
      say(t("assist.cannot_speak", { name: nameOf(session.side) }));
    }
  } catch (e) {
    say(t("assist.refused", { reason: e.message }), true);
  }
}

async function start() {
  let r;
  try {
    r = await fetch("/api/session", { credentials: "same-origin", cache: "no-store" });
  } catch (e) {
    say(t("assist.noanswer_reload", { error: e.message }), true);
    return;
  }
  if (!r.ok) {
    say(t("assist.not_signed_in"), true);
    return;
  }
  session = await r.json();
  if (session.role !== "assistant" || !session.board_id) {
    say(t("assist.not_assistant"), true);
    return;
  }
  serverOffset = num(session.server_unix_ms) ? num(session.server_unix_ms) - Date.now() : 0;
  $("signout-csrf").value = session.csrf;
  $("signout").hidden = false;
  $("press").addEventListener("click", press);
  $("announce").addEventListener("click", announce);
  $("flag").addEventListener("click", flag);
  $("stop").addEventListener("click", stopClock);
  await refresh();
  timer = setInterval(() => {
    render();
    if (Date.now() - fetchedAt >= 2000) refresh();
  }, 1000);
}

start();
