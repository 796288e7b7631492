// baffle's live scoreboard: a page served by baffled that follows tournaments and matches
// over gRPC-Web, speaking protobuf. No framework and no build step: what is here is what
// runs. Its modules: wire.js (protobuf and gRPC-Web), words.js (the catalogue, Greek and
// English), dice.js (the dice checked here, a player's seed), player.js (a player's side
// with live dice), board.js, ui.js. This one
// has the chess words, the clock faces (as baffle_proto::faces), the views and the router:
// `#/` tournaments and search, `#/s/<name>` a search, `#/t/<id>` a tournament's matches,
// `#/r/<id>/<round>` its results, `#/w/<id>/<round>` the wall, `#/m/<match>` a match live;
// draw.js has the draw's views (`#/d/`, `#/wd/`, `#/print/`).

import { boardPanel } from "./board.js";
import { decode, encode, call, unary, MatchState, MatchUpdate, Tournament, ListTournamentsResponse,
  ListMatchesResponse, ExportMatchResponse, SIDE_A, SIDE_B } from "./wire.js";
import { t, enumWords, eventWords, useLanguage, chosenLanguage, language, time, refusal, days } from "./words.js";
import { verdicts, followDice, seedPanel, tickDue } from "./dice.js";
import { livePanel, followLive } from "./player.js";
import { checkHead, headLine } from "./heads.js";
import { el, setStatus, announce, fold } from "./ui.js";
import { hasDraw, showDraw, showPrint } from "./draw.js";

const WHITE = 1, WAITING = 1, BETWEEN_GAMES = 3, OVER = 4;

// ---------------------------------------------------------------- chess

// Half points as people write them: 3 → "1½".
function points(half) {
  const whole = Math.floor(half / 2);
  return half % 2 ? (whole ? `${whole}½` : "½") : String(whole);
}

// A player's score: backgammon points, or chess half points.
function score(s, side) {
  if (!s.chess) return String(side === "a" ? s.score_a : s.score_b);
  return points(side === "a" ? s.chess.half_points_a : s.chess.half_points_b);
}

// Which clock side ("a" is White's in chess) player "a" or "b" is on in the game in progress.
function clockOf(s, player) {
  if (!s.chess) return player;
  return (s.chess.white === SIDE_B) !== (player === "b") ? "b" : "a";
}

const nameOf = (s, side) => side === SIDE_B ? s.player_b : s.player_a;
const tag = (cls, text) => el("span", { class: `tag ${cls}` }, text);

function pauseTag(s) {
  if (!s.clock || !s.clock.paused) return "";
  const reason = enumWords("PauseReason", s.clock.paused, {}, "?");
  // Waiting for live dice links: whose, where everyone looks first.
  const w = s.live_dice && s.live_dice.waiting;
  if (w) {
    const missing = [[w.given_a, s.player_a], [w.given_b, s.player_b]].filter(([given]) => !given).map(([, name]) => name);
    const names = new Intl.ListFormat(language(), { type: "conjunction" }).format(missing);
    return tag("paused", t("live-waiting", { names }));
  }
  return tag("paused", t("paused", { reason }));
}

function chessTags(s, out) {
  const c = s.chess;
  const name = (color) => (clockOf(s, "a") === "a") === (color === WHITE) ? s.player_a : s.player_b;
  const laws = c.laws_name ? ` · ${c.laws_name}` : "";
  const category = t("chess-category", { category: c.category });
  out.append(tag("", t("chess-game-of", { game: s.game_number, games: c.games, category }) + laws));
  out.append(tag("", t("chess-white", { name: name(WHITE) })));
  if (c.position) {
    const black = c.position.black_back_rank ? `/${c.position.black_back_rank}` : "";
    out.append(tag("", t("chess-960", { sp: c.position.sp, rank: c.position.back_rank + black })));
  }
  if (c.quickplay_claim && c.quickplay_postponed) out.append(tag("", t("chess-quickplay-postponed")));
  out.append(pauseTag(s));
  const last = c.results[c.results.length - 1];
  if (s.result) {
    const text = s.result.how === "draw" ? t("chess-match-drawn")
      : s.result.how === "double_default" ? t("chess-both-lost-default")
      : t("result-won", { name: nameOf(s, s.result.winner), how: "" }).replace(/ · $/, "");
    out.append(tag("result", text));
  } else if (c.to_move) {
    out.append(tag("turn", t("chess-to-move", { name: name(c.to_move) })));
  } else if (last && s.phase === BETWEEN_GAMES) {
    out.append(tag("result", t("chess-game-result", { game: last.game, result: enumWords("ChessOutcome", last.result.outcome) })));
  }
  return out;
}

