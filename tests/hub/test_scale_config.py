"""The hub on Kubernetes (docs/scale/z2jh-values.yaml), checked against the demo hub it is written
from: the same landing page, lab settings, student configuration, course id, roles and
formgrader service.  The values are parsed, never deployed (autograder/README.md, "When one
machine is not enough")."""

import json
import os
import re

import yaml

from autograder.course import course_config
from autograder.hub.services import courses_of

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VALUES = os.path.join(REPO, "docs", "scale", "z2jh-values.yaml")
HUB = os.path.join(REPO, "autograder", "hub")


def values():
    with open(VALUES, encoding="utf-8") as f:
        return yaml.safe_load(f)


def read_json(*parts):
    with open(os.path.join(REPO, *parts), encoding="utf-8") as f:
        return json.load(f)


def demo_config():
    with open(os.path.join(HUB, "jupyterhub_config.py"), encoding="utf-8") as f:
        return f.read()


def test_the_values_spawn_with_kubespawner_and_open_the_same_page_as_the_demo_hub():
    v = values()
    assert "spawner_class" not in v["hub"]["config"].get("JupyterHub", {}), "Zero to JupyterHub's KubeSpawner"
    assert "KubeSpawner" in v["hub"]["config"]
    demo_page = re.search(r'^c\.Spawner\.default_url = "([^"]+)"', demo_config(), re.M).group(1)
    assert v["singleuser"]["defaultUrl"] == demo_page
    assert os.path.exists(os.path.join(REPO, demo_page.removeprefix("/lab/tree/")))
    demo_landing = re.search(r'^c\.JupyterHub\.default_url = "([^"]+)"', demo_config(), re.M).group(1)
    assert v["hub"]["config"]["JupyterHub"]["default_url"] == demo_landing


def test_the_students_lab_gets_the_demos_settings_and_student_configuration():
    files = values()["singleuser"]["extraFiles"]
    assert files["lab-overrides"]["data"] == read_json("binder", "lab-settings", "overrides.json")
    assert files["lab-overrides"]["mountPath"].endswith("/share/jupyter/lab/settings/overrides.json")
    assert files["server-config"]["data"] == read_json(HUB, "student_config", "jupyter_server_config.json")
    assert files["lab-page-config"]["data"] == read_json(HUB, "student_config", "labconfig", "page_config.json")


def test_the_course_id_is_the_courses():
    v = values()
    course_id = course_config(REPO).CourseDirectory.course_id
    assert v["singleuser"]["extraEnv"]["AUTOGRADER_HUB_COURSE_ID"] == course_id
    nbgrader = v["singleuser"]["extraFiles"]["nbgrader-config"]["stringData"]
    assert 'c.CourseDirectory.course_id = "%s"' % course_id in nbgrader
    assert "configureExchange(c, " in nbgrader and "/services/ngshare" in nbgrader
    assert "ngshare" in v["hub"]["services"]


def test_only_the_instructors_group_reaches_formgrader_as_on_the_demo_hub():
    v = values()
    role = v["hub"]["loadRoles"]["formgrader-for-instructors"]
    assert role["scopes"] == ["access:services!service=formgrader"]
    demo_groups = re.search(r'instructors_group: str = "([^"]+)"',
                            open(os.path.join(HUB, "users.py"), encoding="utf-8").read()).group(1)
    assert role["groups"] == [demo_groups]
    assert "formgrader" in v["hub"]["services"] and v["hub"]["services"]["formgrader"]["url"].startswith("http")
    # the demo's one course: its service is "formgrader", reached by the scope named for its service
    one_course = dict.fromkeys(("course_id", "course_root", "state", "grader", "grader_home", "students_group",
                                "instructors_group", "formgrader_port"))
    assert [course["service"] for course in courses_of(one_course)] == ["formgrader"]
    assert '"scopes": ["access:services!service=%s" % course["service"]]' in demo_config()


def test_the_chapters_come_into_each_home_as_on_the_demo_hub():
    command = values()["singleuser"]["lifecycleHooks"]["postStart"]["exec"]["command"]
    assert command[:3] == ["python", "-m", "coursebook.workspace"]
    assert "-m coursebook.workspace --repo" in demo_config()
    assert {"--repo", "--workspace", "--quiet"} <= set(command)


def test_each_student_pod_has_room_for_a_server_and_a_torch_kernel():
    v = values()["singleuser"]
    assert v["memory"]["guarantee"] == "512M" and v["memory"]["limit"] == "2G"
    assert float(v["cpu"]["guarantee"]) > 0
