// A tournament's draw (baffle.v1.Draws), on the phone, on the wall and on paper:
// `#/d/<id>` the knockout's bracket per flight (or a round robin's or Swiss's standings
// and pairings), a search for a player's path and the draw's proof, live by WatchDraw;
// `#/wd/<id>` the same in a projector's type; `#/print/<id>/draw|scoresheets|results`
// pages for A4 paper (the print CSS is in index.html). Only what DrawView says is shown:
// the page works nothing out but which box of the tree a match is in.

import { call, unary, GrpcError } from "./wire.js";
import { t, time, date, number } from "./words.js";
import { el, setStatus, fold } from "./ui.js";

const KNOCKOUT = 1, DECIDED = 5, PLAYING = 4;
const FLIGHTS = { 1: "M", 2: "C", 3: "L" };
const FLIGHT_WORDS = { 1: "draw-flight-main", 2: "draw-flight-consolation", 3: "draw-flight-last-chance" };
const NOT_FOUND = 5;

// Whether each tournament has a draw (GetDraw answers, NOT_FOUND: no draw), asked once.
const known = new Map();
export async function drawOf(id) {
  try {
    const d = await unary("/baffle.v1.Draws/GetDraw", { tournament_id: id });
    known.set(id, true);
    return d;
  } catch (e) {
    if (e instanceof GrpcError && e.code === NOT_FOUND) { known.set(id, false); return null; }
    throw e;
  }
}
export async function hasDraw(id) {
  if (!known.has(id)) await drawOf(id).catch(() => known.set(id, false));
  return known.get(id);
}

// ---------------------------------------------------------------- the draw as boxes

const names = (d) => new Map(d.entrants.map((e) => [e.number, (e.details && e.details.name) || `#${e.number}`]));
const keyOf = (flight, round, index) => `${FLIGHTS[flight] || "M"}${round}-${index}`;
const halves = (h) => (h % 2 ? `${number(Math.floor(h / 2))}½` : number(h / 2));
const quarters = (q) => (q % 4 === 0 ? number(q / 4) : q % 2 === 0 ? halves(q / 2) : number(q / 4));

// Every match of a knockout's flight, round by round: a pairing where both players are
// known; else each place from the match that feeds it in this flight (its winner, or the
// bye's player), else unknown. A second chance's first round is fed by the flight
// before, whose losers the view does not guess.
function bracket(d, flight) {
  const who = names(d);
  const rounds = d.rounds.filter((r) => (r.flight || 1) === flight).map((r) => r.round);
  const count = rounds.length ? Math.max(...rounds) : 0;
  const pairings = new Map(d.pairings.filter((p) => (p.flight || 1) === flight).map((p) => [p.key, p]));
  const byes = new Map(d.byes.map((b) => [b.key, b.entrant]));
  const columns = [];
  for (let r = 1; r <= count; r++) {
    const column = [];
    for (let i = 1; i <= 2 ** (count - r); i++) {
      const key = keyOf(flight, r, i);
      const p = pairings.get(key);
      if (p) { column.push({ key, round: r, pairing: p, sides: [p.player_a, p.player_b] }); continue; }
      if (byes.has(key)) { column.push({ key, round: r, bye: true, sides: [byes.get(key), 0] }); continue; }
      const fed = (j) => {
        if (r === 1) return 0;
        const before = columns[r - 2][2 * (i - 1) + j];
        if (before.bye) return before.sides[0];
        return before.pairing && before.pairing.state === DECIDED ? before.pairing.winner : 0;
      };
      column.push({ key, round: r, sides: [fed(0), fed(1)] });
    }
    columns.push(column);
  }
  return { flight, columns, who };
}

function roundName(round, count) {
  const left = count - round;
  if (left === 0) return t("draw-final");
  if (left === 1) return t("draw-semi-finals");
  if (left === 2) return t("draw-quarter-finals");
  return t("page-round-heading", { round });
}

