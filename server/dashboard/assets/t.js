// The page's words: t(key, params) from the catalogues (window.I18N, the
// shared script /i18n/i18n.js the page loads first). Outside a page (the
// Node tests of format.js) there is none: t gives the key.
const I = globalThis.I18N;

export const t = (key, params) => (I ? I.t(key, params) : key);

// time writes a wall-clock time in the page's language.
export const time = (d, opts) => (I ? I.time(d, opts) : d.toLocaleTimeString([], opts));
