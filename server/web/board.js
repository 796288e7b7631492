// The board of a match that records moves (issue 23, docs/board.md): an SVG drawn from
// `MatchState.board`, from either player's side, with the cube, the dice of the turn, the
// point numbers on the frame (never under a checker), a legend of the colours, the pip
// counts, and links to download the match as gnubg reads it (.mat, .sgf). Issue 31.

import { t } from "./words.js";

const NS = "http://www.w3.org/2000/svg";
// Columns, the bar, the margins, the playing field's height, a point's length, a checker's
// radius, the strips above and below the field where the point numbers are, the gutter at
// the right for the cube and the checkers off.
const COL = 22, BAR = 14, LEFT = 6, TOP = 6, HEIGHT = 220, POINT = 88, R = 10, NUM = 12, GUTTER = 30;
const DIE = 18;

function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// The x of a column, 0–11 left to right, the bar between columns 5 and 6.
const colX = (c) => LEFT + c * COL + (c >= 6 ? BAR : 0);

// Where the viewer's point v (1–24) is drawn: bottom row 12…1 left to right, top row 13…24.
function place(v) {
  return v <= 12 ? { col: 12 - v, bottom: true } : { col: v - 13, bottom: false };
}

// Checkers of `mine` (the viewer's) and `theirs` on the viewer's point v.
function counts(board, viewer, v) {
  const [own, other] = viewer === "a" ? [board.checkers_a, board.checkers_b] : [board.checkers_b, board.checkers_a];
  return { mine: own[v - 1] || 0, theirs: other[25 - v - 1] || 0 };
}

// The playing field runs from y = NUM to NUM + HEIGHT; the numbers are outside it.
const FIELD_TOP = NUM, FIELD_BOTTOM = NUM + HEIGHT;

function stack(g, x, bottom, n, cls, label) {
  for (let i = 0; i < Math.min(n, 5); i++) {
    const cy = bottom ? FIELD_BOTTOM - TOP - R - i * 2 * R : FIELD_TOP + TOP + R + i * 2 * R;
    g.append(svg("circle", { cx: x + COL / 2, cy, r: R - 1, class: `ck ${cls}`, "data-point": label }));
  }
  if (n > 5) {
    const cy = bottom ? FIELD_BOTTOM - TOP - R - 8 * R : FIELD_TOP + TOP + R + 8 * R;
    g.append(svg("text", { x: x + COL / 2, y: cy + 4, class: "count" }, String(n)));
  }
}

// The pips of a die's face, on a 3 × 3 grid (0–8, row by row).
const FACES = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

// The dice of the turn, in the middle of the right half, the roller's colour.
function dice(root, s, roller) {
  const values = (s.dice || []).filter((d) => d >= 1 && d <= 6);
  if (!values.length) return;
  const g = svg("g", { class: `dice ${roller}`, role: "img", "aria-label": t("page-dice-label", { dice: values.join("-") }) });
  const mid = (colX(6) + colX(11) + COL) / 2;
  const x0 = mid - (values.length * DIE + (values.length - 1) * 6) / 2;
  values.forEach((d, i) => {
    const x = x0 + i * (DIE + 6), y = FIELD_TOP + HEIGHT / 2 - DIE / 2;
    const die = svg("g", { class: "die", "data-value": String(d) });
    die.append(svg("rect", { x, y, width: DIE, height: DIE, rx: 3 }));
    for (const p of FACES[d]) {
      die.append(svg("circle", { cx: x + 4.5 + (p % 3) * 4.5, cy: y + 4.5 + Math.floor(p / 3) * 4.5, r: 1.6, class: "pip" }));
    }
    g.append(die);
  });
  root.append(g);
}

