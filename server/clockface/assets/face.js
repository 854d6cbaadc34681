// The tablet clock's face. The clock itself is the device library in
// WebAssembly (hallclock.openDevice): this script only draws what it
// says, hands it the presses, and plays the sound, the voice and the
// screen's wake lock.

const $ = (id) => document.getElementById(id);
const CREDS_KEY = "hallclock.device";
const SWAP_KEY = "hallclock.swap";

let dev = null;
let last = null;         // the last state drawn
let audio = null;        // the flag's sound, once a press allowed it
let wakeLock = null;
let stopped = false;     // taken over: the page stops

function message(title, text) {
  $("message-title").textContent = title;
  $("message-text").textContent = text;
  $("message").hidden = false;
  $("face").hidden = true;
}

function readCreds() {
  try {
    const c = JSON.parse(localStorage.getItem(CREDS_KEY) || "null");
    if (c && typeof c.device_id === "string" && c.device_id && typeof c.token === "string" && c.token) return c;
  } catch (e) { /* not a clock */ }
  return null;
}

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error("could not load " + src));
    document.head.appendChild(s);
  });
}

// --- sides and positions ---------------------------------------------------

// Position a is the left half (landscape) or the top half (portrait).
function swapped() { return localStorage.getItem(SWAP_KEY) === "1"; }
function sideAt(pos) { return (pos === "a") !== swapped() ? "white" : "black"; }

// --- times as a clock shows them ---------------------------------------------

function pad(n) { return String(n).padStart(2, "0"); }

// Tenths under ten seconds (cut, not rounded: a clock never shows time a
// player does not have), else m:ss or h:mm:ss.
export function formatMs(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) {
    const t = Math.floor(ms / 100);
    return `${Math.floor(t / 10)}.${t % 10}`;
  }
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

