// Find your table: filters the seating page while one types. Without this script the same
// search works as a form (?q=), filtered by the server; the server sends the lines that do
// not match as hidden, so this script can show them again when the search changes.
(function () {
  "use strict";

  // As tournaments/names.py folds: case and accents left out, "ß" = "ss"; and transcribed,
  // "ue" = "ü" = "u", so "Mueller", "muller" and "Müller" find each other.
  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/ß/g, "ss");
  }

  function transcribe(folded) {
    return folded.replace(/ae/g, "a").replace(/oe/g, "o").replace(/ue/g, "u");
  }

  function start() {
    const form = document.querySelector("[data-seating-search]");
    if (!form) return;
    const input = form.querySelector("input[name=q]");
    const lines = Array.from(document.querySelectorAll("[data-seating-line]"));
    const cards = Array.from(document.querySelectorAll("[data-seating-table]"));
    const none = document.querySelector("[data-seating-none]");
    const found = document.querySelector(".seating-found");

    function filter() {
      const words = fold(input.value).replace(/,/g, " ").split(/\s+/).filter(Boolean);
      const seats = new Map(); // table number -> matching seat numbers
      let count = 0;
      for (const line of lines) {
        const name = line.dataset.name;
        const spelled = transcribe(name);
        const match = words.every(
          (word) =>
            name.includes(word) ||
            spelled.includes(transcribe(word)) ||
            line.dataset.number === word
        );
        line.hidden = !match;
        if (match) {
          count += 1;
          if (words.length) {
            const table = line.dataset.table;
            if (!seats.has(table)) seats.set(table, new Set());
            seats.get(table).add(line.dataset.seat);
          }
        }
      }
      for (const card of cards) {
        const matched = seats.get(card.dataset.seatingTable);
        card.hidden = words.length > 0 && !matched;
        for (const seat of card.querySelectorAll("li[value]")) {
          seat.classList.toggle("match", Boolean(matched && matched.has(seat.getAttribute("value"))));
        }
      }
      if (none) none.hidden = count > 0;
      if (found) found.hidden = true; // the server's count is about the submitted search
    }

    input.addEventListener("input", filter);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
