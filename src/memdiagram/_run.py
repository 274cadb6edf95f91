"""Running a list of statements once and recording every step.

``record(statements, torch_module)`` executes the statements one after the
other in a fresh namespace (``torch`` is bound to the module you pass, so
the same statements run on torch or on reftorch) and takes a snapshot after
each one. All snapshots share one ``Labels`` table, which keeps every object
alive until the recording is over: the same tensor, storage, counter or node
keeps its label, and "new" in the diff really means new.

A statement that raises does not stop the recording: the error is kept in
that step (the diagram then shows the state right after the failure), which
is how a chapter shows, say, backward refusing a tensor modified in place.
What a statement prints, and any warning it gives, is kept too.
"""

import ast
import contextlib
import io
import traceback
import warnings

from ._model import Labels, take_snapshot


def split_statements(statements):
    """A list of statement strings, from a list or from one multi-line string."""
    if isinstance(statements, str):
        try:
            tree = ast.parse(statements)
        except SyntaxError as error:
            raise SyntaxError(f"step_through could not parse the statements: {error}") from None
        return [ast.get_source_segment(statements, node) for node in tree.body]
    if not isinstance(statements, (list, tuple)) or not all(isinstance(s, str) for s in statements):
        raise TypeError("step_through expects a list of statements (strings) or one multi-line string")
    if not statements:
        raise ValueError("step_through needs at least one statement")
    return list(statements)


def named_tensors(namespace, adapter):
    """The tensors a program can name: variables, a module's parameters, dict and list entries."""
    found = {}
    for name, value in namespace.items():
        if name.startswith("_") or name == "torch":
            continue
        if adapter.is_tensor(value):
            found[name] = value
        elif hasattr(value, "named_parameters") and callable(value.named_parameters):
            for pname, p in value.named_parameters():
                found[f"{name}.{pname}"] = p
        elif isinstance(value, dict):
            for key, item in value.items():
                if adapter.is_tensor(item):
                    found[f"{name}[{key!r}]"] = item
        elif isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                if adapter.is_tensor(item):
                    found[f"{name}[{i}]"] = item
    return found


def _run_one(statement, namespace, index):
    output = io.StringIO()
    error = ""
    code = compile(statement, f"<step {index}>", "exec")
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(output):
        warnings.simplefilter("always")
        try:
            exec(code, namespace)
        except Exception as exc:  # the step records the failure; the learner sees it
            error = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    text = output.getvalue()
    for w in caught:
        text += f"{w.category.__name__}: {w.message}\n"
    return text, error


def record(statements, torch_module, adapter, namespace=None):
    """Run ``statements`` once; return one ``Snapshot`` per statement."""
    statements = split_statements(statements)
    ns = {"torch": torch_module}
    ns.update(namespace or {})
    labels = Labels()
    snapshots = []
    for i, statement in enumerate(statements, start=1):
        try:
            compile(statement, f"<step {i}>", "exec")
        except SyntaxError as error:
            raise SyntaxError(f"step {i} ({statement!r}) is not valid Python: {error.msg}") from None
        output, error = _run_one(statement, ns, i)
        snap = take_snapshot(named_tensors(ns, adapter), adapter, labels, statement=statement)
        snap.output, snap.error = output, error
        snapshots.append(snap)
    return snapshots, labels