// The board seen by `viewer` ("a" or "b"): his home board bottom right.
export function boardSvg(s, viewer) {
  const b = s.board;
  const width = colX(11) + COL + LEFT + GUTTER;
  const height = HEIGHT + 2 * NUM;
  const name = viewer === "a" ? s.player_a : s.player_b;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "board", "data-viewer": viewer,
    role: "img", "aria-label": t("page-board-label", { name }) });
  root.append(svg("rect", { x: 0, y: FIELD_TOP, width: width - GUTTER, height: HEIGHT, class: "felt" }));
  root.append(svg("rect", { x: colX(6) - BAR, y: FIELD_TOP, width: BAR, height: HEIGHT, class: "bar" }));
  const [me, them] = viewer === "a" ? ["a", "b"] : ["b", "a"];
  for (let v = 1; v <= 24; v++) {
    const { col, bottom } = place(v);
    const x = colX(col);
    const tip = bottom ? FIELD_BOTTOM - TOP - POINT : FIELD_TOP + TOP + POINT;
    const base = bottom ? FIELD_BOTTOM : FIELD_TOP;
    root.append(svg("polygon", { points: `${x},${base} ${x + COL},${base} ${x + COL / 2},${tip}`, class: v % 2 ? "pt odd" : "pt even" }));
    // On the frame, outside the field: a checker never covers its point's number.
    root.append(svg("text", { x: x + COL / 2, y: bottom ? height - 3 : NUM - 3, class: "num" }, String(v)));
    const { mine, theirs } = counts(b, viewer, v);
    if (mine) stack(root, x, bottom, mine, me, String(v));
    if (theirs) stack(root, x, bottom, theirs, them, String(v));
  }
  // The bar: the viewer's checkers on it nearer him (below the middle).
  const barX = colX(6) - BAR - (COL - BAR) / 2;
  const onBar = { a: b.checkers_a[24] || 0, b: b.checkers_b[24] || 0 };
  if (onBar[me]) stack(root, barX, true, onBar[me], me, "bar");
  if (onBar[them]) stack(root, barX, false, onBar[them], them, "bar");
  dice(root, s, s.turn_side === 2 ? "b" : "a");
  // The cube: in the middle, 64 up as a real one is (worth 1, as the chip says), or
  // beside its owner showing its value; none in the Crawford game.
  if (!s.crawford) {
    const owner = s.cube_owner === 1 ? "a" : s.cube_owner === 2 ? "b" : "";
    const value = Math.max(s.cube_value, 1);
    const y = owner === me ? FIELD_BOTTOM - 30 : owner === them ? FIELD_TOP + 6 : FIELD_TOP + HEIGHT / 2 - 12;
    const cube = svg("g", { class: "cube-drawn", "data-owner": owner || "middle", "data-value": String(value) });
    cube.append(svg("title", {}, owner ? t("page-board-cube", { value }) : t("page-cube-centre", { value })));
    cube.append(svg("rect", { x: width - 28, y, width: 24, height: 24, rx: 3, class: "cube" }));
    cube.append(svg("text", { x: width - 16, y: y + 16, class: "cube-value" }, String(owner ? value : 64)));
    root.append(cube);
  }
  const off = { a: b.borne_off[0] || 0, b: b.borne_off[1] || 0 };
  root.append(svg("text", { x: width - 16, y: FIELD_BOTTOM - 40, class: "off" }, off[me] ? t("page-board-off", { count: off[me] }) : ""));
  root.append(svg("text", { x: width - 16, y: FIELD_TOP + 46, class: "off" }, off[them] ? t("page-board-off", { count: off[them] }) : ""));
  return root;
}

// The board panel: the SVG, which colour is whose, the pip counts, a button to turn it,
// the downloads.
export function boardPanel(s, viewer, el, { onFlip, onExport }) {
  // No adjudication help here: players read this page during play (1.7); it is the
  // director's, from Matches.Adjudicate.
  const pips = t("page-pips", { a: s.player_a, pa: s.board.pips[0] || 0, b: s.player_b, pb: s.board.pips[1] || 0 });
  const flip = el("button", { type: "button", class: "flip" }, t("page-board-turn", { name: viewer === "a" ? s.player_a : s.player_b }));
  flip.addEventListener("click", onFlip);
  const download = (format) => {
    const a = el("a", { href: "#", class: "download", "data-format": format },
      t("page-download", { format }));
    a.addEventListener("click", (e) => { e.preventDefault(); onExport(format); });
    return a;
  };
  const legend = el("p", { class: "legend" },
    el("span", { "data-side": "a" }, el("span", { class: "swatch a", "aria-hidden": "true" }), t("page-legend-a", { name: s.player_a })),
    el("span", { "data-side": "b" }, el("span", { class: "swatch b", "aria-hidden": "true" }), t("page-legend-b", { name: s.player_b })));
  return el("div", { class: "board-panel" }, boardSvg(s, viewer), legend,
    el("p", { class: "pips" }, pips),
    el("div", { class: "board-actions" }, flip, download("mat"), download("sgf")));
}