// ---------------------------------------------------------------- clock faces

// The server's time as this page estimates it: its own clock shifted by the difference
// seen at the last update.
let skew = 0;
const serverNow = () => Date.now() + skew;
function noteSent(state) { if (state.sent_at_ms) skew = state.sent_at_ms - Date.now(); }

// Both faces of `clock` at `now`: as baffle_proto::faces — the running side's delay runs
// down first, then its main time, until the flag instant the server gave.
function faces(clock, now) {
  if (!clock) return null;
  const moving = clock.paused === 0 && !clock.frozen;
  return [[SIDE_A, clock.a], [SIDE_B, clock.b]].map(([side, c]) => {
    c = c || { main_ms: 0, delay_ms: 0, flagged_at_ms: 0 };
    const flagged = c.flagged_at_ms !== 0;
    const on = moving && clock.running === side && !flagged;
    const face = { main: c.main_ms, delay: c.delay_ms, running: on, flagged };
    if (on) {
      const elapsed = Math.max(0, now - clock.as_of_ms);
      const fromDelay = Math.min(elapsed, face.delay);
      face.delay -= fromDelay;
      face.main = Math.max(0, face.main - (elapsed - fromDelay));
      if (clock.next_flag_at_ms && now >= clock.next_flag_at_ms) {
        face.flagged = true;
        face.main = 0;
      }
    }
    return face;
  });
}

// "13:42", "0:09.5" under ten seconds, "1:30:00".
function mmss(ms) {
  ms = Math.max(0, ms);
  const tenths = Math.floor(ms / 100) % 10;
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
  const ss = String(s % 60).padStart(2, "0");
  if (h > 0) return `${h}:${String(m).padStart(2, "0")}:${ss}`;
  return s < 10 ? `${m}:${ss}.${tenths}` : `${m}:${ss}`;
}

// ---------------------------------------------------------------- views

const view = document.getElementById("view");
const title = document.getElementById("title");

// Where a match stands, as a spectator asks: waiting, checked in, ready, playing, over
// (provisional or confirmed).
function stateWords(s) {
  if (s.result || s.phase === OVER) {
    return t(s.result && s.result.confirmed ? "state-over-confirmed" : "state-over-provisional");
  }
  if (s.phase === WAITING || (!s.phase && !s.game_number)) {
    const here = [0, 1].filter((i) => s.present[i]);
    if (here.length === 2) return t("state-ready");
    if (here.length === 1) return t("state-checked-in", { name: here[0] ? s.player_b : s.player_a });
    return t("state-waiting");
  }
  return t(s.phase === BETWEEN_GAMES ? "state-between-games" : "state-playing");
}

function tags(s) {
  const out = el("div", { class: "tags" });
  if (s.chess) return chessTags(s, out);
  out.append(tag("", t("match-length", { length: s.length })));
  if (s.crawford) out.append(tag("crawford", t("crawford")));
  else if (s.cube_owner === SIDE_A || s.cube_owner === SIDE_B) {
    out.append(tag("cube", t("cube-owned", { value: Math.max(s.cube_value, 1), name: nameOf(s, s.cube_owner) })));
  } else if (s.board) {
    // The board draws the cube in the middle as a real one is, 64 up: the chip says so.
    out.append(tag("cube", t("page-cube-centre", { value: Math.max(s.cube_value, 1) })));
  } else out.append(tag("cube", t("cube-centre", { value: Math.max(s.cube_value, 1) })));
  if (s.board) out.append(tag("pips", t("pips", { a: s.board.pips[0] || 0, b: s.board.pips[1] || 0 })));
  // Penalty points a player received (lateness of the other, a director's award): they
  // are in his favour, so not the red of a pause.
  s.penalty_points.forEach((points, i) => {
    if (points) out.append(tag("award", t("penalty-points", { name: i ? s.player_b : s.player_a, points })));
  });
  (s.warnings || []).forEach((count, i) => {
    if (count) out.append(tag("warning", t("warnings", { name: i ? s.player_b : s.player_a, count })));
  });
  out.append(pauseTag(s));
  if (s.result) {
    const how = enumWords("MatchEndKind", s.result.how_kind, {}, s.result.how);
    out.append(tag("result", t("result-won", { name: nameOf(s, s.result.winner), how })));
  } else if (s.turn) {
    const dice = s.dice.length ? s.dice.join("-") : "";
    out.append(tag("turn", enumWords("TurnPhase", s.turn, { name: nameOf(s, s.turn_side), dice }).trim()));
  }
  return out;
}

