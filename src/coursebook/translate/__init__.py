"""The course in other languages, from gettext catalogs keyed by cell.

English (``course/*.ipynb`` and the exercises' prose) is the only source. For each
notebook a catalog ``course/locale/<lang>/<name>.po`` holds one entry per
paragraph of its markdown: ``msgctxt`` is ``"<cell id>#<paragraph index>"``,
``msgid`` the English paragraph, ``msgstr`` its translation.

* :mod:`.paragraphs` cuts a markdown cell into paragraphs and joins them back;
* :mod:`.catalog` lists a notebook's entries and updates a catalog from the
  English (a changed paragraph's entry turns fuzzy, its old English kept as
  the previous msgid);
* :mod:`.links` points a translated chapter's links at its translated siblings;
* :mod:`.comments` and :mod:`.docstrings` find the words of a code cell's comments
  and docstrings, which are translated too;
* :mod:`.notebook` writes the translated notebook: code cells byte for byte but
  those words;
* :mod:`.drift` says what is missing, stale or untranslated, by cell;
* :mod:`.glossary` checks that a term has one rendering everywhere;
* ``python -m coursebook.translate update|generate|check`` runs them.
"""
