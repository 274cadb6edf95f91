"""A class on JupyterHub: the hub's configuration, its demo, and the term through nbgrader's exchange.

* ``jupyterhub_config.py``: the hub (JupyterHub, configurable-http-proxy, PAM,
  LocalProcessSpawner, formgrader as a service for the instructors' group);
* ``student_config/``: what a student's server reads (nbgrader's exchange, the
  checked submit, the instructor interface switched off);
* :mod:`.users`: real Unix users and groups;
* :mod:`.server`: a host made ready for a class, the hub started and stopped;
* :mod:`.courses`: several courses on one hub (``hub --courses``), each with its
  own root, grader account, formgrader service and groups;
* :mod:`.exchange`: release, collect (through the inbox's intake rules) and
  return feedback;
* :mod:`.as_student`: a submission folder read with its student's rights,
  following no link, within limits (collect never walks it as root);
* :mod:`.submit`: the students' submit, which refuses what the grader would;
* :mod:`.commands`: ``python -m autograder hub | release | collect --exchange | return``.

autograder/README.md, "A class on a hub", walks through a term.
"""
