// The stepping memory diagram, browser side.
// Every step's SVG and narration arrive as widget state; stepping only swaps
// them in, so no kernel round-trip is needed (Voila, saved widget state).
// Keys: ArrowRight/ArrowDown next, ArrowLeft/ArrowUp previous, Home/End.

function el(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

function render({ model, el: host }) {
  const root = el("div", {
    class: "md-widget", tabindex: "0", role: "group",
    "aria-roledescription": "step-through memory diagram",
    "aria-label": "Memory diagram. Use the left and right arrow keys to step.",
  });
  const controls = el("div", { class: "md-controls" });
  const prev = el("button", { class: "md-prev", type: "button", "aria-label": "previous step" }, "\u25c0 back");
  const next = el("button", { class: "md-next", type: "button", "aria-label": "next step" }, "forward \u25b6");
  const slider = el("input", { class: "md-slider", type: "range", min: "0", step: "1", "aria-label": "step" });
  const position = el("span", { class: "md-position", "aria-hidden": "true" });
  controls.append(prev, slider, next, position);
  const list = el("ol", { class: "md-statements" });
  const figure = el("div", { class: "md-figure" });
  const narration = el("pre", { class: "md-narration", "aria-live": "polite" });
  root.append(controls, list, figure, narration);
  host.appendChild(root);

  let current = -1;

  function count() { return model.get("svgs").length; }

  function buildList() {
    list.replaceChildren();
    model.get("statements").forEach((statement, i) => {
      const item = el("li", { "data-step": String(i) });
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
    narration.textContent = model.get("narrations")[i];
    slider.value = String(i);
    slider.setAttribute("aria-valuetext", `step ${i + 1} of ${n}`);
    position.textContent = `step ${i + 1} of ${n}`;
    prev.disabled = i === 0;
    next.disabled = i === n - 1;
    root.dataset.step = String(i + 1);
    list.querySelectorAll("li").forEach((item, j) => {
      item.classList.toggle("md-current", j === i);
      if (j === i) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    });
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
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (event.key in moves) go(current + moves[event.key]);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(count() - 1);
    else return;
    event.preventDefault();
    event.stopPropagation();
  });

  const onStep = () => { if (model.get("step") !== current) show(model.get("step")); };
  const onData = () => { buildList(); show(Math.min(current < 0 ? 0 : current, count() - 1)); };
  model.on("change:step", onStep);
  model.on("change:svgs", onData);
  buildList();
  show(model.get("step"));
  return () => {
    model.off("change:step", onStep);
    model.off("change:svgs", onData);
  };
}

export default { render };
