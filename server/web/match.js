// A match live (`#/m/<match>`): both clocks, the score, the board of a match that
// records moves, its events in words with their times, the dice line and a player's
// panels; followed with `Watch` from the last seq seen, so a reconnect misses nothing.

import { boardPanel } from "./board.js";
import { call, unary, enums } from "./wire.js";
import { t, eventWords, language, time } from "./words.js";
import { verdicts, followDice, seedPanel } from "./dice.js";
import { livePanel, followLive } from "./player.js";
import { checkHead, headLine } from "./heads.js";
import { el, setStatus, announce, view, title } from "./ui.js";
import { serverNow, noteSent } from "./clock.js";
import { score, clockOf, stateWords, tags, spoken } from "./card.js";
import { keepFollowing, follow, ticking } from "./follow.js";

// Whose side the board is seen from ("a" or "b"), turned by a tap.
let boardViewer = "a";

// A match that records moves as gnubg reads it (Matches.ExportMatch): "mat" or "sgf".
async function exportMatch(id, format) {
  const { EXPORT_FORMAT_SGF, EXPORT_FORMAT_MAT } = enums.ExportFormat;
  return unary("/baffle.v1.Matches/ExportMatch", { match_id: id, format: format === "sgf" ? EXPORT_FORMAT_SGF : EXPORT_FORMAT_MAT });
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
  follow({ stop, timer: 0 });
  const retick = ticking(states);
  keepFollowing(stop.signal, async (signal) => {
    // Resume after the last event seen: nothing missed, nothing twice.
    const request = { match_id: id, from_seq: nextSeq };
    // The first update is what the log held already (or missed while reconnecting):
    // when those happened, this page did not see.
    let afterFirst = false;
    for await (const u of call("/baffle.v1.Matches/Watch", request, signal)) {
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

export { showMatch };
