"""The course as a JupyterLite site (``make lite``): every chapter and exercise, run by Pyodide in a browser tab.

``python -m lite download`` fetches what the site is made of, from the package
registries only, into ``.lite-cache/`` (:mod:`lite.download`).  ``python -m lite
build`` then needs no network at all (``make lite`` runs it in a network
namespace with only loopback): it records torch's answers (:mod:`lite.record`),
builds a wheel of the learner's packages, relocks Pyodide onto the downloaded
wheels (:mod:`lite.relock`), and runs ``jupyter lite build`` (:mod:`lite.site`)
into ``_build/lite/``, next to the book's ``_build/book/html/``.
"""
