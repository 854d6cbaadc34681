// "Use a tablet as this table's clock": a one-time clock link for a board
// (IssueClockLink), shown as text and as a QR code drawn by the server.
// The tablet or phone that opens it and presses its button becomes the
// board's clock, with a device token of its own; a board at a table puts
// the tablet in the hall plan there, as any replacement clock.

import * as api from "./api.js";
import { until } from "./format.js";
import { t } from "./t.js";

// offerTablet opens the dialog for board info (a Board of ListBoards).
export async function offerTablet(info) {
  const dialog = document.getElementById("tablet-dialog");
  const $ = id => dialog.querySelector("#" + id);
  $("tablet-out").hidden = true;
  $("tablet-error").hidden = true;
  $("tablet-qr").removeAttribute("src");
  $("tablet-url").value = "";
  $("tablet-title").textContent = info.table ? t("tablet.button_table", { table: info.table }) : t("tablet.button_board");
  dialog.showModal();
  try {
    const l = await api.call("IssueClockLink", { boardId: info.boardId, baseUrl: location.origin });
    $("tablet-qr").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(l.qrSvg);
    $("tablet-url").value = l.url;
    const p = { what: l.what, until: until(l.expiresUnixMs), device: info.deviceId };
    $("tablet-says").textContent = info.deviceId ? t("tablet.says_replaces", p) : t("tablet.says", p);
    $("tablet-out").hidden = false;
    $("tablet-url").select();
  } catch (err) {
    $("tablet-error").textContent = err.message;
    $("tablet-error").hidden = false;
  }
}
