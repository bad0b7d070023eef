// The hall display keeps itself up to date: no build step, no library (the
// Content-Security-Policy allows no inline script, so everything it needs is in data-*).
//
// * Every few seconds it asks the fragment URL with the fingerprint of its board
//   (?since=): 204 while nothing changed, else the new board, which replaces the old one.
// * Every answer carries the server's clock (X-Server-Time, epoch ms); the countdowns run on
//   that clock (the offset of the answer with the shortest round trip), so every screen in
//   the hall shows the same second whatever its own clock says.
// * Countdowns ([data-countdown]) tick every second from their end (data-ends, epoch ms) or
//   stand still (data-paused, data-remaining seconds); their stage (class stage-*) follows
//   data-stages on #hall ("0:up,5:last_5,15:last_15": at most so many minutes left).
// * On a network error it keeps the board, shows the offline mark and tries again.
// * Long lists come in pages (.page): one is shown, the next after data-page-seconds.
// * With ?sound=1 a beep marks the main clock's stages (after one click: browsers play no
//   sound before the page was touched).
(() => {
  "use strict";
  const root = document.getElementById("hall");
  if (!root) return;
  document.documentElement.classList.add("js");

  const holder = document.getElementById("hall-board");
  const offlineMark = root.querySelector(".offline-mark");
  const soundHint = root.querySelector(".sound-hint");
  const pollMs = Math.max(1, Number(root.dataset.pollSeconds) || 5) * 1000;
  const pageMs = Math.max(2, Number(root.dataset.pageSeconds) || 10) * 1000;
  const utcOffsetMs = (Number(root.dataset.utcOffset) || 0) * 60000;
  const stages = (root.dataset.stages || "")
    .split(",")
    .map((part) => part.split(":"))
    .filter((pair) => pair.length === 2)
    .map(([minutes, name]) => [Number(minutes) * 60, name])
    .sort((a, b) => a[0] - b[0]);

  // --- The server's clock ---------------------------------------------------------------
  const samples = [];
  // Until the first answer: the server's clock when it wrote the page (late by the page's
  // way here, but not by whatever the device's own clock says).
  let offset = Number(root.dataset.serverTime) ? Number(root.dataset.serverTime) - Date.now() : 0;
  const learnClock = (response, sent, received) => {
    const server = Number(response.headers.get("X-Server-Time"));
    if (!Number.isFinite(server) || server <= 0) return;
    samples.push({ rtt: received - sent, offset: server - (sent + received) / 2 });
    if (samples.length > 12) samples.shift();
    offset = samples.reduce((best, s) => (s.rtt < best.rtt ? s : best)).offset;
  };
  const now = () => Date.now() + offset;

  // --- Countdowns -----------------------------------------------------------------------
  const stageOf = (seconds) => {
    for (const [limit, name] of stages) if (seconds <= limit) return name;
    return "running";
  };
  const two = (n) => String(n).padStart(2, "0");
  const format = (seconds) => {
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = seconds % 60;
    return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
  };
  const setStage = (el, stage) => {
    for (const name of [...el.classList]) {
      if (name.startsWith("stage-") && name !== `stage-${stage}`) el.classList.remove(name);
    }
    el.classList.add(`stage-${stage}`);
  };

  let mainStage = null;
  const tick = () => {
    const t = now();
    for (const el of holder.querySelectorAll("[data-countdown]")) {
      const paused = el.hasAttribute("data-paused");
      const remaining = paused
        ? Math.max(0, Number(el.dataset.remaining) || 0)
        : Math.max(0, Math.ceil((Number(el.dataset.ends) - t) / 1000));
      const stage = stageOf(remaining);
      setStage(el, stage);
      el.classList.toggle("is-up", remaining <= 0);
      const text = el.querySelector("[data-time]");
      if (text) {
        const shown = format(remaining);
        if (text.textContent !== shown) text.textContent = shown;
      }
      if (el.hasAttribute("data-main")) {
        const board = holder.querySelector(".board");
        if (board) setStage(board, stage);
        if (mainStage !== null && stage !== mainStage && !paused) signal(stage);
        mainStage = stage;
      }
    }
    const wall = holder.querySelector("[data-wallclock]");
    if (wall) {
      const local = new Date(t + utcOffsetMs);
      wall.textContent = `${two(local.getUTCHours())}:${two(local.getUTCMinutes())}`;
    }
  };

  // --- Sound ------------------------------------------------------------------------------
  let audio = null;
  const wantsSound = root.hasAttribute("data-sound");
  const soundOn = () => audio !== null && audio.state === "running";
  const showHint = () => {
    if (soundHint) soundHint.hidden = !wantsSound || soundOn();
  };
  const enableSound = () => {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (audio === null) audio = new Context();
    audio.resume().then(showHint, showHint);
  };
  const beeps = { last_15: 1, last_5: 2, up: 3 };
  const signal = (stage) => {
    const count = beeps[stage];
    if (!count || !soundOn()) return;
    const start = audio.currentTime + 0.05;
    for (let i = 0; i < count; i += 1) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = stage === "up" ? 660 : 880;
      gain.gain.setValueAtTime(0.0001, start + i * 0.6);
      gain.gain.exponentialRampToValueAtTime(0.5, start + i * 0.6 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.6 + 0.4);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + i * 0.6);
      osc.stop(start + i * 0.6 + 0.45);
    }
  };
  if (wantsSound) {
    document.addEventListener("click", enableSound);
    document.addEventListener("keydown", enableSound);
    showHint();
  }

  // --- Pages ------------------------------------------------------------------------------
  let pageIndex = 0;
  const showPage = () => {
    const pages = holder.querySelectorAll(".page");
    const label = holder.querySelector("[data-page-label]");
    if (!pages.length) return;
    pageIndex %= pages.length;
    pages.forEach((page, i) => page.classList.toggle("current", i === pageIndex));
    if (label) {
      const text = pages[pageIndex].dataset.label || "";
      label.textContent = pages.length > 1 ? `${text} · ${pageIndex + 1}/${pages.length}` : text;
    }
  };
  let pageTimer = null;
  const turnPages = () => {
    clearInterval(pageTimer);
    pageTimer = setInterval(() => {
      pageIndex += 1;
      showPage();
    }, pageMs);
  };
  const viewOf = (board) => [...(board?.classList || [])].find((c) => c.startsWith("view-"));

  // --- Polling ----------------------------------------------------------------------------
  const fingerprint = () => holder.querySelector(".board")?.dataset.fingerprint || "";
  const setOffline = (offline) => {
    root.classList.toggle("is-offline", offline);
    if (offlineMark) offlineMark.hidden = !offline;
  };
  const swap = (html) => {
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    const board = template.content.querySelector(".board");
    if (!board) throw new Error("no board in the answer");
    const newView = viewOf(board) !== viewOf(holder.querySelector(".board"));
    holder.replaceChildren(board);
    if (newView) {
      // Another view starts at its first page, shown for a whole turn.
      pageIndex = 0;
      turnPages();
    }
    showPage();
    tick();
  };
  const poll = async () => {
    const url = new URL(root.dataset.fragmentUrl, window.location.href);
    if (root.dataset.view && root.dataset.view !== "auto") {
      url.searchParams.set("view", root.dataset.view);
    }
    url.searchParams.set("since", fingerprint());
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), Math.max(pollMs - 500, 2000));
    const sent = Date.now();
    try {
      const response = await fetch(url, {
        cache: "no-store",
        credentials: "same-origin",
        signal: controller.signal,
      });
      const received = Date.now();
      if (response.status !== 200 && response.status !== 204) {
        throw new Error(`status ${response.status}`);
      }
      learnClock(response, sent, received);
      if (response.status === 200) swap(await response.text());
      setOffline(false);
    } catch (error) {
      setOffline(true);
    } finally {
      clearTimeout(timeout);
      root.dataset.polls = String((Number(root.dataset.polls) || 0) + 1);
      setTimeout(poll, pollMs);
    }
  };

  showPage();
  turnPages();
  tick();
  // Four times a second: each countdown changes its second at its own moment.
  setInterval(tick, 250);
  poll();
})();
