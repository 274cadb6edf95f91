// Full-text search of the book, in the browser, with nothing from the network.
// search-index.js (written by booksite.site, one per language) sets
// window.BOOK_INDEX to one entry per page: {page, title, text}. A page matches
// when it holds every word of the query; pages whose title holds the query
// come first, then pages are listed by how often the words occur, each with a
// snippet.
//
// Chinese has no spaces between words, so nothing here splits the text into
// words: a query word is looked for as a substring, and "版本计数器" finds the
// pages that say 版本计数器. A Chinese query word that no page holds as it is
// (a phrase the book words differently, such as 版本的计数器) falls back to its
// pieces: every two consecutive Chinese characters (and any Latin run) must
// occur, which ranks below a whole match.
(function () {
  "use strict";
  const index = window.BOOK_INDEX || [];
  const form = document.getElementById("book-search-page");
  const input = form.querySelector("input[name=q]");
  const results = document.getElementById("book-results");
  const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
  const SEPARATORS = /[\s\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]+/;

  function snippet(text, word) {
    const at = Math.max(0, text.toLowerCase().indexOf(word));
    const start = Math.max(0, at - 80);
    return (start > 0 ? "\u2026" : "") + text.slice(start, at + word.length + 120) + "\u2026";
  }

  function count(haystack, needle) {
    let n = 0, at = haystack.indexOf(needle);
    while (at !== -1) { n += 1; at = haystack.indexOf(needle, at + needle.length); }
    return n;
  }

  // The pieces a Chinese word falls back to: its character pairs, and its Latin runs.
  function pieces(word) {
    const out = [];
    for (const run of word.match(/[\u3400-\u9fff\uf900-\ufaff]+|[^\u3400-\u9fff\uf900-\ufaff]+/g) || []) {
      if (!CJK.test(run)) { out.push(run); continue; }
      if (run.length === 1) { out.push(run); continue; }
      for (let i = 0; i + 1 < run.length; i += 1) out.push(run.slice(i, i + 2));
    }
    return out;
  }

  // How well ``text`` holds ``word``: its occurrences times 2 when whole, those of its pieces
  // when only they all occur (a Chinese word), 0 when it is not there.
  function holds(text, word) {
    const whole = count(text, word);
    if (whole) return 2 * whole;
    if (!CJK.test(word)) return 0;
    const parts = pieces(word);
    if (parts.length < 2 || !parts.every((p) => text.includes(p))) return 0;
    return parts.reduce((s, p) => Math.min(s, count(text, p)), Infinity) / parts.length;
  }

  function search(query) {
    results.replaceChildren();
    const phrase = query.trim().toLowerCase();
    if (!phrase) return;
    const words = phrase.split(SEPARATORS).filter((w) => w);
    const found = [];
    for (const entry of index) {
      const text = entry.text.toLowerCase();
      const scores = words.map((w) => holds(text, w));
      if (!scores.every((s) => s > 0)) continue;
      const title = entry.title.toLowerCase();
      const inTitle = title.includes(phrase) ? 1000 : 100 * words.filter((w) => title.includes(w)).length;
      found.push({ entry, score: inTitle + 20 * count(text, phrase) + scores.reduce((s, x) => s + x, 0) });
    }
    found.sort((a, b) => b.score - a.score);
    const heading = document.createElement("p");
    heading.textContent = (found.length === 1 ? results.dataset.foundOne : results.dataset.foundMany)
      .replace("{n}", String(found.length));
    results.append(heading);
    const list = document.createElement("ol");
    for (const { entry } of found) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = entry.page;
      link.textContent = entry.title;
      const text = document.createElement("p");
      const lower = entry.text.toLowerCase();
      const first = [phrase, ...words, ...words.flatMap(pieces)].find((w) => lower.includes(w)) || "";
      text.textContent = snippet(entry.text, first);
      item.append(link, text);
      list.append(item);
    }
    results.append(list);
  }

  const query = new URLSearchParams(window.location.search).get("q") || "";
  input.value = query;
  search(query);
  input.addEventListener("input", () => search(input.value));
  form.addEventListener("submit", (event) => { event.preventDefault(); search(input.value); });
})();
