"""A student's lab on the course's hub, in headless Chromium: logged in through the hub's own
login page (PAM), the Assignments panel lists the fetched assignment, and nothing of the
instructor's interface is there (no Formgrader, Create Assignment or Courses; formgrader's
server extension answers 404).  The login URL the hub command prints opens the lab on the
course's index, with no news pop-up and no Launcher."""

import os

import pytest

from driver import Person

pytestmark = pytest.mark.browser
COURSE = "tensor-copies"


@pytest.fixture(scope="module")
def student(hub_class):
    c = hub_class
    if not any("release clone" in block for block, _ in c.runs):
        c.run(c.blocks[2])  # generate, release (the term test may have done it already)
    name = c.students()[-1]
    person = Person(c.url, name, c.people[name]).login().start_server().wait_ready()
    listed = {a["assignment_id"]: a["status"] for a in person.assignments(COURSE)["value"]}
    if listed.get("clone") != "fetched":
        person.action("fetch", COURSE, "clone")
    return c, name


def test_a_student_logs_in_and_the_assignment_list_shows_the_fetched_assignment_and_no_instructor_interface(
        student, browser):
    c, name = student
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto(c.url + "/hub/login?next=/user/%s/lab" % name, timeout=120_000)
        page.fill("#username_input", name)
        page.fill("#password_input", c.people[name])
        page.click("#login_submit")
        page.wait_for_url("**/user/%s/lab**" % name, timeout=180_000)
        page.locator("#jp-menu-panel").get_by_text("Nbgrader").wait_for(timeout=180_000)
        page.locator("#jp-menu-panel").get_by_text("Nbgrader").click()
        menu = page.locator("#jp-mainmenu-nbgrader")
        menu.wait_for(timeout=30_000)
        items = menu.inner_text()
        assert "Assignment List" in items, items
        for instructor_only in ("Formgrader", "Course List", "Courses"):
            assert instructor_only not in items, items
        menu.get_by_text("Assignment List").click()
        fetched = page.locator("#fetched_assignments_list")
        fetched.get_by_text("clone").first.wait_for(timeout=90_000)
        assert "detach" not in fetched.inner_text()
        assert page.get_by_text("Create Assignment").count() == 0
        assert page.get_by_text("Formgrader").count() == 0
        artifacts = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "artifacts")
        os.makedirs(artifacts, exist_ok=True)
        page.screenshot(path=os.path.join(artifacts, "hub-student-lab.png"))
        refused = page.request.get(c.url + "/user/%s/formgrader" % name)
        assert refused.status == 404
    finally:
        page.close()


def test_the_printed_login_url_opens_the_lab_on_the_course_index_without_the_news_pop_up(student, browser):
    c, name = student
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto(c.login_urls[name], timeout=120_000)
        page.fill("#username_input", name)
        page.fill("#password_input", c.people[name])
        page.click("#login_submit")
        page.wait_for_url("**/user/%s/lab/tree/course/00_index.ipynb**" % name, timeout=180_000)
        page.locator(".jp-NotebookPanel").first.wait_for(timeout=180_000)
        page.wait_for_timeout(3000)  # the news question, when asked, comes a moment after the lab
        assert page.get_by_text("official Jupyter news").count() == 0
        assert page.locator(".jp-Launcher").count() == 0
        assert "00_index.ipynb" in page.title()
    finally:
        page.close()
