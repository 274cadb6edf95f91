"""The course as a static site: every chapter executed, diagrams that step without a kernel.

``python -m booksite`` (what ``make book`` runs) copies ``course/`` into
``_build/book/``, executes the copies there (``course/`` itself is never
written to), the English chapters and their Chinese twins (``course/zh/``),
turns each stepping diagram's widget output into HTML that steps with no
kernel (``memdiagram.player_html``), and builds the site: English at its top,
Chinese in ``zh/``, each page linking to its twin in the other language.

Why not Jupyter Book 2 here
---------------------------
Issue 26 asks for Jupyter Book 2. Tried on 2026-11-27 with ``pip install
jupyter-book`` (2.1.7, myst 1.11.0, node 20.20.2, npm 11.19.1) on a one-page
project: ``jupyter-book build --html`` stops at the theme, before any page is
built::

    🔍 Querying template metadata from https://api.mystmd.org/templates/site/myst/book-theme
    request to https://api.mystmd.org/templates/site/myst/book-theme failed,
    reason: getaddrinfo ENOTFOUND api.mystmd.org

That is the only failure: with ``site: template: ./tpl`` (a local folder
holding a ``template.yml``) myst skips the download and runs the template's
``npm install`` in that folder, so a theme built locally would be used. But
the theme cannot be built from npm alone: the book theme is the app in
``themes/book`` of the GitHub monorepo jupyter-book/myst-theme, and that
package (``@myst-theme/book``) is ``"private": true``, never published
(``npm view @myst-theme/book`` gives E404). Its libraries are on npm
(``@myst-theme/site``, ``/providers``, ``/frontmatter``, ``/styles``,
``/jupyter``, ``/search``, ``/common`` 1.4.1; ``myst-to-react`` 1.3.0), but the
app itself (its Remix routes, root component, Tailwind styles and template.yml)
is only on GitHub, which this machine cannot reach. So Jupyter Book 2 here
would mean writing and maintaining our own theme app on those libraries, a
larger and riskier piece than this builder; where api.mystmd.org is reachable
(a CI runner with the internet) ``jupyter-book build --html`` could be tried
again on ``course/``.
"""
