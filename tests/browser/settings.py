"""Where the browser tests find things, and the knobs a run can turn (environment variables).

``COURSE_CHROMIUM``          the browser (default /usr/bin/chromium, Debian's package)
``COURSE_BROWSER_TIMEOUT``   seconds one notebook's Run All may take (default 900)
``COURSE_SCREENSHOTS``       folder for the full-page screenshots (default screenshots/ in the repository)
"""

import os
from pathlib import Path

from course_utils import lessons

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
#: Every lesson of the manifest (course_utils/lessons.py), so a new lesson is tested without touching this file.
NOTEBOOK_FILES = lessons.paths("en")
#: The Chinese edition's lessons that also run here, with JupyterLab's UI in Chinese (the manifest's
#: ``zh_in_browser``; the others run as the instructor edition in make test-full): the shortest lesson, and the one
#: with an interactive widget.
ZH_NOTEBOOK_FILES = [lesson.path("zh") for lesson in lessons.LESSONS if lesson.zh_in_browser]
#: Lessons that run here with their quick parameters (the manifest's ``quick_in_browser``; injected into the served
#: copy, as papermill does): their full-length run, with every check that needs it (05's 99% test accuracy), is the
#: Chinese edition's, whose cells are the same code (tests/lessons/test_solutions.py). 07 and 08 default to QUICK;
#: 09's quick parameters save nothing measurable (its time is msrun's process start-ups), so it runs in full here too.
QUICK_PARAMETERS = {lesson.number: dict(lesson.quick) for lesson in lessons.LESSONS if lesson.quick_in_browser}
CHROMIUM = os.environ.get("COURSE_CHROMIUM", "/usr/bin/chromium")
RUN_TIMEOUT = float(os.environ.get("COURSE_BROWSER_TIMEOUT", "900"))
SCREENSHOTS = Path(os.environ.get("COURSE_SCREENSHOTS", ROOT / "screenshots"))

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 900}
