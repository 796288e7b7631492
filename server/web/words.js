// The page's words: Greek and English from the baffle-i18n catalogue, the console's
// catalogue too (i18n/locales/*.ftl). The server compiles each locale to JSON
// (/i18n/<tag>.json, baffle_i18n::page), which `format` below interprets; with it come
// the proto's enum tables, value → message id, so a PauseReason's words follow the
// proto's numbers. Dates, times and numbers are the browser's Intl in the same locale.

export const LANGUAGES = ["el", "en"];
const KEY = "baffle-lang";

let catalogue = { locale: "el", messages: {}, enums: {} };
let plurals = new Intl.PluralRules("el");
let numbers = new Intl.NumberFormat("el");

// The reader's own choice if he made one, else the first of navigator.languages that
// baffle speaks, else the server's pick from Accept-Language (<html lang>), else Greek.
export function chosenLanguage() {
  const kept = localStorage.getItem(KEY);
  if (LANGUAGES.includes(kept)) return kept;
  for (const tag of navigator.languages || [navigator.language]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  const served = document.documentElement.lang;
  return LANGUAGES.includes(served) ? served : "el";
}

// Loads `lang`'s catalogue; `remember` keeps it as the reader's choice.
export async function useLanguage(lang, remember = false) {
  const response = await fetch(`/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  catalogue = await response.json();
  plurals = new Intl.PluralRules(lang);
  numbers = new Intl.NumberFormat(lang);
  document.documentElement.lang = lang;
  if (remember) localStorage.setItem(KEY, lang);
}

export const language = () => catalogue.locale;

function shown(v) {
  return typeof v === "number" ? numbers.format(v) : String(v);
}

// A compiled pattern with `args`: strings, {var}, and {sel, variants, def} choices (an
// exact number key, then the number's plural category, then a string key, then the
// default), as baffle_i18n::page documents and its tests check against Fluent.
function format(pattern, args) {
  if (typeof pattern === "string") return pattern;
  return pattern.map((part) => {
    if (typeof part === "string") return part;
    if (part.var !== undefined) return part.var in args ? shown(args[part.var]) : `{$${part.var}}`;
    const value = args[part.sel];
    const keys = part.variants.map(([key]) => key);
    let i = -1;
    if (typeof value === "number") {
      i = keys.findIndex((k) => Number(k) === value && k.trim() !== "");
      if (i < 0) i = keys.indexOf(plurals.select(value));
    } else if (value !== undefined) {
      i = keys.indexOf(String(value));
    }
    return format(part.variants[i < 0 ? part.def : i][1], args);
  }).join("");
}

// The message `id` with `args`; an unknown id shows as itself.
export function t(id, args = {}) {
  const pattern = catalogue.messages[id];
  return pattern === undefined ? id : format(pattern, args);
}

// The words of value `value` of the proto enum `name`, or `fallback` for a value this
// catalogue does not know (a newer server).
export function enumWords(name, value, args = {}, fallback = "") {
  const id = (catalogue.enums[name] || {})[value];
  return id ? t(id, args) : fallback;
}

export const number = (n) => numbers.format(n);
export const time = (ms) => new Intl.DateTimeFormat(catalogue.locale, { hour: "2-digit", minute: "2-digit" }).format(new Date(ms));
export const date = (ms) => new Intl.DateTimeFormat(catalogue.locale, { dateStyle: "long" }).format(new Date(ms));
// A tournament's days ("YYYY-MM-DD", either may be empty) as the locale writes a range.
export function days(first, last) {
  const day = (s) => (/^\d{4}-\d{2}-\d{2}$/.test(s) ? new Date(`${s}T12:00:00`) : null);
  const [a, b] = [day(first), day(last || first)];
  if (!a) return "";
  const f = new Intl.DateTimeFormat(catalogue.locale, { day: "numeric", month: "short", year: "numeric" });
  return b && b > a ? f.formatRange(a, b) : f.format(a);
}

// A rule cited in its own regulation's numbering, in the reader's language.
export function rule(article) {
  const chess = /^(chess|FIDE Laws) /.exec(article);
  const bare = article.replace(/^(backgammon|chess|FIDE Laws|backgammon rules) /, "");
  return t(chess ? "rule-chess" : "rule-backgammon", { article: bare });
}

// A refusal from the server ("… (backgammon rules 4.4 (iv))", "… (FIDE Laws 6.2)") with
// its article cited in the reader's language; other errors as they are.
export function refusal(message) {
  const bare = message.replace(/ \(gRPC status \d+\)$/, "");
  const m = /^(.*) \((backgammon rules|FIDE Laws) (.+)\)$/s.exec(bare);
  if (!m) return message;
  return t("refusal", { message: m[1], rule: rule(`${m[2] === "FIDE Laws" ? "chess" : "backgammon"} ${m[3]}`) });
}

// ---------------------------------------------------------------- the events, in words

const WIN_KINDS = { single: 1, gammon: 2, backgammon: 3 };
const REASONS = {
  game_over: 1, break: 2, director_called: 3, director_stopped: 4, dice_picked_up_early: 5,
  illegal_move_replay: 6, result_settled: 7, invalid_roll: 8, roll_disputed: 9, awaiting_links: 10,
};
const ENDS = { points: 1, timeout: 2, penalty_points: 3, forfeit: 4, director_decision: 5 };

// A span of ms as the clocks show it (as Rust's Millis: "m:ss.t", "h:mm:ss.t").
function span(ms) {
  const sign = ms < 0 ? "-" : "";
  const a = Math.abs(ms || 0);
  const [h, m, sec, tenth] = [Math.floor(a / 3600000), Math.floor(a / 60000) % 60, Math.floor(a / 1000) % 60, Math.floor(a / 100) % 10];
  const ss = String(sec).padStart(2, "0");
  return h > 0 ? `${sign}${h}:${String(m).padStart(2, "0")}:${ss}.${tenth}` : `${sign}${m}:${ss}.${tenth}`;
}

// A director's action in words (the ruling's article is said beside it), with what it
// changed when the record says so (`effect`: the score or a clock, before and after).
function action(a, name, effect) {
  const said = (() => {
    switch (a.action) {
      case "warning": return t("ruling-warning", { name: name(a.side) });
      case "award_points": return t("ruling-award-points", { name: name(a.to), points: a.points });
      case "deduct_points": return t("ruling-deduct-points", { name: name(a.from), points: a.points });
      case "correct_score": return t("ruling-correct-score");
      case "correct_result": return t("ruling-correct-result", { name: name(a.winner), game: a.game });
      case "adjust_time": return t("ruling-adjust-time", { name: name(a.side), delta: (a.delta >= 0 ? "+" : "") + span(a.delta) });
      case "set_time": return t("ruling-set-time", { name: name(a.side) });
      case "confirm_result": return t("ruling-confirm");
      case "forfeit_match": return t("ruling-forfeit-match", { name: name(a.loser) });
      case "reschedule": return a.start === undefined ? t("ruling-postpone")
        : t("ruling-reschedule", { time: new Date(a.start).toISOString().slice(11, 16) + " UTC" });
      default: return t("ruling-other");
    }
  })();
  if (!effect) return said;
  const score = (v) => `${(v || [])[0] || 0}–${(v || [])[1] || 0}`;
  const [before, after] = effect.of === "score" ? [score(effect.before), score(effect.after)]
    : effect.of === "clock" ? [span(effect.before), span(effect.after)] : [null, null];
  if (before === null) return said;
  return before === after ? t("ruling-effect-unchanged", { action: said, value: after })
    : t("ruling-effect", { action: said, before, after });
}

// What `e` (an Event of Watch: seq, kind, JSON body) says, for a spectator of match `s`;
// null for the log's bookkeeping (dice draws, devices), which a spectator does not need.
export function eventWords(e, s) {
  let b;
  try { b = JSON.parse(e.body); } catch { return null; }
  const name = (side) => side === "B" ? s.player_b : s.player_a;
  const color = (c) => t(c === "black" || c === "Black" ? "color-black" : "color-white");
  const dice = (d) => Array.isArray(d) ? d.join("-") : String(d);
  switch (e.kind) {
    case "bg.checked_in": return t("event-checked-in", { name: name(b.side) });
    case "bg.lateness_point": return t("event-lateness-point", { name: name(b.late), other: name(b.late === "A" ? "B" : "A") });
    case "bg.break_started": return t("event-break-started", { name: name(b.side), until: time(b.until) });
    case "bg.break_ended": return t("event-break-ended");
    case "bg.game_started": return t("event-game-started", { number: b.number, crawford: b.crawford ? "yes" : "no" });
    case "bg.opening_throw": return t("event-opening-throw", { nameA: s.player_a, a: b.throw[0], nameB: s.player_b, b: b.throw[1] });
    case "bg.rolled": return t("event-rolled", { name: name(b.side), dice: dice(b.dice) });
    case "bg.roll_invalid": return t("event-roll-invalid", { name: name(b.side) });
    case "bg.doubled": return t("event-doubled", { name: name(b.side), value: b.value });
    case "bg.taken": return t("event-taken", { name: name(b.side) });
    case "bg.passed": return t("event-passed", { name: name(b.side) });
    case "bg.pressed_back": return t("event-pressed-back", { name: name(b.side) });
    case "bg.requested": return t(b.what === "clock" ? "event-requested-clock" : "event-requested-observer", { name: name(b.side) });
    case "bg.appealed": return t("event-appealed", { name: name(b.side), ruling: b.ruling });
    case "bg.pressed": return t("event-pressed", { name: name(b.side) });
    case "bg.moved": return t("event-moved", { name: name(b.side), play: b.play });
    case "bg.game_ended": return t("event-game-ended", { name: name(b.winner), points: b.points, kind: enumWords("WinKind", WIN_KINDS[b.result], {}, b.result) });
    case "bg.paused": return t("event-paused", { reason: enumWords("PauseReason", REASONS[b.reason], {}, b.reason) });
    case "bg.resumed": return t("event-resumed");
    case "bg.delay_restarted": return t("event-delay-restarted");
    case "bg.wait_out_delay": return t("event-wait-out-delay", { name: name(b.side) });
    case "bg.turn_replayed": return t("event-turn-replayed", { name: name(b.offender) });
    case "bg.time_expired": return t("event-time-expired", { name: name(b.side) });
    case "bg.ruling": return t("event-ruling", { rule: rule(b.ruling.article), action: action(b.action, name, b.effect) });
    case "bg.length_corrected": return t("event-length-corrected", { length: b.length });
    case "bg.length_kept": return t("event-length-kept");
    case "bg.match_ended": return t("event-match-ended", { name: name(b.winner), how: enumWords("MatchEndKind", ENDS[b.how], {}, b.how) });
    case "bg.match_undecided": return t("event-match-undecided");
    case "bg.match_resumed": return t("event-match-resumed");
    case "dice.player_commit": return t("event-seed-committed", { name: name(b.side) });
    case "dice.player_reveal": return t("event-seed-revealed", { name: name(b.side) });
    case "dice.reveal": return t("event-dice-revealed");
    // The deadline for the players' reveals; with a reason, the director's extension.
    case "dice.reveal_due": return b.reason ? t("event-reveal-extended", { rule: rule(b.article || ""), time: time(b.by) })
      : t("event-reveal-due", { time: time(b.by) });
    // Live dice: the links' deadline moved (the director's extension, a server outage).
    case "dice.link_due": return t("event-links-due", { time: time(b.by), reason: b.reason });
    case "match.renamed": return t("event-renamed", { was: b.was, name: b.name });
    case "table.restart": return t(b.credit_ms === b.charged_ms ? "event-restart" : "event-restart-partial",
      { down: span(b.down_ms), charged: span(b.charged_ms), credit: span(b.credit_ms), name: name(b.side) });
    case "chess.arrived": return t("event-chess-arrived", { color: color(b.color) });
    case "chess.started": return t("event-chess-started");
    case "chess.pressed": return t("event-chess-pressed", { color: color(b.color) });
    case "chess.flag": return t("event-chess-flag", { color: color(b.color) });
    case "chess.paused": return t("event-chess-paused");
    case "chess.resumed": return t("event-chess-resumed");
    case "chess.move_made": return t("event-chess-move", { color: color(b.color) });
    case "chess.illegal_move": return t("event-chess-illegal-move", { color: color(b.color) });
    case "chess.quickplay_claim": return t("event-chess-quickplay-claim", { color: color(b.color) });
    case "chess.ended": return t("event-chess-ended", { result: chessResult(b.result) });
    case "chess.ruling": return t("event-chess-ruling", { rule: rule(`chess ${b.article || (b.ruling && b.ruling.article) || ""}`) });
    case "chess.next_game": return t("event-chess-next-game", { game: b.game });
    default: return null;
  }
}

function chessResult(r) {
  if (!r) return "";
  const outcomes = { white_wins: 1, black_wins: 2, draw: 3, both_lose: 4 };
  return enumWords("ChessOutcome", outcomes[r.outcome], {}, String(r.outcome || ""));
}

// The page's words, for anyone (and the browser test) to check against the catalogue.
window.baffleWords = { t, enumWords, language, eventWords, refusal };
