"""`make lab-zh`: the Chinese edition in JupyterLab with its interface in Chinese, for that launch only.

The browser check that the menu bar reads 文件/编辑/... was done by hand (Playwright + Debian's Chromium, which needs a
CJK font such as fonts-noto-cjk to draw the labels); these tests pin what that check relied on.
"""

import shlex
import subprocess

from support import ROOT


def _lab_zh_command() -> list:
    out = subprocess.run(["make", "-n", "lab-zh", "PORT=8899"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=True).stdout
    return [line for line in out.splitlines() if "jupyter lab" in line or "plugin.jupyterlab-settings" in line]


def test_lab_zh_launches_notebooks_zh_in_chinese_for_that_launch_only():
    settings, launch = _lab_zh_command()
    assert '{"locale": "zh_CN"}' in settings and "@jupyterlab/translation-extension/" in settings
    words = shlex.split(launch)
    assert "COURSE_LANG=zh" in words and "--notebook-dir=notebooks/zh" in words
    settings_dir = next(w.split("=", 1)[1] for w in words if w.startswith("JUPYTERLAB_SETTINGS_DIR="))
    assert "/.venv/share/" in settings_dir + "/" and settings_dir in settings   # never the learner's own settings
    assert "--ServerApp.ip=127.0.0.1" in words and "--ServerApp.port=8899" in words


def test_plain_lab_keeps_english():
    out = subprocess.run(["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         check=True).stdout
    launch = next(line for line in out.splitlines() if "jupyter lab" in line)
    assert "COURSE_LANG" not in launch and "JUPYTERLAB_SETTINGS_DIR" not in launch and "notebooks/zh" not in launch


def test_the_chinese_language_pack_is_installed_and_translates_the_menus():
    from jupyterlab_server.translation_utils import get_language_pack, get_language_packs

    packs, _ = get_language_packs("zh_CN")
    assert "zh_CN" in packs
    strings, _ = get_language_pack("zh_CN")
    assert strings["jupyterlab"]["Edit"] == ["编辑"]
