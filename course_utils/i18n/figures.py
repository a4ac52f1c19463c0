"""Figures in the learner's language: a CJK font for the Chinese edition, and English labels when there is none.

``runtime.setup(lang="zh")`` calls ``use_language("zh")``: matplotlib then draws Chinese with a CJK font and
everything else (digits, Latin letters, the minus sign) with its usual DejaVu Sans, because matplotlib falls back
glyph by glyph along ``font.family``. A lesson's Chinese labels are the string literals of its translated code
cells (``i18n/zh/NN_*.md``); the labels ``course_utils`` draws are ``figure_text(N_("English"))``.

The trap this avoids: without a font that has Chinese glyphs, matplotlib draws every Chinese character as an
empty box and warns "Glyph ... missing" into the notebook. So the course ships one font that every machine can
count on (an Ascend notebook image has none): WenQuanYi Micro Hei, ``course_utils/fonts/wqy-microhei.ttc``, the
unchanged upstream file (Apache-2.0; the same file as Debian's ``fonts-wqy-microhei``). ``COURSE_CJK_FONT``
picks another font (a file, or the family name of an installed font; ``none`` for none). If no font can draw
Chinese, figures keep their English labels: each Chinese label is drawn as the English lesson's string it
translates (``to_english``, read from the catalogues), and ``use_language`` says so, once.
"""

from __future__ import annotations

import ast
import io
import logging
import os
import re
import tokenize
from pathlib import Path
from typing import Dict, List, Optional

from course_utils.i18n import language, tr

__all__ = ["FONT_VAR", "SHIPPED_FONT", "cjk_font", "figure_text", "to_english", "use_language"]

#: A font file, or the family name of an installed font, for Chinese text in figures; "none": no CJK font.
FONT_VAR = "COURSE_CJK_FONT"
#: The font the course ships (the unchanged upstream file; its licence and checksum are beside it).
SHIPPED_FONT = Path(__file__).resolve().parents[1] / "fonts" / "wqy-microhei.ttc"
#: Installed families tried when the shipped file is missing, best first.
SYSTEM_FAMILIES = ("Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", "WenQuanYi Zen Hei",
                   "Microsoft YaHei", "PingFang SC", "Heiti SC", "SimHei")
#: Characters a font must have to count as one that draws Chinese.
_PROBE = "训练损失准确率，步（）：、"
_CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
_state: dict = {}   # "family": the CJK family in use (None: English labels); "saved": rcParams; "told": notice shown


def _draws_chinese(path: str) -> bool:
    """The font file at ``path`` has glyphs for Chinese text (not just a Chinese name)."""
    from matplotlib.ft2font import FT2Font

    try:
        font = FT2Font(str(path))
    except (OSError, RuntimeError, ValueError):
        return False
    return all(font.get_char_index(ord(ch)) for ch in _PROBE)


def _register(path) -> Optional[str]:
    """Add the font file at ``path`` to matplotlib; its family name, or None if it cannot draw Chinese."""
    from matplotlib import font_manager

    path = str(Path(path).expanduser().resolve())
    if not os.path.isfile(path) or not _draws_chinese(path):
        return None
    if path not in {f.fname for f in font_manager.fontManager.ttflist}:
        font_manager.fontManager.addfont(path)
    names = sorted({f.name for f in font_manager.fontManager.ttflist if f.fname == path},
                   key=lambda n: ("Mono" in n, n))  # a collection's proportional face before its monospaced one
    return names[0] if names else None


def cjk_font() -> Optional[str]:
    """The family name of a font that draws Chinese: ``COURSE_CJK_FONT``, else the shipped font, else an
    installed one (``SYSTEM_FAMILIES``); None if there is none."""
    from matplotlib import font_manager

    wanted = os.environ.get(FONT_VAR, "").strip()
    if wanted.lower() == "none":
        return None
    if wanted and ("/" in wanted or os.sep in wanted or Path(wanted).suffix.lower() in (".ttf", ".otf", ".ttc")):
        return _register(wanted)
    files = {}
    for f in font_manager.fontManager.ttflist:
        files.setdefault(f.name, f.fname)
    for family in ([wanted] if wanted else [None, *SYSTEM_FAMILIES]):
        found = _register(SHIPPED_FONT if family is None else files.get(family, ""))
        if found:
            return found
    return None


