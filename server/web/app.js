// baffle's live scoreboard: a page served by baffled that follows tournaments and matches
// over gRPC-Web, speaking protobuf. No framework and no build step: what is here is what
// runs. Sections: protobuf wire format, message schemas (from proto/baffle/v1), gRPC-Web
// calls, clock faces (as baffle_proto::faces), views, and the router.

import { boardPanel } from "./board.js";

// ---------------------------------------------------------------- protobuf wire format

const utf8 = new TextDecoder();
const utf8Encode = new TextEncoder();

class Reader {
  constructor(bytes) { this.b = bytes; this.i = 0; }
  done() { return this.i >= this.b.length; }
  varint() {
    let v = 0n, shift = 0n;
    for (;;) {
      if (this.i >= this.b.length) throw new Error("truncated varint");
      const byte = this.b[this.i++];
      v |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return v;
      shift += 7n;
      if (shift > 63n) throw new Error("varint too long");
    }
  }
  bytes() {
    const n = Number(this.varint());
    if (this.i + n > this.b.length) throw new Error("truncated field");
    const out = this.b.subarray(this.i, this.i + n);
    this.i += n;
    return out;
  }
  skip(wireType) {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.i += 8;
    else if (wireType === 2) this.bytes();
    else if (wireType === 5) this.i += 4;
    else throw new Error("unknown wire type " + wireType);
  }
}

// A schema maps field numbers to [name, type, "repeated"?]; a type is "string", "bool",
// "uint", "int64", "enum" or another schema. Unknown fields are skipped, as protobuf
// requires, so newer servers stay readable.
function scalar(r, type) {
  const v = r.varint();
  if (type === "bool") return v !== 0n;
  if (type === "int64") return Number(BigInt.asIntN(64, v));
  return Number(v);
}

function decode(bytes, schema) {
  const out = {};
  for (const [name, type, rep] of Object.values(schema)) {
    out[name] = rep ? [] : type === "string" ? "" : type === "bool" ? false :
      typeof type === "object" ? null : 0;
  }
  const r = new Reader(bytes);
  while (!r.done()) {
    const tag = Number(r.varint());
    const field = tag >>> 3, wireType = tag & 7;
    const spec = schema[field];
    if (!spec) { r.skip(wireType); continue; }
    const [name, type, rep] = spec;
    if (typeof type === "object") {
      const v = decode(r.bytes(), type);
      if (rep) out[name].push(v); else out[name] = v;
    } else if (type === "string") {
      const v = utf8.decode(r.bytes());
      if (rep) out[name].push(v); else out[name] = v;
    } else if (rep && wireType === 2) {
      const packed = new Reader(r.bytes());
      while (!packed.done()) out[name].push(scalar(packed, type));
    } else {
      const v = scalar(r, type);
      if (rep) out[name].push(v); else out[name] = v;
    }
  }
  return out;
}

