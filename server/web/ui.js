// The page's few DOM helpers, shared by its modules: where the views draw (the view and
// its title), an element maker, the status line, and the polite announcer that tells a
// screen reader of a change of score or clock.

export const view = document.getElementById("view");
export const title = document.getElementById("title");
const statusLine = document.getElementById("status");
const announcer = document.getElementById("announce");

// An element with attributes and children (strings or nodes; "" adds nothing).
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

export function setStatus(text, down) {
  statusLine.textContent = text;
  statusLine.className = down ? "down" : "";
}

// Says `text` to a screen reader once, politely (aria-live="polite"): only when it
// changes, so a ticking clock is not read out every tenth of a second.
export function announce(text) {
  if (announcer.textContent !== text) announcer.textContent = text;
}

// Folds a name for searching: no case, no accents ("Παπαδόπουλος" ~ "παπαδοπουλος"),
// Greek final sigma as any other.
export const fold = (s) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/ς/g, "σ");
