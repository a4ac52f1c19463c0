"""``python -m course_utils.i18n {ids,skeleton,build,check}``: keep the Chinese edition in step.

    ids              give every English cell a stable id (nbformat 4.5); run after adding cells by hand
    skeleton NN      print a catalogue for lesson NN with every entry in English (a translator's start)
    build [NN ...]   write notebooks/zh/ from the English lessons and i18n/zh/ (keeps unchanged outputs)
    check [NN ...]   list stale, missing, untranslated and unbuilt cells; exit 1 if there are any
"""

from __future__ import annotations

import argparse
import sys

from course_utils.i18n import notebooks as nbs


def _select(numbers):
    lessons = nbs.lessons()
    if not numbers:
        return lessons
    chosen = [p for p in lessons if p.name[:2] in {n.zfill(2)[:2] for n in numbers}]
    if len(chosen) != len(set(numbers)):
        raise SystemExit(f"unknown lesson in {numbers}: the lessons are {', '.join(p.name[:2] for p in lessons)}")
    return chosen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course_utils.i18n", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["ids", "skeleton", "build", "check"])
    parser.add_argument("lessons", nargs="*", help="lesson numbers, e.g. 01 04 (default: all)")
    parser.add_argument("--lang", default="zh")
    args = parser.parse_args(argv)
    chosen = _select(args.lessons)
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
        return 0
    problems = [p for path in chosen for p in nbs.check(path, args.lang)]
    for problem in problems:
        print(problem)
    if problems:
        print(f"\n{len(problems)} problem(s): translate or update the entries in i18n/{args.lang}/, then "
              f"python -m course_utils.i18n build", file=sys.stderr)
        return 1
    print(f"{len(chosen)} lesson(s) in step ({args.lang})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
