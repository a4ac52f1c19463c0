"""course_utils.lessons: the manifest's lookups, what it reads from the stored notebooks, and its command line."""

import pytest

from course_utils import fmt, lessons


def test_a_lesson_is_found_by_number_or_name():
    lenet = lessons.get("05")
    assert lenet.name == "05_mnist_lenet" and lenet.path().name == "05_mnist_lenet.ipynb"
    assert lessons.get("5") is lessons.get("05_mnist_lenet") is lessons.get("05_mnist_lenet.ipynb") is lenet
    assert lenet.path("zh").parent.name == "zh" and lenet.catalogue().as_posix().endswith("i18n/zh/05_mnist_lenet.md")
    assert lessons.previous(lenet).number == "04" and lessons.following(lenet).number == "06"
    assert lessons.previous(lessons.LESSONS[0]) is None and lessons.following(lessons.LESSONS[-1]) is None
    for wrong in ("99", "04_nothing", "lenet"):
        with pytest.raises(KeyError, match=f"no lesson '{wrong}': the lessons are 00_environment_setup, "):
            lessons.get(wrong)
    assert [lesson.number for lesson in lessons.select(["7", "05", "07"])] == ["07", "05"]
    assert lessons.select(None) == list(lessons.LESSONS)


def test_what_it_reads_from_the_stored_notebooks():
    dp = lessons.get("09")
    assert dp.parameter_default("WORKERS") == "2" and dp.cards_needed() == 2
    assert dp.parameter_default("NOT_A_PARAMETER") is None and lessons.get("00").cards_needed() == 1
    assert all(lesson.run_seconds() and lesson.run_seconds("zh") for lesson in lessons.LESSONS)
    order = lessons.longest_first()
    assert sorted(order, key=lambda lesson: lesson.number) == list(lessons.LESSONS)
    times = [max(lesson.run_seconds("en"), lesson.run_seconds("zh")) for lesson in order]
    assert times == sorted(times, reverse=True)
    assert [lesson.quoted_run_seconds() for lesson in order] == times, "both editions quote the longer run"


def test_both_editions_quote_the_longer_stored_run(tmp_path):
    import json

    lesson = lessons.get("01")

    def store(lang, seconds):
        path = lesson.path(lang, tmp_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"cells": [], "metadata": {"course": {"run_seconds": seconds}}}))

    assert lesson.quoted_run_seconds(tmp_path) is None
    store("en", 15.7)
    assert lesson.quoted_run_seconds(tmp_path) == 15.7, "one edition run: its figure"
    store("zh", 12.2)
    assert lesson.quoted_run_seconds(tmp_path) == 15.7
    store("zh", 19.0)
    assert lesson.quoted_run_seconds(tmp_path) == 19.0


def test_run_times_are_quoted_the_same_way_everywhere():
    assert [fmt.duration(s) for s in (3.2, 9.4, 23, 119.5, 130)] == ["~3 s", "~9 s", "~25 s", "~120 s",
                                                                              "~2 min"]
    assert fmt.duration(47, "zh") == "约 45 秒" and fmt.duration(600, "zh") == "约 10 分钟"
    assert lessons.quoted_seconds("| ~4 min (QUICK); ~15 min full |") == 240
    assert lessons.quoted_seconds("约 55 秒") == 55 and lessons.quoted_seconds("no figure") is None


def test_the_command_line(capsys):
    assert lessons.main(["paths", "05", "--lang", "all"]) == 0
    assert capsys.readouterr().out.split() == ["notebooks/05_mnist_lenet.ipynb", "notebooks/zh/05_mnist_lenet.ipynb"]
    assert lessons.main(["list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) == len(lessons.LESSONS) and listed[5].startswith("05  05_mnist_lenet")
    assert lessons.main(["readme"]) == 0 and "in step" in capsys.readouterr().out
    assert lessons.main(["paths", "42"]) == 2 and "no lesson '42'" in capsys.readouterr().err
