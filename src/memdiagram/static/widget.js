// The stepping memory diagram, browser side.
// Every step's SVG and narration arrive as widget state; stepping only swaps
// them in, so no kernel round-trip is needed (Voila, saved widget state).
// Keys: ArrowRight/ArrowDown next, ArrowLeft/ArrowUp previous, Home/End.
//
// Fitting: each SVG lists the ways its three panels can be arranged
// (data-arrangements). The figure shows the widest one that fits the width it
// has (shrunk by at most 4%); when none fits, the panels are stacked and each
// one wider than the width is shrunk on its own. This is
// memdiagram._layout.fit, step for step. It refits when its width changes.
//
// Fitting the height: on a laptop (1366x768) the figure, fitted to the width,
// is taller than what the notebook shows. Then the statements and the
// narration move beside the picture, and the picture is drawn smaller (the
// same arrangement, scaled down as a whole) so that the controls, the picture
// and the narration are on screen together; but never so small that the
// boxes' text is below MIN_TEXT pixels. A picture still taller than the
// screen (beside the narration, or above it when it is too wide for that)
// then scrolls inside its own frame, and the controls and the narration stay
// in view.

const SHRINK = 0.96;
const MIN_TEXT = 12;      // px: fitting the height never draws the boxes' text smaller than this
const MIN_FRAME = 160;    // px: a lower window lets the page scroll instead of a picture frame this small
const SIDE = 260;         // the narrowest column for the statements and the narration
const GAP = 12;

function el(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

function fitted(arrangements, width) {
  let chosen = arrangements[arrangements.length - 1];
  for (const a of arrangements) {
    if (a.width * SHRINK <= width) { chosen = a; break; }
  }
  if (!chosen.stack || chosen.width <= width) {
    const panels = {};
    for (const [name, [x, y]] of Object.entries(chosen.panels)) panels[name] = [x, y, 1];
    return { name: chosen.name, width: chosen.width, height: chosen.height,
             scale: Math.min(1, width / chosen.width), panels, arrows: chosen.arrows };
  }
  const panels = {};
  let y = 0, right = 0;
  for (const [name, x, gap] of chosen.stack) {
    const [w, h] = chosen.sizes[name];
    const scale = Math.min(1, (width - 2 * x) / w);
    y += gap;
    panels[name] = [x, y, scale];
    y += h * scale;
    right = Math.max(right, 2 * x + w * scale);
  }
  return { name: chosen.name, width: right, height: y + 8, scale: 1, panels, arrows: chosen.arrows };
}

// Arrange the panels of one SVG for `width` pixels and scale it to fit.
function fit(svg, width) {
  let arrangements;
  try { arrangements = JSON.parse(svg.dataset.arrangements || "[]"); } catch (error) { return; }
  if (!arrangements.length || !(width > 0)) return;
  const f = fitted(arrangements, width);
  for (const [name, [x, y, scale]] of Object.entries(f.panels)) {
    const panel = svg.querySelector(`g.md-panel[data-panel="${name}"]`);
    if (!panel) continue;
    let transform = `translate(${Math.round(x)},${Math.round(y)})`;
    if (scale !== 1) transform += ` scale(${scale.toFixed(4)})`;
    panel.setAttribute("transform", transform);
  }
  const arrows = svg.querySelector("g.md-storage-arrows");
  if (arrows) {
    if (f.arrows) arrows.removeAttribute("display");
    else arrows.setAttribute("display", "none");
  }
  const w = Math.round(f.width), h = Math.round(f.height);
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("width", String(Math.floor(w * f.scale)));
  svg.setAttribute("height", String(Math.floor(h * f.scale)));
  svg.removeAttribute("style");
  svg.dataset.arrangement = f.name;
  svg.dataset.scale = f.scale.toFixed(3);
  svg.dataset.fitWidth = String(Math.floor(width));
  return [Math.floor(w * f.scale), Math.floor(h * f.scale)];
}

// The height the learner sees of the page around `node`: the lowest of its scrolling ancestors
// (JupyterLab's notebook; an output area that may scroll sits inside it, as tall as the widget
// unless it scrolls itself) and the window.
function visibleHeight(node) {
  let height = window.innerHeight;
  for (let p = node.parentElement; p; p = p.parentElement) {
    const overflow = getComputedStyle(p).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && p.clientHeight > 0) {
      height = Math.min(height, p.clientHeight);
    }
  }
  return height;
}

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

// The controls' words: the widget's own (in the notebook's language), else English.
const WORDS = {
  role: "step-through memory diagram",
  label: "Memory diagram. Use the left and right arrow keys to step.",
  previous: "previous step", next: "next step", back: "\u25c0 back", forward: "forward \u25b6",
  step: "step", step_of: "step {i} of {n}", full_state: "Full state", this_step: "this step",
};

