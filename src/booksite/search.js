// Full-text search of the book, in the browser, with nothing from the network.
// search-index.js (written by booksite.site) sets window.BOOK_INDEX to one entry
// per page: {page, title, text}. A page matches when it holds every word of the
// query; pages are listed by how often the words occur, each with a snippet.
(function () {
  "use strict";
  const index = window.BOOK_INDEX || [];
  const form = document.getElementById("book-search-page");
  const input = form.querySelector("input[name=q]");
  const results = document.getElementById("book-results");

  function snippet(text, word) {
    const at = text.toLowerCase().indexOf(word);
    const start = Math.max(0, at - 80);
    return (start > 0 ? "\u2026" : "") + text.slice(start, at + word.length + 120) + "\u2026";
  }

  function count(haystack, needle) {
    let n = 0, at = haystack.indexOf(needle);
    while (at !== -1) { n += 1; at = haystack.indexOf(needle, at + needle.length); }
    return n;
  }

  function search(query) {
    results.replaceChildren();
    const phrase = query.trim().toLowerCase();
    if (!phrase) return;
    const words = phrase.split(/\s+/);
    const found = [];
    for (const entry of index) {
      const text = entry.text.toLowerCase();
      if (!words.every((w) => text.includes(w))) continue;
      found.push({ entry, score: 10 * count(text, phrase) + words.reduce((s, w) => s + count(text, w), 0) });
    }
    found.sort((a, b) => b.score - a.score);
    const heading = document.createElement("p");
    heading.textContent = found.length === 1 ? "1 page found" : `${found.length} pages found`;
    results.append(heading);
    const list = document.createElement("ol");
    for (const { entry } of found) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = entry.page;
      link.textContent = entry.title;
      const text = document.createElement("p");
      const first = entry.text.toLowerCase().includes(phrase) ? phrase : words[0];
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
