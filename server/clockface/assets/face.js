// The tablet clock's face. The clock itself is the device library in
// WebAssembly (hallclock.openDevice): this script only draws what it
// says, hands it the presses, and plays the sound, the voice and the
// screen's wake lock.

const $ = (id) => document.getElementById(id);
// The page's words, from the hall's catalogues (/i18n/i18n.js, loaded
// before this module runs).
const t = (key, params) => (window.I18N ? I18N.t(key, params) : key);
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

// tenths writes a number of seconds with at most (or, fixed, exactly) one
// decimal, as the page's language writes numbers.
function tenths(s, fixed) {
  const opts = { maximumFractionDigits: 1, minimumFractionDigits: fixed ? 1 : 0 };
  return window.I18N ? I18N.number(s, opts) : s.toFixed(fixed ? 1 : 0);
}

function secs(ms) {
  return t("face.secs", { s: tenths(Math.floor(ms / 100) / 10, false) });
}

function bonusText(b) {
  if (!b || !b.kind) return "";
  const s = secs(b.ms);
  switch (b.kind) {
    case "increment": return t("face.increment", { s });
    case "delay": return t("face.delay", { s });
    case "bronstein": return t("face.bronstein", { s });
  }
  return "";
}

function playerText(p) {
  if (!p || !p.name) return "";
  return [p.title, p.name, p.rating ? `(${p.rating})` : ""].filter(Boolean).join(" ");
}

// terminationText is how a game ended, in words ("" for a normal end or
// one the catalogue does not know: the hall's own word is shown then).
function terminationText(term) {
  switch (term) {
    case "": case "normal": return "";
    case "time": return t("face.term.time");
    case "illegal_move": return t("face.term.illegal_move");
    case "default": return t("face.term.default");
    case "quickplay_claim": return t("face.term.quickplay_claim");
    case "arbiter": return t("face.term.arbiter");
    case "agreement": return t("face.term.agreement");
  }
  return term;
}

// --- drawing -----------------------------------------------------------------

function where(v, label) {
  const parts = [];
  if (v.tournament) parts.push(v.tournament);
  if (v.section) parts.push(v.section);
  if (v.round) parts.push(t("face.round", { n: v.round }));
  if (v.board_number) parts.push(t("face.board", { n: v.board_number }));
  if (v.table) parts.push(t("face.table", { n: v.table }));
  if (!parts.length && label) parts.push(label);
  return parts.join(" · ");
}

function linkText(v) {
  if (v.connected) return v.outbox > 0 ? t("face.sending", { n: v.outbox }) : t("face.online");
  return t("face.offline", { n: v.outbox });
}

function noticeOf(v) {
  if (v.taken_over) return ["", ""];
  if (v.time_unknown) {
    return [t("face.time_unknown"), ""];
  }
  if (v.status === "finished") {
    const how = terminationText(v.termination || "");
    return [how ? t("face.result_how", { result: v.result, how }) : t("face.result", { result: v.result }), "ended"];
  }
  if (v.status === "paused") {
    return [v.pause_reason ? t("face.paused_reason", { reason: v.pause_reason }) : t("face.paused"), ""];
  }
  if (v.status === "adjourned") return [t("face.adjourned"), ""];
  if (v.status === "referred") return [t("face.referred"), ""];
  return ["", ""];
}

function statusText(v) {
  if (!v.assigned) return t("face.no_board");
  if (v.status === "waiting") return t("face.waiting");
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
  el.setAttribute("aria-label", side === "white" ? t("face.press_white") : t("face.press_black"));
  el.querySelector(".player").textContent = playerText(side === "white" ? v.white : v.black) || (side === "white" ? t("face.white") : t("face.black"));
  el.querySelector(".time").textContent = v.assigned ? formatMs(ms) : "–:––";
  const moves = side === "white" ? v.white_moves : v.black_moves;
  const period = side === "white" ? v.white_period : v.black_period;
  const parts = [];
  if (v.periods > 1) parts.push(t("face.period", { n: period }));
  if (v.assigned) parts.push(t("face.moves", { n: moves }));
  el.querySelector(".moves").textContent = parts.join(" · ");
  let bonus = bonusText(side === "white" ? v.white_bonus : v.black_bonus);
  if (running && v.delay_left_ms > 0) bonus = t("face.delay", { s: tenths(Math.floor(v.delay_left_ms / 100) / 10, true) });
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
    el.textContent = t("face.awake_http");
    return;
  }
  if (wakeLock && !wakeLock.released) return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    el.textContent = t("face.awake_on");
  } catch (e) {
    el.textContent = t("face.awake_error", { error: e.message });
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
  message(t("face.taken_title"), t("face.taken_text"));
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
    message(t("face.start_failed"), JSON.parse(d).error);
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
  message(t("face.not_clock_title"), t("face.not_clock_text"));
} else {
  boot(creds).catch((e) => message(t("face.start_failed"), String(e && e.message || e)));
}