def use_language(lang: Optional[str] = None) -> Optional[str]:
    """Make figures speak ``lang`` (default: the course's language); ``runtime.setup(lang=...)`` calls it.

    "zh": matplotlib draws Chinese with ``cjk_font()`` and Latin text with its default font; returns the CJK
    family. Without such a font figures keep their English labels (a Chinese label from a lesson is drawn as the
    English lesson's) and a notice says so, once; returns None. "en": matplotlib's font settings as they were.
    """
    lang = lang or language()
    if lang != "zh" and "saved" not in _state and "set_text" not in _state:
        _state["family"] = None
        return None  # nothing to undo: English needs nothing (and no matplotlib import)
    import matplotlib
    from matplotlib import text as mtext

    if "saved" in _state:  # undo what the previous call did
        matplotlib.rcParams["font.family"] = _state.pop("saved")
    if "set_text" in _state:
        mtext.Text.set_text = _state.pop("set_text")
    _state["family"] = None
    if lang != "zh":
        return None
    family = cjk_font()
    if family is not None:
        _state["saved"] = list(matplotlib.rcParams["font.family"])
        latin = list(matplotlib.rcParams["font.sans-serif"])[:1] or ["DejaVu Sans"]
        matplotlib.rcParams["font.family"] = latin + [family]
        _state["family"] = family
        _quiet_missing_bold()
        return family
    _state["set_text"] = original = mtext.Text.set_text

    def set_text(self, text):  # every title, label, legend entry and tick label is set through it
        text = "" if text is None else str(text)
        return original(self, to_english(text) if _CHINESE.search(text) else text)

    mtext.Text.set_text = set_text
    if not _state.get("told"):
        _state["told"] = True
        print(tr("No font that draws Chinese was found ({var}={value}): figures keep their English labels. Set "
                 "{var} to a font file (.ttf/.otf/.ttc), or install fonts-wqy-microhei or fonts-noto-cjk.",
                 var=FONT_VAR, value=os.environ.get(FONT_VAR, "") or "-"))
    return None


class _NoBoldNotice(logging.Filter):
    """The CJK fonts have no bold face: matplotlib then uses the regular one, as wanted, but logs "findfont: Failed
    to find font weight bold for ..." into the notebook; only that notice is dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("findfont: Failed to find font weight")


def _quiet_missing_bold() -> None:
    logger = logging.getLogger("matplotlib.font_manager")
    if not any(isinstance(f, _NoBoldNotice) for f in logger.filters):
        logger.addFilter(_NoBoldNotice())


def figure_text(text: str, **values) -> str:
    """A label ``course_utils`` draws, in the figures' language: Chinese (``tr``) when ``use_language`` found a
    CJK font, else the English ``text``. Mark a literal with ``N_`` so the catalogue's test finds it."""
    if _state.get("family") and language() == "zh":
        return tr(text, **values)
    return text.format(**values) if values else text


# ---- English labels when no font draws Chinese ----

def _strings(code: str) -> List[str]:
    """The string tokens of a code cell, in order (magic and shell lines left out)."""
    from course_utils.i18n.notebooks import _split_magics

    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(_split_magics(code)[0]).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    return [t.string for t in tokens if t.type == tokenize.STRING]


def _parse(token: str):
    """A string token as ``("plain", text)`` or ``("f", [constant or expression source, ...])``; None otherwise."""
    try:
        node = ast.parse(token, mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return "plain", node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            elif isinstance(v, ast.FormattedValue):
                parts.append(_Value(ast.unparse(v.value)))
        return "f", parts
    return None


class _Value(str):
    """The source of an f-string's ``{expression}`` (what is formatted there at run time)."""


def _pattern(parts) -> "re.Pattern":
    """A regex for the text an f-string makes: its constants literally, each ``{value}`` a group."""
    return re.compile("".join("(.+?)" if isinstance(p, _Value) else re.escape(p) for p in parts), re.DOTALL)


def literal_pairs(lang: str = "zh"):
    """(plain, templates): Chinese literal -> the English literal it translates, and for f-strings (the Chinese
    f-string's regex, its value sources, the English parts), from every lesson's translated code cells. The strings
    pair up in order: a translated cell differs from the English one only in comments and strings."""
    from course_utils.i18n import notebooks as nbs

    plain: Dict[str, str] = {}
    templates = []
    for english in nbs.lessons():
        try:
            entries = nbs.parse_catalogue(nbs.catalogue_path(english, lang).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for cell in nbs.load(english)["cells"]:
            entry = entries.get(cell.get("id"))
            if cell["cell_type"] != "code" or entry is None or entry.same:
                continue
            for en_token, zh_token in zip(_strings(nbs.source_of(cell)), _strings(entry.text)):
                en, zh = _parse(en_token), _parse(zh_token)
                if not en or not zh or en[0] != zh[0] or not _CHINESE.search(zh_token):
                    continue
                if en[0] == "plain":
                    plain[zh[1]] = en[1]
                else:
                    values = [p for p in zh[1] if isinstance(p, _Value)]
                    if sorted(values) == sorted(p for p in en[1] if isinstance(p, _Value)):
                        templates.append((_pattern(zh[1]), values, en[1]))
    return plain, templates


def _tables():
    if "pairs" not in _state:
        from course_utils.i18n.zh import MESSAGES

        plain = {zh: en for en, zh in MESSAGES.items() if "{" not in en and _CHINESE.search(zh)}
        lessons, templates = literal_pairs()
        plain.update(lessons)
        _state["pairs"] = plain, templates
    return _state["pairs"]


def to_english(text: str) -> str:
    """``text`` (a label set in a Chinese lesson) in English: the English lesson's literal it translates, or the
    English f-string filled with the values found in the Chinese one; unknown text comes back unchanged."""
    plain, templates = _tables()
    if text in plain:
        return plain[text]
    for pattern, values, english in templates:
        m = pattern.fullmatch(text)
        if m:
            found = dict(zip(values, m.groups()))
            return "".join(found[p] if isinstance(p, _Value) else p for p in english)
    return text
