"""The course as a static site: every chapter executed, diagrams that step without a kernel.

``python -m booksite`` (what ``make book`` runs) copies ``course/`` into
``_build/book/``, executes the copies there (``course/`` itself is never
written to), turns each stepping diagram's widget output into HTML that steps
with no kernel (``memdiagram.player_html``), and builds the site.
"""