function secs(ms) {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function bonusText(b) {
  if (!b || !b.kind) return "";
  return { increment: `+${secs(b.ms)} a move`, delay: `delay ${secs(b.ms)}`, bronstein: `Bronstein ${secs(b.ms)}` }[b.kind] || "";
}

function playerText(p) {
  if (!p || !p.name) return "";
  return [p.title, p.name, p.rating ? `(${p.rating})` : ""].filter(Boolean).join(" ");
}

const terminations = {
  normal: "", time: "on time", illegal_move: "illegal move", default: "by default",
  quickplay_claim: "quickplay claim", arbiter: "by the arbiter", agreement: "by agreement",
};

// --- drawing -----------------------------------------------------------------

function where(v, label) {
  const parts = [];
  if (v.tournament) parts.push(v.tournament);
  if (v.section) parts.push(v.section);
  if (v.round) parts.push(`round ${v.round}`);
  if (v.board_number) parts.push(`board ${v.board_number}`);
  if (v.table) parts.push(`table ${v.table}`);
  if (!parts.length && label) parts.push(label);
  return parts.join(" · ");
}

function linkText(v) {
  if (v.connected) return v.outbox > 0 ? `online — sending ${v.outbox}` : "online";
  return `offline — ${v.outbox} ${v.outbox === 1 ? "press" : "presses"} kept`;
}

function noticeOf(v) {
  if (v.taken_over) return ["", ""];
  if (v.time_unknown) {
    return ["This clock was closed and cannot know how long: the arbiter must check the times", ""];
  }
  if (v.status === "finished") {
    const how = terminations[v.termination] || v.termination || "";
    return [`Result ${v.result}${how ? " — " + how : ""}`, "ended"];
  }
  if (v.status === "paused") {
    const reason = v.pause_reason ? ` — ${v.pause_reason}` : "";
    return [`Paused by the arbiter${reason}`, ""];
  }
  if (v.status === "adjourned") return ["Adjourned", ""];
  if (v.status === "referred") return ["The game is referred to the arbiter", ""];
  return ["", ""];
}

function statusText(v) {
  if (!v.assigned) return "Waiting for the arbiter to give this clock a board";
  if (v.status === "waiting") return "Waiting for the start";
  return "";
}

function drawHalf(pos, v) {
  const side = sideAt(pos);
  const el = $("half-" + pos);
  const ms = side === "white" ? v.white_ms : v.black_ms;
  const running = v.running === side;
  const fallen = v.flag === side;
  el.classList.toggle("running", running);
  el.classList.toggle("fallen", fallen);
  el.dataset.side = side;
  el.setAttribute("aria-label", `${side === "white" ? "White" : "Black"}: press to complete the move`);
  el.querySelector(".player").textContent = playerText(side === "white" ? v.white : v.black) || (side === "white" ? "White" : "Black");
  el.querySelector(".time").textContent = v.assigned ? formatMs(ms) : "–:––";
  const moves = side === "white" ? v.white_moves : v.black_moves;
  const period = side === "white" ? v.white_period : v.black_period;
  const parts = [];
  if (v.periods > 1) parts.push(`period ${period}`);
  if (v.assigned) parts.push(`${moves} ${moves === 1 ? "move" : "moves"}`);
  el.querySelector(".moves").textContent = parts.join(" · ");
  let bonus = bonusText(side === "white" ? v.white_bonus : v.black_bonus);
  if (running && v.delay_left_ms > 0) bonus = `delay ${(Math.floor(v.delay_left_ms / 100) / 10).toFixed(1)}`;
  el.querySelector(".bonus").textContent = bonus;
  el.querySelector(".flag").hidden = !fallen;
  const say = $("say-" + pos);
  say.hidden = !(side === "white" ? v.white_blind : v.black_blind);
  say.dataset.side = side;
}

function draw(v, label) {
  $("where").textContent = where(v, label);
  $("status").textContent = statusText(v);
  const link = $("link");
  link.textContent = linkText(v);
  link.classList.toggle("offline", !v.connected);
  link.title = v.last_error || "";
  const [text, cls] = noticeOf(v);
  const n = $("notice");
  n.hidden = !text;
  n.textContent = text;
  n.className = "notice " + cls;
  drawHalf("a", v);
  drawHalf("b", v);
  if (last && last.flag === "none" && v.flag !== "none") flagSound();
  if (v.taken_over) takenOver();
  last = v;
}

// --- the flag's sound ----------------------------------------------------------

function unlockAudio() {
  if (audio) return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (Ctx) audio = new Ctx();
}

function flagSound() {
  if (!audio) return;
  const t0 = audio.currentTime;
  for (let i = 0; i < 3; i++) {
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = 880;
    g.gain.setValueAtTime(0.0001, t0 + i * 0.3);
    g.gain.exponentialRampToValueAtTime(0.4, t0 + i * 0.3 + 0.02);
    g.gain.exponentialRampToValueAtTime(0.0001, t0 + i * 0.3 + 0.22);
    o.connect(g).connect(audio.destination);
    o.start(t0 + i * 0.3);
    o.stop(t0 + i * 0.3 + 0.25);
  }
}

// --- keeping the screen awake -----------------------------------------------------

async function keepAwake() {
  const el = $("awake");
  if (!("wakeLock" in navigator) || !window.isSecureContext) {
    el.textContent = "The screen may sleep: this page is not on HTTPS. Set the tablet's screen to stay on during the game.";
    return;
  }
  if (wakeLock && !wakeLock.released) return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    el.textContent = "The screen stays on";
  } catch (e) {
    el.textContent = "The screen may sleep: " + e.message;
  }
}

// --- the talking clock ---------------------------------------------------------------

function voices() {
  if (!("speechSynthesis" in window)) return [];
  const tags = new Set(["en"]);
  for (const v of speechSynthesis.getVoices()) {
    if (v.lang) tags.add(v.lang.split(/[-_]/)[0].toLowerCase());
  }
  return [...tags].slice(0, 16);
}