// A match's box: both names, the score, the winner marked, a link to it live.
function box(m, who) {
  const p = m.pairing;
  const line = (side) => {
    const entrant = m.sides[side];
    const won = p && p.state === DECIDED && p.winner && p.winner === entrant;
    const name = entrant ? who.get(entrant) || `#${entrant}` : m.bye ? t("draw-bye") : "…";
    const pts = p && (p.state === DECIDED || p.state === PLAYING) ? String(side ? p.score_b : p.score_a) : "";
    return el("div", { class: `who${won ? " win" : ""}${entrant ? "" : " none"}`, ...(won ? { "data-winner": "" } : {}) },
      el("span", { class: "name" }, name), el("span", { class: "pts" }, pts));
  };
  const meta = p ? [p.table ? t("draw-table", { table: p.table }) : "", p.unplayed ? t("draw-unplayed") : "",
    p.state === PLAYING ? t("draw-playing") : ""].filter(Boolean).join(" · ") : "";
  const attrs = { class: "match", "data-key": m.key };
  const inner = [el("div", { class: "key" }, m.key, meta ? ` · ${meta}` : ""), line(0), line(1)];
  if (p && p.match_id) return el("a", { ...attrs, href: `#/m/${encodeURIComponent(p.match_id)}` }, ...inner);
  return el("div", attrs, ...inner);
}

function bracketView(d, flight) {
  const b = bracket(d, flight);
  const count = b.columns.length;
  const champion = d.placings.find((p) => (p.flight || 1) === flight && p.place === 1);
  return el("section", { class: "flight", "data-flight": FLIGHTS[flight] },
    el("h2", {}, t(FLIGHT_WORDS[flight]), champion ? el("span", { class: "champion" }, ` · ${t("draw-champion", { name: champion.name })}`) : ""),
    el("div", { class: "scroll bracket-box", tabindex: "0", role: "region", "aria-label": t(FLIGHT_WORDS[flight]) },
      el("div", { class: "bracket" }, ...b.columns.map((column, r) => el("div", { class: "column", "data-round": String(r + 1) },
        el("h3", {}, roundName(r + 1, count)),
        el("div", { class: "slots" }, ...column.map((m) => el("div", { class: "slot" }, box(m, b.who)))))))));
}

const flightsOf = (d) => [...new Set(d.rounds.map((r) => r.flight || 1))].sort();

// ---------------------------------------------------------------- round robin, Swiss

function standingsTable(d) {
  const heads = ["draw-col-place", "draw-col-name", "draw-col-played", "draw-col-won-lost", "draw-col-score", "draw-col-buchholz", "draw-col-sb"];
  return el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": t("draw-standings") },
    el("table", { class: "results standings" }, el("caption", { class: "sr-only" }, t("draw-standings")),
      el("thead", {}, el("tr", {}, ...heads.map((k) => el("th", { scope: "col" }, t(k))))),
      el("tbody", {}, ...d.standings.map((s) => el("tr", { "data-entrant": String(s.entrant) },
        el("td", {}, String(s.place)), el("td", {}, s.name), el("td", {}, String(s.played)),
        el("td", {}, `${s.wins}–${s.losses}`), el("td", {}, halves(s.score_halves)),
        el("td", {}, halves(s.buchholz_halves)), el("td", {}, quarters(s.sonneborn_berger_quarters)))))));
}

function result(p, who) {
  if (p.state !== DECIDED) return p.state === PLAYING ? t("draw-playing") : "";
  const winner = p.winner ? who.get(p.winner) : t("draw-drawn");
  return `${p.score_a}–${p.score_b} · ${winner}${p.unplayed ? ` · ${t("draw-unplayed")}` : ""}`;
}

// Each round's pairings (latest first on the screen; in order on paper), with its byes.
function pairingsTables(d, latestFirst = true) {
  const who = names(d);
  const rounds = [...new Set(d.pairings.map((p) => p.round))].sort((x, y) => (latestFirst ? y - x : x - y));
  return rounds.map((r) => {
    const start = (d.rounds.find((x) => x.round === r) || {}).start_ms;
    const byes = d.byes.filter((b) => /^\w(\d+)-/.exec(b.key)[1] === String(r)).map((b) => who.get(b.entrant));
    return el("section", { class: "pairings", "data-round": String(r) },
      el("h3", {}, t("draw-pairings", { round: r }), start ? ` · ${time(start)}` : ""),
      el("table", { class: "results" }, el("tbody", {}, ...d.pairings.filter((p) => p.round === r).sort((x, y) => x.index - y.index)
        .map((p) => el("tr", { "data-key": p.key },
          el("td", { class: "table" }, p.table || "–"),
          el("td", {}, p.match_id ? el("a", { href: `#/m/${encodeURIComponent(p.match_id)}` }, `${p.name_a} – ${p.name_b}`) : `${p.name_a} – ${p.name_b}`),
          el("td", { class: "score" }, result(p, who)))))),
      byes.length ? el("p", { class: "byes" }, t("draw-byes", { names: byes.join(", ") })) : "");
  });
}

