// The pages' words: one small script shared by every page of the hall
// (package i18n serves it at /i18n/i18n.js, after the catalogues and the
// hall's default language). No build step, nothing fetched from outside.
//
// Language: ?lang=xx in the page's address (remembered), else the choice
// remembered by this browser (localStorage "hall.lang"), else the
// browser's languages (navigator.languages), else the hall's default
// (hallserver -lang), else English.
//
// In HTML:  <span data-i18n="key">English text</span>
//           <input data-i18n-placeholder="key" placeholder="…">
//           (also data-i18n-title, data-i18n-aria-label, data-i18n-alt,
//           data-i18n-value); parameters as data-p-name="value".
//           <span data-i18n-switcher></span> becomes the language switcher.
// In scripts: I18N.t("key", {name: value}); a plural message chooses its
// form by the parameter n, with Intl.PluralRules (CLDR); I18N.words(w)
// writes an API's Words {kind, params} (formats/words). I18N.number,
// I18N.date and I18N.time format by Intl in the page's language, in the
// hall's time zone (hallserver -tz) when the hall gave one.
(function (root) {
  "use strict";
  const cfg = root.HALL_I18N || { catalogues: {}, fallback: "en" };
  const cats = cfg.catalogues || {};
  const langs = Object.keys(cats).sort((a, b) => (a === "en" ? -1 : b === "en" ? 1 : a < b ? -1 : 1));
  const STORE = "hall.lang";

  // match returns the catalogue's language for a browser's tag ("ko-KR"
  // -> "ko"), or "".
  function match(tag) {
    if (!tag) return "";
    tag = String(tag).toLowerCase();
    if (cats[tag]) return tag;
    const primary = tag.split(/[-_]/)[0];
    return cats[primary] ? primary : "";
  }

  function stored() {
    try { return root.localStorage ? root.localStorage.getItem(STORE) : ""; } catch (e) { return ""; }
  }
  function remember(l) {
    try { if (root.localStorage) root.localStorage.setItem(STORE, l); } catch (e) { /* private mode: this page only */ }
  }

  // choose picks the language as the comment above says.
  function choose(query, saved, browser, hallDefault) {
    const q = match(query);
    if (q) return { lang: q, remember: true };
    const s = match(saved);
    if (s) return { lang: s };
    for (const b of browser || []) {
      const m = match(b);
      if (m) return { lang: m };
    }
    return { lang: match(hallDefault) || (cats.en ? "en" : langs[0] || "en") };
  }

  let lang;
  {
    let query = "";
    try { query = new URLSearchParams(root.location ? root.location.search : "").get("lang") || ""; } catch (e) { /* no address */ }
    const nav = root.navigator ? (root.navigator.languages && root.navigator.languages.length ? root.navigator.languages : [root.navigator.language]) : [];
    const c = choose(query, stored(), nav, cfg.default);
    lang = c.lang;
    if (c.remember) remember(lang);
  }

  const rulesCache = {};
  function pluralRules(l) {
    return rulesCache[l] || (rulesCache[l] = new Intl.PluralRules(l));
  }

  // message returns the catalogue's entry for key in l, else English's.
  function message(l, key) {
    const c = cats[l];
    if (c && Object.prototype.hasOwnProperty.call(c, key)) return c[key];
    if (cats.en && Object.prototype.hasOwnProperty.call(cats.en, key)) return cats.en[key];
    return undefined;
  }

  function formatParam(l, v) {
    if (typeof v === "number" && isFinite(v)) return new Intl.NumberFormat(l).format(v);
    return v === undefined || v === null ? "" : String(v);
  }

  // tIn is t in language l.
  function tIn(l, key, params) {
    let m = message(l, key);
    if (m === undefined) return key;
    params = params || {};
    if (typeof m === "object") {
      const n = Number(params.n);
      const cat = isFinite(n) ? pluralRules(l).select(n) : "other";
      m = m[cat] !== undefined ? m[cat] : m.other;
    }
    return String(m).replace(/\{(\w+)\}/g, (all, name) => (Object.prototype.hasOwnProperty.call(params, name) ? formatParam(l, params[name]) : all));
  }

  function t(key, params) { return tIn(lang, key, params); }

  // refusal writes why the hall refused an action, from its Words w and
  // its English sentence: in English the hall's own sentence (it names
  // the article and the detail) in the message wrapKey ("Refused:
  // {reason}"); in another language the refusal's words, with the
  // article its parameter rule names.
  function refusal(w, english, wrapKey) {
    if (lang !== "en" && wordsKnown(w)) {
      const rule = w.params && w.params.rule;
      return words(w) + (rule ? " (" + rule + ")" : "");
    }
    return t(wrapKey, { reason: english || "" });
  }

  // wordsKnown says whether the catalogues have words for w, an API's
  // Words {kind, params, text} (a refusal, an alert, what the hall did):
  // its kind is not "text" (English the hall wrote before kinds) and a
  // catalogue has "audit.<kind>".
  function wordsKnown(w, l) {
    return !!(w && w.kind && w.kind !== "text" && typeof message(l || lang, "audit." + w.kind) === "string");
  }

  // words writes w in the page's language (or l), as formats/words.Render does
  // in Go: the message "audit.<kind>" with its {params}; a parameter whose
  // value the catalogue names as "audit.<param>.<value>" (an event kind,
  // a side) in the language's word for it. Words it has none for: their
  // English text.
  function words(w, l) {
    if (!w) return "";
    l = l || lang;
    const p = w.params || {};
    if (!wordsKnown(w, l)) return p.text !== undefined ? String(p.text) : w.text || w.kind || "";
    return String(message(l, "audit." + w.kind)).replace(/\{(\w+)\}/g, (all, name) => {
      const v = p[name] === undefined || p[name] === null ? "" : String(p[name]);
      const term = v === "" ? undefined : message(l, "audit." + name + "." + v);
      return typeof term === "string" ? term : v;
    });
  }

  function number(n, opts) { return new Intl.NumberFormat(lang, opts).format(n); }
  // inZone gives opts the hall's time zone (hallserver -tz), unless they
  // name one: a page shows the hall's time, wherever its reader is.
  function inZone(opts) { return cfg.zone && !opts.timeZone ? Object.assign({ timeZone: cfg.zone }, opts) : opts; }
  function date(d, opts) { return new Intl.DateTimeFormat(lang, inZone(opts || { dateStyle: "medium" })).format(d); }
  function time(d, opts) { return new Intl.DateTimeFormat(lang, inZone(opts || { hour: "2-digit", minute: "2-digit" })).format(d); }

  const ATTRS = ["title", "placeholder", "aria-label", "alt", "value"];

  // params reads an element's data-p-* attributes.
  function paramsOf(e) {
    const p = {};
    for (const a of e.attributes) {
      if (a.name.startsWith("data-p-")) p[a.name.slice(7)] = a.value;
    }
    if (p.n !== undefined && p.n !== "" && isFinite(Number(p.n))) p.n = Number(p.n);
    return p;
  }

  const done = typeof WeakSet !== "undefined" ? new WeakSet() : null;

  // apply translates the marked elements under node (default: the page)
  // that it has not translated yet: the page's own scripts may write an
  // element's text afterwards (with t), and that stays.
  function apply(node, again) {
    node = node || root.document;
    if (!node || !node.querySelectorAll) return;
    const sel = "[data-i18n]," + ATTRS.map((a) => "[data-i18n-" + a + "]").join(",");
    const list = Array.from(node.querySelectorAll(sel));
    if (node.matches && node.matches(sel)) list.unshift(node);
    for (const e of list) {
      if (done && !again) {
        if (done.has(e)) continue;
        done.add(e);
      }
      const p = paramsOf(e);
      const k = e.getAttribute("data-i18n");
      if (k) e.textContent = t(k, p);
      for (const a of ATTRS) {
        const ak = e.getAttribute("data-i18n-" + a);
        if (ak) e.setAttribute(a, t(ak, p));
      }
    }
    if (node === root.document) {
      node.documentElement.lang = lang;
      for (const s of node.querySelectorAll("[data-i18n-switcher]")) fillSwitcher(s);
    }
  }

  // setLang remembers l for this browser and shows the page in it (a
  // reload: every word the scripts wrote is written again).
  function setLang(l) {
    l = match(l);
    if (!l) return;
    remember(l);
    if (root.location) {
      const u = new URL(root.location.href);
      if (u.searchParams.has("lang")) {
        u.searchParams.set("lang", l);
        root.location.replace(u.toString());
        return;
      }
      root.location.reload();
    }
  }

  // fillSwitcher makes a host element the language switcher: a select of
  // the languages, each named in itself.
  function fillSwitcher(host) {
    if (host.querySelector("select")) return;
    const s = root.document.createElement("select");
    s.className = "lang-switch";
    s.setAttribute("aria-label", t("lang.choose"));
    s.title = t("lang.choose");
    for (const l of langs) {
      const o = root.document.createElement("option");
      o.value = l;
      o.lang = l;
      o.textContent = tIn(l, "lang.name");
      if (l === lang) o.selected = true;
      s.appendChild(o);
    }
    s.addEventListener("change", () => setLang(s.value));
    host.appendChild(s);
  }

  const api = { t, tIn, words, wordsKnown, refusal, lang: () => lang, langs: () => langs.slice(), choose, setLang, apply, number, date, time, switcher: fillSwitcher };
  root.I18N = api;
  // Translate what is parsed now (include the script at the end of the
  // body, before the page's own scripts), and the rest once parsed.
  if (root.document) {
    apply();
    if (root.document.readyState === "loading") root.document.addEventListener("DOMContentLoaded", () => apply());
  }
  if (typeof module !== "undefined" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);
