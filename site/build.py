"""Build the course website: both editions of every stored lesson, the guides, search. What ``make site`` runs.

    .venv-site/bin/python site/build.py                        # -> build/site/ (en/, zh-CN/, pagefind/, index.html)
    .venv-site/bin/python site/build.py --hub http://10.0.0.5:8000 --repository https://github.com/org/course

Nothing is executed: the pages show the stored notebooks' outputs. Steps: write each edition's Sphinx source tree
(``sources.write_sources``: the page list from the lesson manifest), run Sphinx for the two editions side by side
(one process each; warnings are errors, so a broken link fails the build), assemble them with the language chooser
at the root, index the whole site with Pagefind (one index per ``<html lang>``; its extended build segments
Chinese), then swap the finished folder in for the old one: a half-built site is never served.

Sphinx's caches stay in ``build/site-work/`` so that a rebuild redoes only what changed; a change to the site's own
code or words (``site/``) or its requirements starts from scratch. No network is needed (``unshare -n`` proves it in
the tests).
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import sources

ROOT = sources.ROOT
OUT = ROOT / "build" / "site"
WORK = ROOT / "build" / "site-work"
#: Pagefind keeps these in words: API names such as value_and_grad and ops.depend are found whole.
PAGEFIND_WORD_CHARACTERS = "_"


def _fingerprint() -> str:
    """A hash of everything that shapes every page but that Sphinx does not track itself."""
    digest = hashlib.sha256()
    for path in sorted([*HERE.rglob("*"), ROOT / "requirements-site.txt"]):
        if path.is_file() and "__pycache__" not in path.parts and "node_modules" not in path.parts:
            digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _sphinx(code: str, work: Path) -> subprocess.Popen:
    folder = sources.EDITIONS[code].folder
    env = dict(os.environ, COURSE_SITE_LANG=code, PYTHONDONTWRITEBYTECODE="1")
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going", "-c", str(HERE),
           "-d", str(work / "doctrees" / folder), str(work / "src" / folder), str(work / "html" / folder)]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def chooser(data: dict) -> str:
    """The site's root page: the two editions, each named in its own language."""
    links = []
    for code, edition in sources.EDITIONS.items():
        words = data[code]["words"]
        links.append(f'<li lang="{edition.folder}"><a href="{edition.folder}/index.html" hreflang="{edition.folder}">'
                     f'<strong>{html.escape(words["site_title"])}</strong></a>'
                     f'<span>{html.escape(words["chooser_line"])}</span></li>')
    alternates = "".join(f'<link rel="alternate" hreflang="{e.folder}" href="{e.folder}/index.html">'
                         for e in sources.EDITIONS.values())
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>MindSpore training-loop course · MindSpore 训练循环课程</title>
<link rel="icon" href="en/_static/favicon.svg">
{alternates}<link rel="alternate" hreflang="x-default" href="index.html">
<style>
body {{ font-family: system-ui, sans-serif; margin: 0; color: #1a1a1a; background: #fff; }}
main {{ max-width: 40rem; margin: 10vh auto; padding: 0 1.2rem; }}
h1 {{ font-size: 1.5rem; }}
ul {{ list-style: none; padding: 0; }}
li {{ margin: 1rem 0; padding: 1rem; border: 1px solid #bbb; border-radius: .4rem; }}
li a {{ font-size: 1.2rem; color: #0b4f9c; }}
li span {{ display: block; margin-top: .3rem; }}
</style>
</head>
<body>
<main>
<h1>MindSpore training-loop course <span lang="zh-CN">· MindSpore 训练循环课程</span></h1>
<ul>{''.join(links)}</ul>
</main>
</body>
</html>
"""


def build(out: Path, options: sources.Options, work: Path = WORK) -> dict:
    started = time.monotonic()
    load_before = os.getloadavg()[0]
    fingerprint = _fingerprint()
    stamp = work / "fingerprint"
    if not stamp.exists() or stamp.read_text() != fingerprint:
        shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)
    data = {code: sources.write_sources(code, work / "src" / e.folder, options)
            for code, e in sources.EDITIONS.items()}
    t_sources = time.monotonic()
    procs = {code: _sphinx(code, work) for code in sources.EDITIONS}
    failed = []
    for code, proc in procs.items():
        output, _ = proc.communicate()
        if proc.returncode != 0:
            failed.append(code)
            print(f"make site: Sphinx failed for the {code} edition (warnings are errors):\n{output}",
                  file=sys.stderr)
        elif output.strip():
            print(output.strip())
    if failed:
        raise SystemExit(1)
    stamp.write_text(fingerprint)
    t_sphinx = time.monotonic()

    tmp = out.with_name(out.name + ".new")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for edition in sources.EDITIONS.values():
        shutil.copytree(work / "html" / edition.folder, tmp / edition.folder,
                        ignore=shutil.ignore_patterns(".buildinfo", ".doctrees", "objects.inv",
                                                      # the theme's Jinja macros, copied as if they were assets
                                                      "*webpack-macros.html"))
    (tmp / "index.html").write_text(chooser(data), encoding="utf-8")
    (tmp / ".nojekyll").write_text("")        # GitHub Pages: serve _static/ and _sources/ as they are
    from pagefind_bin_extended import get_executable
    index = subprocess.run([str(get_executable()), "--site", str(tmp), "--output-subdir", "pagefind",
                            "--include-characters", PAGEFIND_WORD_CHARACTERS, "--silent"],
                           capture_output=True, text=True)
    if index.returncode != 0:
        print(f"make site: Pagefind failed:\n{index.stdout}{index.stderr}", file=sys.stderr)
        raise SystemExit(1)
    t_index = time.monotonic()

    old = out.with_name(out.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        os.replace(out, old)
    os.replace(tmp, out)
    shutil.rmtree(old, ignore_errors=True)
    pages = sum(1 for _ in out.rglob("*.html"))
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    summary = {"seconds": round(time.monotonic() - started, 1), "sources": round(t_sources - started, 1),
               "sphinx": round(t_sphinx - t_sources, 1), "pagefind": round(t_index - t_sphinx, 1),
               "pages": pages, "megabytes": round(size / 1e6, 1), "cpus": os.cpu_count(),
               "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)]}
    (work / "last-build.json").write_text(json.dumps(summary, indent=1))
    print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: {pages} pages, "
          f"{summary['megabytes']} MB in {summary['seconds']} s (sources {summary['sources']} s, Sphinx "
          f"{summary['sphinx']} s, Pagefind {summary['pagefind']} s; {os.cpu_count()} CPUs, load average "
          f"{summary['load_average'][0]} -> {summary['load_average'][1]})")
    return summary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the site's folder (default build/site)")
    parser.add_argument("--work", type=Path, default=WORK, help="Sphinx's sources and caches (build/site-work)")
    parser.add_argument("--repository", default=os.environ.get("SITE_REPOSITORY", ""),
                        help="the course's repository address (view-source links, the clone command); "
                             "default $SITE_REPOSITORY")
    parser.add_argument("--branch", default=os.environ.get("SITE_BRANCH") or "main", help="its branch (main)")
    parser.add_argument("--hub", default=os.environ.get("SITE_HUB", ""),
                        help="a classroom JupyterHub's address: each lesson links to itself on it; default $SITE_HUB")
    args = parser.parse_args(argv)
    try:
        options = sources.Options(repository=args.repository, branch=args.branch, hub=args.hub)
    except ValueError as err:
        parser.error(str(err))
    build(args.out.resolve(), options, args.work.resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