function render({ model, el: host }) {
  const words = { ...WORDS, ...(model.get("words") || {}) };
  const stepOf = (i, n) => words.step_of.replace("{i}", String(i)).replace("{n}", String(n));
  const root = el("div", {
    class: "md-widget", tabindex: "0", role: "group",
    "aria-roledescription": words.role,
    "aria-label": words.label,
  });
  const controls = el("div", { class: "md-controls" });
  const prev = el("button", { class: "md-prev", type: "button", "aria-label": words.previous }, words.back);
  const next = el("button", { class: "md-next", type: "button", "aria-label": words.next }, words.forward);
  const slider = el("input", { class: "md-slider", type: "range", min: "0", step: "1", "aria-label": words.step });
  const position = el("span", { class: "md-position", "aria-hidden": "true" });
  controls.append(prev, slider, next, position);
  const list = el("ol", { class: "md-statements" });
  const figure = el("div", { class: "md-figure" });
  const narration = el("div", { class: "md-narration" });
  const now = el("div", { class: "md-now", "aria-live": "polite" });
  const details = el("details", { class: "md-state" });
  details.append(el("summary", {}, words.full_state));
  const state = el("div", { class: "md-state-body" });
  details.append(state);
  narration.append(now, details);
  const side = el("div", { class: "md-side" });
  side.append(list, narration);
  const body = el("div", { class: "md-body" });
  body.append(figure, side);
  root.append(controls, body);
  host.appendChild(root);

  let current = -1;

  function count() { return model.get("svgs").length; }

  // Fit the picture to the widget's whole width; when it is then taller than the screen
  // leaves under the controls, put the statements and the narration beside it, drawn smaller.
  function refit() {
    const svg = figure.querySelector("svg.md-diagram");
    if (!svg) return;
    const width = body.clientWidth - 2;  // the figure's border
    const size = fit(svg, width);
    if (!size) return;
    const [w, h] = size;
    const room = visibleHeight(root) - controls.offsetHeight - 24;
    // the statements and the narration under the picture (this step's, at least a short one)
    const below = Math.min(list.scrollHeight, 150) + Math.max(120, narration.offsetHeight + 16);
    // the smallest scale that keeps the text at MIN_TEXT px (1 when the width already shrank it)
    const text = (Number(svg.getAttribute("font-size")) || MIN_TEXT) * Number(svg.dataset.scale || 1);
    const least = Math.min(1, MIN_TEXT / text);
    // beside: as large as the height allows, but not below `least`, and leaving SIDE pixels
    let scale = Math.min(1, Math.max(least, room / h), (width - SIDE - GAP) / w);
    const beside = h + below > room && scale >= least - 1e-6;
    if (!beside) scale = 1;  // a narrow widget: one column, the learner scrolls
    root.classList.toggle("md-beside", beside);
    if (scale < 1) {
      svg.style.width = `${Math.floor(w * scale)}px`;
      svg.style.height = `${Math.floor(h * scale)}px`;
    }
    // still taller than the room at readable text (beside, or one column above the statements and
    // the narration): the picture scrolls in its own frame, and controls and narration stay in view
    const frame = Math.floor(beside ? room : room - below);
    const tall = h * scale > frame && frame >= MIN_FRAME;
    figure.style.maxHeight = tall ? `${frame}px` : "";
    figure.style.overflowY = tall ? "auto" : "";
    svg.dataset.heightScale = scale.toFixed(3);
  }

  function showCurrent() {  // keep the current statement in view inside the list, not the page
    const item = list.querySelector("li.md-current");
    if (!item || list.scrollHeight <= list.clientHeight) return;
    const top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }

  function buildList() {
    list.replaceChildren();
    model.get("statements").forEach((statement, i) => {
      const item = el("li", { "data-step": String(i), "data-this-step": words.this_step });
      item.appendChild(el("code", {}, statement));
      item.addEventListener("click", () => go(i));
      list.appendChild(item);
    });
    slider.max = String(Math.max(0, count() - 1));
  }

  function show(i) {
    const n = count();
    if (n === 0) return;
    i = Math.max(0, Math.min(n - 1, i));
    current = i;
    figure.innerHTML = model.get("svgs")[i];
    const changes = model.get("changes_html") || [];
    const full = model.get("state_html") || [];
    if (changes.length === n) {
      now.innerHTML = changes[i];
      state.innerHTML = full[i] || "";
      details.hidden = !full[i];
    } else {  // widget state saved by an older version: plain text only
      now.innerHTML = `<p class="md-plain">${escapeHtml(model.get("narrations")[i] || "")}</p>`;
      details.hidden = true;
    }
    refit();  // after the narration: how tall it is decides how much height the picture gets
    slider.value = String(i);
    slider.setAttribute("aria-valuetext", stepOf(i + 1, n));
    position.textContent = stepOf(i + 1, n);
    prev.disabled = i === 0;
    next.disabled = i === n - 1;
    root.dataset.step = String(i + 1);
    list.querySelectorAll("li").forEach((item, j) => {
      item.classList.toggle("md-current", j === i);
      if (j === i) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    });
    showCurrent();
  }

  function go(i) {
    show(i);
    if (model.get("step") !== current) {
      try {
        model.set("step", current);
        model.save_changes();
      } catch (error) {
        // no kernel (a saved notebook): stepping still works locally
      }
    }
  }

  prev.addEventListener("click", () => go(current - 1));
  next.addEventListener("click", () => go(current + 1));
  slider.addEventListener("input", () => go(Number(slider.value)));
  root.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("summary")) return;  // let the details toggle
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (event.key in moves) go(current + moves[event.key]);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(count() - 1);
    else return;
    event.preventDefault();
    event.stopPropagation();
  });

  let lastWidth = -1;
  const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => {
    if (body.clientWidth !== lastWidth) {
      lastWidth = body.clientWidth;
      refit();
    }
  });
  if (observer) observer.observe(body);
  window.addEventListener("resize", refit);  // a lower window: less height for the picture

  const onStep = () => { if (model.get("step") !== current) show(model.get("step")); };
  const onData = () => { buildList(); show(Math.min(current < 0 ? 0 : current, count() - 1)); };
  model.on("change:step", onStep);
  model.on("change:svgs", onData);
  buildList();
  show(model.get("step"));
  return () => {
    if (observer) observer.disconnect();
    window.removeEventListener("resize", refit);
    model.off("change:step", onStep);
    model.off("change:svgs", onData);
  };
}

export default { render };