function varintBytes(n) {
  const out = [];
  let v = BigInt(n);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

// Encodes a flat message of strings, bytes and unsigned integers: all the requests need.
function encode(fields) {
  const out = [];
  for (const [field, value] of fields) {
    if (typeof value === "string" || value instanceof Uint8Array) {
      const s = typeof value === "string" ? utf8Encode.encode(value) : value;
      out.push(...varintBytes((field << 3) | 2), ...varintBytes(s.length), ...s);
    } else if (value) {
      out.push(...varintBytes(field << 3), ...varintBytes(value));
    }
  }
  return new Uint8Array(out);
}

// ---------------------------------------------------------------- schemas (baffle.v1)

const SideClock = {
  1: ["main_ms", "int64"], 2: ["delay_ms", "int64"], 4: ["moves", "uint"],
  5: ["period", "uint"], 9: ["flagged_at_ms", "int64"],
};
const ClockState = {
  1: ["as_of_ms", "int64"], 3: ["a", SideClock], 4: ["b", SideClock],
  5: ["running", "enum"], 6: ["paused", "enum"], 7: ["next_flag_at_ms", "int64"],
  9: ["frozen", "bool"],
};
const ChessResult = { 1: ["outcome", "enum"], 2: ["reason", "enum"] };
const ChessState = {
  1: ["category", "string"], 4: ["games", "uint"], 5: ["white", "enum"], 6: ["started", "bool"],
  7: ["to_move", "enum"], 10: ["flags", { 1: ["color", "enum"], 2: ["at_ms", "int64"] }, "repeated"],
  11: ["quickplay_claim", "enum"],
  12: ["results", { 1: ["game", "uint"], 2: ["white", "enum"], 3: ["result", ChessResult] }, "repeated"],
  13: ["half_points_a", "uint"], 14: ["half_points_b", "uint"],
  15: ["position", { 1: ["sp", "uint"], 2: ["back_rank", "string"], 90: ["black_back_rank", "string"] }],
  17: ["moves", "uint", "repeated"], 90: ["laws_name", "string"], 91: ["quickplay_postponed", "bool"],
};
const MatchResult = { 1: ["winner", "enum"], 2: ["how", "string"], 3: ["confirmed", "bool"] };
const MatchState = {
  1: ["match_id", "string"], 2: ["tournament_id", "string"], 3: ["round", "uint"],
  4: ["table", "string"], 5: ["player_a", "string"], 6: ["player_b", "string"],
  7: ["length", "uint"], 8: ["score_a", "uint"], 9: ["score_b", "uint"],
  10: ["phase", "enum"], 11: ["game_number", "uint"], 12: ["crawford", "bool"],
  14: ["cube_value", "uint"], 15: ["cube_owner", "enum"], 16: ["turn", "enum"],
  17: ["turn_side", "enum"], 18: ["dice", "uint", "repeated"], 19: ["clock", ClockState],
  20: ["result", MatchResult], 21: ["seq", "uint"], 25: ["present", "bool", "repeated"],
  22: ["head_hash", "string"], 23: ["dice_source", "string"], 24: ["commitment", "string"],
  26: ["penalty_points", "uint", "repeated"], 33: ["sent_at_ms", "int64"],
  34: ["chess", ChessState],
  35: ["player_seeds", { 1: ["commitment", "string"], 2: ["seed", "string"] }, "repeated"],
  36: ["player_seeds_required", "bool"],
};
MatchState[60] = ["board", {
  1: ["checkers_a", "uint", "repeated"], 2: ["checkers_b", "uint", "repeated"],
  3: ["pips", "uint", "repeated"], 4: ["borne_off", "uint", "repeated"],
  5: ["gnubg_position_id", "string"], 6: ["moved", "bool"],
  7: ["certain_winner", "enum"], 8: ["gammon_possible", "bool", "repeated"],
}];
const ExportMatchResponse = { 1: ["text", "string"], 2: ["file_name", "string"] };
const Event = { 1: ["seq", "uint"], 2: ["kind", "string"], 3: ["body", "string"] };
const MatchUpdate = { 1: ["events", Event, "repeated"], 2: ["state", MatchState] };
const Tournament = { 1: ["id", "string"], 2: ["name", "string"] };
const ExportLine = { 1: ["line", "string"] };
const ListTournamentsResponse = { 1: ["tournaments", Tournament, "repeated"] };

const SIDE_A = 1, SIDE_B = 2;
const PAUSES = ["", "director", "break", "dispute", "illness", "equipment", "other"];
// The words of proto/src/backgammon_text.rs, with the player's name for the letter.
const TURNS = ["", "opening roll", "to roll", "moves", "doubled"];
const WHITE = 1, BLACK = 2, BETWEEN_GAMES = 3;
const OUTCOMES = ["", "1-0", "0-1", "½-½", "0-0"];

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

function chessTags(s, out) {
  const c = s.chess;
  const name = (color) => (clockOf(s, "a") === "a") === (color === WHITE) ? s.player_a : s.player_b;
  const laws = c.laws_name ? ` · ${c.laws_name}` : "";
  out.append(el("span", { class: "tag" }, `game ${s.game_number} of ${c.games} · ${c.category}${laws}`));
  out.append(el("span", { class: "tag" }, `White: ${name(WHITE)}`));
  if (c.position) {
    const black = c.position.black_back_rank ? `/${c.position.black_back_rank}` : "";
    out.append(el("span", { class: "tag" }, `960 #${c.position.sp} ${c.position.back_rank}${black}`));
  }
  if (c.quickplay_claim && c.quickplay_postponed) {
    out.append(el("span", { class: "tag" }, "quickplay claim: decision postponed"));
  }
  if (s.board) out.append(el("span", { class: "tag pips" }, `pips ${s.board.pips[0] || 0}–${s.board.pips[1] || 0}`));
  if (s.clock && s.clock.paused) out.append(el("span", { class: "tag paused" }, "paused"));
  const last = c.results[c.results.length - 1];
  if (s.result) {
    const text = s.result.how === "draw" ? "match drawn"
      : s.result.how === "double_default" ? "both lost by default"
      : `${s.result.winner === SIDE_A ? s.player_a : s.player_b} won`;
    out.append(el("span", { class: "tag result" }, text));
  } else if (c.to_move) {
    out.append(el("span", { class: "tag turn" }, `${name(c.to_move)} to move`));
  } else if (last && s.phase === BETWEEN_GAMES) {
    out.append(el("span", { class: "tag result" }, `game ${last.game}: ${OUTCOMES[last.result.outcome] || ""}`));
  }
  return out;
}

// ---------------------------------------------------------------- gRPC-Web

class GrpcError extends Error {
  constructor(code, message) { super(`${message} (gRPC status ${code})`); this.code = code; }
}

function frame(message) {
  const out = new Uint8Array(5 + message.length);
  new DataView(out.buffer).setUint32(1, message.length);
  out.set(message, 5);
  return out;
}

function checkStatus(get) {
  const code = get("grpc-status");
  if (code && code !== "0") {
    throw new GrpcError(Number(code), decodeURIComponent(get("grpc-message") || ""));
  }
}

// Calls `path` with `request` and yields each response message's bytes.
async function* call(path, request, signal, headers = {}) {
  const response = await fetch(path, {
    method: "POST",
    body: frame(request),
    signal,
    headers: {
      "content-type": "application/grpc-web+proto",
      "accept": "application/grpc-web+proto",
      "x-grpc-web": "1",
      ...headers,
    },
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  checkStatus((h) => response.headers.get(h));
  const reader = response.body.getReader();
  let buf = new Uint8Array(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    const joined = new Uint8Array(buf.length + value.length);
    joined.set(buf);
    joined.set(value, buf.length);
    buf = joined;
    while (buf.length >= 5) {
      const length = new DataView(buf.buffer, buf.byteOffset).getUint32(1);
      if (buf.length < 5 + length) break;
      const flags = buf[0], body = buf.slice(5, 5 + length);
      buf = buf.slice(5 + length);
      if (flags & 0x80) {
        const trailers = {};
        for (const line of utf8.decode(body).split("\r\n")) {
          const at = line.indexOf(":");
          if (at > 0) trailers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
        }
        checkStatus((h) => trailers[h]);
        return;
      }
      yield body;
    }
  }
}

async function unary(path, request, schema) {
  for await (const bytes of call(path, request)) return decode(bytes, schema);
  throw new Error("no reply");
}


// ---------------------------------------------------------------- dice, verified here

// Every server roll of a finished match, recomputed in this browser from the revealed
// seed: SHA-256 by WebCrypto, ChaCha20 written out below, draws as docs/dice.md says; the
// chain checked record by record as docs/audit-log.md says. Nothing is taken from the
// server but the log itself.

const HEX = /^[0-9a-f]*$/;
function fromHex(h, what) {
  if (typeof h !== "string" || h.length % 2 || !HEX.test(h)) throw new Error(`${what} is not lower-case hex`);
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return out;
}
const toHex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) { out.set(p, i); i += p.length; }
  return out;
}
function beBytes(n, width) {
  const out = new Uint8Array(width);
  let v = BigInt(n);
  for (let i = width - 1; i >= 0; i--) { out[i] = Number(v & 0xffn); v >>= 8n; }
  return out;
}
const lp = (b) => concat(beBytes(b.length, 4), b);
const sha256 = async (b) => new Uint8Array(await crypto.subtle.digest("SHA-256", b));

// The ChaCha20 keystream (RFC 8439 block function, zero nonce, counter from 0) as 32-bit
// words, read little-endian: the words the dice are drawn from.
class ChaCha20 {
  constructor(key) {
    const k = new DataView(key.buffer, key.byteOffset, 32);
    this.state = new Uint32Array(16);
    this.state.set([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);
    for (let i = 0; i < 8; i++) this.state[4 + i] = k.getUint32(4 * i, true);
    this.out = new Uint32Array(16);
    this.i = 16;
  }
  block() {
    const x = this.out;
    x.set(this.state);
    const q = (a, b, c, d) => {
      x[a] += x[b]; x[d] ^= x[a]; x[d] = (x[d] << 16) | (x[d] >>> 16);
      x[c] += x[d]; x[b] ^= x[c]; x[b] = (x[b] << 12) | (x[b] >>> 20);
      x[a] += x[b]; x[d] ^= x[a]; x[d] = (x[d] << 8) | (x[d] >>> 24);
      x[c] += x[d]; x[b] ^= x[c]; x[b] = (x[b] << 7) | (x[b] >>> 25);
    };
    for (let r = 0; r < 10; r++) {
      q(0, 4, 8, 12); q(1, 5, 9, 13); q(2, 6, 10, 14); q(3, 7, 11, 15);
      q(0, 5, 10, 15); q(1, 6, 11, 12); q(2, 7, 8, 13); q(3, 4, 9, 14);
    }
    for (let i = 0; i < 16; i++) x[i] += this.state[i];
    this.state[12] += 1;
    this.i = 0;
  }
  word() { if (this.i === 16) this.block(); return this.out[this.i++]; }
  uniform(n) {
    const limit = 4294967296 - (4294967296 % n);
    for (;;) { const w = this.word(); if (w < limit) return w % n; }
  }
  die() { return this.uniform(6) + 1; }
}

// Verifies an exported log (its text). Returns { ok: true, draws } when the chain holds
// and every draw is the seed's, { ok: false, message } at the first that is not, and
// { ok: null, message } while the seed is not revealed.
async function verifyExport(text) {
  const label = utf8Encode.encode("baffle-audit-v1");
  let prev = new Uint8Array(32), seq = 0, ended = false;
  let matchId = null, commitment = null, serverSeed = null;
  const seeds = { A: new Uint8Array(0), B: new Uint8Array(0) };
  const draws = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line);
    if (r.end) {
      if (r.end.records !== seq || r.end.head !== toHex(prev)) return { ok: false, message: "the end line does not match the log" };
      ended = true;
      break;
    }
    const body = utf8Encode.encode(r.body);
    const hash = await sha256(concat(label, beBytes(r.seq, 8), prev, beBytes(body.length, 8), body));
    if (r.seq !== seq || r.prev !== toHex(prev) || r.hash !== toHex(hash)) {
      return { ok: false, message: `record ${r.seq}: the chain is broken` };
    }
    prev = hash;
    seq += 1;
    const b = JSON.parse(r.body);
    if (b.kind === "match.opened") { matchId = b.match_id; commitment = b.commitment; }
    else if (b.kind === "dice.player_seed" || b.kind === "dice.player_reveal") seeds[b.side] = fromHex(b.seed, "a seed");
    else if (b.kind === "dice.roll") draws.push({ seq: r.seq, claimed: b.dice.join("-"), draw: (c) => `${c.die()}-${c.die()}` });
    else if (b.kind === "dice.opening") draws.push({ seq: r.seq, claimed: b.throws.map((t) => t.join("-")).join(" "), draw: (c) => {
      const out = [];
      for (;;) { const a = c.die(), d = c.die(); out.push(`${a}-${d}`); if (a !== d) return out.join(" "); }
    } });
    else if (b.kind === "dice.chess960") draws.push({ seq: r.seq, claimed: String(b.sp), draw: (c) => String(c.uniform(960)) });
    else if (b.kind === "dice.reveal") serverSeed = fromHex(b.server_seed, "the server seed");
  }
  if (!ended) return { ok: false, message: "the log is cut short" };
  if (!serverSeed) return { ok: null, message: "the dice are checked once the seed is revealed, after the match" };
  if (toHex(await sha256(serverSeed)) !== commitment) return { ok: false, message: "the revealed seed does not match the commitment" };
  const key = await sha256(concat(lp(utf8Encode.encode("baffle-dice-v1")), lp(utf8Encode.encode(matchId)),
    lp(serverSeed), lp(seeds.A), lp(seeds.B)));
  const stream = new ChaCha20(key);
  for (const d of draws) {
    const expected = d.draw(stream);
    if (expected !== d.claimed) return { ok: false, message: `record ${d.seq}: ${d.claimed} is not what the seed gives (${expected})` };
  }
  return { ok: true, draws: draws.length };
}
window.baffleVerify = verifyExport;

