// A tournament (`#/t/<id>`): its matches a section per round, followed on the
// tournament's feed; and what the other views of a tournament share: its name, its
// matches, the round it is at and the links between its views.

import { call, unary } from "./wire.js";
import { t } from "./words.js";
import { el, setStatus, announce, view, title } from "./ui.js";
import { noteSent } from "./clock.js";
import { card, spoken } from "./card.js";
import { keepFollowing, follow, ticking } from "./follow.js";
import { hasDraw } from "./draw.js";

// A tournament's name for people, and its other details. The home list and the search
// are ListTournaments (archived tournaments left out); a tournament opened by its id is
// GetTournament, which answers for an archived one too.
const tournaments = new Map();
async function loadTournaments() {
  const reply = await unary("/baffle.v1.Tournaments/ListTournaments", {});
  for (const tour of reply.tournaments) tournaments.set(tour.id, tour);
  return reply.tournaments;
}
async function tournamentName(id) {
  if (!tournaments.has(id)) {
    try {
      tournaments.set(id, await unary("/baffle.v1.Tournaments/GetTournament", { id }));
    } catch { /* the id will do */ }
  }
  return (tournaments.get(id) || {}).name || id;
}

async function listMatches(id) {
  return (await unary("/baffle.v1.Tournaments/ListMatches", { tournament_id: id })).matches;
}

// The round a tournament is at: the lowest with a match not over, else the last.
function currentRound(matches) {
  const open = matches.filter((m) => !m.result).map((m) => m.round);
  if (open.length) return Math.min(...open);
  return Math.max(0, ...matches.map((m) => m.round));
}

const byTable = (x, y) => (x.table || "").localeCompare(y.table || "", undefined, { numeric: true });

// The views of a tournament, the one shown marked.
function tournamentNav(id, round, shown) {
  const link = (kind, href, words) => el("a", { href, ...(kind === shown ? { "aria-current": "page" } : {}) }, words);
  const r = round ? `/${round}` : "";
  return el("nav", { class: "views", "aria-label": t("view-matches") },
    link("t", `#/t/${encodeURIComponent(id)}`, t("view-matches")),
    link("r", `#/r/${encodeURIComponent(id)}${r}`, t("view-results")),
    link("w", `#/w/${encodeURIComponent(id)}${r}`, t("view-wall")),
    drawLink(id));
}

// A link to the tournament's draw, once GetDraw says it has one (draw.js).
function drawLink(id) {
  const a = el("a", { href: `#/d/${encodeURIComponent(id)}`, class: "draw-link", hidden: "" }, t("draw-view"));
  hasDraw(id).then((yes) => { a.hidden = !yes; });
  return a;
}

// Follows a tournament's feed: every match's whole state first, then each change.
// `render(states, changed)` draws, at most once a frame, with the ids of the matches that
// changed since (the first burst of whole states is one drawing, not one per match); a
// reconnect starts afresh, and whole states need nothing else.
function followTournament(id, render) {
  const stop = new AbortController();
  const states = new Map();
  const announced = new Map();
  const changed = new Set();
  let frame = 0;
  const draw = () => {
    frame = 0;
    if (stop.signal.aborted) return;
    const ids = new Set(changed);
    changed.clear();
    render(states, ids);
    retick();
  };
  follow({ stop, timer: 0 });
  const retick = ticking(states);
  keepFollowing(stop.signal, async (signal) => {
    for await (const s of call("/baffle.v1.Matches/WatchTournament", { tournament_id: id }, signal)) {
      noteSent(s);
      states.set(s.match_id, s);
      setStatus(t("status-live"), false);
      changed.add(s.match_id);
      if (!frame) frame = requestAnimationFrame(draw);
      // A change of score, clock or result is said politely; a tick is not.
      const key = `${s.score_a}/${s.score_b}/${s.clock && s.clock.running}/${s.clock && s.clock.paused}/${!!s.result}/${!!(s.result && s.result.confirmed)}`;
      if (announced.has(s.match_id) && announced.get(s.match_id) !== key) announce(spoken(s));
      announced.set(s.match_id, key);
    }
  });
  return states;
}

// The rounds among `states`, latest first.
const roundsOf = (states) => [...new Set(states.map((s) => s.round))].sort((x, y) => y - x);

// A tournament's matches, a section per round, the latest round first (the one being
// played is on top; earlier rounds below it), each by table. A change redraws only the
// card of the match that changed, unless a match came or moved.
function showTournament(id) {
  title.textContent = id;
  tournamentName(id).then((name) => { title.textContent = name; });
  const body = el("div", { class: "rounds-list" });
  const nav = tournamentNav(id, 0, "t");
  view.replaceChildren(nav, body);
  const cards = new Map();
  let shape = "";
  followTournament(id, (states, changed) => {
    const all = [...states.values()];
    const now = all.map((s) => `${s.match_id}\u0000${s.round}\u0000${s.table}`).sort().join("\n");
    if (now === shape) {
      for (const m of changed) {
        const fresh = card(states.get(m));
        cards.get(m).replaceWith(fresh);
        cards.set(m, fresh);
      }
      return;
    }
    shape = now;
    cards.clear();
    body.replaceChildren(...roundsOf(all).map((r) => {
      const cardsOf = all.filter((s) => s.round === r).sort(byTable).map((s) => {
        const c = card(s);
        cards.set(s.match_id, c);
        return c;
      });
      return el("section", { class: "round", "data-round": String(r), "aria-labelledby": `round-${r}` },
        el("h2", { id: `round-${r}` }, t("page-round-heading", { round: r })), el("div", { class: "list" }, ...cardsOf));
    }));
  });
}

export { tournaments, loadTournaments, tournamentName, listMatches, currentRound, byTable, tournamentNav,
  followTournament, roundsOf, showTournament };
