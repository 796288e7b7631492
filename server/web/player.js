// A player's own side of a match with live dice (docs/dice.md, "Live dice"; docs/web.md,
// "A player's phone with live dice"). He types his code; the page makes his chain here
// from a secret tip (crypto.getRandomValues), commits its anchor, and keeps tip, length,
// side and code in this browser's localStorage, so a reload resumes. It then gives his
// next link by itself whenever a draw waits for it, and sends his own plays — a roll (his
// link goes with it), double, take, pass, press — with his code as the bearer token.

import { call, unary, commitChainRequest, giveLinkRequest, rollMessage,
  executeRequest, SIDE_A, SIDE_B } from "./wire.js";
import { t, refusal, language } from "./words.js";
import { el, setStatus } from "./ui.js";
import { fromHex, toHex, liveStep, playerCode, random, keptChain, keptChainKey } from "./dice.js";

// As the other clients make them (core's DEFAULT_CHAIN_LENGTH): more links than a
// 25-point match draws, and 4,096 hashes to make — well under a second here.
const LENGTH = 4096;

const wireSide = (side) => side === "A" ? SIDE_A : SIDE_B;
const chainIn = (s, side) => side === "A" ? s.live_dice.chain_a : s.live_dice.chain_b;
const givenIn = (w, side) => side === "A" ? w.given_a : w.given_b;

// The whole chain, links[0] the anchor to links[length] the tip, made once per page load
// from what is kept: link_{i-1} = step(link_i), bound to the server's commitment, the
// match and the side. Kept in memory only; the tip alone is stored.
const chains = new Map();
function chainOf(match, mine) {
  const id = `${match}:${mine.side}:${mine.tip}`;
  if (!chains.has(id)) {
    chains.set(id, (async () => {
      const server = fromHex(mine.server, "the server's commitment");
      const links = new Array(mine.length + 1);
      links[mine.length] = fromHex(mine.tip, "the tip");
      for (let i = mine.length; i > 0; i--) links[i - 1] = await liveStep(server, match, mine.side, links[i]);
      return links;
    })());
  }
  return chains.get(id);
}

// His next link: number length − left + 1, `left` as the latest state says (a reload
// never loses count), and only if it hashes to the chain's last public value — a chain
// this browser did not commit is never given.
async function nextLink(s, mine) {
  const chain = s.live_dice && chainIn(s, mine.side);
  if (!chain) throw new Error("the chain is not committed yet");
  const links = await chainOf(s.match_id, mine);
  const i = mine.length - chain.left + 1;
  if (i < 1 || i > mine.length || toHex(links[i - 1]) !== chain.head) {
    throw new Error("the chain kept in this browser is not the one the match holds");
  }
  return links[i];
}

async function asPlayer(path, request, code) {
  for await (const _ of call(path, request, undefined, { authorization: `Bearer ${code}` })) return;
}

// Makes, keeps and commits a chain for the side of `code`. Kept before it is sent, so a
// reload while the commitment is on its way still has the tip; put back as it was if
// the server refuses it.
async function commitChain(match, code) {
  const side = playerCode(code, match);
  const answer = await unary("/baffle.v1.Audit/GetCommitment", { match_id: match });
  const mine = { code: code.trim(), side, tip: toHex(random(32)), length: LENGTH, server: answer.commitment };
  const links = await chainOf(match, mine);
  // Kept to find his chain in the log afterwards (the verifier checks it; he can give it
  // to `baffle audit verify --player-commit`).
  mine.anchor = toHex(links[0]);
  const before = localStorage.getItem(keptChainKey(match, side));
  localStorage.setItem(keptChainKey(match, side), JSON.stringify(mine));
  try {
    await asPlayer("/baffle.v1.Audit/CommitChain", commitChainRequest(match, wireSide(side), links[0], LENGTH), mine.code);
  } catch (e) {
    if (before === null) localStorage.removeItem(keptChainKey(match, side));
    else localStorage.setItem(keptChainKey(match, side), before);
    throw e;
  }
  return side;
}

const fresh = (match) => unary("/baffle.v1.Tournaments/GetMatch", { match_id: match });
const failed = (e) => setStatus(t("live-failed", { error: refusal(e.message) }), true);

