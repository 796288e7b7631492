// The dice of a match, checked in this browser, and a player's own seed (docs/dice.md,
// docs/web.md): the log's chain and every server roll recomputed here, and a seed made,
// committed and revealed by the page for a player who gives his code.

import { utf8Encode, decode, encode, call, ExportLine, SIDE_A, SIDE_B } from "./wire.js";
import { t, refusal } from "./words.js";
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
      if (r.end.records !== seq || r.end.head !== toHex(prev)) return { ok: false, message: t("dice-why-end") };
      ended = true;
      break;
    }
    const body = utf8Encode.encode(r.body);
    const hash = await sha256(concat(label, beBytes(r.seq, 8), prev, beBytes(body.length, 8), body));
    if (r.seq !== seq || r.prev !== toHex(prev) || r.hash !== toHex(hash)) {
      return { ok: false, message: t("dice-why-chain", { seq: r.seq }) };
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
  if (!ended) return { ok: false, message: t("dice-why-cut") };
  if (!serverSeed) return { ok: null, message: t("dice-after-match") };
  if (toHex(await sha256(serverSeed)) !== commitment) return { ok: false, message: t("dice-why-commitment") };
  const key = await sha256(concat(lp(utf8Encode.encode("baffle-dice-v1")), lp(utf8Encode.encode(matchId)),
    lp(serverSeed), lp(seeds.A), lp(seeds.B)));
  const stream = new ChaCha20(key);
  for (const d of draws) {
    const expected = d.draw(stream);
    if (expected !== d.claimed) return { ok: false, message: t("dice-why-draw", { seq: d.seq, claimed: d.claimed, expected }) };
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
    verdicts.set(id, v.ok ? ["dice-verified", { count: v.draws }] : v.ok === null ? ["dice-after-match", {}] : ["dice-not-verified", { why: v.message }]);
  } catch (e) {
    verdicts.set(id, ["dice-not-verified", { why: e.message }]);
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
      setStatus(t("seed-failed", { error: e.message }), true);
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
    if (seen.reveal.has(side) || p.seed) return t("seed-revealed", { name, short: p.seed.slice(0, 8) });
    if (seen.commit.has(side) || p.commitment) return t("seed-committed", { name, short: p.commitment.slice(0, 8) });
    return t(s.player_seeds_required ? "seed-none-required" : "seed-none", { name });
  });
  const panel = el("div", { class: "seeds" }, el("p", {}, said.join(" · ")));
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

export { verdicts, checkDice, revealIfDue, seedPanel, verifyExport };
