// The board of a match that records moves (issue 23, docs/board.md): an SVG drawn from
// `MatchState.board`, from either player's side, with the cube and the pip counts, and
// links to download the match as gnubg reads it (.mat, .sgf).

const NS = "http://www.w3.org/2000/svg";
const COL = 22, BAR = 14, LEFT = 6, TOP = 6, HEIGHT = 220, POINT = 88, R = 10;

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

function stack(g, x, bottom, n, cls, label) {
  for (let i = 0; i < Math.min(n, 5); i++) {
    const cy = bottom ? HEIGHT - TOP - R - i * 2 * R : TOP + R + i * 2 * R;
    g.append(svg("circle", { cx: x + COL / 2, cy, r: R - 1, class: `ck ${cls}`, "data-point": label }));
  }
  if (n > 5) {
    const cy = bottom ? HEIGHT - TOP - R - 8 * R : TOP + R + 8 * R;
    g.append(svg("text", { x: x + COL / 2, y: cy + 4, class: "count" }, String(n)));
  }
}

// The board seen by `viewer` ("a" or "b"): his home board bottom right.
export function boardSvg(s, viewer) {
  const b = s.board;
  const width = colX(11) + COL + LEFT + 30;
  const root = svg("svg", { viewBox: `0 0 ${width} ${HEIGHT}`, class: "board", "data-viewer": viewer });
  root.append(svg("rect", { x: 0, y: 0, width: width - 30, height: HEIGHT, class: "felt" }));
  root.append(svg("rect", { x: colX(6) - BAR, y: 0, width: BAR, height: HEIGHT, class: "bar" }));
  const [me, them] = viewer === "a" ? ["a", "b"] : ["b", "a"];
  for (let v = 1; v <= 24; v++) {
    const { col, bottom } = place(v);
    const x = colX(col);
    const tip = bottom ? HEIGHT - TOP - POINT : TOP + POINT;
    const base = bottom ? HEIGHT : 0;
    root.append(svg("polygon", { points: `${x},${base} ${x + COL},${base} ${x + COL / 2},${tip}`, class: v % 2 ? "pt odd" : "pt even" }));
    root.append(svg("text", { x: x + COL / 2, y: bottom ? HEIGHT - 1 : 9, class: "num" }, String(v)));
    const { mine, theirs } = counts(b, viewer, v);
    if (mine) stack(root, x, bottom, mine, me, String(v));
    if (theirs) stack(root, x, bottom, theirs, them, String(v));
  }
  // The bar: the viewer's checkers on it nearer him (below the middle).
  const barX = colX(6) - BAR - (COL - BAR) / 2;
  const onBar = { a: b.checkers_a[24] || 0, b: b.checkers_b[24] || 0 };
  if (onBar[me]) stack(root, barX, true, onBar[me], me, "bar");
  if (onBar[them]) stack(root, barX, false, onBar[them], them, "bar");
  // The cube: in the middle, or beside its owner; and the checkers off, at the right.
  if (!s.crawford) {
    const owner = s.cube_owner === 1 ? "a" : s.cube_owner === 2 ? "b" : "";
    const y = owner === me ? HEIGHT - 30 : owner === them ? 6 : HEIGHT / 2 - 12;
    root.append(svg("rect", { x: width - 28, y, width: 24, height: 24, rx: 3, class: "cube" }));
    root.append(svg("text", { x: width - 16, y: y + 16, class: "cube-value" }, String(Math.max(s.cube_value, 1) === 1 ? 64 : s.cube_value)));
  }
  const off = { a: b.borne_off[0] || 0, b: b.borne_off[1] || 0 };
  root.append(svg("text", { x: width - 16, y: HEIGHT - 40, class: "off" }, off[me] ? `${off[me]} off` : ""));
  root.append(svg("text", { x: width - 16, y: 46, class: "off" }, off[them] ? `${off[them]} off` : ""));
  return root;
}

// The board panel: the SVG, the pip counts, a button to turn it, the downloads.
export function boardPanel(s, viewer, el, { onFlip, onExport }) {
  // No adjudication help here: players read this page during play (1.7); it is the
  // director's, from Matches.Adjudicate.
  const pips = `pips ${s.player_a} ${s.board.pips[0] || 0} · ${s.player_b} ${s.board.pips[1] || 0}`;
  const flip = el("button", { class: "flip" }, `seen by ${viewer === "a" ? s.player_a : s.player_b}: turn`);
  flip.addEventListener("click", onFlip);
  const download = (format, label) => {
    const a = el("a", { href: "#", class: "download", "data-format": format }, label);
    a.addEventListener("click", (e) => { e.preventDefault(); onExport(format); });
    return a;
  };
  return el("div", { class: "board-panel" }, boardSvg(s, viewer),
    el("p", { class: "pips" }, pips), flip, " ", download("mat", "download .mat"), " ", download("sgf", "download .sgf"));
}