function speak(s) {
  if (!("speechSynthesis" in window) || !s || !s.text) return;
  const u = new SpeechSynthesisUtterance(s.text);
  if (s.language) u.lang = s.language;
  speechSynthesis.speak(u);
}

// --- presses ---------------------------------------------------------------------------

function press(side) {
  if (!dev || stopped || (last && !last.assigned)) return; // no board: nothing to press
  unlockAudio();
  keepAwake();
  const a = JSON.parse(dev.press(side));
  if (a.error && !a.refused) showError(a.error);
}

function showError(text) {
  const n = $("notice");
  n.hidden = false;
  n.textContent = text;
  n.className = "notice";
}

function bindInput() {
  for (const pos of ["a", "b"]) {
    // pointerdown: the press is the finger's touch, not a click after it;
    // a second touch of the same half presses a clock that is not
    // running, which the law ignores (6.2.1): no double press.
    $("half-" + pos).addEventListener("pointerdown", (e) => {
      e.preventDefault();
      press(sideAt(pos));
    });
    $("say-" + pos).addEventListener("click", (e) => {
      const a = JSON.parse(dev.announce(e.currentTarget.dataset.side));
      if (a.error) showError(a.error);
    });
  }
  document.addEventListener("keydown", (e) => {
    if (e.repeat) return;
    if (e.code === "ShiftLeft") press(sideAt("a"));
    else if (e.code === "ShiftRight") press(sideAt("b"));
    else if (e.code === "Space") {
      e.preventDefault();
      const running = dev ? JSON.parse(dev.state()).running : "none";
      if (running !== "none") press(running);
    }
  });
  // The tools give the focus back: Space is a press, never their click.
  $("swap").addEventListener("click", (e) => {
    e.currentTarget.blur();
    localStorage.setItem(SWAP_KEY, swapped() ? "0" : "1");
  });
  $("full").addEventListener("click", (e) => {
    e.currentTarget.blur();
    const d = document.documentElement;
    if (document.fullscreenElement) document.exitFullscreen();
    else if (d.requestFullscreen) d.requestFullscreen().catch(() => {});
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && wakeLock) keepAwake();
  });
}

function takenOver() {
  if (stopped) return;
  stopped = true;
  if (dev) dev.close();
  message("Another browser is this clock now",
    "This clock's link was opened in another browser, which has taken over the board. " +
    "This page no longer keeps time. To use this tablet as a clock again, open a new clock link from the arbiter.");
}

function onNotice(json) {
  const n = JSON.parse(json);
  if (n.taken_over) takenOver();
  if (n.kind === "announcement") speak(n.speech);
}

// --- start -------------------------------------------------------------------------------

async function boot(creds) {
  const paths = await (await fetch("/clockface/wasm.json")).json();
  await loadScript(paths.exec);
  const go = new Go();
  const { instance } = await WebAssembly.instantiateStreaming(fetch(paths.wasm), go.importObject);
  go.run(instance); // sets globalThis.hallclock, then keeps running
  const url = (location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + "/clocklink";
  const d = hallclock.openDevice({ url, token: creds.token, deviceID: creds.device_id, voices: voices() });
  if (typeof d === "string") {
    message("This clock could not start", JSON.parse(d).error);
    return;
  }
  dev = d;
  window.hallclockDevice = d; // for the hall's tests and the curious
  dev.onNotice(onNotice);
  $("message").hidden = true;
  $("face").hidden = false;
  bindInput();
  keepAwake();
  let drawn = 0;
  const frame = (now) => {
    if (stopped) return;
    if (now - drawn >= 50) {
      drawn = now;
      draw(JSON.parse(dev.state()), creds.label);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

const creds = readCreds();
if (!creds) {
  message("This browser is not a clock of the hall yet",
    "To make it one, open a clock link from the arbiter on this tablet or phone " +
    "(the dashboard's “Use a tablet as this table's clock”, or hallctl clock-link).");
} else {
  boot(creds).catch((e) => message("This clock could not start", String(e && e.message || e)));
}
