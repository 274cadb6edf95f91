"""Run one program on real torch and on reftorch and show both outputs side by side.

This is the course's face of :mod:`crosscheck.harness`: the same comparison the
test suite makes (stdout, warnings, exception, every tensor's metadata, values,
storage sharing, version counter and graph), rendered for a learner.  When the
two disagree the table marks the differing lines and ``cross_check`` raises
``AssertionError``, so a notebook cannot execute cleanly with a wrong claim.

While reftorch runs a learner's piece that fails its own check
(:func:`coursebook.build_it.switch.failing`), equal outputs prove nothing about
that piece: the comparison is not counted as agreement, and says why.
"""

from __future__ import annotations

import html
import itertools

from coursebook.build_it.switch import failing
from coursebook.language import _
from crosscheck.harness import diff_traces, import_reftorch, run
from crosscheck.recorded import recorded_torch_version, torch_here, torch_run

__all__ = ["CrossCheck", "CrossCheckFailed", "cross_check", "printed_values"]

# left-aligned, wrapped at spaces only (never inside a word or a number)
CELL = " style='text-align: left; vertical-align: top'"
TEXT = " style='text-align: left; white-space: pre-wrap; overflow-wrap: normal; word-break: normal; margin: 0'"


def printed_values(stdout: str) -> list[str]:
    """The printed output split into values: a line, with the lines that continue it (a tensor's
    further rows start with a space)."""
    values = []
    for line in stdout.splitlines():
        if values and line.startswith(" ") and line.strip():
            values[-1] += "\n" + line
        else:
            values.append(line)
    return values


class CrossCheckFailed(AssertionError):
    """Raised when torch and reftorch differ; shown in a notebook as its summary, not a traceback.

    IPython shows the lines ``_render_traceback_`` returns in place of the
    traceback (its public protocol for exceptions that know how to show
    themselves): the table above already says what differs, and the frames
    would all be the course's own.
    """

    def _render_traceback_(self):
        return ["CrossCheckFailed: " + line if i == 0 else line for i, line in enumerate(str(self).splitlines())]


