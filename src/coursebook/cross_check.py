"""Run one program on real torch and on reftorch and show both outputs side by side.

This is the course's face of :mod:`crosscheck.harness`: the same comparison the
test suite makes (stdout, warnings, exception, every tensor's metadata, values,
storage sharing, version counter and graph), rendered for a learner.  When the
two disagree the table marks the differing lines and ``cross_check`` raises
``AssertionError``, so a notebook cannot execute cleanly with a wrong claim.

While reftorch runs a learner's piece that fails its own check
(:func:`coursebook.build_it.swap.failing`), equal outputs prove nothing about
that piece: the comparison is not counted as agreement, and says why.
"""

from __future__ import annotations

import html
import itertools

from coursebook.build_it.swap import failing
from crosscheck.harness import diff_traces, import_reftorch, load_torch, run

__all__ = ["CrossCheck", "cross_check"]


class CrossCheck:
    """Both traces of one program and their differences, displayable in a notebook."""

    def __init__(self, program: str, title: str = ""):
        self.program = program
        self.title = title
        self.torch_trace = run(program, load_torch())
        self.reftorch_trace = run(program, import_reftorch())
        self.differences = diff_traces(self.torch_trace, self.reftorch_trace)
        self.unvouched = failing()  # learner's pieces in use that fail their own check

    @property
    def agree(self) -> bool:
        return not self.differences and not self.unvouched

    def _rows(self):
        left = self.torch_trace.stdout.splitlines()
        right = self.reftorch_trace.stdout.splitlines()
        for a, b in itertools.zip_longest(left, right, fillvalue=""):
            yield a, b, a == b

    def summary(self) -> str:
        n = len(self.torch_trace.tensors)
        if self.unvouched and not self.differences:
            return ("Not counted: reftorch printed what torch printed, but it ran pieces that fail "
                    "their own check, so that proves nothing: " + " ".join(self.unvouched.values()))
        if self.agree:
            return (
                f"torch and reftorch agree: same printed output, same warnings, same exception, "
                f"and the same metadata, values, memory sharing, version counters and graph "
                f"for all {n} tensors the program leaves behind."
            )
        also = (" (and " + " ".join(self.unvouched.values()) + ")") if self.unvouched else ""
        return f"torch and reftorch DISAGREE in {len(self.differences)} place(s){also}:"

    def _repr_html_(self) -> str:
        rows = []
        for a, b, same in self._rows():
            mark = "" if same else " style='background:#fde0c5'"
            flag = "" if same else "&#10007; "
            rows.append(
                f"<tr{mark}><td><pre>{html.escape(a)}</pre></td>"
                f"<td><pre>{flag}{html.escape(b)}</pre></td></tr>"
            )
        extra = ""
        if self.differences:
            extra = "<pre>" + html.escape("\n".join(self.differences)) + "</pre>"
        title = f"<b>Cross-check: {html.escape(self.title)}</b><br>" if self.title else ""
        return (
            f"<div>{title}<table><tr><th>real torch</th><th>reftorch</th></tr>{''.join(rows)}</table>"
            f"<p>{'&#10003; ' if self.agree else '&#10007; '}{html.escape(self.summary())}</p>{extra}</div>"
        )

    def __repr__(self) -> str:
        lines = [f"Cross-check: {self.title}" if self.title else "Cross-check"]
        width = max([len(a) for a, _, _ in self._rows()] + [10])
        lines.append(f"  {'real torch'.ljust(width)} | reftorch")
        for a, b, same in self._rows():
            lines.append(f"{' ' if same else 'x'} {a.ljust(width)} | {b}")
        lines.append(self.summary())
        lines += self.differences
        return "\n".join(lines)


def cross_check(program: str, title: str = "") -> CrossCheck:
    """Run ``program`` on torch and reftorch; display the comparison; raise if they differ."""
    result = CrossCheck(program, title)
    if not result.agree:
        from IPython.display import display

        display(result)
        if result.differences:
            raise AssertionError("reftorch and torch disagree:\n" + "\n".join(result.differences))
        raise AssertionError(result.summary())
    return result