// Sets a text only when it changes: a tick that changes nothing costs no style or layout.
function setText(e, text) {
  if (e.textContent !== text) e.textContent = text;
}

// How long until a running face shows something else: its delay's tenths while the
// delay runs, then its main time's tenths under ten seconds, else its seconds.
function untilChange(face) {
  if (face.delay > 0) return 100;
  return face.main < 10_000 ? (face.main % 100) + 1 : (face.main % 1000) + 1;
}

// Writes the clock texts into every element marked with data-clock="<match> <a|b>",
// changing the page only where a face changed; returns how long until the next change
// (at most a second, which is also how soon a reveal's deadline turns "overdue").
function tick(states) {
  const now = serverNow();
  let next = 1000;
  for (const e of document.querySelectorAll("[data-clock]")) {
    const [id, side] = e.dataset.clock.split(" ");
    const s = states.get(id);
    const f = s && faces(s.clock, now);
    if (!f) { setText(e, "–"); continue; }
    const face = f[side === "a" ? 0 : 1];
    const box = e.closest(".side, .row");
    box.classList.toggle("run", face.running);
    box.classList.toggle("flag", face.flagged);
    setText(e, mmss(face.main));
    const delay = box.querySelector(".delay");
    if (delay) setText(delay, face.running && face.delay > 0 ? `+${(face.delay / 1000).toFixed(1)}` : "");
    if (face.running) next = Math.min(next, untilChange(face));
  }
  tickDue(now);
  return next;
}

// Each player's row shows his own clock: in chess, White's is side a of the clock.
function card(s, extra = "") {
  const row = (player, name) => el("div", { class: "row" },
    el("span", { class: "name" }, name),
    el("span", { class: "clock", role: "timer", "aria-label": t("clock-of", { name }), "data-clock": `${s.match_id} ${clockOf(s, player)}` }),
    el("span", { class: "delay" }),
    el("span", { class: "pts" }, score(s, player)));
  return el("a", { class: "card", href: `#/m/${encodeURIComponent(s.match_id)}`, "data-match": s.match_id },
    el("div", { class: "top" },
      el("span", {}, t("card-table-round", { table: s.table || "–", round: s.round })),
      el("span", { class: "score" }, `${score(s, "a")} – ${score(s, "b")}`)),
    extra ? el("div", { class: "meta" }, extra) : "",
    el("div", { class: "meta state" }, stateWords(s)),
    row("a", s.player_a), row("b", s.player_b), tags(s));
}

// Whose side the board is seen from ("a" or "b"), turned by a tap.
let boardViewer = "a";

// A match that records moves as gnubg reads it (Matches.ExportMatch): "mat" or "sgf".
async function exportMatch(id, format) {
  const request = encode([[1, id], [2, format === "sgf" ? 2 : 1]]);
  return unary("/baffle.v1.Matches/ExportMatch", request, ExportMatchResponse);
}
window.baffleExport = async (id, format) => (await exportMatch(id, format)).text;

async function downloadMatch(id, format) {
  const file = await exportMatch(id, format);
  const link = el("a", { href: URL.createObjectURL(new Blob([file.text], { type: "text/plain" })), download: file.file_name });
  link.click();
  URL.revokeObjectURL(link.href);
}

// When this page saw each record of the match it follows arrive live, by the server's
// clock (seq → ms): the time of a record the log keeps none for (a rename, a seed).
const seenLive = new Map();
// Each record's own `at`, read from its JSON once (seq → ms, 0 for none).
const ownTime = new Map();

// The times of `events`, in the reader's locale: a record's own `at`; for one without
// (match.renamed, dice.*), when it arrived live, else "after" the time of the record
// before it — all the log says of it.
function eventTimes(events) {
  let before = 0;
  return events.map((e) => {
    if (!ownTime.has(e.seq)) {
      let own = 0;
      try { own = JSON.parse(e.body).at || 0; } catch { /* no time */ }
      ownTime.set(e.seq, own);
    }
    const at = ownTime.get(e.seq) || seenLive.get(e.seq) || 0;
    const words = at ? time(at) : before ? t("event-after", { time: time(before) }) : "";
    before = at || before;
    return words;
  });
}

