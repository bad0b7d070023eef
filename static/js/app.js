// Behaviour the pages share, as a static file: the Content-Security-Policy allows no inline
// script or event handler.
//
// <form data-confirm="Question?">: ask before submitting; "Cancel" keeps the form unsent.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
  if (!window.confirm(form.dataset.confirm)) event.preventDefault();
});

// <input type="number" data-stepper data-less="one less" data-more="one more" aria-label="…">:
// a − and a + button around the box (the box stays typable; without JavaScript it is all
// there is). The buttons respect min and max, leave the box empty at 0 (its placeholder
// shows 0) and send an "input" event, so the live preview (htmx) follows.
const stepperValue = (input) => {
  const n = Number.parseInt(input.value, 10);
  return Number.isNaN(n) ? 0 : n;
};

const stepperBound = (input, name, fallback) => {
  const n = Number.parseInt(input.getAttribute(name) ?? "", 10);
  return Number.isNaN(n) ? fallback : n;
};

const stepperRefresh = (wrap) => {
  const input = wrap.querySelector("input");
  const value = stepperValue(input);
  wrap.querySelector("[data-step='-1']").disabled = value <= stepperBound(input, "min", -Infinity);
  wrap.querySelector("[data-step='1']").disabled = value >= stepperBound(input, "max", Infinity);
};

const stepperButton = (step, text, label) => {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "step secondary outline";
  button.dataset.step = String(step);
  button.textContent = text;
  button.setAttribute("aria-label", label);
  return button;
};

const addStepper = (input) => {
  if (input.closest(".stepper")) return;
  const name = input.getAttribute("aria-label") || input.labels?.[0]?.textContent.trim() || "";
  const wrap = document.createElement("span");
  wrap.className = "stepper";
  input.before(wrap);
  wrap.append(
    stepperButton(-1, "−", `${name}: ${input.dataset.less || "−1"}`),
    input,
    stepperButton(1, "+", `${name}: ${input.dataset.more || "+1"}`),
  );
  stepperRefresh(wrap);
};

const addSteppers = (root) => {
  root.querySelectorAll("input[data-stepper]").forEach(addStepper);
};

document.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest(".stepper [data-step]") : null;
  if (!button) return;
  const wrap = button.closest(".stepper");
  const input = wrap.querySelector("input");
  const low = stepperBound(input, "min", -Infinity);
  const high = stepperBound(input, "max", Infinity);
  const next = Math.min(high, Math.max(low, stepperValue(input) + Number(button.dataset.step)));
  input.value = next === 0 ? "" : String(next);
  stepperRefresh(wrap);
  input.dispatchEvent(new Event("input", { bubbles: true }));
});

document.addEventListener("input", (event) => {
  const wrap = event.target instanceof Element ? event.target.closest(".stepper") : null;
  if (wrap) stepperRefresh(wrap);
});

addSteppers(document);
document.addEventListener("htmx:load", (event) => addSteppers(event.target));
