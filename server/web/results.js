// A round's results (`#/r/<id>/<round>`), as a table a director can project, and the
// wall (`#/w/<id>/<round>`), every table of a round at once for a projector.

import { t } from "./words.js";
import { el, view, title } from "./ui.js";
import { score, nameOf, stateWords, card } from "./card.js";
import { tournaments, tournamentName, currentRound, byTable, tournamentNav, followTournament, roundsOf } from "./tournament.js";

// The rounds of a tournament to pick from, the one shown marked.
function roundPicker(id, rounds, shown) {
  return el("nav", { class: "rounds", "aria-label": t("page-rounds") },
    el("span", { class: "label", "aria-hidden": "true" }, t("page-rounds")),
    ...[...rounds].sort((x, y) => x - y).map((n) => el("a", {
      href: `#/r/${encodeURIComponent(id)}/${n}`, "data-round": String(n), ...(n === shown ? { "aria-current": "page" } : {}),
    }, t("page-round-link", { round: n }))));
}

// The results of a round, as a table a director can project: table, players, score,
// winner, and whether the result is confirmed.
function showResults(id, round) {
  title.textContent = id;
  tournamentName(id).then((name) => { title.textContent = name; });
  // Wider than a phone (long names, Greek headers), the table scrolls sideways in a box
  // of its own, which a keyboard can reach, rather than breaking words; the box stays
  // across updates, so a live change does not scroll it back.
  const box = el("div", { class: "scroll", tabindex: "0", role: "region" });
  const top = el("div", {}), none = el("p", {});
  view.replaceChildren(top, box, none);
  followTournament(id, (states) => {
    const all = [...states.values()];
    const r = round || currentRound(all);
    const rows = all.filter((s) => s.round === r).sort(byTable);
    const head = el("tr", {}, ...["results-table", "results-players", "results-score", "results-winner", "results-status"]
      .map((k) => el("th", { scope: "col" }, t(k))));
    top.replaceChildren(tournamentNav(id, r, "r"), roundPicker(id, roundsOf(all), r), el("h2", {}, t("results-title", { round: r })));
    box.setAttribute("aria-label", t("results-title", { round: r }));
    box.replaceChildren(el("table", { class: "results" }, el("caption", { class: "sr-only" }, t("results-title", { round: r })),
      el("thead", {}, head),
      el("tbody", {}, ...rows.map((s) => el("tr", { "data-match": s.match_id },
        el("td", { class: "table" }, s.table || "–"),
        el("td", {}, `${s.player_a} – ${s.player_b}`),
        el("td", { class: "score" }, `${score(s, "a")} – ${score(s, "b")}`),
        el("td", { class: "winner" }, s.result && s.result.winner ? nameOf(s, s.result.winner) : ""),
        el("td", { class: "status" }, stateWords(s)))))));
    box.hidden = !rows.length;
    none.textContent = rows.length ? "" : t("results-none");
  });
}

// The wall: every table of a round at once, for a projector across the room.
function showWall(id, round) {
  let name = tournaments.has(id) ? tournaments.get(id).name || id : id, r = round;
  tournamentName(id).then((n) => { name = n; title.textContent = t("wall-title", { name, round: r }); });
  document.body.classList.add("wall");
  const grid = el("div", { class: "wall-grid" });
  view.replaceChildren(grid);
  followTournament(id, (states) => {
    const all = [...states.values()];
    r = round || currentRound(all);
    title.textContent = t("wall-title", { name, round: r });
    const rows = all.filter((s) => s.round === r).sort(byTable);
    // One row of up to four tables, two rows of up to twelve, in type readable from
    // 5 m; a bigger round takes more rows in smaller type, all on one screen.
    const lines = rows.length <= 4 ? 1 : rows.length <= 12 ? 2 : Math.ceil(rows.length / 6);
    const cols = Math.max(1, Math.ceil(rows.length / lines));
    grid.style.setProperty("--cols", String(cols));
    grid.style.setProperty("--k", String(Math.min(1, 2 / lines)));
    grid.replaceChildren(...rows.map((s) => card(s)));
  });
}

export { showResults, showWall };