// The latest events, in words, newest first, each with its time.
function eventList(s, events) {
  const list = el("ul", { class: "events" });
  const times = eventTimes(events);
  const said = [];
  for (let i = events.length - 1; i >= 0 && said.length < 30; i--) {
    const words = eventWords(events[i], s);
    if (!words) continue;
    said.push(el("li", { "data-seq": events[i].seq }, times[i] ? el("time", {}, times[i]) : "", words));
  }
  list.append(...said);
  return list;
}

// Whether the server draws anything for this match: its dice, or a Chess960 position. A
// plain chess match draws nothing, so it shows no commitment and no players' seeds.
function drawsFromSeed(s) {
  return s.dice_source === "server" && !(s.chess && !s.chess.chess960);
}

function diceLine(s) {
  if (!drawsFromSeed(s) || !s.commitment) return "";
  const [id, args] = verdicts.get(s.match_id) || ["dice-after-match", {}];
  return el("p", { class: "verify" }, t("dice-line", { commitment: s.commitment.slice(0, 16), head: s.head_hash.slice(0, 12), verdict: t(id, args) }));
}

// The board panel last drawn and what it was drawn from: an update that changes nothing
// on the board (a clock, an event) keeps the same nodes.
let drawnBoard = { key: "", node: null };
function board(s, redraw) {
  const key = JSON.stringify([s.match_id, s.board, boardViewer, s.dice, s.turn_side, s.cube_value, s.cube_owner,
    s.crawford, s.player_a, s.player_b, language()]);
  if (drawnBoard.key !== key) {
    drawnBoard = { key, node: boardPanel(s, boardViewer, el, {
      onFlip: () => { boardViewer = boardViewer === "a" ? "b" : "a"; redraw(); },
      onExport: (format) => downloadMatch(s.match_id, format),
    }) };
  }
  return drawnBoard.node;
}

function live(s, events, redraw = () => {}) {
  const moves = (player) => {
    const side = clockOf(s, player) === "a" ? 0 : 1;
    return s.chess ? t("chess-moves", { count: s.chess.moves[side] || 0 }) : "";
  };
  const side = (player, name) => el("div", { class: "side" },
    el("span", { class: "pts" }, score(s, player)),
    el("div", { class: "name" }, name),
    el("div", { class: "big", role: "timer", "aria-label": t("clock-of", { name }), "data-clock": `${s.match_id} ${clockOf(s, player)}` }),
    el("span", { class: "delay" }), el("div", { class: "moves" }, moves(player)));
  return el("div", { class: s.board ? "live with-board" : "live", "data-match": s.match_id },
    el("div", { class: "meta state" }, stateWords(s)),
    side("a", s.player_a),
    el("div", { class: "mid" }, el("span", { class: "score" }, `${score(s, "a")} – ${score(s, "b")}`), tags(s)),
    side("b", s.player_b), s.board ? board(s, redraw) : "",
    // Live dice take no seeds: the panel is the players' chains and a player's controls,
    // above the events so that his buttons are under his thumb, not a scroll away.
    s.live_dice ? livePanel(s, redraw) : "", eventList(s, events), diceLine(s), headLine(s),
    !s.live_dice && drawsFromSeed(s) ? seedPanel(s, events, redraw, serverNow()) : "");
}

// What a screen reader is told of a match when it changes: the score, whose clock runs
// (with both clocks as they stand), a pause, the result.
function spoken(s) {
  const f = faces(s.clock, serverNow());
  const clocks = f ? ` · ${s.player_a} ${mmss(f[clockOf(s, "a") === "a" ? 0 : 1].main)}, ${s.player_b} ${mmss(f[clockOf(s, "b") === "a" ? 0 : 1].main)}` : "";
  const paused = s.clock && s.clock.paused ? ` · ${t("paused", { reason: enumWords("PauseReason", s.clock.paused, {}, "?") })}` : "";
  return `${s.player_a} – ${s.player_b}: ${t("score-of", { a: score(s, "a"), b: score(s, "b") })}${clocks}${paused} · ${stateWords(s)}`;
}

// ---------------------------------------------------------------- following, with resume

// Runs `follow(signal)` until `stop` is aborted, reconnecting after any end or error with
// a growing pause (0.5 s to 5 s). `follow` resumes where the previous one left off.
async function keepFollowing(stop, follow) {
  let pause = 500;
  while (!stop.aborted) {
    try {
      await follow(stop);
      pause = 500;
    } catch (e) {
      if (stop.aborted) return;
      setStatus(`${t("status-reconnecting")} (${e.message})`, true);
    }
    if (stop.aborted) return;
    setStatus(t("status-reconnecting"), true);
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 2, 5000);
  }
}

