// "Sign in another device": a one-time sign-in link for the session's own
// token, or a deputy's, shown as text and as a QR code (drawn by the
// server: IssueSignInLink). The link signs one browser in, once; opening
// it shows a button, so a chat app's preview does not spend it.

import * as api from "./api.js";
import { t } from "./t.js";
import { until } from "./format.js";

export function wireSignInLink(open, dialog) {
  const $ = id => dialog.querySelector("#" + id);
  const reset = () => {
    $("link-out").hidden = true;
    $("link-error").hidden = true;
    $("link-qr").removeAttribute("src");
    $("link-url").value = "";
  };
  open.onclick = () => {
    reset();
    dialog.showModal();
  };
  $("link-make").onclick = async e => {
    e.preventDefault();
    reset();
    $("link-make").disabled = true;
    try {
      const l = await api.call("IssueSignInLink", { forToken: $("link-for").value.trim(), baseUrl: location.origin });
      $("link-qr").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(l.qrSvg);
      $("link-url").value = l.url;
      const role = { ROLE_CHIEF_ARBITER: t("actor.chief"), ROLE_ARBITER: t("actor.arbiter"), ROLE_BROADCAST: t("link.broadcast") }[l.role] || "";
      const sections = l.sections && l.sections.length ? ", " + t("link.sections", { sections: l.sections.join(", ") }) : "";
      $("link-says").textContent = t("link.says", { label: l.label, role: role + sections, until: until(l.expiresUnixMs) });
      $("link-out").hidden = false;
      $("link-url").select();
    } catch (err) {
      $("link-error").textContent = err.message;
      $("link-error").hidden = false;
    } finally {
      $("link-make").disabled = false;
    }
  };
}
