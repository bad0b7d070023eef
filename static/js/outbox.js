// The captain page's outbox: games typed without a connection wait on this phone and are sent,
// oldest first and one at a time, when the network is back. Progressive enhancement: without
// JavaScript (or without IndexedDB) the page posts its form as it always did.
//
// The phone keeps only the facts the players typed. It never computes a value, a dealer or a
// compulsory flag (the rules run on the server); a waiting row says so.
//
// Reads: <script type="application/json" id="sheet-data"> (what the server sends ahead) and
// the words in the data-t-* attributes of #outbox (translated on the server). A save swaps the
// page's main part (the answer brings it; js/sheet.js swaps it): the script then reads them
// again.
(function outbox() {
  "use strict";

  // Loaded async, in one file after idb-keyval (js/captain.js, `manage.py captain_js`): it
  // starts once the document is parsed (without IndexedDB the form posts as without it).
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", outbox, { once: true });
    return;
  }
  const store = window.idbKeyval;
  if (!document.getElementById("sheet-data") || !document.getElementById("outbox")) return;
  if (!store || !window.indexedDB) return;

  // What the page shows now; read again after each swap of the main part (bind).
  let data, box, words, form, tbody, saveButton, newGameForm;
  const bindElements = () => {
    data = JSON.parse(document.getElementById("sheet-data").textContent);
    box = document.getElementById("outbox");
    words = box.dataset;
    form = document.querySelector("form.game-form");
    tbody = document.getElementById("sheet-rows");
    saveButton = form ? form.querySelector("button.save") : null;
    // A form correcting a saved game (it posts a "number") stays online-only (js/sheet.js).
    newGameForm = form && !form.querySelector("input[type=hidden][name=number]") ? form : null;
  };
  bindElements();
  const outboxKey = `outbox:${data.table}`;
  const knownKey = `outbox-known:${data.table}`;
  const TIMEOUT_MS = 8000;
  const SYNC_EVERY_MS = 15000;
  let games = []; // the outbox as last read: [{key, number, fields, state, message, code}]
  let known = { next: data.next_number, version: data.sheet_version, rows: {} };
  let fixing = null; // the key of a refused game loaded into the form for correction
  let dirty = false; // the form was typed into since it was last reset

  // --- storage -----------------------------------------------------------------------------
  const load = async () => {
    games = (await store.get(outboxKey)) || [];
    const stored = await store.get(knownKey);
    if (stored && stored.next > known.next) known = { ...stored, rows: stored.rows || {} };
    known.next = Math.max(known.next, data.next_number);
    return games;
  };
  const change = async (mutate) => {
    await store.update(outboxKey, (list) => {
      const next = mutate(list || []);
      games = next;
      return next;
    });
  };
  const remember = async () => store.set(knownKey, known);
  const pendingCount = () => games.length;

  // --- the rows ----------------------------------------------------------------------------
  const seatName = (seat) => (data.seat_names || {})[String(seat)] || String(seat);
  const valuesOf = (fields, name) => {
    const value = fields[name];
    if (value === undefined || value === "") return [];
    return Array.isArray(value) ? value : [value];
  };
  // The words the form shows for a choice (e.g. "Normalspiel" for contract=normal).
  const choiceLabel = (name, value) => {
    const input = form && form.querySelector(`input[name="${name}"][value="${CSS.escape(value)}"]`);
    const label = input && input.closest("label");
    return label ? label.textContent.trim() : value;
  };
  const summary = (fields) => {
    // The facts as typed, with the seats' names; nothing computed.
    const parts = [];
    const contract = valuesOf(fields, "contract")[0];
    const soloist = valuesOf(fields, "soloist")[0];
    const re = valuesOf(fields, "re_players");
    if (contract) parts.push(words.tContract.replace("{x}", choiceLabel("contract", contract)));
    if (soloist) parts.push(words.tSoloist.replace("{x}", seatName(soloist)));
    if (re.length) parts.push(`Re: ${re.map(seatName).join(", ")}`);
    for (const name of ["re_points", "kontra_points"]) {
      const v = valuesOf(fields, name)[0];
      if (v) parts.push(`${words[name === "re_points" ? "tRePoints" : "tKontraPoints"]} ${v}`);
    }
    Object.keys(fields)
      .filter((name) => /^points_\d+$/.test(name) && fields[name] !== "")
      .forEach((name) => parts.push(`${seatName(name.slice(7))}: ${fields[name]}`));
    return parts.join(" · ");
  };
  const columns = () => {
    const head = document.querySelector("table.sheet thead tr");
    return head ? head.children.length : 2 + (data.seats_count || 4);
  };
  const rowFor = (game) => {
    const row = document.createElement("tr");
    row.className = `outbox-row outbox-${game.state}`;
    row.dataset.outboxKey = game.key;
    row.dataset.number = String(game.number);
    const number = document.createElement("td");
    number.className = "num game-no";
    number.textContent = String(game.number);
    const cell = document.createElement("td");
    cell.colSpan = columns() - 1;
    const state = document.createElement("strong");
    state.textContent =
      game.state === "refused" ? words.tRefused : game.state === "conflict" ? words.tConflict : words.tPending;
    const facts = document.createElement("span");
    facts.textContent = ` ${summary(game.fields)}`;
    const later = document.createElement("small");
    later.className = "outbox-later";
    later.textContent = words.tLater;
    cell.append(state, facts, document.createElement("br"), later);
    if (game.message) {
      const message = document.createElement("span");
      message.className = "outbox-message";
      message.setAttribute("role", "alert");
      message.textContent = game.message;
      cell.append(document.createElement("br"), message);
    }
    if (game.state === "refused") {
      const fix = document.createElement("button");
      fix.type = "button";
      fix.className = "secondary outline small outbox-fix";
      fix.textContent = words.tFix;
      cell.append(document.createElement("br"), fix);
    }
    row.append(number, cell);
    return row;
  };
  const insertRow = (row, number) => {
    if (!tbody) return;
    tbody.querySelector(".empty-state")?.closest("tr")?.remove();
    const after = [...tbody.querySelectorAll("tr[data-number]")].find(
      (r) => Number(r.dataset.number) > number,
    );
    if (after) after.before(row);
    else tbody.append(row);
  };
  const sheetRow = (html, number) => {
    const holder = document.createElement("tbody");
    holder.innerHTML = html.trim();
    const row = holder.querySelector("tr");
    if (row) row.dataset.number = String(number);
    return row;
  };
  const render = () => {
    if (!tbody) return;
    tbody.querySelectorAll("tr.outbox-row").forEach((r) => r.remove());
    // Rows accepted since this page was rendered (a page reloaded from the cache lacks them).
    Object.entries(known.rows || {}).forEach(([number, html]) => {
      const n = Number(number);
      if (n < data.next_number || tbody.querySelector(`tr[data-number="${n}"]`)) return;
      const row = sheetRow(html, n);
      if (row) insertRow(row, n);
    });
    games.forEach((game) => insertRow(rowFor(game), game.number));
    const count = pendingCount();
    box.hidden = count === 0 && navigator.onLine;
    box.querySelector("[data-outbox-count]").textContent = count
      ? words.tCount.replace("{x}", String(count))
      : "";
    box.querySelector("[data-outbox-qr]").hidden = count === 0;
    document.body.dataset.outboxPending = String(count);
  };

  // --- the form ----------------------------------------------------------------------------
  const newKey = () => {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  };
  const keyInput = () => newGameForm.querySelector("input[name=idempotency_key]");
  const nextNumber = () =>
    Math.max(known.next, data.next_number, ...games.map((g) => g.number + 1));
  const fieldsOf = () => {
    const fields = {};
    new FormData(newGameForm).forEach((value, name) => {
      if (["csrfmiddlewaretoken", "idempotency_key", "version", "number", "reason"].includes(name)) return;
      if (name in fields) {
        fields[name] = [].concat(fields[name], String(value));
      } else {
        fields[name] = newGameForm.querySelectorAll(`input[type=checkbox][name="${name}"]`).length
          ? [String(value)]
          : String(value);
      }
    });
    return fields;
  };
  // At a five-player table the seat that sits out follows the dealer, which only the server
  // knows: a game typed after a waiting one offers all seats, and the server checks it.
  const offerAllSeats = () => {
    if (!newGameForm || (data.seats_count || 0) < 5) return;
    const sitting = newGameForm.querySelector("input[name=sitting_out]");
    if (!sitting || !sitting.value) return;
    const out = sitting.value;
    sitting.value = "";
    const name = `${out} · ${seatName(out)}`;
    const seatOf = (element) => {
      const input = element.querySelector("input") || element;
      const match = /_(\d+)$/.exec(input.name) || [null, input.value];
      return Number(match[1]);
    };
    // Copy the controls of a neighbouring seat, renamed to the seat that sat out, in order.
    const addSeat = (elements) => {
      if (!elements.length) return;
      const model = elements[0];
      const old = (model.querySelector("label, span") || model).textContent.trim();
      const copy = model.cloneNode(true);
      copy.querySelectorAll(".field-error").forEach((e) => e.remove());
      copy.querySelectorAll("input").forEach((input) => {
        if (input.type === "radio" || input.type === "checkbox") {
          input.value = out;
          input.checked = false;
        } else {
          input.value = "";
          input.name = input.name.replace(/_\d+$/, `_${out}`);
        }
        if (input.id) input.id = input.id.replace(/_\d+$/, `_${out}`);
      });
      copy.querySelectorAll("[aria-label]").forEach((e) => {
        e.setAttribute("aria-label", e.getAttribute("aria-label").replace(old, name));
      });
      copy.querySelectorAll("label[for]").forEach((e) => {
        e.htmlFor = e.htmlFor.replace(/_\d+$/, `_${out}`);
      });
      if (copy.tagName === "LABEL" && copy.htmlFor) copy.htmlFor = copy.htmlFor.replace(/_\d+$/, `_${out}`);
      const text = copy.querySelector("span, label") || copy;
      const node = [...text.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
      if (node) node.textContent = name;
      const after = elements.find((e) => seatOf(e) > Number(out));
      if (after) after.before(copy);
      else elements[elements.length - 1].after(copy);
    };
    newGameForm.querySelectorAll("fieldset.players").forEach((set) => {
      addSeat([...set.querySelectorAll(":scope > label")]);
    });
    addSeat([...newGameForm.querySelectorAll("div.penalty")]);
    addSeat([...newGameForm.querySelectorAll(".transcription-points > label")]);
    const soloist = newGameForm.querySelector("select[name=soloist]");
    if (soloist && ![...soloist.options].some((o) => o.value === out)) {
      const after = [...soloist.options].find((o) => o.value && Number(o.value) > Number(out));
      soloist.add(new Option(name, out), after || null);
    }
  };
  const announce = (number) => {
    const line = document.querySelector(".next-box .next-line");
    if (!line) return;
    line.replaceChildren();
    const strong = document.createElement("strong");
    strong.textContent = words.tGame.replace("{x}", String(number));
    const dealer = document.createElement("span");
    dealer.textContent = words.tDealerLater;
    line.append(strong, " ", dealer);
    document.querySelectorAll(".next-box .forced, .next-box .undo").forEach((e) => e.remove());
    const preview = document.getElementById("preview");
    if (preview) preview.textContent = words.tValueLater;
  };
  const resetForm = () => {
    if (!newGameForm) return;
    newGameForm.reset();
    newGameForm.querySelectorAll(".field-error").forEach((e) => e.remove());
    keyInput().value = newKey();
    fixing = null;
    dirty = false;
    newGameForm.dispatchEvent(new Event("change", { bubbles: true }));
    if (saveButton) saveButton.textContent = words.tSave;
  };
  const fill = (fields) => {
    offerAllSeats();
    newGameForm.querySelectorAll("input[type=checkbox], input[type=radio]").forEach((i) => {
      i.checked = false;
    });
    newGameForm.querySelectorAll("input[type=number], input[type=text]").forEach((i) => {
      i.value = "";
    });
    Object.entries(fields).forEach(([name, value]) => {
      const values = [].concat(value);
      newGameForm.querySelectorAll(`[name="${name}"]`).forEach((input) => {
        if (input.type === "checkbox" || input.type === "radio") input.checked = values.includes(input.value);
        else if (input.type !== "hidden") input.value = values[0];
      });
    });
  };
  const loadFacts = (game) => {
    fill(game.fields);
    fixing = game.key;
    announce(game.number);
    if (saveButton) saveButton.textContent = words.tSaveFix.replace("{x}", String(game.number));
    newGameForm.dispatchEvent(new Event("change", { bubbles: true }));
    newGameForm.scrollIntoView({ block: "start" });
  };
  // Offline the form checks only that numbers are in range (min/max of the inputs).
  const inRange = () => {
    const bad = [...newGameForm.querySelectorAll("input[type=number]")].find((i) => !i.validity.valid);
    if (!bad) return true;
    bad.reportValidity();
    return false;
  };

  // --- sending -----------------------------------------------------------------------------
  // ``page``: ask for the sheet page's main part in the answer (online, nothing waiting).
  const post = async (game, { page = false } = {}) => {
    const body = new URLSearchParams();
    Object.entries(game.fields).forEach(([name, value]) => {
      [].concat(value).forEach((v) => body.append(name, v));
    });
    body.set("idempotency_key", game.key);
    body.set("number", String(game.number));
    if (known.version !== undefined && known.version !== null) body.set("version", String(known.version));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    try {
      const response = await fetch(data.sync_url, {
        method: "POST",
        body,
        credentials: "same-origin",
        headers: {
          Accept: "application/json",
          "X-Outbox-Pending": String(pendingCount()),
          ...(page && window.sheetPage
            ? { "X-Outbox-Page": "main", "X-Sheet-Parts": window.sheetPage.parts() }
            : {}),
        },
        signal: controller.signal,
      });
      let answer = null;
      try {
        answer = await response.json();
      } catch (_) {
        answer = null;
      }
      return { status: response.status, answer };
    } catch (_) {
      return { status: 0, answer: null }; // offline, dropped or timed out: try again later
    } finally {
      clearTimeout(timer);
    }
  };
  const learn = (answer) => {
    if (!answer) return;
    if (typeof answer.next_number === "number") known.next = answer.next_number;
    if (answer.sheet_version !== undefined) known.version = answer.sheet_version;
  };
  const messageOf = (answer) => {
    if (!answer) return words.tFailed;
    const details = Object.values(answer.errors || {}).flat();
    return [...new Set([answer.message, ...details].filter(Boolean))].join(" ") || words.tFailed;
  };
  // The answer for one game: "done", "stop" (refused or conflict: later games wait) or
  // "later" (no answer: the network or the server is away).
  const accepted = ({ status, answer }) =>
    (status === 200 || status === 201) &&
    !!answer &&
    (answer.status === "accepted" || answer.status === "replayed");
  // An accepted game: what the sheet is now, and its row for a page reloaded from the cache.
  const keep = async (answer) => {
    learn(answer);
    if (answer.row_html) known.rows[String(answer.number)] = answer.row_html;
    const numbers = Object.keys(known.rows).map(Number).sort((a, b) => b - a);
    numbers.slice(30).forEach((n) => delete known.rows[String(n)]);
    await remember();
  };
  const settle = async (game, { status, answer }) => {
    if (accepted({ status, answer })) {
      await keep(answer);
      await change((list) => list.filter((g) => g.key !== game.key));
      return "done";
    }
    if (status === 422 || status === 409 || status === 400 || status === 403 || status === 404) {
      learn(answer);
      const state = status === 422 || status === 400 ? "refused" : "conflict";
      await change((list) =>
        list.map((g) =>
          g.key === game.key
            ? { ...g, state, message: messageOf(answer), code: (answer && answer.code) || "" }
            : g,
        ),
      );
      return "stop";
    }
    return "later";
  };

  let syncing = false;
  const drain = async () => {
    for (;;) {
      await load();
      const first = games[0];
      if (!first || first.state !== "pending") return;
      const outcome = await settle(first, await post(first));
      render();
      if (outcome !== "done") return;
    }
  };
  const sync = async () => {
    if (syncing) return;
    syncing = true;
    document.body.dataset.outboxSyncing = "1";
    const before = pendingCount();
    try {
      if (navigator.locks) await navigator.locks.request(`doko-outbox-${data.table}`, drain);
      else await drain();
    } finally {
      syncing = false;
      delete document.body.dataset.outboxSyncing;
      render();
      // All sent while nobody was typing: show the page as the server has it now (dealer,
      // compulsory solos, the next game).
      if (before > 0 && pendingCount() === 0 && !dirty && navigator.onLine) showServerPage();
    }
  };
  // Swapped in, never navigated to: a phone without a service worker that reloaded into a
  // busy server (a 5xx, a proxy's 502) showed the error page instead of its sheet. Busy: the
  // page stays and asks again after 2, 4, 8 … 60 s, until something is typed into the form.
  let refreshing = false;
  const showServerPage = async () => {
    if (refreshing || !window.sheetPage) return;
    refreshing = true;
    try {
      for (let wait = 2000; !dirty; wait = Math.min(2 * wait, 60000)) {
        if ((await window.sheetPage.refresh(() => !dirty)) !== "busy") return;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    } finally {
      refreshing = false;
    }
  };

  // ``blank``: the form was reset already when the save was tapped (see the submit below).
  const queue = async (fields, key, { blank = false } = {}) => {
    const number = nextNumber();
    await change((list) => [...list, { key, number, fields, state: "pending", message: "" }]);
    offerAllSeats();
    if (!blank) resetForm();
    announce(number + 1);
    render();
    return number;
  };

  // The page's main part after a save (the answer's page_html): the sheet with the new row,
  // the next game's blank form, the flash; then this script reads the page again.
  const swapPage = (html) => Boolean(window.sheetPage && window.sheetPage.swap(html)); // rebinds
  // A page shown after an error keeps the key it was posted with (a resend is recognised);
  // any other page (possibly an old copy from the cache) starts with a fresh one.
  const freshKey = () => {
    if (newGameForm && !newGameForm.querySelector(".field-error")) keyInput().value = newKey();
  };
  freshKey();
  document.addEventListener("input", (event) => {
    if (newGameForm && newGameForm.contains(event.target)) dirty = true;
  });
  // Caught before js/sheet.js sees it (capture): the outbox decides how a new game is sent.
  document.addEventListener(
    "submit",
    async (event) => {
      if (!newGameForm || event.target !== newGameForm) return;
      event.preventDefault();
      event.stopPropagation();
      if (!inRange()) return;
      // A game the outbox keeps is taken from the form at once and the form is blank before
      // the phone has stored it (IndexedDB may take a while on a slow phone): a tap on the
      // next game meanwhile is not wiped by a reset that comes later. Storing fails: the
      // facts go back into the form, nothing typed is lost.
      const fields = fieldsOf();
      const fix = fixing;
      const key = keyInput().value || newKey();
      const kept = Boolean(fix) || games.length > 0 || !navigator.onLine;
      if (kept) resetForm();
      try {
        await load();
        if (fix) {
          await change((list) =>
            list.map((g) => (g.key === fix ? { ...g, fields, state: "pending", message: "" } : g)),
          );
          announce(nextNumber());
          render();
          sync();
          return;
        }
        if (kept || games.length) {
          await queue(fields, key, { blank: kept });
          sync();
          return;
        }
      } catch (error) {
        if (kept) {
          const refused = fix && games.find((g) => g.key === fix);
          if (refused) loadFacts({ ...refused, fields });
          else fill(fields);
          keyInput().value = key;
        }
        throw error;
      }
      // Online with nothing waiting: send it now. The answer brings the page's main part
      // (one round trip); an answer with errors is shown by the page's own form (posted
      // with the same key, so it is never stored twice); no answer: the game waits here.
      if (saveButton) saveButton.disabled = true;
      const game = { key, number: nextNumber(), fields, state: "pending" };
      const sent = await post(game, { page: true });
      if (saveButton) saveButton.disabled = false;
      const verdict = sent.answer && sent.answer.status;
      if (accepted(sent)) {
        await keep(sent.answer);
        if (sent.answer.page_html && swapPage(sent.answer.page_html)) return;
        // No page in the answer: the page loads again and says what was saved.
        const said = verdict === "replayed" ? words.tReplayed : words.tSaved;
        sessionStorage.setItem(
          `outbox-flash:${data.table}`,
          said.replace("{x}", String(sent.answer.number)).replace("{n}", String(sent.answer.value)),
        );
        window.location.replace(window.location.pathname);
        return;
      }
      if (sent.status === 422 || sent.status === 409) {
        newGameForm.submit();
        return;
      }
      await queue(fields, key);
    },
    true,
  );

  document.addEventListener("click", (event) => {
    const row = event.target instanceof Element ? event.target.closest("tr.outbox-refused") : null;
    if (!row || !newGameForm) return;
    const game = games.find((g) => g.key === row.dataset.outboxKey);
    if (game) loadFacts(game);
  });

  // --- online, offline ---------------------------------------------------------------------
  const onlineLinks = () => document.querySelectorAll('a[href$="loeschen/"], .next-box .undo a');
  const onlineOnly = () =>
    document.querySelectorAll(
      'form[action$="abgeben/"] button[type=submit], form[action$="bestaetigen/"] button[type=submit]',
    );
  const showNetwork = () => {
    const offline = !navigator.onLine;
    document.body.classList.toggle("is-offline", offline);
    box.querySelector("[data-outbox-offline]").hidden = !offline;
    box.querySelector("[data-outbox-reload]").hidden = !(offline && box.dataset.noWorker);
    onlineOnly().forEach((button) => {
      button.disabled = offline;
      let note = button.parentElement.querySelector(".needs-network");
      if (!note) {
        note = document.createElement("small");
        note.className = "needs-network";
        note.textContent = words.tNeedsNetwork;
        button.after(note);
      }
      note.hidden = !offline;
    });
    onlineLinks().forEach((a) => {
      a.hidden = offline; // pages that are not kept on the phone
    });
    if (offline) {
      const preview = document.getElementById("preview");
      if (preview) preview.textContent = words.tValueLater;
    }
    render();
  };
  window.addEventListener("online", () => {
    showNetwork();
    sync();
  });
  window.addEventListener("offline", showNetwork);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") sync();
  });
  setInterval(sync, SYNC_EVERY_MS);
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});

  // --- QR codes for the organizers' scanner (OFFLINE.md section 4) --------------------------
  const b64url = (bytes) =>
    btoa(String.fromCharCode(...new Uint8Array(bytes)))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  const utf8 = (text) => new TextEncoder().encode(text);
  const token = () => decodeURIComponent(data.token_path.split("/").filter(Boolean).pop());
  const hmac = async (message) => {
    if (window.crypto && crypto.subtle) {
      const key = await crypto.subtle.importKey(
        "raw", utf8(token()), { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
      );
      return crypto.subtle.sign("HMAC", key, utf8(message));
    }
    await loadLibrary("sha256", box.dataset.sha256); // plain HTTP: no crypto.subtle
    return window.sha256.hmac.arrayBuffer(token(), message);
  };
  const MAX_CODE = 1000;
  const encode = (list) =>
    b64url(utf8(JSON.stringify({ v: 1, table: data.table, games: list })));
  const payloads = async (list) => {
    const chunks = [];
    let current = [];
    list.forEach((game) => {
      // Empty fields are left out: the server reads a missing field as an empty one.
      const fields = Object.fromEntries(
        Object.entries(game.fields).filter(([, v]) => v !== "" && !(Array.isArray(v) && !v.length)),
      );
      const item = { key: game.key, number: game.number, fields };
      if (current.length && encode([...current, item]).length > MAX_CODE - 60) {
        chunks.push(current);
        current = [];
      }
      current.push(item);
    });
    if (current.length) chunks.push(current);
    return Promise.all(
      chunks.map(async (chunk) => {
        const body = encode(chunk);
        return `DOKO1.${body}.${b64url(await hmac(body))}`;
      }),
    );
  };
  // The QR code library (and js-sha256 where there is no crypto.subtle) is needed only for
  // the codes: loaded after the page (never before it is usable), from data-qrcode and
  // data-sha256, unless a <script> of the page brought it already, so the codes also work
  // once the phone is offline. The service worker keeps them with the page's other files.
  const libraries = {};
  const loadLibrary = (name, src) => {
    if (window[name]) return Promise.resolve();
    if (!libraries[name]) {
      libraries[name] = new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = src;
        script.onload = () => resolve();
        script.onerror = () => {
          delete libraries[name]; // try again at the next click
          script.remove();
          reject(new Error(name));
        };
        document.head.append(script);
      });
    }
    return libraries[name];
  };
  const loadQrLibrary = () => loadLibrary("qrcode", box.dataset.qrcode);
  if (box.dataset.qrcode) {
    const later = () =>
      setTimeout(() => {
        loadQrLibrary().catch(() => {});
        if (!(window.crypto && crypto.subtle)) loadLibrary("sha256", box.dataset.sha256).catch(() => {});
      }, 0);
    if (document.readyState === "complete") later();
    else window.addEventListener("load", later, { once: true });
  }

  // A code as a PNG: 4 pixels a module and the quiet zone of 4 modules around it, black on
  // white (the library's own GIF writer is left out of the captain page's copy).
  const picture = (qr) => {
    const cell = 4;
    const side = (qr.getModuleCount() + 8) * cell;
    const canvas = document.createElement("canvas");
    canvas.width = side;
    canvas.height = side;
    const context = canvas.getContext("2d");
    context.fillStyle = "white";
    context.fillRect(0, 0, side, side);
    context.translate(4 * cell, 4 * cell);
    qr.renderTo2dContext(context, cell);
    return canvas.toDataURL("image/png");
  };

  document.addEventListener("click", async (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-outbox-qr]") : null;
    if (!button) return;
    await load();
    await loadQrLibrary();
    const area = document.getElementById("outbox-codes");
    area.replaceChildren();
    const codes = await payloads(games);
    codes.forEach((text, index) => {
      const qr = window.qrcode(0, "M");
      qr.addData(text);
      qr.make();
      const figure = document.createElement("figure");
      figure.className = "outbox-code";
      figure.dataset.payload = text;
      const image = document.createElement("img");
      image.src = picture(qr);
      image.alt = words.tCode.replace("{x}", String(index + 1)).replace("{n}", String(codes.length));
      const caption = document.createElement("figcaption");
      caption.textContent = image.alt;
      const details = document.createElement("details");
      const summaryLine = document.createElement("summary");
      summaryLine.textContent = words.tCodeText;
      const code = document.createElement("code");
      code.className = "outbox-code-text";
      code.textContent = text;
      details.append(summaryLine, code);
      figure.append(image, caption, details);
      area.append(figure);
    });
    area.hidden = false;
    area.scrollIntoView({ block: "start" });
  });

  // --- service worker (secure contexts only) ------------------------------------------------
  if (window.isSecureContext && navigator.serviceWorker && box.dataset.worker) {
    navigator.serviceWorker
      .register(box.dataset.worker, { scope: box.dataset.workerScope })
      .then(() => navigator.serviceWorker.ready)
      .then(() => caches.open(box.dataset.pagesCache))
      .then((cache) => cache.add(window.location.pathname))
      .then(() => {
        document.body.dataset.offlineReady = "1";
      })
      .catch(() => {});
  } else {
    box.dataset.noWorker = "1";
  }
  // After a swap of the main part (a save's answer, or a correction's; js/sheet.js): the new
  // form, rows and data; games still waiting are shown on the new page again.
  const rebind = () => {
    const noWorker = box.dataset.noWorker;
    bindElements();
    if (noWorker) box.dataset.noWorker = noWorker;
    known.next = Math.max(known.next, data.next_number);
    known.version = data.sheet_version;
    fixing = null;
    dirty = false;
    freshKey();
    // A form kept from the page shown before (scoring/swap_parts.py) has its old version.
    if (newGameForm) newGameForm.querySelector("input[name=version]").value = String(data.sheet_version);
    if (newGameForm && games.length) {
      offerAllSeats();
      announce(nextNumber());
    }
    showNetwork();
  };
  document.addEventListener("sheet:swapped", () => {
    if (document.getElementById("sheet-data")) rebind();
  });

  const flash = sessionStorage.getItem(`outbox-flash:${data.table}`);
  if (flash) {
    sessionStorage.removeItem(`outbox-flash:${data.table}`);
    const note = document.createElement("p");
    note.className = "flash flash-success";
    note.setAttribute("role", "status");
    note.textContent = flash;
    document.querySelector("main").prepend(note);
  }

  load().then(() => {
    if (newGameForm && games.length) {
      offerAllSeats();
      announce(nextNumber());
    }
    showNetwork();
    document.body.dataset.outboxReady = "1";
    sync();
  });
})();
