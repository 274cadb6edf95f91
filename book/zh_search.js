// The Chinese pages' query splitter (Sphinx puts it in language_data.js as splitQuery):
// words as Sphinx's own splitter cuts them, then each run of Chinese characters as its
// overlapping pairs, as book.sphinx_book.ChineseBigrams indexed the pages. 版本计数器 is
// looked for as 版本, 本计, 计数, 数器, and a page is found when it holds them all.
function splitQuery(query) {
  const chinese = /[\u3400-\u9fff\uf900-\ufaff]+|[^\u3400-\u9fff\uf900-\ufaff]+/g;
  const terms = [];
  for (const word of query.split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu)) {
    for (const run of word.match(chinese) || []) {
      if (!/[\u3400-\u9fff\uf900-\ufaff]/.test(run) || run.length === 1) terms.push(run);
      else for (let i = 0; i + 1 < run.length; i += 1) terms.push(run.slice(i, i + 2));
    }
  }
  return terms;
}