// The links on their way, by side and links left, so each is sent once.
const giving = new Set();

// Gives this browser's player's next link whenever the state shows a draw waiting for
// it: nobody has to press anything for the draw he did not ask for.
function followLive(s, redraw) {
  const w = s.live_dice && s.live_dice.waiting;
  if (!w || s.result) return;
  for (const side of ["A", "B"]) {
    const mine = keptChain(s.match_id, side), chain = chainIn(s, side);
    if (!mine || !chain || givenIn(w, side)) continue;
    const id = `${s.match_id}:${side}:${chain.left}`;
    if (giving.has(id)) continue;
    giving.add(id);
    (async () => {
      try {
        const link = await nextLink(s, mine);
        await asPlayer("/baffle.v1.Audit/GiveLink", giveLinkRequest(s.match_id, wireSide(side), link), mine.code);
      } catch (e) {
        giving.delete(id);
        failed(e);
      }
      redraw();
    })();
  }
}

// The player's buttons: each sends his own play with his code; the server refuses what
// is not his to play now, and the page says why.
function controls(s, mine, name, redraw) {
  const side = wireSide(mine.side);
  const button = (words, command, value) => {
    const b = el("button", { type: "button", "data-play": command }, words);
    b.addEventListener("click", async () => {
      try {
        await asPlayer("/baffle.v1.Matches/Execute", executeRequest(s.match_id, command, await value()), mine.code);
      } catch (e) {
        failed(e);
      }
      redraw();
    });
    return b;
  };
  const same = async () => side;
  const anchor = mine.anchor ? el("p", { class: "anchor", title: mine.anchor }, t("live-anchor", { anchor: mine.anchor.slice(0, 16) })) : "";
  return el("div", { class: "plays", "data-side": mine.side }, el("p", {}, t("live-mine", { name })), anchor,
    // The roll's link from the match as it stands now, not as the panel was drawn: a
    // phone behind by a draw would give a link already spent.
    button(t("live-roll"), "roll", async () => rollMessage(side, await nextLink(await fresh(s.match_id), mine))),
    button(t("live-double"), "double", same), button(t("live-take"), "take", same),
    button(t("live-pass"), "pass", same), button(t("live-press"), "press", same));
}

// What was typed in the code's field, by match: the panel is drawn again at every update,
// and the other player's commitment must not wipe a code half typed.
const drafts = new Map();
function codeForm(s, redraw) {
  const input = el("input", { type: "password", placeholder: t("seed-code"), "aria-label": t("seed-code"), autocomplete: "off" });
  input.value = drafts.get(s.match_id) || "";
  input.addEventListener("input", () => drafts.set(s.match_id, input.value));
  const form = el("form", {}, input, el("button", { type: "submit" }, t("live-start")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const side = await commitChain(s.match_id, input.value);
      drafts.delete(s.match_id);
      setStatus(t("live-started", { side }), false);
    } catch (e) {
      failed(e);
    }
    redraw();
  });
  return form;
}

// The live dice panel, in place of the players' seeds: each chain as the log knows it,
// whose link a waiting draw needs, and this browser's player's controls or the place for
// his code.
function livePanel(s, redraw) {
  const names = { A: s.player_a, B: s.player_b };
  const said = ["A", "B"].map((side) => {
    const chain = chainIn(s, side);
    return chain ? t("live-chain", { name: names[side], left: chain.left }) : t("live-no-chain", { name: names[side] });
  });
  const panel = el("div", { class: "seeds live-dice" }, el("p", {}, said.join(" · ")));
  const w = s.live_dice.waiting;
  if (w) {
    const missing = ["A", "B"].filter((side) => !givenIn(w, side)).map((side) => names[side]);
    const list = new Intl.ListFormat(language(), { type: "conjunction" }).format(missing);
    panel.append(el("p", { class: "waiting" }, t("live-waiting", { names: list })));
  }
  const mine = ["A", "B"].map((side) => keptChain(s.match_id, side)).filter(Boolean);
  for (const m of mine) panel.append(controls(s, m, names[m.side], redraw));
  if (!mine.length && !s.result) panel.append(codeForm(s, redraw));
  return panel;
}

export { livePanel, followLive };
