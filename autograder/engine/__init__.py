"""The engine that runs many gradings: one dask.distributed task per submission.

- ``worker``: the task (grade one submission in a private workspace, return the result
  as data) and what each worker process keeps between tasks (its warm kernel zygote);
- ``cluster``: the grader's side: a local cluster sized to the machine, a farm of
  ``dask worker`` processes (``--scheduler tcp://HOST:8786``), or a plain loop in this
  process; retries of a worker's lost tasks and the whole run's deadline;
- ``gradebook``: the one writer of grades (the grader's process), the snapshot the
  workers grade against, and ``migrate`` (a SQLite gradebook into Postgres).
"""