// ---------------------------------------------------------------- search, proof

// A player's path: every match he played or waits for, in order, with its result.
function pathOf(d, entrant) {
  const who = names(d);
  const boxes = d.plan && d.plan.format === KNOCKOUT
    ? flightsOf(d).flatMap((f) => bracket(d, f).columns.flat())
    : [...d.pairings.map((p) => ({ key: p.key, round: p.round, pairing: p, sides: [p.player_a, p.player_b] })),
      ...d.byes.map((b) => ({ key: b.key, round: Number(/^\w(\d+)-/.exec(b.key)[1]), bye: true, sides: [b.entrant, 0] }))];
  return boxes.filter((m) => m.sides.includes(entrant)).map((m) => {
    const p = m.pairing;
    const other = m.sides[0] === entrant ? m.sides[1] : m.sides[0];
    const against = other ? who.get(other) : "…";
    let words;
    if (m.bye) words = t("draw-path-bye");
    else if (!p) words = t("draw-path-waiting", { name: against });
    else if (p.state === DECIDED) {
      const mine = p.player_a === entrant ? [p.score_a, p.score_b] : [p.score_b, p.score_a];
      words = t(p.winner === entrant ? "draw-path-won" : p.winner ? "draw-path-lost" : "draw-path-drawn", { name: against, score: `${mine[0]}–${mine[1]}` });
    } else if (p.state === PLAYING) words = t("draw-path-playing", { name: against, table: p.table || "–" });
    else words = t("draw-path-waiting", { name: against });
    const item = el("li", { "data-key": m.key }, el("span", { class: "key" }, m.key), " ", words);
    return p && p.match_id ? el("li", { "data-key": m.key }, el("a", { href: `#/m/${encodeURIComponent(p.match_id)}` }, m.key), " ", words) : item;
  });
}

function searchBox(getDraw) {
  const input = el("input", { type: "search", placeholder: t("draw-search-placeholder"), "aria-label": t("draw-search-label") });
  const out = el("div", { class: "paths", "aria-live": "polite" });
  const show = () => {
    const d = getDraw(), q = fold(input.value.trim());
    if (!d || !q) { out.replaceChildren(); return; }
    const found = d.entrants.filter((e) => e.details && fold(e.details.name).includes(q));
    out.replaceChildren(...(found.length ? found.map((e) => el("div", { class: "path", "data-entrant": String(e.number) },
      el("h3", {}, e.details.name), el("ol", {}, ...pathOf(d, e.number))))
      : [el("p", {}, t("draw-search-none", { query: input.value.trim() }))]));
  };
  input.addEventListener("input", show);
  const form = el("form", { class: "search", role: "search" }, input);
  form.addEventListener("submit", (event) => event.preventDefault());
  return { node: form, out, show };
}

async function downloadLog(id) {
  const lines = [];
  for await (const { line } of call("/baffle.v1.Draws/ExportDrawLog", { tournament_id: id })) lines.push(line);
  const link = el("a", { href: URL.createObjectURL(new Blob([lines.join("\n") + "\n"], { type: "application/jsonl" })), download: `${id}-draw.jsonl` });
  link.click();
  URL.revokeObjectURL(link.href);
}

function proof(d) {
  const button = el("button", { type: "button" }, t("draw-proof-download"));
  button.addEventListener("click", () => downloadLog(d.tournament_id));
  return el("section", { class: "proof" }, el("h2", {}, t("draw-proof-title")),
    el("p", { class: "verify" }, t("draw-proof-commitment", { commitment: d.commitment })),
    el("p", { class: "verify seed" }, d.seed ? t("draw-proof-seed", { seed: d.seed }) : t("draw-proof-seed-hidden")),
    el("p", { class: "verify" }, t("draw-proof-log", { length: d.log_length, head: d.head })),
    el("p", {}, t("draw-proof-verify")), button);
}

// The bracket of every flight, or the standings and pairings.
function drawBody(d) {
  if (d.plan && d.plan.format === KNOCKOUT) return flightsOf(d).map((f) => bracketView(d, f));
  return [el("h2", {}, t("draw-standings")), standingsTable(d), ...pairingsTables(d)];
}

// ---------------------------------------------------------------- the views

