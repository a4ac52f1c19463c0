"""Where the browser tests find things, and the knobs a run can turn (environment variables).

``COURSE_CHROMIUM``          the browser (default /usr/bin/chromium, Debian's package)
``COURSE_BROWSER_TIMEOUT``   seconds one notebook's Run All may take (default 900)
``COURSE_SCREENSHOTS``       folder for the full-page screenshots (default screenshots/ in the repository)
"""

import os
from pathlib import Path

from course_utils import solutions

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
#: Every lesson, found by the same pattern as the other notebook tests, so new lessons are picked up.
NOTEBOOK_FILES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
#: The Chinese edition's lessons run in the browser suite, with JupyterLab's UI in Chinese (the Makefile's ZH_BROWSER;
#: the others run under nbval): the shortest lesson, and the one with an interactive widget.
ZH_NOTEBOOK_FILES = [NOTEBOOKS / "zh" / "00_environment_setup.ipynb", NOTEBOOKS / "zh" / "01_custom_huber_loss.ipynb"]
#: Lessons that run here with the instructor edition's quick parameters (injected into the served copy, as
#: papermill does): their full-length run, with every check that needs it (04's 99% test accuracy), is the
#: Chinese edition's, whose cells are the same code (tests/test_solutions.py). 05 already defaults to QUICK; 06's
#: quick parameters save nothing measurable (its time is msrun's process start-ups), so it runs in full here too.
QUICK_PARAMETERS = {number: solutions.QUICK_PARAMETERS[number] for number in ("04",)}
CHROMIUM = os.environ.get("COURSE_CHROMIUM", "/usr/bin/chromium")
RUN_TIMEOUT = float(os.environ.get("COURSE_BROWSER_TIMEOUT", "900"))
SCREENSHOTS = Path(os.environ.get("COURSE_SCREENSHOTS", ROOT / "screenshots"))

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 900}
