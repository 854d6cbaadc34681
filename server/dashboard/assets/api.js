// The hall's HTTP API as the page uses it: the session, the Arbiter
// service (POST /api/arbiter/<Method>, protojson, with the session's CSRF
// token) and the live feed. A 401 anywhere means the session has ended:
// the page is told why (signedOut) rather than retrying for ever.

import { setServerTime } from "./clock.js";
import { heard } from "./news.js";
import { t } from "./t.js";

export class ApiError extends Error {
  constructor(httpStatus, code, message) {
    super(message);
    this.httpStatus = httpStatus;
    this.code = code;
  }
}

// unanswered is the error of a call the hall did not answer; cause is the
// browser's words for why.
function unanswered(e) {
  const err = new ApiError(0, "Unavailable", t("api.no_answer", { error: e.message }));
  err.cause = e.message;
  return err;
}

let csrf = "";
let onSignedOut = () => {};

export function init(session, signedOut) {
  csrf = session.csrf;
  onSignedOut = signedOut;
}

async function errorOf(r) {
  const text = await r.text();
  try {
    const j = JSON.parse(text);
    return new ApiError(r.status, j.code || "", j.message || text);
  } catch {
    return new ApiError(r.status, "", text.trim() || r.statusText);
  }
}

// session returns who is signed in, or throws an ApiError (401: nobody,
// with the reason: not signed in, session ended, token revoked; 0: the
// hall did not answer within timeoutMs).
export async function session(timeoutMs = 0) {
  const sent = Date.now();
  let r;
  try {
    r = await fetch("/api/session", { credentials: "same-origin", cache: "no-store", signal: timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined });
  } catch (e) {
    throw unanswered(e);
  }
  if (!r.ok) throw await errorOf(r);
  const s = await r.json();
  setServerTime(s.server_unix_ms, sent, Date.now());
  heard();
  return s;
}

// call calls an Arbiter method with a request object and returns its
// response object.
export async function call(method, req = {}) {
  const sent = Date.now();
  let r;
  try {
    r = await fetch("/api/arbiter/" + method, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(req),
    });
  } catch (e) {
    throw unanswered(e);
  }
  if (!r.ok) {
    const err = await errorOf(r);
    if (r.status === 401) onSignedOut(err.message);
    throw err;
  }
  setServerTime(Number(r.headers.get("X-Server-Unix-Ms")), sent, Date.now());
  heard();
  return r.json();
}
