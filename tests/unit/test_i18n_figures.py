"""course_utils.i18n.figures: the Chinese edition's figures draw every Chinese label with a real font (no empty
boxes, no "Glyph ... missing"), and without a CJK font they keep their English labels and say so once."""

import hashlib
import io
import re
import warnings

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from course_utils import plots  # noqa: E402
from course_utils.i18n import figures  # noqa: E402
from course_utils.i18n import notebooks as nbs  # noqa: E402
from course_utils.i18n.zh import MESSAGES  # noqa: E402

CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
#: The shipped font is the upstream file, unchanged (course_utils/fonts/README.md).
FONT_SHA256 = "2420e8078af796b19a3f6ef13de527a1a91c1e7171eea115926c614ced1009b3"


@pytest.fixture
def figures_in(monkeypatch):
    """Switch the figures' language for one test; English (matplotlib as it was) afterwards."""
    import matplotlib.pyplot as plt

    from course_utils import i18n

    def switch(lang, font=None):
        if font is not None:
            monkeypatch.setenv(figures.FONT_VAR, font)
        i18n.set_language(lang)
        return figures.use_language(lang)

    yield switch
    figures.use_language("en")
    plt.close("all")


def _glyph_warnings(draw) -> list:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        draw()
    return [str(w.message) for w in caught if "Glyph" in str(w.message)]


def _chinese_labels() -> list:
    """Every Chinese string a figure of the Chinese edition may draw: the string literals of the translated code
    cells (titles, labels, legends are among them) and the translated messages."""
    texts = set()
    for english in nbs.lessons():
        entries = nbs.parse_catalogue(nbs.catalogue_path(english).read_text(encoding="utf-8"))
        for entry in entries.values():
            if entry.cell_type == "code" and not entry.same:
                texts.update(t for t in re.findall(r"\"([^\"\n]*)\"|'([^'\n]*)'", entry.text) for t in t)
    texts.update(MESSAGES.values())
    return sorted(t for t in texts if CHINESE.search(t))


def test_the_shipped_font_is_the_upstream_file_with_its_licence():
    assert hashlib.sha256(figures.SHIPPED_FONT.read_bytes()).hexdigest() == FONT_SHA256
    assert (figures.SHIPPED_FONT.parent / "LICENSE-Apache-2.0.txt").read_text().split()[:4] == [
        "Apache", "License", "Version", "2.0,"]
    assert "Apache" in (figures.SHIPPED_FONT.parent / "README.md").read_text()


def test_chinese_figures_use_the_shipped_font_and_draw_every_label_of_the_edition(figures_in):
    import matplotlib.pyplot as plt

    assert figures_in("zh", font="") == "WenQuanYi Micro Hei"
    assert matplotlib.rcParams["font.family"][-1] == "WenQuanYi Micro Hei"
    labels = _chinese_labels()
    assert len(labels) > 500, "the catalogues' Chinese strings were not found"
    characters = sorted({c for text in labels for c in text if not c.isspace()})
    fig, ax = plt.subplots()
    for i in range(0, len(characters), 60):   # every character once, 60 to a line: what matplotlib must find
        ax.text(0, i, "".join(characters[i:i + 60]))

    def draw():
        fig.savefig(io.BytesIO(), format="png", dpi=20)

    assert _glyph_warnings(draw) == []


def test_the_course_plots_draw_in_chinese_without_missing_glyphs(figures_in, capsys):
    figures_in("zh", font="")

    def draw():
        ax = plots.plot_data_parallel(32, 4)
        ax.figure.savefig(io.BytesIO(), format="png", dpi=30)
        live = plots.LiveTrainingPlot(total_steps=10, target=0.99)
        live(type("R", (), {"step_loss": [(1, 2.0), (2, 1.0)], "evals": [{"step": 2, "accuracy": 0.9}]}))
        live.figure.savefig(io.BytesIO(), format="png", dpi=30)
        return ax, live

    assert _glyph_warnings(draw) == []
    ax = plots.plot_confusion_matrix([[5, 1], [0, 4]])
    assert ax.get_xlabel() == "预测类别" and ax.get_ylabel() == "真实类别"
    assert "findfont" not in capsys.readouterr().err  # the CJK font has no bold face: matplotlib's notice is dropped


def test_without_a_cjk_font_figures_keep_english_labels_and_say_so_once(figures_in, capsys):
    import matplotlib.pyplot as plt

    assert figures_in("zh", font="none") is None
    assert "COURSE_CJK_FONT=none" in capsys.readouterr().out
    assert figures_in("zh", font="none") is None
    assert capsys.readouterr().out == ""                     # once
    fig, ax = plt.subplots()
    ax.set_title("训练损失（每批）")                         # lesson 04's Chinese label -> its English original
    ax.set_xlabel("第 3/10 轮")                              # lesson 02's f"第 {epoch}/{EPOCHS} 轮"
    ax.set_ylabel(plots.figure_text("training loss"))       # course_utils' own label: English without the font
    assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("training loss (batch)", "epoch 3/10",
                                                                   "training loss")
    assert _glyph_warnings(lambda: fig.savefig(io.BytesIO(), format="png", dpi=20)) == []


def test_a_font_that_cannot_draw_chinese_is_not_taken(figures_in):
    from matplotlib import font_manager

    latin_only = font_manager.findfont("DejaVu Sans")
    assert figures_in("zh", font=latin_only) is None
    assert figures_in("zh", font=str(figures.SHIPPED_FONT)) == "WenQuanYi Micro Hei"


def test_english_figures_are_matplotlibs_defaults(figures_in):
    before = list(matplotlib.rcParams["font.family"])
    figures_in("zh", font="")
    assert plots.figure_text("step") == "步"
    figures_in("en")
    assert list(matplotlib.rcParams["font.family"]) == before
    assert plots.figure_text("step") == "step"
