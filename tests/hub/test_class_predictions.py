"""What the class believes: learners share their first answers to predictions, the report sums them up.

A real hub of this course (PAM, three students and a fourth who switched
sharing off), with the ``predictions`` service. Each learner logs in with
their Unix password and takes a token for that service, as their server's
token is; then answers predictions of chapters 02 and 09 with the course's own
``coursebook.predict.answer`` in a Python of their own, some right and some
as a misconception model prints. ``python -m autograder report --predictions``
on the course state must then show the expected shares.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest
import requests

from hub_course import Class, kill_processes_of, needs_proxy

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUDENTS = ["cp-right", "cp-detach", "cp-both", "cp-silent"]

ANSWER = r"""
import json, os, sys
sys.path[:0] = [%(src)r]
from coursebook import predict, sharing
from coursebook.predict.diagnose import model_answers, right_answer
from coursebook.predict.questions import question
sent = {}
for name, env, plan in json.loads(sys.stdin.read()):
    os.environ.update(env)  # each learner's own token, sharing file and progress file
    predict._tries.clear()
    if plan.get("consent") is not None:
        sharing.set_consent(plan["consent"])
    for question_id, belief in plan["answers"]:
        q = question(question_id)
        text = right_answer(q) if belief is None else model_answers(q)[belief]
        predict.answer(question_id, text)
        predict.answer(question_id, right_answer(q))  # a second answer is never shared
    sent[name] = sharing.sent()
print(json.dumps(sent))
"""


def pick(chapter):
    """A question of ``chapter`` that one misconception model alone answers wrongly, and that model."""
    sys.path.insert(0, os.path.join(REPO, "src"))
    from coursebook.predict.diagnose import model_answers, right_answer
    from coursebook.predict.questions import normalise, questions

    for q in questions():
        if not q.chapter.startswith(chapter):
            continue
        right, by_answer = normalise(right_answer(q)), {}
        for name, text in model_answers(q).items():
            if normalise(text) != right:
                by_answer.setdefault(normalise(text), []).append(name)
        unique = [names[0] for names in by_answer.values() if len(names) == 1]
        if unique:
            return q.id, unique[0]
    raise AssertionError("no question of chapter %s has a misconception model of its own" % chapter)


@pytest.fixture(scope="module")
def class_hub(needs_sandbox):
    """``python -m autograder hub`` on a fresh copy of the course, with learners of its own."""
    needs_proxy()
    course = Class.on_a_fresh_copy("predictions-hub-")
    base = course.base
    hub = [sys.executable, "-m", "autograder", "hub", "--dir", os.path.join(base, "hub"),
           "--instructor", "cp-teacher", "--students"] + STUDENTS + [
           "--grader", "cp-grader", "--groups", "cp-students", "cp-instructors"]
    try:
        course.start(" ".join("'%s'" % part for part in hub) + "\n")
        yield course
    finally:
        course.stop()
        kill_processes_of(STUDENTS + ["cp-teacher", "cp-grader"])
        subprocess.run(hub + ["--remove-users"], cwd=course.root, env=course.env, capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def token_of(url, name, password):
    """Log in as ``name`` and take a token for the predictions service, as a learner can."""
    hub = url + "/hub"
    browser = requests.Session()
    browser.get(hub + "/login", timeout=30)
    logged = browser.post(hub + "/login", data={"username": name, "password": password,
                                               "_xsrf": browser.cookies.get("_xsrf")}, timeout=30)
    assert logged.status_code == 200 and "/hub/login" not in logged.url, logged.url
    made = browser.post(hub + "/api/users/%s/tokens" % name, timeout=30,
                        headers={"X-XSRFToken": browser.cookies.get("_xsrf")},
                        json={"note": "predictions", "expires_in": 900,
                              "scopes": ["access:services!service=predictions"]})
    assert made.status_code == 201, made.text
    return made.json()["token"]


def answer_as(url, learners):
    """Each of ``learners`` ((name, token, folder, plan)) answers with the course's own code, in one
    Python (the chapters' printouts are computed once); what each one's machine says it sent."""
    url = url + "/services/predictions/"
    given = [[name, {"JUPYTERHUB_API_TOKEN": token, "COURSEBOOK_SHARE_DEFAULT": "on", "COURSEBOOK_SHARE_URL": url,
                     "COURSEBOOK_SHARING": os.path.join(folder, "sharing.json"),
                     "COURSEBOOK_PROGRESS": os.path.join(folder, "progress.json")}, plan]
             for name, token, folder, plan in learners]
    done = subprocess.run([sys.executable, "-c", ANSWER % {"src": os.path.join(REPO, "src")}],
                          input=json.dumps(given), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_report_shows_the_share_of_the_class_behind_each_misconception(class_hub, tmp_path):
    course = class_hub
    root = course.root
    q02, belief02 = pick("02_")
    q09, belief09 = pick("09_")
    plans = {"cp-right": {"answers": [[q02, None], [q09, None]]},
             "cp-detach": {"answers": [[q02, None], [q09, belief09]]},
             "cp-both": {"answers": [[q02, belief02], [q09, belief09]]},
             "cp-silent": {"consent": False, "answers": [[q02, belief02], [q09, belief09]]}}
    tokens = {name: token_of(course.url, name, course.people[name]) for name in plans}
    sent = answer_as(course.url, [(name, tokens[name], str(tmp_path / name), plan) for name, plan in plans.items()])
    assert {name: len(records) for name, records in sent.items()} == {
        "cp-right": 2, "cp-detach": 2, "cp-both": 2, "cp-silent": 0}

    report = subprocess.run([sys.executable, "-m", "autograder", "--root", root, "report", "--predictions"],
                            capture_output=True, text=True, timeout=300)
    assert report.returncode == 0, report.stderr
    text = report.stdout
    assert "02_names_and_objects.ipynb: 3 learner(s)" in text, text
    assert "09_detach_and_data.ipynb: 3 learner(s)" in text, text
    assert " 33%%  %s  (1 of 3)" % belief02 in text, text
    assert " 67%%  %s  (2 of 3)" % belief09 in text, text
    assert os.path.exists(os.path.join(root, "autograder", "state", "reports", "predictions_misconceptions.png"))

    # a learner sees what the service keeps of theirs, and only theirs, and can delete it
    service = course.url + "/services/predictions/answers"
    mine = requests.get(service, headers={"Authorization": "token " + tokens["cp-both"]}, timeout=30).json()
    assert sorted(r["question"] for r in mine["answers"]) == sorted([q02, q09])
    assert requests.get(service, headers={"Authorization": "token " + tokens["cp-silent"]},
                        timeout=30).json() == {"answers": []}
    gone = requests.delete(service, headers={"Authorization": "token " + tokens["cp-both"]}, timeout=30)
    assert gone.json() == {"deleted": 2}
    assert requests.get(service, timeout=30).status_code in (302, 401, 403)  # no token, no answers
    after = subprocess.run([sys.executable, "-m", "autograder", "--root", root, "report", "--predictions"],
                           capture_output=True, text=True, timeout=300).stdout
    assert " 50%%  %s  (1 of 2)" % belief09 in after, after
