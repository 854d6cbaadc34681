// The page's words: t(key, params) from the catalogues (window.I18N, the
// shared script /i18n/i18n.js the page loads first). Outside a page (the
// Node tests of format.js) there is none: t gives the key.
const I = globalThis.I18N;

export const t = (key, params) => (I ? I.t(key, params) : key);

// time writes a wall-clock time in the page's language.
export const time = (d, opts) => (I ? I.time(d, opts) : d.toLocaleTimeString([], opts));

// words writes an API's Words {kind, params, text} (a refusal, an alert,
// what the hall did) in the page's language: I18N.words, with the
// catalogues of formats/words; without the script, its English text.
export const words = w => (I ? I.words(w) : (w && ((w.params && w.params.text) || w.text || w.kind)) || "");

// wordsKnown says whether the catalogues have words for w (not only the
// English a hall wrote before kinds).
export const wordsKnown = w => !!(I && I.wordsKnown(w));

// refusal says why the rules refused an action (a BoardActionResponse)
// in the message wrapKey: I18N.refusal.
export const refusal = (r, wrapKey = "assist.refused") => (I ? I.refusal(r.words, r.message, wrapKey) : r.message);