// `#/d/<id>` (wall: `#/wd/<id>`): followed live through WatchDraw, reconnecting as the
// page's other streams do. Returns what the router stops when the reader leaves.
export function showDraw(id, wall, { view, title, keepFollowing }) {
  const stop = new AbortController();
  let latest = null;
  if (wall) document.body.classList.add("wall", "wall-draw");
  const body = el("div", { class: "draw-body" });
  const search = searchBox(() => latest);
  const enc = encodeURIComponent(id);
  const links = el("nav", { class: "views" },
    el("a", { href: `#/t/${enc}` }, t("view-matches")),
    el("a", { href: `#/d/${enc}`, ...(wall ? {} : { "aria-current": "page" }) }, t("draw-view")),
    el("a", { href: `#/wd/${enc}`, ...(wall ? { "aria-current": "page" } : {}) }, t("draw-wall")),
    el("a", { href: `#/print/${enc}/draw` }, t("draw-print-draw")),
    el("a", { href: `#/print/${enc}/scoresheets` }, t("draw-print-scoresheets")),
    el("a", { href: `#/print/${enc}/results` }, t("draw-print-results")));
  const proofBox = el("div", {});
  view.replaceChildren(...(wall ? [body] : [links, search.node, search.out, body, proofBox]));
  keepFollowing(stop.signal, async (signal) => {
    try {
      for await (const d of call("/baffle.v1.Draws/WatchDraw", { tournament_id: id }, signal)) {
        latest = d;
        title.textContent = t("draw-title", { name: d.name || id });
        body.replaceChildren(...drawBody(d));
        if (!wall) { proofBox.replaceChildren(proof(d)); search.show(); }
        setStatus(t("status-live"), false);
      }
    } catch (e) {
      // No draw: nothing to follow, and nothing to retry.
      if (!(e instanceof GrpcError && e.code === NOT_FOUND)) throw e;
      body.replaceChildren(el("p", {}, t("draw-none")));
      setStatus("", false);
      stop.abort();
    }
  });
  return { stop, timer: 0 };
}

// ---------------------------------------------------------------- on paper

// The round of the scoresheets: the started rounds' matches not decided, else the last
// started round's.
function currentPairings(d) {
  const open = d.pairings.filter((p) => p.state !== DECIDED && d.rounds.some((r) => (r.flight || 1) === (p.flight || 1) && r.round === p.round && r.started));
  if (open.length) return open;
  const started = d.rounds.filter((r) => r.started).map((r) => r.round);
  const last = started.length ? Math.max(...started) : 1;
  return d.pairings.filter((p) => p.round === last);
}

function scoresheet(d, p) {
  const length = (d.plan && d.plan.length) || 1;
  const games = Math.min(Math.max(2 * length - 1, 5), 15);
  const cols = ["sheet-game", "sheet-points-a", "sheet-points-b", "sheet-score-a", "sheet-score-b", "sheet-cube"];
  return el("section", { class: "sheet", "data-key": p.key },
    el("h2", {}, d.name || d.tournament_id),
    el("table", { class: "sheet-head" }, el("tbody", {},
      el("tr", {}, el("th", {}, t("sheet-match")), el("td", {}, `${p.match_id || "–"} (${p.key})`),
        el("th", {}, t("sheet-table")), el("td", {}, p.table || "–")),
      el("tr", {}, el("th", {}, t("sheet-length")), el("td", {}, t("sheet-points", { length })),
        el("th", {}, t("sheet-start")), el("td", {}, p.start_ms ? `${date(p.start_ms)} ${time(p.start_ms)}` : "–")),
      el("tr", {}, el("th", {}, "A"), el("td", { class: "player" }, p.name_a), el("th", {}, "B"), el("td", { class: "player" }, p.name_b)))),
    el("table", { class: "grid" },
      el("thead", {}, el("tr", {}, ...cols.map((k) => el("th", {}, t(k, { a: p.name_a, b: p.name_b }))))),
      el("tbody", {}, ...Array.from({ length: games }, (_, g) => el("tr", {}, el("td", {}, String(g + 1)), ...cols.slice(1).map(() => el("td", {})))))),
    el("p", {}, t("sheet-winner")),
    el("div", { class: "signatures" }, ...[p.name_a, p.name_b, t("sheet-director")].map((who) =>
      el("div", { class: "signature" }, el("div", { class: "line" }), t("sheet-signature", { name: who })))));
}