class CrossCheck:
    """Both traces of one program and their differences, displayable in a notebook."""

    def __init__(self, program: str, title: str = "", folded: int = 0):
        self.program = program
        self.title = title
        self.folded = folded  # predictions not made yet whose answers the table's rows would give
        self.torch_trace = torch_run(program)  # in the browser: torch's trace recorded when the site was built
        self.recorded = recorded_torch_version() if torch_here() is None else None
        self.reftorch_trace = run(program, import_reftorch())
        self.differences = diff_traces(self.torch_trace, self.reftorch_trace)
        self.unvouched = failing()  # learner's pieces in use that fail their own check

    @property
    def agree(self) -> bool:
        return not self.differences and not self.unvouched

    def _rows(self):
        """(torch's output, reftorch's, equal?) one printed value at a time: a multi-line tensor stays
        in one row."""
        left = printed_values(self.torch_trace.stdout)
        right = printed_values(self.reftorch_trace.stdout)
        for a, b in itertools.zip_longest(left, right, fillvalue=""):
            yield a, b, a == b

    def summary(self) -> str:
        n = len(self.torch_trace.tensors)
        if self.unvouched and not self.differences:
            return (_("Not counted: reftorch printed what torch printed, but it ran pieces that fail "
                      "their own check, so that proves nothing:") + " " + " ".join(self.unvouched.values()))
        if self.agree:
            if n == 1:
                return _("torch and reftorch agree: same printed output, same warnings, same exception, "
                         "and the same metadata, values, memory sharing, version counters and graph "
                         "for the one tensor the program leaves behind.")
            return _("torch and reftorch agree: same printed output, same warnings, same exception, "
                     "and the same metadata, values, memory sharing, version counters and graph "
                     "for all {n} tensors the program leaves behind.").format(n=n)
        also = (" (" + _("and") + " " + " ".join(self.unvouched.values()) + ")") if self.unvouched else ""
        return _("torch and reftorch DISAGREE in {count} place(s){also}:").format(count=len(self.differences),
                                                                                 also=also)

    @property
    def _fold(self) -> bool:
        """Fold the table, and the differences (they quote torch's lines), while they would give
        away answers to predictions not made yet: a disagreement does not unfold them either."""
        return bool(self.folded)

    def _fold_note(self) -> str:
        n = self.folded
        if self.agree:
            if n == 1:
                return _("The table is folded: its rows would give away the answer to the prediction "
                         "you have not made yet.")
            return _("The table is folded: its rows would give away the answers to {n} predictions "
                     "you have not made yet.").format(n=n)
        if n == 1:
            return _("The table and the differences are folded: they would give away the answer to the "
                     "prediction you have not made yet.")
        return _("The table and the differences are folded: they would give away the answers to {n} "
                 "predictions you have not made yet.").format(n=n)

    def _recorded_note(self) -> str:
        return _("torch cannot run in the browser: the torch column is what torch {version} printed for this "
                 "program when this site was built.").format(version=self.recorded)

    def _repr_html_(self) -> str:
        rows = []
        for a, b, same in self._rows():
            mark = "" if same else " style='background:#fde0c5'"
            flag = "" if same else "&#10007; "
            rows.append(
                f"<tr{mark}><td{CELL}><pre class='coursebook-printout'{TEXT}>{html.escape(a)}</pre></td>"
                f"<td{CELL}><pre class='coursebook-printout'{TEXT}>{flag}{html.escape(b)}</pre></td></tr>"
            )
        extra = ""
        if self.differences:
            extra = f"<pre{TEXT}>" + html.escape("\n".join(self.differences)) + "</pre>"
        title = f"<b>{html.escape(_('Cross-check: {title}').format(title=_(self.title)))}</b><br>" if self.title else ""
        table = (f"<table><tr><th{CELL}>{html.escape(_('real torch'))}</th><th{CELL}>reftorch</th></tr>"
                 f"{''.join(rows)}</table>")
        verdict = f"<p>{'&#10003; ' if self.agree else '&#10007; '}{html.escape(self.summary())}</p>"
        if self.recorded:
            verdict += f"<p><i>{html.escape(self._recorded_note())}</i></p>"
        if self._fold:
            return (f"<div>{title}{verdict}<details><summary>{html.escape(self._fold_note())}</summary>"
                    f"{table}{extra}</details></div>")
        return f"<div>{title}{table}{verdict}{extra}</div>"

    def __repr__(self) -> str:
        lines = [_("Cross-check: {title}").format(title=_(self.title)) if self.title else _("Cross-check")]
        width = max([len(line) for a, _, _ in self._rows() for line in a.splitlines()] + [10])
        if not self._fold:
            lines.append(f"  {_('real torch').ljust(width)} | reftorch")
        for a, b, same in [] if self._fold else self._rows():
            for i, (x, y) in enumerate(itertools.zip_longest(a.splitlines() or [""], b.splitlines() or [""],
                                                              fillvalue="")):
                lines.append(f"{' ' if same or i else 'x'} {x.ljust(width)} | {y}")
        if self._fold:
            lines.append(self._fold_note())
        lines.append(self.summary())
        if self.recorded:
            lines.append(self._recorded_note())
        if not self._fold:
            lines += self.differences
        return "\n".join(lines)


def cross_check(program: str, title: str = "", folded: int = 0) -> CrossCheck:
    """Run ``program`` on torch and reftorch; display the comparison; raise if they differ.
    ``folded``: how many predictions the table would give away (it is folded while they agree)."""
    result = CrossCheck(program, title, folded)
    if not result.agree:
        from IPython.display import display

        display(result)
        if result.differences:  # the display above shows the differences: say them once
            raise CrossCheckFailed(_("reftorch and torch disagree in {n} place(s), shown above.").format(
                n=len(result.differences)))
        raise CrossCheckFailed(result.summary())
    return result
