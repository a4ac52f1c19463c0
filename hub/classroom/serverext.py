"""The update link, inside each attendee's server: ``<server>/course/update`` runs ``lessons.sync`` as the attendee.

An instructor who pushed a fix during the workshop shares ``http://<hub>/hub/user-redirect/course/update``
(``make hub-update`` prints it): the hub sends each attendee to their own server, which updates their copy and
shows what it did, in English or Chinese (the browser's language), with a link back to JupyterLab. Their edited
notebooks are kept (the new version lands beside them as ``NAME.updated.ipynb``). The same idea as nbgitpuller's
link, without a git repository: the lessons come from the course on the hub's machine.

Loaded by ``jupyter-config/jupyter_server_config.d/classroom.json`` (``start.py`` puts it on the path).
"""

from __future__ import annotations

import html
import os
from pathlib import Path

from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import web

from classroom.lessons import sync

TEXTS = {
    "en": {"title": "Course update", "copied": "New", "updated": "Updated", "kept": "Edited by you, kept",
           "kept_note": "the course's new version of each is beside it, as NAME.updated.ipynb",
           "none": "Your lessons were already up to date.", "back": "Back to JupyterLab",
           "failed": "The update failed: {error}. Your files are as they were; tell the instructor."},
    "zh": {"title": "课程更新", "copied": "新增", "updated": "已更新", "kept": "你改过的文件，已保留",
           "kept_note": "课程的新版本放在同一目录下，文件名为 NAME.updated.ipynb",
           "none": "你的课程文件已经是最新的。", "back": "返回 JupyterLab",
           "failed": "更新失败：{error}。你的文件保持原样，请告诉讲师。"},
}


def _lang(handler) -> str:
    """The browser's first language: Chinese for zh, zh-CN, ...; English otherwise."""
    return "zh" if handler.request.headers.get("Accept-Language", "").strip().lower().startswith("zh") else "en"


class UpdateHandler(JupyterHandler):
    auth_resource = "contents"

    @web.authenticated
    def get(self):
        text = TEXTS[_lang(self)]
        source = Path(os.environ.get("COURSE_LESSONS", Path(__file__).resolve().parents[2] / "notebooks"))
        dest = Path(os.environ.get("COURSE_LESSONS_COPY") or Path.home() / "notebooks")
        back = url_path_join(self.base_url, "lab")
        parts = [f"<h1>{text['title']}</h1>"]
        try:
            report = sync(source, dest)
        except Exception as err:
            self.log.exception("course update failed")
            parts.append(f"<p>{html.escape(text['failed'].format(error=f'{type(err).__name__}: {err}'))}</p>")
            report = None
        if report is not None:
            for key in ("copied", "updated", "kept"):
                names = getattr(report, key)
                if names:
                    items = "".join(f"<li>{html.escape(n)}</li>" for n in names)
                    note = f"<p>{text['kept_note']}</p>" if key == "kept" else ""
                    parts.append(f'<h2 id="{key}">{text[key]} ({len(names)})</h2><ul>{items}</ul>{note}')
            if not (report.copied or report.updated or report.kept):
                parts.append(f"<p id='none'>{text['none']}</p>")
        parts.append(f'<p><a href="{html.escape(back)}">{text["back"]}</a></p>')
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish("<!doctype html><meta charset='utf-8'><title>{}</title><body style='font-family: sans-serif'>"
                    "{}</body>".format(text["title"], "".join(parts)))


def _jupyter_server_extension_points():
    return [{"module": "classroom.serverext"}]


def _load_jupyter_server_extension(serverapp):
    base = serverapp.web_app.settings["base_url"]
    serverapp.web_app.add_handlers(".*$", [(url_path_join(base, "course/update"), UpdateHandler)])
    serverapp.log.info("classroom: the course update link is %s", url_path_join(base, "course/update"))
