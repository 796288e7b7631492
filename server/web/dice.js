// The dice of a match, checked in this browser, and a player's own seed (docs/dice.md,
// docs/web.md): the log's chain and every server roll recomputed here, and a seed made,
// committed and revealed by the page for a player who gives his code.

import { utf8Encode, call, unary, commitRequest, revealRequest,
  SIDE_A, SIDE_B } from "./wire.js";
import { t, refusal, time, language } from "./words.js";
import { el, setStatus } from "./ui.js";

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

// The ChaCha20 keystream (RFC 8439 block function, counter from 0) as 32-bit words, read
// little-endian: the words the dice are drawn from. Construction 1 reads one stream with
// a zero nonce; construction 2 one stream per draw, its 8-byte position the nonce's last
// eight bytes (docs/dice.md, "Positions").
class ChaCha20 {
  constructor(key, position = new Uint8Array(8)) {
    const k = new DataView(key.buffer, key.byteOffset, 32);
    const p = new DataView(position.buffer, position.byteOffset, 8);
    this.state = new Uint32Array(16);
    this.state.set([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);
    for (let i = 0; i < 8; i++) this.state[4 + i] = k.getUint32(4 * i, true);
    this.state[14] = p.getUint32(0, true);
    this.state[15] = p.getUint32(4, true);
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

// The eight bytes of a draw's place (construction 2): kind (1 opening, 2 roll, 3 Chess960),
// side (1 A, 2 B, 0 none), game u16 and roll u32, big-endian.
const position = (kind, side, game, roll) =>
  concat([kind, side === "A" ? 1 : side === "B" ? 2 : 0], beBytes(game, 2), beBytes(roll, 4));

// The draws as the log names them, each as text, from a stream.
const drawRoll = (c) => `${c.die()}-${c.die()}`;
function drawOpening(c) {
  const out = [];
  for (;;) { const a = c.die(), d = c.die(); out.push(`${a}-${d}`); if (a !== d) return out.join(" "); }
}
const drawChess960 = (c) => String(c.uniform(960));

const LABELS = { 1: ["baffle-dice-v1", "baffle-player-seed-v1"], 2: ["baffle-dice-v2", "baffle-player-seed-v2"] };
const text = (s) => utf8Encode.encode(s);

// The dice key of a match (docs/dice.md step 4): its construction's label, the match id,
// the server seed and both players' seeds, each length-prefixed.
const diceKey = (construction, matchId, serverSeed, seedA, seedB) =>
  sha256(concat(...[text(LABELS[construction][0]), text(matchId), serverSeed, seedA, seedB].map(lp)));

// A player's commitment to his seed. Construction 2 binds the server's commitment (32 raw
// bytes) and a salt; construction 1 neither (no `server`, no `salt`).
function playerCommitment(construction, server, matchId, side, salt, seed) {
  const parts = construction === 2 ? [text(LABELS[2][1]), server, text(matchId), text(side), salt, seed]
    : [text(LABELS[1][1]), text(matchId), text(side), seed];
  return sha256(concat(...parts.map(lp)));
}

// Live dice (docs/dice.md, "Live dice"): one step of a player's chain, bound to the
// server's commitment (32 raw bytes), the match and the side; and a draw's own key, the
// match's key hashed with both players' links for it, A then B.
const liveStep = (server, matchId, side, link) =>
  sha256(concat(...[text("baffle-live-link-v1"), server, text(matchId), text(side), link].map(lp)));
const liveKey = (key, linkA, linkB) => sha256(concat(...[text("baffle-live-draw-v1"), key, linkA, linkB].map(lp)));

// Verifies an exported log (its text). Returns { ok: true, draws } when the chain holds
// and every draw is the seed's, { ok: false, message } at the first that is not, and
// { ok: null, message } while the seed is not revealed. The construction is the one
// `match.opened` names (none: 1); in construction 2 each draw's place is checked against
// this page's own count before its dice are recomputed there, and each player's reveal
// against his commitment. With live dice each link is checked against its player's
// chain as it comes, and each draw recomputed under the key of the two links it took.
//
// `anchors` ({ A: hex, B: hex }) are the chains' anchors this browser committed for its
// player: the log's first `dice.chain` of that side must be it, or this is not the log
// his chain was committed in (a twin with the operator's own chains verifies otherwise).
async function verifyExport(log, anchors = {}) {
  const label = text("baffle-audit-v1");
  let prev = new Uint8Array(32), seq = 0, ended = false;
  let matchId = null, commitment = null, serverSeed = null, construction = 1;
  const seeds = { A: new Uint8Array(0), B: new Uint8Array(0) }, commits = {};
  // Construction 2's count: openings drawn (the game), and each side's rolls in it.
  let game = 0, rolls = { A: 0, B: 0 };
  const draws = [];
  // Live dice: each chain's last public value, and the links given since the last draw.
  let live = false, links = { A: null, B: null };
  const heads = {};
  for (const line of log.split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line);
    if (r.end) {
      if (r.end.records !== seq || r.end.head !== toHex(prev)) return { ok: false, message: t("dice-why-end") };
      ended = true;
      break;
    }
    const body = text(r.body);
    const hash = await sha256(concat(label, beBytes(r.seq, 8), prev, beBytes(body.length, 8), body));
    if (r.seq !== seq || r.prev !== toHex(prev) || r.hash !== toHex(hash)) {
      return { ok: false, message: t("dice-why-chain", { seq: r.seq }) };
    }
    prev = hash;
    seq += 1;
    const b = JSON.parse(r.body);
    const v2 = construction === 2;
    // Where a draw says it belongs must be where this page's count puts it; construction
    // 1 names no place at all.
    const misplaced = (g, n) => (v2 ? b.game !== g || b.roll !== n : b.game !== undefined || b.roll !== undefined);
    const place = { seq: r.seq };
    if (b.kind === "match.opened") {
      matchId = b.match_id; commitment = b.commitment;
      construction = b.dice === undefined ? 1 : b.dice;
      if (!LABELS[construction]) return { ok: false, message: t("dice-why-construction", { construction: String(b.dice) }) };
    } else if (b.kind === "match.setup") {
      live = live || b.seeds === "live";
    } else if (b.kind === "dice.chain") {
      live = true;
      if (!heads[b.side] && anchors[b.side] && anchors[b.side] !== b.anchor) return { ok: false, message: t("dice-why-anchor", place) };
      heads[b.side] = fromHex(b.anchor, "an anchor");
    } else if (b.kind === "dice.link") {
      live = true;
      const link = fromHex(b.link, "a link");
      const stepped = heads[b.side] && toHex(await liveStep(fromHex(commitment, "the commitment"), matchId, b.side, link));
      if (links[b.side] || !stepped || stepped !== toHex(heads[b.side])) return { ok: false, message: t("dice-why-link", place) };
      heads[b.side] = link;
      links[b.side] = link;
    } else if (b.kind === "dice.player_seed") {
      if (v2) return { ok: false, message: t("dice-why-clear-seed", place) };
      seeds[b.side] = fromHex(b.seed, "a seed");
    } else if (b.kind === "dice.player_commit") {
      commits[b.side] = b.commitment;
    } else if (b.kind === "dice.player_reveal") {
      seeds[b.side] = fromHex(b.seed, "a seed");
      if (v2) {
        const salt = fromHex(b.salt || "", "a salt");
        const mine = await playerCommitment(2, fromHex(commitment, "the commitment"), matchId, b.side, salt, seeds[b.side]);
        if (salt.length !== 32 || seeds[b.side].length < 16 || seeds[b.side].length > 64 || toHex(mine) !== commits[b.side]) {
          return { ok: false, message: t("dice-why-player-seed", place) };
        }
      }
    } else if (b.kind === "dice.roll") {
      if (v2 && (!game || !(b.side in rolls))) return { ok: false, message: t("dice-why-place", place) };
      if (v2) rolls[b.side] += 1;
      if (misplaced(game, rolls[b.side])) return { ok: false, message: t("dice-why-place", place) };
      draws.push({ seq: r.seq, claimed: b.dice.join("-"), draw: drawRoll, at: v2 && position(2, b.side, game, rolls[b.side]) });
    } else if (b.kind === "dice.opening") {
      if (v2) { game += 1; rolls = { A: 0, B: 0 }; }
      if (misplaced(game, undefined)) return { ok: false, message: t("dice-why-place", place) };
      draws.push({ seq: r.seq, claimed: b.throws.map((d) => d.join("-")).join(" "), draw: drawOpening, at: v2 && position(1, "", game, 0) });
    } else if (b.kind === "dice.chess960") {
      if (misplaced(undefined, undefined)) return { ok: false, message: t("dice-why-place", place) };
      draws.push({ seq: r.seq, claimed: String(b.sp), draw: drawChess960, at: v2 && position(3, "", 0, 0) });
    } else if (b.kind === "dice.reveal") serverSeed = fromHex(b.server_seed, "the server seed");
    // A live draw takes the two links given since the one before it.
    if (live && (b.kind === "dice.roll" || b.kind === "dice.opening" || b.kind === "dice.chess960")) {
      if (!links.A || !links.B) return { ok: false, message: t("dice-why-links", place) };
      draws[draws.length - 1].links = [links.A, links.B];
      links = { A: null, B: null };
    }
  }
  if (!ended) return { ok: false, message: t("dice-why-cut") };
  if (!serverSeed) return { ok: null, message: t("dice-after-match") };
  if (toHex(await sha256(serverSeed)) !== commitment) return { ok: false, message: t("dice-why-commitment") };
  const key = await diceKey(construction, matchId, serverSeed, seeds.A, seeds.B);
  // Construction 1: one stream, each draw taking the words after the last one's.
  const one = new ChaCha20(key);
  for (const d of draws) {
    const drawKey = d.links ? await liveKey(key, ...d.links) : key;
    const expected = d.draw(d.at ? new ChaCha20(drawKey, d.at) : one);
    if (expected !== d.claimed) return { ok: false, message: t("dice-why-draw", { seq: d.seq, claimed: d.claimed, expected }) };
  }
  return { ok: true, draws: draws.length };
}
// A log as this page checks it: with the anchors it committed for that match's player.
window.baffleVerify = (log) => {
  const opened = JSON.parse(JSON.parse(log.split("\n")[0]).body);
  return verifyExport(log, keptAnchors(opened.match_id));
};
// The pieces, for the page's test to reproduce docs/dice.md's vectors with (as hex).
window.baffleDice = {
  key: async (construction, id, server, a, b) => toHex(await diceKey(construction, id, fromHex(server, "seed"), fromHex(a, "A"), fromHex(b, "B"))),
  stream: (key, at) => new ChaCha20(fromHex(key, "key"), fromHex(at, "position")),
  drawRoll, drawOpening, drawChess960,
  commitment: async (server, id, side, salt, seed) =>
    toHex(await playerCommitment(2, fromHex(server, "server"), id, side, fromHex(salt, "salt"), fromHex(seed, "seed"))),
  liveStep: async (server, id, side, link) => toHex(await liveStep(fromHex(server, "server"), id, side, fromHex(link, "link"))),
  liveKey: async (key, a, b) => toHex(await liveKey(fromHex(key, "key"), fromHex(a, "A"), fromHex(b, "B"))),
};

// The log of `id`, exported by the server, as text.
async function exportLog(id) {
  let text = "";
  for await (const { line } of call("/baffle.v1.Audit/ExportLog", { match_id: id })) {
    text += line + "\n";
  }
  return text;
}

// The anchors this browser committed for a live dice player of `id` (player.js keeps
// them with his chain), by side.
function keptAnchors(id) {
  const anchors = {};
  for (const side of ["A", "B"]) {
    const mine = keptChain(id, side);
    if (mine && mine.anchor) anchors[side] = mine.anchor;
  }
  return anchors;
}

// Where this browser keeps a live dice player's chain (player.js makes it): one key per
// match and side.
const keptChainKey = (match, side) => `baffle-live:${match}:${side}`;
function keptChain(match, side) {
  try { return JSON.parse(localStorage.getItem(keptChainKey(match, side))); } catch { return null; }
}

// What this page found of a match's dice, by match id; and which check has the say (a
// check started at the result may end after the one started at the reveal).
const verdicts = new Map();
const checks = new Map();
async function checkDice(id, redraw) {
  const mine = (checks.get(id) || 0) + 1;
  checks.set(id, mine);
  let verdict;
  try {
    const v = await verifyExport(await exportLog(id), keptAnchors(id));
    verdict = v.ok ? ["dice-verified", { count: v.draws }] : v.ok === null ? ["dice-after-match", {}] : ["dice-not-verified", { why: v.message }];
  } catch (e) {
    verdict = ["dice-not-verified", { why: e.message }];
  }
  if (checks.get(id) !== mine) return;
  verdicts.set(id, verdict);
  redraw();
}

// Checks a match's dice here once it is over, and again once its seed is revealed — by
// the director, or by the server itself when the result is confirmed (docs/dice.md
// step 9): nobody has to ask for the check.
const checkedAt = new Map();
function followDice(s, events, fresh, redraw) {
  revealIfDue(s.match_id, events, redraw);
  if (s.dice_source !== "server") return;
  const revealed = s.dice_revealed || fresh.some((e) => e.kind === "dice.reveal");
  const stage = revealed ? "revealed" : s.result ? "over" : "";
  if (!stage || checkedAt.get(s.match_id) === stage) return;
  checkedAt.set(s.match_id, stage);
  verdicts.set(s.match_id, ["dice-checking", {}]);
  checkDice(s.match_id, redraw);
}

// ---------------------------------------------------------------- a player's own seed

// A player types the code the director gave him; the page makes his seed (and in
// construction 2 a salt) here, with crypto.getRandomValues, commits to it (docs/dice.md
// step 3), keeps both in this browser's localStorage, and reveals them by itself once
// both players have committed — after a reload or a reconnection too.

const seedKey = (match, side) => `baffle-seed:${match}:${side}`;
const kept = (match, side) => { try { return JSON.parse(localStorage.getItem(seedKey(match, side))); } catch { return null; } };
const random = (n) => crypto.getRandomValues(new Uint8Array(n));

function playerCode(code, match) {
  const m = /^player\.(.+)\.([ab])\.[0-9a-f]+$/.exec(code.trim());
  if (!m || m[1] !== match) throw new Error("that is not a player code of this match");
  return m[2].toUpperCase();
}

async function seedCall(method, code, request) {
  const auth = { authorization: `Bearer ${code}` };
  for await (const _ of call(`/baffle.v1.Audit/${method}`, request, undefined, auth)) return;
}

async function commitSeed(match, code) {
  const side = playerCode(code, match);
  // The construction decides what the commitment hashes; a server from before
  // construction 2 names none, and follows construction 1.
  const answer = await unary("/baffle.v1.Audit/GetCommitment", { match_id: match });
  const construction = answer.dice_construction === 2 ? 2 : 1;
  const seed = random(32), salt = construction === 2 ? random(32) : new Uint8Array(0);
  const server = fromHex(answer.commitment, "the server's commitment");
  const mine = await playerCommitment(construction, server, match, side, salt, seed);
  // Kept before it is sent, so a reload while the commitment is on its way can still
  // reveal it; put back as it was if the server refuses it.
  const before = localStorage.getItem(seedKey(match, side));
  localStorage.setItem(seedKey(match, side), JSON.stringify({
    code: code.trim(), construction, seed: toHex(seed), salt: toHex(salt), commitment: toHex(mine),
  }));
  try {
    await seedCall("CommitPlayerSeed", code.trim(), commitRequest(match, side === "A" ? SIDE_A : SIDE_B, mine));
  } catch (e) {
    if (before === null) localStorage.removeItem(seedKey(match, side));
    else localStorage.setItem(seedKey(match, side), before);
    throw e;
  }
  return side;
}

// What the log says of the players' seeds: each side's commitment, who revealed.
function seedsOf(events) {
  const seen = { commit: new Map(), reveal: new Set() };
  for (const e of events) {
    if (e.kind === "dice.player_commit") { const b = JSON.parse(e.body); seen.commit.set(b.side, b.commitment); }
    if (e.kind === "dice.player_reveal") seen.reveal.add(JSON.parse(e.body).side);
  }
  return seen;
}

const revealing = new Set();
// Reveals the seed this browser keeps for `match`, once both players have committed and
// only against the commitment it made; forgets it once the log shows it revealed.
async function revealIfDue(match, events, redraw) {
  const seen = seedsOf(events);
  for (const side of ["A", "B"]) {
    const mine = kept(match, side);
    if (!mine) continue;
    if (seen.reveal.has(side)) { localStorage.removeItem(seedKey(match, side)); continue; }
    if (seen.commit.size < 2 || revealing.has(match + side)) continue;
    if (mine.commitment && mine.commitment !== seen.commit.get(side)) continue;
    revealing.add(match + side);
    const salt = mine.construction === 2 ? fromHex(mine.salt, "the salt") : null;
    try {
      await seedCall("RevealPlayerSeed", mine.code,
        revealRequest(match, side === "A" ? SIDE_A : SIDE_B, fromHex(mine.seed, "the seed"), salt));
    } catch (e) {
      revealing.delete(match + side);
      setStatus(t("seed-failed", { error: refusal(e.message) }), true);
    }
    redraw();
  }
}

// Who has not revealed yet, and by when: "due 14:32" until the deadline, then overdue.
// Written again at every tick of the page's clocks, so it turns overdue on time.
function dueWords(e, now) {
  const due = Number(e.dataset.due), names = e.dataset.names;
  const words = now < due ? t("seed-reveal-due", { names, time: time(due) }) : t("seed-reveal-overdue", { names });
  if (e.textContent !== words) e.textContent = words;
}
function tickDue(now) {
  for (const e of document.querySelectorAll("[data-due]")) dueWords(e, now);
}

// The players' seeds as the log shows them, the reveal's deadline while one is pending,
// and a place for a player's code.
function seedPanel(s, events, redraw, now) {
  const seen = seedsOf(events);
  const names = [s.player_a, s.player_b];
  const revealed = ["A", "B"].map((side, i) => seen.reveal.has(side) || !!(s.player_seeds[i] || {}).seed);
  const said = ["A", "B"].map((side, i) => {
    const name = names[i];
    const p = s.player_seeds[i] || { commitment: "", seed: "" };
    if (revealed[i]) return t("seed-revealed", { name, short: p.seed.slice(0, 8) });
    if (seen.commit.has(side) || p.commitment) return t("seed-committed", { name, short: p.commitment.slice(0, 8) });
    return t(s.player_seeds_required ? "seed-none-required" : "seed-none", { name });
  });
  const panel = el("div", { class: "seeds" }, el("p", {}, said.join(" · ")));
  if (s.reveal_due_ms && revealed.includes(false)) {
    const late = new Intl.ListFormat(language(), { type: "conjunction" }).format(names.filter((_, i) => !revealed[i]));
    const due = el("p", { class: "due", "data-due": String(s.reveal_due_ms), "data-names": late });
    dueWords(due, now);
    panel.append(due);
  }
  if (!s.result && !s.game_number) {
    const input = el("input", { type: "password", placeholder: t("seed-code"), "aria-label": t("seed-code"), autocomplete: "off" });
    const form = el("form", {}, input, el("button", { type: "submit" }, t("seed-add")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const side = await commitSeed(s.match_id, input.value);
        setStatus(t("seed-added", { side }), false);
      } catch (e) {
        setStatus(t("seed-failed", { error: refusal(e.message) }), true);
      }
      redraw();
    });
    panel.append(form);
  }
  return panel;
}

export { keptChainKey, keptChain, verdicts, followDice, seedPanel, tickDue, verifyExport, fromHex, toHex, liveStep, playerCode, random };
