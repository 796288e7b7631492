// The page's words: Greek and English from the baffle-i18n catalogue, the console's
// catalogue too (i18n/locales/*.ftl). The server compiles each locale to JSON
// (/i18n/<tag>.json, baffle_i18n::page), which `format` below interprets; with it come
// the proto's enum tables, value → message id, so a PauseReason's words follow the
// proto's numbers. Dates, times and numbers are the browser's Intl in the same locale.

import { enums } from "./schema.js";

const SIDE_B = enums.Side.SIDE_B;

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

// Words the server computed (a Words message: a catalogue id and its arguments,
// baffle_i18n::describe) in the reader's language, for match `s`: a side is the name the
// match has for it now, an instant a time of day, a nested Words said first.
export function said(w, s) {
  const args = {};
  for (const a of w.args) {
    if (a.words !== undefined) args[a.name] = said(a.words, s);
    else if (a.side !== undefined) args[a.name] = a.side === SIDE_B ? s.player_b : s.player_a;
    else if (a.time_ms !== undefined) args[a.name] = time(a.time_ms);
    else if (a.number !== undefined) args[a.name] = a.number;
    else args[a.name] = a.text === undefined ? "" : a.text;
  }
  return t(w.id, args);
}

// What `e` (an Event of Watch, with the server's words) says, for a spectator of match
// `s`; null for the log's bookkeeping (dice draws, devices: `detail`), which a
// spectator does not need, and for an event from a server too old to send words.
export function eventWords(e, s) {
  return e.words && !e.words.detail ? said(e.words, s) : null;
}

// The page's words, for anyone (and the browser test) to check against the catalogue.
window.baffleWords = { t, enumWords, language, eventWords, said, refusal };
