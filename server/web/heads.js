// Signed heads, checked and kept in this browser (docs/audit-log.md, "Signed heads and
// witnesses"; docs/web.md). Every state the server sends carries its head signed with the
// server's Ed25519 key; the page checks each signature with WebCrypto and keeps the heads
// it checked in localStorage, per match, so the phone is a witness: what the server
// showed it, it can show anyone, and a second head signed for a length already kept is
// the server signing two histories.

import { utf8Encode } from "./wire.js";
import { t } from "./words.js";
import { el } from "./ui.js";

const LABEL = utf8Encode.encode("baffle-head-v1");
const KEPT_PER_MATCH = 2000;
const storageKey = (match) => `baffle-heads:${match}`;

// The verdict on each match's latest head: match id → [message id, arguments].
export const headVerdicts = new Map();
// Heads being checked or checked already, so that each is checked once.
const seen = new Set();

const HEX = /^[0-9a-f]*$/;
function fromHex(h, bytes) {
  if (typeof h !== "string" || h.length !== 2 * bytes || !HEX.test(h)) throw new Error("not lower-case hex");
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return out;
}
function be(n, width) {
  const out = new Uint8Array(width);
  let v = BigInt(n);
  for (let i = width - 1; i >= 0; i--) { out[i] = Number(v & 0xffn); v >>= 8n; }
  return out;
}
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) { out.set(p, i); i += p.length; }
  return out;
}
const lp = (b) => concat(be(b.length, 4), b);

// LP("baffle-head-v1") || LP(match_id) || u64_be(length) || head: what the server signed.
function statement(h) {
  return concat(lp(LABEL), lp(utf8Encode.encode(h.match_id)), be(h.length, 8), fromHex(h.head, 32));
}

async function signatureChecks(h) {
  const key = await crypto.subtle.importKey("raw", fromHex(h.signer, 32), { name: "Ed25519" }, false, ["verify"]);
  return crypto.subtle.verify({ name: "Ed25519" }, key, fromHex(h.signature, 64), statement(h));
}

// The heads this browser kept for `match`, oldest first.
export function keptHeads(match) {
  try {
    const heads = JSON.parse(localStorage.getItem(storageKey(match)) || "[]");
    return Array.isArray(heads) ? heads : [];
  } catch {
    return [];
  }
}

function keep(h) {
  const heads = keptHeads(h.match_id);
  if (heads.some((k) => k.length === h.length && k.head === h.head)) return;
  heads.push({ match_id: h.match_id, length: h.length, head: h.head, signature: h.signature, signer: h.signer });
  try {
    localStorage.setItem(storageKey(h.match_id), JSON.stringify(heads.slice(-KEPT_PER_MATCH)));
  } catch {
    // A full storage keeps what it has; the check above still ran.
  }
}

// Checks the signed head of state `s` (each head once), keeps it if it checks, and calls
// `redraw` once the verdict is in.
export function checkHead(s, redraw) {
  const h = s.signed_head;
  if (!h || !h.signature) {
    headVerdicts.set(s.match_id, ["head-unsigned", {}]);
    return;
  }
  const tag = `${h.match_id} ${h.length} ${h.head} ${h.signature}`;
  if (seen.has(tag)) return;
  seen.add(tag);
  const key = h.signer.slice(0, 8);
  signatureChecks(h).then((ok) => {
    const fits = h.match_id === s.match_id && h.length === s.seq && h.head === s.head_hash;
    if (!ok || !fits) {
      headVerdicts.set(s.match_id, ["head-signature-bad", {}]);
    } else {
      const other = keptHeads(s.match_id).find((k) => k.length === h.length && k.head !== h.head && k.signer === h.signer);
      keep(h);
      headVerdicts.set(s.match_id, other ? ["head-two-histories", { key }] : ["head-signed", { key }]);
    }
    redraw();
  }, () => {
    // A browser without Ed25519 in WebCrypto: the key is shown, the signature unchecked.
    headVerdicts.set(s.match_id, ["head-signed-unchecked", { key }]);
    redraw();
  });
}

// The line of the match view that says who signed the head shown.
export function headLine(s) {
  const [id, args] = headVerdicts.get(s.match_id) || ["head-checking", {}];
  const signer = s.signed_head ? s.signed_head.signer : "";
  return el("p", { class: "heads", "data-signer": signer }, t(id, args));
}
