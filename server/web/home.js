// The home view (`#/`): the tournaments, told apart, and the search; and a search's
// results (`#/s/<name>`): a player's matches in every tournament.

import { t, refusal, days } from "./words.js";
import { el, setStatus, fold, view, title } from "./ui.js";
import { card } from "./card.js";
import { follow, ticking } from "./follow.js";
import { loadTournaments, listMatches, currentRound } from "./tournament.js";

function searchForm(query = "") {
  const input = el("input", { type: "search", name: "q", value: query, placeholder: t("search-placeholder"), "aria-label": t("search-label") });
  const form = el("form", { class: "search", role: "search" }, input, el("button", { type: "submit" }, t("search-button")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.trim()) location.hash = `#/s/${encodeURIComponent(input.value.trim())}`;
  });
  return form;
}

// A player's matches in every tournament: each tournament's list, filtered here. The
// page asks nothing new of the server; a venue runs a handful of tournaments at once.
async function showSearch(query) {
  title.textContent = t("search-label");
  const stop = new AbortController();
  follow({ stop, timer: 0 });
  const list = el("div", { class: "list" });
  const said = el("p", { role: "status" });
  view.replaceChildren(searchForm(query), said, list);
  try {
    const all = await loadTournaments();
    const wanted = fold(query.trim());
    const found = [];
    for (const [tour, matches] of await Promise.all(all.map(async (tour) => [tour, await listMatches(tour.id)]))) {
      for (const s of matches) {
        if (fold(s.player_a).includes(wanted) || fold(s.player_b).includes(wanted)) found.push([tour, s]);
      }
    }
    if (stop.signal.aborted) return;
    const states = new Map(found.map(([, s]) => [s.match_id, s]));
    said.textContent = t("search-results", { count: found.length, query });
    list.replaceChildren(...found.map(([tour, s]) => card(s, tour.name || tour.id)));
    ticking(states);
    setStatus("", false);
  } catch (e) {
    setStatus(t("status-unreachable", { error: refusal(e.message) }), true);
  }
}

// The tournaments, told apart: name, code, round and matches; and the search.
async function showTournaments() {
  title.textContent = t("nav-tournaments");
  const stop = new AbortController();
  follow({ stop, timer: 0 });
  try {
    const all = await loadTournaments();
    const lists = await Promise.all(all.map((tour) => listMatches(tour.id).catch(() => [])));
    if (stop.signal.aborted) return;
    setStatus("", false);
    const list = el("div", { class: "list" });
    all.forEach((tour, i) => {
      const matches = lists[i];
      const round = currentRound(matches);
      const meta = [t("tournament-id", { id: tour.id }), round ? t("tournament-round", { round }) : "",
        t("tournament-matches", { count: matches.length })].filter(Boolean).join(" · ");
      list.append(el("a", { class: "card tournament", href: `#/t/${encodeURIComponent(tour.id)}`, "data-tournament": tour.id },
        el("h2", {}, tour.name || tour.id),
        el("div", { class: "meta held" }, [tour.venue, days(tour.first_day, tour.last_day)].filter(Boolean).join(" · ")),
        el("div", { class: "meta" }, meta)));
    });
    if (!all.length) list.append(el("p", {}, t("tournaments-none")));
    view.replaceChildren(searchForm(), list);
  } catch (e) {
    setStatus(t("status-unreachable", { error: e.message }), true);
  }
}

export { showSearch, showTournaments };