// The log of `id`, exported by the server, as text.
async function exportLog(id) {
  let text = "";
  for await (const bytes of call("/baffle.v1.Audit/ExportLog", encode([[1, id]]))) {
    text += decode(bytes, ExportLine).line + "\n";
  }
  return text;
}

// What this page found of a match's dice, by match id.
const verdicts = new Map();
async function checkDice(id, redraw) {
  try {
    const v = await verifyExport(await exportLog(id));
    verdicts.set(id, v.ok ? `all ${v.draws} rolls verified in this browser` : v.ok === null ? v.message : `NOT VERIFIED: ${v.message}`);
  } catch (e) {
    verdicts.set(id, `not verified: ${e.message}`);
  }
  redraw();
}

// ---------------------------------------------------------------- a player's own seed

// A player types the code the director gave him; the page makes his seed here
// (crypto.getRandomValues), commits to it (docs/dice.md step 3), keeps it in this
// browser, and reveals it by itself once both players have committed.

const seedKey = (match, side) => `baffle-seed:${match}:${side}`;

function playerCode(code, match) {
  const m = /^player\.(.+)\.([ab])\.[0-9a-f]+$/.exec(code.trim());
  if (!m || m[1] !== match) throw new Error("that is not a player code of this match");
  return m[2].toUpperCase();
}

