"""Sphinx configuration of the course website, one edition per run (``site/build.py`` sets COURSE_SITE_LANG)."""

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import sources

LANG = os.environ.get("COURSE_SITE_LANG", "en")
edition = sources.EDITIONS[LANG]
words = sources.strings(LANG)

project = words["site_title"]
html_title = words["site_title"]
language = edition.sphinx
extensions = ["myst_nb", "course_site"]
templates_path = [str(HERE / "templates")]
html_static_path = [str(HERE / "static")]
html_favicon = str(HERE / "static" / "favicon.svg")
html_css_files = ["course-site.css"]
html_js_files = [("course-site.js", {"defer": "defer"})]
exclude_patterns = ["lessons/scripts/*"]

# The stored outputs are the lesson: nothing is executed at build time.
nb_execution_mode = "off"
# A widget's stored view has no state (the executor drops it): show its text fallback, not an empty widget box.
nb_mime_priority_overrides = [("html", sources.WIDGET_VIEW, None)]
myst_enable_extensions = ["dollarmath", "amsmath", "html_image"]
myst_heading_anchors = 3
# Math from the local MathJax 3 (course_site copies it into _static/mathjax/): no CDN.
mathjax_path = "mathjax/tex-chtml.js"

html_theme = "sphinx_book_theme"
html_theme_options = {
    "home_page_in_toc": True,
    "use_download_button": True,
    "use_fullscreen_button": False,
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "article_header_end": ["course-lang-switch.html", "article-header-buttons.html"],
    "extra_footer": "",
    "pygments_light_style": "a11y-high-contrast-light",
    "pygments_dark_style": "a11y-high-contrast-dark",
}
html_context = {"default_mode": "auto"}   # light or dark as the reader's system says
html_copy_source = True          # _sources/lessons/NN_*.ipynb: the stored notebook, the page's download
html_show_sourcelink = False
html_sourcelink_suffix = ""
html_last_updated_fmt = None
html_additional_pages = {"search": "course-search.html"}
html_use_index = False
html_domain_indices = False
suppress_warnings = ["myst.header"]