let current = null; // { stop: AbortController, timer }

function leave() {
  if (!current) return;
  current.stop.abort();
  clearTimeout(current.timer);
  current = null;
}

// Ticks the clocks of `states` each time a face is due to change (not ten times a
// second whatever they show), until the view `following` is left. Returns the tick, to
// call at once after a drawing (a clock that starts is then ticked from its start).
function ticking(states, following = current) {
  const step = () => {
    clearTimeout(following.timer);
    if (following.stop.signal.aborted) return;
    following.timer = setTimeout(step, tick(states));
  };
  step();
  return step;
}

// A tournament's name for people, and its other details. The home list and the search
// are ListTournaments (archived tournaments left out); a tournament opened by its id is
// GetTournament, which answers for an archived one too.
const tournaments = new Map();
async function loadTournaments() {
  const reply = await unary("/baffle.v1.Tournaments/ListTournaments", encode([]), ListTournamentsResponse);
  for (const tour of reply.tournaments) tournaments.set(tour.id, tour);
  return reply.tournaments;
}
async function tournamentName(id) {
  if (!tournaments.has(id)) {
    try {
      tournaments.set(id, await unary("/baffle.v1.Tournaments/GetTournament", encode([[1, id]]), Tournament));
    } catch { /* the id will do */ }
  }
  return (tournaments.get(id) || {}).name || id;
}

async function listMatches(id) {
  return (await unary("/baffle.v1.Tournaments/ListMatches", encode([[1, id]]), ListMatchesResponse)).matches;
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
  current = { stop, timer: 0 };
  const retick = ticking(states);
  keepFollowing(stop.signal, async (signal) => {
    for await (const bytes of call("/baffle.v1.Matches/WatchTournament", encode([[1, id]]), signal)) {
      const s = decode(bytes, MatchState);
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

function showMatch(id) {
  const stop = new AbortController();
  const states = new Map();
  const events = [];
  let nextSeq = 0, said = "", frame = 0;
  title.textContent = id;
  seenLive.clear();
  ownTime.clear();
  // Drawn at most once a frame, from the latest state: an update, its head's signature
  // checked and its dice followed ask for one drawing, not three.
  const draw = () => {
    frame = 0;
    if (stop.signal.aborted || !states.has(id)) return;
    view.replaceChildren(live(states.get(id), events, redraw));
    retick();
  };
  const redraw = () => { if (!frame) frame = requestAnimationFrame(draw); };
  current = { stop, timer: 0 };
  const retick = ticking(states);
  keepFollowing(stop.signal, async (signal) => {
    // Resume after the last event seen: nothing missed, nothing twice.
    const request = encode([[1, id], [2, nextSeq]]);
    // The first update is what the log held already (or missed while reconnecting):
    // when those happened, this page did not see.
    let afterFirst = false;
    for await (const bytes of call("/baffle.v1.Matches/Watch", request, signal)) {
      const u = decode(bytes, MatchUpdate);
      const sent = (u.state && u.state.sent_at_ms) || serverNow();
      for (const e of u.events) {
        if (e.seq < nextSeq) continue;
        events.push(e);
        nextSeq = e.seq + 1;
        if (afterFirst) seenLive.set(e.seq, sent);
      }
      afterFirst = true;
      if (u.state) {
        noteSent(u.state);
        states.set(id, u.state);
        nextSeq = Math.max(nextSeq, u.state.seq);
        title.textContent = `${u.state.player_a} – ${u.state.player_b}`;
        redraw();
        const s = u.state;
        checkHead(s, redraw);
        const key = `${s.score_a}/${s.score_b}/${s.clock && s.clock.running}/${s.clock && s.clock.paused}/${!!s.result}/${!!(s.result && s.result.confirmed)}`;
        if (said && said !== key) announce(spoken(s));
        said = key;
        followDice(s, events, u.events, redraw);
        followLive(s, redraw);
      }
      setStatus(t("status-live"), false);
    }
  });
}

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
  current = { stop, timer: 0 };
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
  current = { stop, timer: 0 };
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
  else if ((kind === "d" || kind === "wd") && id) current = showDraw(key, kind === "wd", { view, title, keepFollowing });
  else if (kind === "print" && id) current = showPrint(key, round, { view, title });
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