async function seedCall(method, code, fields) {
  const auth = { authorization: `Bearer ${code}` };
  for await (const _ of call(`/baffle.v1.Audit/${method}`, encode(fields), undefined, auth)) return;
}

async function commitSeed(match, code) {
  const side = playerCode(code, match);
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const commitment = await sha256(concat(lp(utf8Encode.encode("baffle-player-seed-v1")),
    lp(utf8Encode.encode(match)), lp(utf8Encode.encode(side)), lp(seed)));
  await seedCall("CommitPlayerSeed", code, [[1, match], [2, side === "A" ? SIDE_A : SIDE_B], [3, commitment]]);
  localStorage.setItem(seedKey(match, side), JSON.stringify({ code: code.trim(), seed: toHex(seed) }));
  return side;
}

// What the log says of the players' seeds: who committed, who revealed.
function seedsOf(events) {
  const seen = { commit: new Set(), reveal: new Set() };
  for (const e of events) {
    if (e.kind === "dice.player_commit") seen.commit.add(JSON.parse(e.body).side);
    if (e.kind === "dice.player_reveal") seen.reveal.add(JSON.parse(e.body).side);
  }
  return seen;
}

const revealing = new Set();
// Reveals the seed this browser keeps for `match`, once both players have committed.
async function revealIfDue(match, events, redraw) {
  const seen = seedsOf(events);
  if (seen.commit.size < 2) return;
  for (const side of ["A", "B"]) {
    const kept = localStorage.getItem(seedKey(match, side));
    if (!kept || seen.reveal.has(side) || revealing.has(match + side)) continue;
    revealing.add(match + side);
    const { code, seed } = JSON.parse(kept);
    try {
      await seedCall("RevealPlayerSeed", code, [[1, match], [2, side === "A" ? SIDE_A : SIDE_B], [3, fromHex(seed, "the seed")]]);
    } catch (e) {
      revealing.delete(match + side);
      setStatus(`the seed could not be revealed: ${e.message}`, true);
    }
    redraw();
  }
}

