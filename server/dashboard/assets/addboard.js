// "Add a board" to a round, from its group's header: players, clock, time
// control and draw odds (AddBoard). "Armageddon" fills in the usual
// tie-break: White 5 minutes, Black 4, 2 s a move from move 61, a draw
// counting as Black's win. The hall answers with the control as it read
// it, in words; the board then arrives with the hall's feed.

import * as api from "./api.js";
import { t } from "./t.js";

export const ARMAGEDDON_TC = "white 60/5m:0+2s | black 60/4m:0+2s";

// wireAddBoard returns open(roundId, title, number), which opens the
// dialog for that round with the board number proposed.
export function wireAddBoard(dialog) {
  const $ = id => dialog.querySelector("#" + id);
  let roundId = "";
  const say = (id, text) => { $(id).textContent = text; $(id).hidden = !text; };
  $("ab-armageddon").onclick = e => {
    e.preventDefault();
    $("ab-tc").value = ARMAGEDDON_TC;
    $("ab-odds").value = "black";
  };
  $("ab-add").onclick = async e => {
    e.preventDefault();
    say("ab-error", "");
    say("ab-says", "");
    const name = id => $(id).value.trim();
    if (!name("ab-white") || !name("ab-black")) { say("ab-error", t("addboard.names")); return; }
    const req = { roundId, number: Number($("ab-number").value), white: { name: name("ab-white") }, black: { name: name("ab-black") },
      deviceId: name("ab-device") };
    const config = {};
    if (name("ab-tc")) config.timeControl = name("ab-tc");
    if ($("ab-odds").value) config.regulations = { drawOdds: $("ab-odds").value };
    if (Object.keys(config).length) req.config = config;
    $("ab-add").disabled = true;
    try {
      const b = await api.call("AddBoard", req);
      const tci = b.timeControlInfo || {};
      const odds = b.config && b.config.regulations && b.config.regulations.drawOdds;
      say("ab-says", t("addboard.added", { n: b.number, tc: (tci.words || "") + (tci.gameType ? " (" + tci.gameType + ")" : "") }) +
        (odds ? "; " + (odds === "white" ? t("odds.white") : t("odds.black")) : "") + ".");
      $("ab-number").value = String(Number($("ab-number").value) + 1);
    } catch (err) {
      say("ab-error", err.message);
    } finally {
      $("ab-add").disabled = false;
    }
  };
  return (id, title, number) => {
    roundId = id;
    $("ab-title").textContent = t("dash.add_a_board") + " — " + title;
    $("ab-number").value = String(number);
    for (const f of ["ab-white", "ab-black", "ab-device", "ab-tc"]) $(f).value = "";
    $("ab-odds").value = "";
    say("ab-error", "");
    say("ab-says", "");
    dialog.showModal();
  };
}
