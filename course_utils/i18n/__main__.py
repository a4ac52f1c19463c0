"""``python -m course_utils.i18n {ids,skeleton,build,check,english}``: keep the Chinese edition in step.

    ids              give every English cell a stable id (nbformat 4.5); run after adding cells by hand
    skeleton NN      print a catalogue for lesson NN with every entry in English (a translator's start);
                     skeleton scripts: the entries i18n/zh/scripts.md still lacks, in English
    build [NN ...]   write notebooks/zh/ from the English lessons and i18n/zh/ (keeps unchanged outputs), and
                     notebooks/zh/scripts/ from notebooks/scripts/ and i18n/zh/scripts.md (always, all of them)
    check [NN ...]   list stale, missing, untranslated and unbuilt cells, and the scripts' missing, orphaned
                     and unbuilt texts; exit 1 if there are any
    english [NN ...] list the runs of English in the stored Chinese notebooks' Markdown and outputs that are not
                     code, names or allowed (course_utils/i18n/english.py); exit 1 on any not in
                     i18n/zh/english-residue.txt (--strict: on any at all; --write-residue: rewrite that list)
"""

from __future__ import annotations

import argparse
import sys

from course_utils import lessons
from course_utils.i18n import notebooks as nbs
from course_utils.i18n import scripts as zh_scripts


def _select(numbers):
    """The English lessons named by ``numbers`` (all for none), from the lesson manifest."""
    try:
        chosen = lessons.select(numbers)
    except KeyError as exc:
        raise SystemExit(exc.args[0]) from None
    return [lesson.path("en", nbs.ROOT) for lesson in chosen]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course_utils.i18n", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["ids", "skeleton", "build", "check", "english"])
    parser.add_argument("lessons", nargs="*", help="lesson numbers, e.g. 01 04 (default: all)")
    parser.add_argument("--lang", default="zh")
    parser.add_argument("--strict", action="store_true", help="english: ignore the list of known residue")
    parser.add_argument("--write-residue", action="store_true", help="english: rewrite the list of known residue")
    args = parser.parse_args(argv)
    if args.command == "skeleton" and args.lessons == ["scripts"]:
        sys.stdout.write(zh_scripts.skeleton(args.lang))
        return 0
    chosen = _select(args.lessons)
    if args.command == "english":
        from course_utils.i18n import english

        return english.main([nbs.target_path(p, args.lang) for p in chosen], strict=args.strict,
                            write_residue=args.write_residue)
    if args.command == "ids":
        for path in chosen:
            nb = nbs.load(path)
            if nbs.ensure_ids(nb):
                nbs.save(nb, path)
                print(f"ids added: {path.name}")
        return 0
    if args.command == "skeleton":
        if len(chosen) != 1:
            raise SystemExit("skeleton takes exactly one lesson number")
        sys.stdout.write(nbs.skeleton(chosen[0], args.lang))
        return 0
    if args.command == "build":
        for path in chosen:
            problems = [p for p in nbs.check(path, args.lang, built=False) if p.kind in ("format", "code", "structure")]
            if problems:
                print("\n".join(map(str, problems)), file=sys.stderr)
                return 1
            print(f"built {nbs.build(path, args.lang).relative_to(nbs.ROOT)}")
        # the scripts are not one lesson's: every build writes them (the lessons launch them from scripts/)
        problems = [p for p in zh_scripts.check(args.lang, built=False) if p.kind in ("format", "code")]
        if problems:
            print("\n".join(map(str, problems)), file=sys.stderr)
            return 1
        for path in zh_scripts.build(args.lang):
            print(f"built {path.relative_to(nbs.ROOT)}")
        return 0
    problems = [p for path in chosen for p in nbs.check(path, args.lang)] + zh_scripts.check(args.lang)
    for problem in problems:
        print(problem)
    if problems:
        print(f"\n{len(problems)} problem(s): translate or update the entries in i18n/{args.lang}/, then "
              f"python -m course_utils.i18n build", file=sys.stderr)
        return 1
    print(f"{len(chosen)} lesson(s) and the scripts in step ({args.lang})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