// The players' seeds as the log shows them, and a place for a player's code.
function seedPanel(s, events, redraw) {
  const seen = seedsOf(events);
  const said = ["A", "B"].map((side, i) => {
    const name = side === "A" ? s.player_a : s.player_b;
    const p = s.player_seeds[i] || { commitment: "", seed: "" };
    if (seen.reveal.has(side) || p.seed) return `${name}: seed revealed ${p.seed.slice(0, 8)}…`;
    if (seen.commit.has(side) || p.commitment) return `${name}: seed committed ${p.commitment.slice(0, 8)}…`;
    return `${name}: no seed${s.player_seeds_required ? " yet (required)" : ""}`;
  });
  const panel = el("div", { class: "seeds" }, el("p", {}, said.join(" · ")));
  if (!s.result && !s.game_number) {
    const input = el("input", { type: "password", placeholder: "your player code", "aria-label": "your player code", autocomplete: "off" });
    const form = el("form", {}, input, el("button", { type: "submit" }, "add my seed"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const side = await commitSeed(s.match_id, input.value);
        setStatus(`seed committed for ${side}`, false);
      } catch (e) {
        setStatus(`no seed: ${e.message}`, true);
      }
      redraw();
    });
    panel.append(form);
  }
  return panel;
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
const statusLine = document.getElementById("status");
const title = document.getElementById("title");

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function setStatus(text, down) {
  statusLine.textContent = text;
  statusLine.className = down ? "down" : "";
}

