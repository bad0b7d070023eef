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
// shows 0) and send "input" and "change" events, as a typed and left box would, so the live
// preview (js/sheet.js, which waits for a pause) follows.
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
  input.dispatchEvent(new Event("change", { bubbles: true }));
});

document.addEventListener("input", (event) => {
  const wrap = event.target instanceof Element ? event.target.closest(".stepper") : null;
  if (wrap) stepperRefresh(wrap);
});

// Loaded async on the captain page: the document may still be parsing.
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => addSteppers(document), { once: true });
} else {
  addSteppers(document);
}
document.addEventListener("htmx:load", (event) => addSteppers(event.target));
document.addEventListener("sheet:swapped", (event) => addSteppers(event.target)); // js/sheet.js

// The check-in list (<input data-checkin-search>): after each tap on a row the search is
// cleared, the whole list comes back and the cursor is in the search again, ready for the
// next name. Without JavaScript the tap reloads the page, which does the same.
document.addEventListener("htmx:afterRequest", (event) => {
  // The tapped row (and its form) is swapped out by now; htmx then tells the list, and the
  // form that sent the request is in the request's configuration.
  const config = event.detail.requestConfig;
  const form = config && config.elt;
  const search = document.querySelector("[data-checkin-search]");
  if (!search || !(form instanceof HTMLFormElement) || !form.hasAttribute("data-checkin-toggle")) {
    return;
  }
  if (!event.detail.successful) return;
  if (search.value) {
    search.value = "";
    search.dispatchEvent(new Event("search"));
  }
  search.focus();
});

// A game's form saved through htmx (the sheet pages): a conflict (409) comes back as the
// sheet with its message, like a form with errors; htmx would otherwise leave 4xx unswapped.
document.addEventListener("htmx:beforeSwap", (event) => {
  const form = event.detail.requestConfig && event.detail.requestConfig.elt;
  if (event.detail.xhr.status === 409 && form instanceof HTMLFormElement && form.matches("form.game-form")) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
