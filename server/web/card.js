// A match in words and as a card: its score (backgammon points, chess half points), its
// state as a spectator asks, its tags (length, cube, pips, awards, pause, turn, result),
// the card the lists and the wall show, and what a screen reader is told of a change.

import { enums, SIDE_A, SIDE_B } from "./wire.js";
import { t, enumWords, language, said } from "./words.js";
import { el } from "./ui.js";
import { faces, mmss, serverNow } from "./clock.js";

const WHITE = enums.Color.COLOR_WHITE;
const { MATCH_PHASE_BETWEEN_GAMES: BETWEEN_GAMES } = enums.MatchPhase;
const END = enums.MatchEndKind;

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
    const text = s.result.how_kind === END.MATCH_END_KIND_DRAW ? t("chess-match-drawn")
      : s.result.how_kind === END.MATCH_END_KIND_DOUBLE_DEFAULT ? t("chess-both-lost-default")
      : t("result-won", { name: nameOf(s, s.result.winner), how: "" }).replace(/ · $/, "");
    out.append(tag("result", text));
  } else if (c.to_move) {
    out.append(tag("turn", t("chess-to-move", { name: name(c.to_move) })));
  } else if (last && s.phase === BETWEEN_GAMES) {
    out.append(tag("result", t("chess-game-result", { game: last.game, result: enumWords("ChessOutcome", last.result.outcome) })));
  }
  return out;
}

// ---------------------------------------------------------------- a match

// Where a match stands (the server's MatchState.status), as a spectator asks: waiting,
// checked in (by whom), ready, playing, between games, over (provisional or confirmed).
const STATE_WORDS = {
  MATCH_STATUS_WAITING: "state-waiting", MATCH_STATUS_PRESENT: "state-checked-in",
  MATCH_STATUS_READY: "state-ready", MATCH_STATUS_PLAYING: "state-playing",
  MATCH_STATUS_BETWEEN_GAMES: "state-between-games", MATCH_STATUS_OVER: "state-over-provisional",
  MATCH_STATUS_UNDECIDED: "state-over-provisional", MATCH_STATUS_CONFIRMED: "state-over-confirmed",
  MATCH_STATUS_POSTPONED: "state-waiting",
};
const STATUS_NAMES = Object.fromEntries(Object.entries(enums.MatchStatus).map(([name, v]) => [v, name]));

function stateWords(s) {
  const id = STATE_WORDS[STATUS_NAMES[s.status]];
  if (!id) return "";
  const present = s.chess && !s.present.length ? s.chess.present : s.present;
  return t(id, { name: present[1] && !present[0] ? s.player_b : s.player_a });
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
    const how = enumWords("MatchEndKind", s.result.how_kind);
    out.append(tag("result", t("result-won", { name: nameOf(s, s.result.winner), how })));
  } else if (s.turn && s.turn_words) {
    // The server's words for the turn (baffle_i18n::turn), as every view says it.
    out.append(tag("turn", said(s.turn_words, s)));
  }
  return out;
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

// What a screen reader is told of a match when it changes: the score, whose clock runs
// (with both clocks as they stand), a pause, the result.
function spoken(s) {
  const f = faces(s.clock, serverNow());
  const clocks = f ? ` · ${s.player_a} ${mmss(f[clockOf(s, "a") === "a" ? 0 : 1].main)}, ${s.player_b} ${mmss(f[clockOf(s, "b") === "a" ? 0 : 1].main)}` : "";
  const paused = s.clock && s.clock.paused ? ` · ${t("paused", { reason: enumWords("PauseReason", s.clock.paused, {}, "?") })}` : "";
  return `${s.player_a} – ${s.player_b}: ${t("score-of", { a: score(s, "a"), b: score(s, "b") })}${clocks}${paused} · ${stateWords(s)}`;
}

export { score, clockOf, nameOf, stateWords, tags, card, spoken };
