// baffle's live scoreboard: a page served by baffled that follows tournaments and matches
// over gRPC-Web, speaking protobuf. No framework and no build step: what is here is what
// runs. This module is the router and the language; the views are modules of their own:
// `#/` tournaments and search (home.js), `#/t/<id>` a tournament's matches
// (tournament.js), `#/r/<id>/<round>` its results and `#/w/<id>/<round>` the wall
// (results.js), `#/m/<match>` a match live (match.js), and the draw's views `#/d/`,
// `#/wd/`, `#/print/` (draw.js). Beneath them: card.js (a match in words and as a card),
// clock.js (the clock faces), follow.js (feeds kept open, the view being shown),
// wire.js (protobuf and gRPC-Web, by schema.js, generated from the protos), words.js
// (the catalogue, Greek and English), dice.js (the dice checked here, a player's seed),
// player.js (a player's side with live dice), board.js, heads.js and ui.js.

import { useLanguage, chosenLanguage, language, t } from "./words.js";
import { setStatus, view, title } from "./ui.js";
import { showDraw, showPrint } from "./draw.js";
import { keepFollowing, leave, follow } from "./follow.js";
import { showTournaments, showSearch } from "./home.js";
import { showTournament } from "./tournament.js";
import { showResults, showWall } from "./results.js";
import { showMatch } from "./match.js";

// ---------------------------------------------------------------- router

function route() {
  leave();
  document.getElementById("home").setAttribute("aria-label", t("nav-tournaments"));
  document.body.classList.remove("wall", "wall-draw", "print");
  document.title = "baffle";
  const [, kind, id, round] = location.hash.split("/");
  const key = id && decodeURIComponent(id);
  const r = Number(round) || 0;
  if (kind === "t" && id) showTournament(key);
  else if (kind === "r" && id) showResults(key, r);
  else if (kind === "w" && id) showWall(key, r);
  else if (kind === "m" && id) showMatch(key);
  else if ((kind === "d" || kind === "wd") && id) follow(showDraw(key, kind === "wd", { view, title, keepFollowing }));
  else if (kind === "print" && id) follow(showPrint(key, round, { view, title }));
  else if (kind === "s" && id) showSearch(key);
  else showTournaments();
}

// The language: the reader's choice, remembered; the view is drawn again in it.
const picker = document.getElementById("lang");
picker.addEventListener("change", async () => {
  await useLanguage(picker.value, true);
  route();
});

async function start() {
  const lang = chosenLanguage();
  try {
    await useLanguage(lang);
  } catch (e) {
    setStatus(`${e.message}`, true);
  }
  picker.value = language();
  setStatus(t("status-connecting"), false);
  window.addEventListener("hashchange", route);
  route();
}
start();