function tags(s) {
  const out = el("div", { class: "tags" });
  if (s.chess) return chessTags(s, out);
  out.append(el("span", { class: "tag" }, `to ${s.length}`));
  if (s.crawford) out.append(el("span", { class: "tag crawford" }, "Crawford"));
  else {
    const owner = s.cube_owner === SIDE_B ? " B" : s.cube_owner === SIDE_A ? " A" : "";
    out.append(el("span", { class: "tag cube" }, `cube ${Math.max(s.cube_value, 1)}${owner}`));
  }
  if (s.clock && s.clock.paused) out.append(el("span", { class: "tag paused" }, `paused: ${PAUSES[s.clock.paused] || "paused"}`));
  if (s.result) out.append(el("span", { class: "tag result" }, `${s.result.winner === SIDE_A ? s.player_a : s.player_b} won (${s.result.how})`));
  else if (s.turn) out.append(el("span", { class: "tag turn" }, `${s.turn_side === SIDE_B ? s.player_b : s.player_a} ${TURNS[s.turn] || ""}${s.dice.length ? " " + s.dice.join("-") : ""}`));
  return out;
}

// Writes the clock texts into every element marked with data-clock="<match> <a|b>".
function tick(states) {
  const now = serverNow();
  for (const e of document.querySelectorAll("[data-clock]")) {
    const [id, side] = e.dataset.clock.split(" ");
    const s = states.get(id);
    const f = s && faces(s.clock, now);
    if (!f) { e.textContent = "–"; continue; }
    const face = f[side === "a" ? 0 : 1];
    const box = e.closest(".side, .row");
    box.classList.toggle("run", face.running);
    box.classList.toggle("flag", face.flagged);
    e.textContent = mmss(face.main);
    const delay = box.querySelector(".delay");
    if (delay) delay.textContent = face.running && face.delay > 0 ? `+${(face.delay / 1000).toFixed(1)}` : "";
  }
}

// Each player's row shows his own clock: in chess, White's is side a of the clock.
function card(s) {
  const row = (player, name) => el("div", { class: "row" },
    el("span", { class: "name" }, name),
    el("span", { class: "clock", "data-clock": `${s.match_id} ${clockOf(s, player)}` }),
    el("span", { class: "delay" }),
    el("span", { class: "pts" }, score(s, player)));
  return el("a", { class: "card", href: `#/m/${encodeURIComponent(s.match_id)}`, "data-match": s.match_id },
    el("div", { class: "top" },
      el("span", {}, `table ${s.table || "–"} · round ${s.round}`),
      el("span", { class: "score" }, `${score(s, "a")} – ${score(s, "b")}`)),
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

function live(s, events, redraw = () => {}) {
  const moves = (player) => {
    const side = clockOf(s, player) === "a" ? 0 : 1;
    return s.chess ? `moves ${s.chess.moves[side] || 0}` : "";
  };
  const side = (player, name) => el("div", { class: "side" },
    el("span", { class: "pts" }, score(s, player)),
    el("div", { class: "name" }, name),
    el("div", { class: "big", "data-clock": `${s.match_id} ${clockOf(s, player)}` }),
    el("span", { class: "delay" }), el("div", { class: "moves" }, moves(player)));
  const list = el("ul", { class: "events" });
  for (const e of events.slice(-8).reverse()) list.append(el("li", {}, `#${e.seq} ${e.kind}`));
  const dice = s.dice_source === "server" && s.commitment
    ? el("p", { class: "verify" }, `dice committed: ${s.commitment.slice(0, 16)}… · head ${s.head_hash.slice(0, 12)} · ${verdicts.get(s.match_id) || "checked after the match"}`)
    : "";
  return el("div", { class: "live", "data-match": s.match_id },
    side("a", s.player_a),
    el("div", { class: "mid" }, el("span", { class: "score" }, `${score(s, "a")} – ${score(s, "b")}`), tags(s)),
    side("b", s.player_b), s.board ? boardPanel(s, boardViewer, el, {
      onFlip: () => { boardViewer = boardViewer === "a" ? "b" : "a"; redraw(); },
      onExport: (format) => downloadMatch(s.match_id, format),
    }) : "", list, dice,
    s.dice_source === "server" ? seedPanel(s, events, redraw) : "");
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
      setStatus(`reconnecting… (${e.message})`, true);
    }
    if (stop.aborted) return;
    setStatus("reconnecting…", true);
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 2, 5000);
  }
}

