// A table's sheet page (captain and organizer), in place of htmx, which this page no longer
// loads: the live preview after a pause, the polls of the table's clock and of a referee
// call, and a game's form saved in one round trip (the answer is the page's main part; the
// outbox sends a new game itself when it runs). Without JavaScript the forms post and the
// page loads again (post, redirect, get).
(() => {
  "use strict";

  let waiting = null; // the preview's timer

  const outboxPending = () => document.body.dataset.outboxPending;
  const headers = () => {
    const sent = { "HX-Request": "true" }; // the views answer with the page's main part
    if (outboxPending() !== undefined) sent["X-Outbox-Pending"] = outboxPending();
    return sent;
  };
  const send = (url, form) =>
    fetch(url, {
      method: form ? "POST" : "GET",
      body: form ? new URLSearchParams(new FormData(form)) : undefined,
      headers: headers(),
      credentials: "same-origin",
    });

  // --- the page's main part, swapped after a save -------------------------------------------
  // sheet_swap.html: a <title>, the flashes, the sheet. Listeners (the outbox, app.js's
  // steppers) hear "sheet:swapped" on <main>.
  // A copy of each part marked data-keep (the blank form, the outbox's section) as it was
  // shown, before anything was typed: an answer may bring <template data-kept="digest"> in
  // its place (scoring/swap_parts.py), and parts() names them for the server.
  let shown = new Map();
  const keepCopies = () => {
    shown = new Map();
    document.querySelectorAll("main [data-keep]").forEach((part) => {
      if (!part.dataset.keep) return;
      const copy = part.cloneNode(true);
      // This script is loaded async: a captain may have typed already; the copy is blank.
      if (copy instanceof HTMLFormElement) copy.reset();
      shown.set(part.dataset.keep, copy);
    });
  };
  const parts = () => [...shown.keys()].join(",");
  const swap = (html) => {
    const main = document.querySelector("main");
    const wanted = [...html.matchAll(/<template data-kept="([0-9a-f]+)">/g)].map((m) => m[1]);
    if (!main || !wanted.every((code) => shown.has(code))) return false;
    clearTimeout(waiting); // a preview of the form that is gone
    main.innerHTML = html;
    main.querySelectorAll("template[data-kept]").forEach((place) => {
      place.replaceWith(shown.get(place.dataset.kept).cloneNode(true));
    });
    const title = main.querySelector("title");
    if (title) {
      document.title = title.textContent;
      title.remove();
    }
    keepCopies(); // as the server sent them, before the listeners change them
    window.scrollTo(0, 0);
    main.dispatchEvent(new CustomEvent("sheet:swapped", { bubbles: true }));
    startPolls();
    return true;
  };
  // The page as the server has it now, in place of the main part (the outbox asks once it
  // has handed its games over). "busy": no answer, or a 5xx (a busy server, a proxy's 502,
  // an outage): the page stays as it is, ask again later. ``keep()`` says whether the swap
  // may still happen when the answer is in (nothing typed meanwhile). An answer that is not
  // the sheet (the link no longer valid) loads as a page.
  const refresh = async (keep) => {
    try {
      const response = await send(window.location.pathname);
      if (response.status >= 500) return "busy";
      if (!response.ok) {
        window.location.replace(window.location.pathname);
        return "loaded";
      }
      const html = await response.text();
      return keep() && swap(html) ? "swapped" : "kept";
    } catch (_) {
      return "busy";
    }
  };
  window.sheetPage = { swap, refresh, parts };

  // A game's form not taken by the outbox (a correction, or no IndexedDB): posted with the
  // page's script header, so the answer is the main part (a conflict, 409, too); a sheet
  // submitted meanwhile answers HX-Redirect. No answer at all: the form posts as a page.
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (event.defaultPrevented || !(form instanceof HTMLFormElement) || !form.matches("form.game-form")) {
      return;
    }
    event.preventDefault();
    const button = form.querySelector("button.save");
    if (button) button.disabled = true;
    let response;
    try {
      response = await send(form.action, form);
    } catch (_) {
      form.submit();
      return;
    } finally {
      if (button) button.disabled = false;
    }
    const away = response.headers.get("HX-Redirect");
    if (away) {
      window.location.assign(away);
      return;
    }
    if (response.ok || response.status === 409 || response.status === 422) {
      swap(await response.text());
      const url = response.headers.get("HX-Push-Url");
      if (url) window.history.pushState({}, "", url);
      return;
    }
    form.submit();
  });

  // --- the live preview ----------------------------------------------------------------------
  let asked = 0;
  const preview = async (box) => {
    const form = box.closest("form");
    // Offline there is nothing to ask: the value is calculated when the game is sent.
    if (!form || !box.isConnected || !box.dataset.preview || !navigator.onLine) return;
    const mine = ++asked;
    try {
      const response = await send(box.dataset.preview, form);
      if (mine === asked && response.ok && box.isConnected) box.innerHTML = await response.text();
    } catch (_) {
      // no answer: the next change asks again
    }
  };
  const later = (event, ms) => {
    const box = document.getElementById("preview");
    const form = box && box.closest("form");
    if (!form || !(event.target instanceof Element) || !form.contains(event.target)) return;
    clearTimeout(waiting);
    waiting = setTimeout(() => preview(box), ms);
  };
  document.addEventListener("change", (event) => later(event, 400));
  document.addEventListener("input", (event) => later(event, 1000));
  // A save (here or by the outbox, which stops the event in the capture phase) brings its
  // own page: the preview a blur scheduled on the way to the button is not asked.
  document.addEventListener("submit", () => clearTimeout(waiting), true);

  // --- polls: <section data-poll="url" data-poll-seconds="30"> is replaced by the answer --
  // Equal but for the forms' CSRF tokens, which Django masks anew on every answer.
  const sameContent = (a, b) => {
    const bare = (element) => {
      const copy = element.cloneNode(true);
      copy.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach((i) => i.removeAttribute("value"));
      return copy.outerHTML;
    };
    return bare(a) === bare(b);
  };
  const polled = new WeakSet();
  const poll = (element) => {
    if (polled.has(element)) return;
    polled.add(element);
    const seconds = Number(element.dataset.pollSeconds) || 30;
    setTimeout(async () => {
      if (!element.isConnected) return;
      try {
        if (!navigator.onLine) throw new Error("offline");
        const response = await send(element.dataset.poll);
        if (!response.ok) throw new Error(String(response.status));
        const holder = document.createElement("template");
        holder.innerHTML = (await response.text()).trim();
        const fresh = holder.content.firstElementChild;
        if (!fresh || !element.isConnected) return;
        if (sameContent(fresh, element)) {
          // Nothing changed: the section stays, so a focused button keeps its focus and a
          // screen reader is not told the same again.
          polled.delete(element);
          poll(element);
          return;
        }
        element.replaceWith(fresh);
        if (fresh.dataset.poll) poll(fresh);
      } catch (_) {
        polled.delete(element); // ask again in a while
        poll(element);
      }
    }, seconds * 1000);
  };
  const startPolls = () => document.querySelectorAll("[data-poll]").forEach(poll);
  const start = () => {
    keepCopies();
    startPolls();
  };
  // Loaded async: the document may still be parsing.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
