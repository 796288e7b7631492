// The clock faces (as baffle_proto::faces) and their ticking: the server's time as this
// page estimates it, both faces of a clock at an instant, and the texts of every clock
// on the page rewritten only where a face changed.

import { tickDue } from "./dice.js";
import { SIDE_A, SIDE_B } from "./wire.js";

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

// Sets a text only when it changes: a tick that changes nothing costs no style or layout.
function setText(e, text) {
  if (e.textContent !== text) e.textContent = text;
}

// How long until a running face shows something else: its delay's tenths while the
// delay runs, then its main time's tenths under ten seconds, else its seconds.
function untilChange(face) {
  if (face.delay > 0) return 100;
  return face.main < 10_000 ? (face.main % 100) + 1 : (face.main % 1000) + 1;
}

// Writes the clock texts into every element marked with data-clock="<match> <a|b>",
// changing the page only where a face changed; returns how long until the next change
// (at most a second, which is also how soon a reveal's deadline turns "overdue").
function tick(states) {
  const now = serverNow();
  let next = 1000;
  for (const e of document.querySelectorAll("[data-clock]")) {
    const [id, side] = e.dataset.clock.split(" ");
    const s = states.get(id);
    const f = s && faces(s.clock, now);
    if (!f) { setText(e, "–"); continue; }
    const face = f[side === "a" ? 0 : 1];
    const box = e.closest(".side, .row");
    box.classList.toggle("run", face.running);
    box.classList.toggle("flag", face.flagged);
    setText(e, mmss(face.main));
    const delay = box.querySelector(".delay");
    if (delay) setText(delay, face.running && face.delay > 0 ? `+${(face.delay / 1000).toFixed(1)}` : "");
    if (face.running) next = Math.min(next, untilChange(face));
  }
  tickDue(now);
  return next;
}

export { serverNow, noteSent, faces, mmss, tick };
