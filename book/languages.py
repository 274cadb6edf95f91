"""The book's two languages: where each one's notebooks are, where its pages go, its words.

The English course (``course/``, ``exercises/``) is the top of the site and
its Chinese twin (``course/zh/``, ``course/zh/exercises/``, generated from the
catalogs) is ``zh/`` inside it. Page names are the same in both, so each
page's language switch goes to the page of the same name in the other folder.
The sentences around the links (how to run a page) are in the templates
(``book/_templates/book/*-<code>.html``); only short words are here.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, eq=False)
class Language:
    code: str          # "en", "zh": the source folder under _build/book/src and the templates' suffix
    sphinx: str        # Sphinx's ``language``
    html_lang: str     # the pages' lang attribute
    name: str          # its own name, on the other language's switch
    folder: str        # its folder in the site ("" for the top)
    course: str        # its chapters in the repository
    exercises: str     # its exercises in the repository
    lab: str           # the command that opens the course in this language on one's own machine
    words: dict = field(default_factory=dict)


ENGLISH = Language("en", "en", "en", "English", "", "course", "exercises", "make lab", {
    "title": "Clone or detach? What really happens when a tensor is copied",
    "chapters": "Chapters",
    "exercises": "Exercises",
    "switch": "This page in English",
    "run": "Run this page",
    "run_title": "Open this chapter in JupyterLab in your browser (JupyterLite): nothing to install",
    "show_printout": "Show the printout (after you predict)",
    "hide_printout": "Hide the printout",
})
CHINESE = Language("zh", "zh_CN", "zh-CN", "中文", "zh", "course/zh", "course/zh/exercises", "make lab LANG=zh", {
    "title": "clone 还是 detach？张量被复制时到底发生了什么",
    "chapters": "章节",
    "exercises": "练习",
    "switch": "本页的中文版",
    "run": "运行本页",
    "run_title": "在浏览器里的 JupyterLab（JupyterLite）中打开这一章：什么都不用装",
    "show_printout": "显示打印结果（先做预测）",
    "hide_printout": "收起打印结果",
})
LANGUAGES = (ENGLISH, CHINESE)
BY_SPHINX = {language.sphinx: language for language in LANGUAGES}


def other(language: Language) -> Language:
    return CHINESE if language is ENGLISH else ENGLISH
