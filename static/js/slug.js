// The tournament form: suggest the short name for links from the tournament's name while it
// is typed, as the server would derive it (tournaments/services/setup.py slug_from_name):
// umlauts written out, then lower-case words joined by "-". Only while the short name is
// empty or still the suggestion: once the organizer edits it, it is left alone. The server
// still makes it unique (or derives it when the field stays empty, without this script).
(() => {
  const name = document.getElementById("id_name");
  // Only on a new tournament: a tournament's links, once printed, never change by themselves.
  const slug = document.querySelector("#id_slug[data-suggest-from-name]");
  if (!name || !slug) return;
  const GERMAN = { ä: "ae", ö: "oe", ü: "ue", ß: "ss" };
  const suggest = (text) =>
    text
      .toLowerCase()
      .replace(/[äöüß]/g, (c) => GERMAN[c])
      .normalize("NFKD")
      .replace(/[^\x00-\x7f]/g, "")
      .replace(/[^\w\s-]/g, "")
      .replace(/[-\s]+/g, "-")
      .replace(/^[-_]+|[-_]+$/g, "")
      .slice(0, 60)
      .replace(/-+$/, "");
  let auto = slug.value === "" || slug.value === suggest(name.value);
  name.addEventListener("input", () => {
    if (auto) slug.value = suggest(name.value);
  });
  slug.addEventListener("input", () => {
    auto = slug.value === "";
  });
})();