function decidedTable(d) {
  const who = names(d);
  const rows = d.pairings.filter((p) => p.state === DECIDED).sort((x, y) => x.key.localeCompare(y.key, undefined, { numeric: true }));
  if (!rows.length) return el("p", {}, t("print-decided-none"));
  return el("table", { class: "results" },
    el("thead", {}, el("tr", {}, ...["draw-col-match", "results-table", "results-players", "results-score", "results-winner"].map((k) => el("th", { scope: "col" }, t(k))))),
    el("tbody", {}, ...rows.map((p) => el("tr", { "data-key": p.key },
      el("td", {}, p.key), el("td", {}, p.table || "–"), el("td", {}, `${p.name_a} – ${p.name_b}`),
      el("td", {}, `${p.score_a}–${p.score_b}`), el("td", {}, p.winner ? who.get(p.winner) : t("draw-drawn"))))));
}

// The draw sheet on paper: each flight's rounds as lists (a tree does not fit A4 past a
// few rounds), each match with its table and start time; or a round robin's pairings.
function drawSheet(d) {
  if (!(d.plan && d.plan.format === KNOCKOUT)) return pairingsTables(d, false);
  return flightsOf(d).map((f) => {
    const b = bracket(d, f);
    return el("section", { class: "flight" }, el("h2", {}, t(FLIGHT_WORDS[f])),
      ...b.columns.map((column, r) => {
        const start = (d.rounds.find((x) => (x.flight || 1) === f && x.round === r + 1) || {}).start_ms;
        return el("section", { class: "print-round" }, el("h3", {}, roundName(r + 1, b.columns.length), start ? ` · ${time(start)}` : ""),
          el("table", { class: "results" }, el("tbody", {}, ...column.map((m) => {
            const p = m.pairing;
            const side = (i) => (m.sides[i] ? b.who.get(m.sides[i]) : m.bye ? t("draw-bye") : "…");
            return el("tr", { "data-key": m.key }, el("td", {}, m.key), el("td", { class: "table" }, p && p.table ? p.table : "–"),
              el("td", {}, p && p.start_ms ? time(p.start_ms) : ""), el("td", {}, `${side(0)} – ${side(1)}`),
              el("td", {}, p ? result(p, b.who) : ""));
          }))));
      }));
  });
}

// `#/print/<id>/<what>`: a page for A4 paper, black on white, without the page's chrome.
export function showPrint(id, what, { view, title }) {
  const stop = new AbortController();
  document.body.classList.add("print");
  (async () => {
    const d = await drawOf(id);
    if (stop.signal.aborted) return;
    if (!d) { view.replaceChildren(el("p", {}, t("draw-none"))); return; }
    const name = d.name || id;
    const heading = { draw: "print-title-draw", scoresheets: "print-title-scoresheets", results: "print-title-results" }[what] || "print-title-draw";
    title.textContent = t(heading, { name });
    // The title is also the printed PDF's.
    document.title = t(heading, { name });
    const button = el("button", { type: "button", class: "no-print" }, t("print-button"));
    button.addEventListener("click", () => window.print());
    const top = el("div", { class: "print-head" }, el("h1", {}, t(heading, { name })),
      el("p", {}, [d.tournament_id, d.drawn_at_ms ? date(d.drawn_at_ms) : ""].filter(Boolean).join(" · ")));
    let body;
    if (what === "scoresheets") body = currentPairings(d).map((p) => scoresheet(d, p));
    else if (what === "results") {
      body = [el("h2", {}, t("print-decided")), decidedTable(d)];
      if (d.standings.length) body.push(el("h2", {}, t("draw-standings")), standingsTable(d));
      d.placings.filter((p) => p.place).sort((x, y) => x.flight - y.flight || x.place - y.place).forEach((p, i, all) => {
        if (!i || all[i - 1].flight !== p.flight) body.push(el("h3", {}, t(FLIGHT_WORDS[p.flight || 1])));
        body.push(el("p", { class: "placing" }, t("print-placing", { place: p.place, name: p.name })));
      });
    } else body = [...drawSheet(d), el("p", { class: "proof-line" }, t("draw-proof-commitment", { commitment: d.commitment })),
      d.seed ? el("p", { class: "proof-line" }, t("draw-proof-seed", { seed: d.seed })) : "", el("p", {}, t("draw-proof-verify"))];
    view.replaceChildren(button, what === "scoresheets" ? "" : top, ...body);
    view.dataset.printed = what;
    setStatus("", false);
  })().catch((e) => setStatus(t("status-unreachable", { error: e.message }), true));
  return { stop, timer: 0 };
}
