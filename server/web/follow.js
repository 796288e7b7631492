// Following a view: its feed kept open through any end or error (reconnecting with a
// growing pause), the view being shown (left when the route changes) and its clocks
// ticked until then.

import { t } from "./words.js";
import { setStatus } from "./ui.js";
import { tick } from "./clock.js";

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
      setStatus(`${t("status-reconnecting")} (${e.message})`, true);
    }
    if (stop.aborted) return;
    setStatus(t("status-reconnecting"), true);
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 2, 5000);
  }
}

let current = null; // { stop: AbortController, timer }

function leave() {
  if (!current) return;
  current.stop.abort();
  clearTimeout(current.timer);
  current = null;
}

// Ticks the clocks of `states` each time a face is due to change (not ten times a
// second whatever they show), until the view `following` is left. Returns the tick, to
// call at once after a drawing (a clock that starts is then ticked from its start).
function ticking(states, following = current) {
  const step = () => {
    clearTimeout(following.timer);
    if (following.stop.signal.aborted) return;
    following.timer = setTimeout(step, tick(states));
  };
  step();
  return step;
}

// Makes `following` ({ stop: AbortController, timer }) the view being shown; returns it.
function follow(following) {
  current = following;
  return following;
}

export { keepFollowing, leave, follow, ticking };