let current = null; // { stop: AbortController, timer }

function leave() {
  if (!current) return;
  current.stop.abort();
  clearInterval(current.timer);
  current = null;
}

function showTournament(id) {
  const stop = new AbortController();
  const states = new Map();
  title.textContent = id;
  const list = el("div", { class: "list" });
  view.replaceChildren(list);
  const render = () => {
    const sorted = [...states.values()].sort((x, y) => (x.table || "").localeCompare(y.table || "", undefined, { numeric: true }));
    list.replaceChildren(...sorted.map(card));
    tick(states);
  };
  current = { stop, timer: setInterval(() => tick(states), 100) };
  keepFollowing(stop.signal, async (signal) => {
    // Every match's state comes first, then each change: a reconnect starts afresh, and
    // whole states mean nothing in between is needed.
    for await (const bytes of call("/baffle.v1.Matches/WatchTournament", encode([[1, id]]), signal)) {
      const s = decode(bytes, MatchState);
      noteSent(s);
      states.set(s.match_id, s);
      setStatus("live", false);
      render();
    }
  });
}

function showMatch(id) {
  const stop = new AbortController();
  const states = new Map();
  const events = [];
  let nextSeq = 0;
  title.textContent = id;
  current = { stop, timer: setInterval(() => tick(states), 100) };
  keepFollowing(stop.signal, async (signal) => {
    // Resume after the last event seen: nothing missed, nothing twice.
    const request = encode([[1, id], [2, nextSeq]]);
    for await (const bytes of call("/baffle.v1.Matches/Watch", request, signal)) {
      const u = decode(bytes, MatchUpdate);
      for (const e of u.events) {
        if (e.seq >= nextSeq) { events.push(e); nextSeq = e.seq + 1; }
      }
      if (u.state) {
        noteSent(u.state);
        states.set(id, u.state);
        nextSeq = Math.max(nextSeq, u.state.seq);
        title.textContent = `${u.state.player_a} – ${u.state.player_b}`;
        const redraw = () => { view.replaceChildren(live(states.get(id), events, redraw)); tick(states); };
        redraw();
        revealIfDue(id, events, redraw);
        // Once the match is over (and again at the reveal), check its dice here.
        const revealed = u.events.some((e) => e.kind === "dice.reveal");
        if (u.state.result && u.state.dice_source === "server" && (revealed || !verdicts.has(id))) {
          verdicts.set(id, "checking the dice…");
          checkDice(id, redraw);
        }
      }
      setStatus("live", false);
    }
  });
}

async function showTournaments() {
  title.textContent = "baffle";
  const stop = new AbortController();
  current = { stop, timer: 0 };
  try {
    const reply = await unary("/baffle.v1.Tournaments/ListTournaments", encode([]), ListTournamentsResponse);
    if (stop.signal.aborted) return;
    setStatus("", false);
    if (reply.tournaments.length === 1) {
      location.hash = `#/t/${encodeURIComponent(reply.tournaments[0].id)}`;
      return;
    }
    const list = el("div", { class: "list" });
    for (const t of reply.tournaments) {
      list.append(el("a", { class: "card", href: `#/t/${encodeURIComponent(t.id)}` },
        el("div", { class: "row" }, el("span", { class: "name" }, t.name || t.id))));
    }
    if (!reply.tournaments.length) list.append(el("p", {}, "No tournaments yet."));
    view.replaceChildren(list);
  } catch (e) {
    setStatus(`cannot reach the server (${e.message})`, true);
  }
}

// ---------------------------------------------------------------- router

function route() {
  leave();
  const [, kind, id] = location.hash.split("/");
  if (kind === "t" && id) showTournament(decodeURIComponent(id));
  else if (kind === "m" && id) showMatch(decodeURIComponent(id));
  else showTournaments();
}

window.addEventListener("hashchange", route);
route();
