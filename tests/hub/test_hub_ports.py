"""A hub whose port was taken between our release and JupyterHub's bind starts again on other
ports: every port of its settings moves, a course's formgrader too."""

import pytest

from autograder.hub.server import PORT_NAMES, Ports, take_ports

pytestmark = pytest.mark.unit  # in this process: ports bound and released, nothing started


def test_a_single_course_hub_moves_every_port():
    first = Ports()
    settings = dict(first.numbers, course_id="demo")
    first.release()
    again = first.again()
    again.release()
    take_ports(settings, again.numbers)
    assert {name: settings[name] for name in PORT_NAMES} == again.numbers


def test_each_course_of_a_hub_of_several_moves_its_formgrader():
    names = ("port", "hub_port", "proxy_api_port", "formgrader_port:a", "formgrader_port:b")
    first = Ports(names=names)
    first.release()
    courses = [dict(id=c, formgrader_port=first.numbers["formgrader_port:" + c]) for c in "ab"]
    settings = dict({n: first.numbers[n] for n in names[:3]}, courses=courses)
    again = first.again()
    again.release()
    take_ports(settings, again.numbers)
    assert [c["formgrader_port"] for c in settings["courses"]] == [again.numbers["formgrader_port:a"],
                                                                  again.numbers["formgrader_port:b"]]
    assert {n: settings[n] for n in names[:3]} == {n: again.numbers[n] for n in names[:3]}
    assert not any(":" in name for name in settings)
