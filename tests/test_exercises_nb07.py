"""Notebook 07's checks run a training script from the outside: the reference passes all four, the skeleton is
"not attempted", and typical broken scripts (a crash, weights-only checkpoints, a resume that starts over or
forgets the optimizer, no export, an export in training mode, a shifted augmentation) get the message that names
what is missing.

The tests that run a script are slow (each run imports MindSpore and compiles); they use the checks' tiny runs
(8 steps per epoch on 256 images) except the accuracy test.
"""

import ast
import re

import pytest

from course_utils.exercises import Outcome, nb07

REFERENCE = nb07.REFERENCE.read_text(encoding="utf-8")


def mutant(tmp_path, *replacements, name="my_capstone.py"):
    """The reference script with each (old, new) replaced once; old must be in it (so the test stays honest)."""
    source = REFERENCE
    for old, new in replacements:
        assert source.count(old) == 1, f"the reference no longer contains exactly one {old!r}"
        source = source.replace(old, new)
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return str(path)


def incorrect(result, *fragments):
    assert result.outcome is Outcome.INCORRECT, result.message
    for fragment in fragments:
        assert fragment in result.message, result.message


# ---- without running anything ------------------------------------------------------------------------------

def test_the_skeleton_is_not_attempted_and_names_every_todo():
    for q in (nb07.q1, nb07.q2, nb07.q3, nb07.q4):
        result = q.check(str(nb07.SKELETON))
        assert result.outcome is Outcome.NOT_ATTEMPTED, result.message
    assert "TODO 1, 2, 3, 4, 5, 6, 7, 8, 9, 10:" in result.message


def test_a_partly_filled_script_lists_only_the_todos_left(tmp_path):
    source = nb07.SKELETON.read_text(encoding="utf-8")
    # fill TODO(1) as a learner would
    source = source.replace("    ____\n    ____\n    p.add_argument(\"--device\"",
                            "    p.add_argument('--resume', action='store_true')\n"
                            "    p.add_argument('--stop-after', type=int, default=0)\n    p.add_argument(\"--device\"")
    path = tmp_path / "my_capstone.py"
    path.write_text(source)
    result = nb07.q1.check(str(path))
    assert result.outcome is Outcome.NOT_ATTEMPTED and "TODO 2, 3, 4, 5, 6, 7, 8, 9, 10:" in result.message


def test_blanks_in_comments_and_strings_do_not_count():
    assert nb07.blanks_left('x = "____"  # replace ____ here\n') == []
    assert nb07.blanks_left("# TODO(3): a\ny = ____\n# TODO(4): b\nz = ____\n") == ["3", "4"]


def test_a_missing_file_or_empty_path_is_not_attempted(tmp_path):
    assert nb07.q1.check(str(tmp_path / "nope.py")) == Outcome.NOT_ATTEMPTED
    assert nb07.q1.check("") == Outcome.NOT_ATTEMPTED


def test_a_script_that_imports_course_utils_is_rejected_before_it_runs(tmp_path):
    path = mutant(tmp_path, ("import numpy as np\n", "import numpy as np\n\nfrom course_utils import data\n"))
    incorrect(nb07.q1.check(path), "imports course_utils", "stand")


def test_a_syntax_error_is_reported_with_its_line(tmp_path):
    path = tmp_path / "my_capstone.py"
    path.write_text("def main(:\n    pass\n")
    incorrect(nb07.q1.check(str(path)), "does not parse", "line 1")


def test_a_checkpoint_written_in_place_is_rejected_before_it_runs(tmp_path):
    source = REFERENCE.replace("os.replace(", "shutil.copy(")
    assert nb07.renames_a_file(REFERENCE) and not nb07.renames_a_file(source)
    assert not nb07.renames_a_file("name = 'a_b'.replace('_', '-')  # os.replace(tmp, path)\n")
    path = tmp_path / "my_capstone.py"
    path.write_text(source)
    incorrect(nb07.q1.check(str(path)), "never renames a file")


def test_the_reference_is_standalone_and_keeps_the_contract():
    tree = ast.parse(REFERENCE)
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "course_utils" not in imported and nb07.blanks_left(REFERENCE) == []
    for text in (REFERENCE, nb07.SKELETON.read_text()):
        assert f'CHECKPOINT, LOG, MODEL = "{nb07.CHECKPOINT}", "{nb07.LOG}", "{nb07.MODEL}"' in text


def test_the_skeleton_has_the_reference_functions_with_the_same_signatures():
    def signatures(text):
        return {n.name: ast.unparse(n.args) for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)}

    skeleton, reference = signatures(nb07.SKELETON.read_text()), signatures(REFERENCE)
    assert skeleton == {k: v for k, v in reference.items() if k != "install_stop_handler"}


def test_the_solutions_are_the_reference_source():
    for q in (nb07.q1, nb07.q2, nb07.q3, nb07.q4):
        for name in q.solution_functions:
            assert re.search(rf"^def {name}\(", q.solution_text, re.M), (q.label, name)


# ---- running scripts (slow) --------------------------------------------------------------------------------

@pytest.mark.slow
def test_the_reference_passes_every_check():
    for q in (nb07.q1, nb07.q2, nb07.q3, nb07.q4):
        result = q.check(*q.reference())
        assert result.outcome is Outcome.CORRECT, result.message


# (what the learner got wrong, the check that must catch it, the edits to the reference, what the message says)
BROKEN = [
    ("a crash", nb07.q1,
     [("    stop = install_stop_handler()\n", "    stop = install_stop_handler()\n    raise RuntimeError('boom')\n")],
     ["failed with exit code 1", "RuntimeError: boom", "my_capstone.py, line"]),
    ("weights-only checkpoints", nb07.q1,
     [("ms.save_checkpoint(state, str(tmp),", "ms.save_checkpoint(state.network, str(tmp),")],
     ["no optimizer state"]),
    ("a resume that starts over", nb07.q2,
     [("        start_epoch, skip = restore_checkpoint(state, ckpt_path)\n", "        start_epoch, skip = 0, 0\n")],
     ["starts again at epoch 1"]),
    ("a resume without the optimizer state", nb07.q2,
     [("    for param in state.get_parameters():\n", "    for param in state.network.get_parameters():\n")],
     ["optimizer state", "not restored"]),
    ("a resume that retrains the interrupted epoch's first steps", nb07.q2,
     [("                continue                     # trained before the interruption\n", "                pass\n")],
     ["trained again"]),
    ("no export", nb07.q4, [("    export_mindir(net, args.out / MODEL)\n", "")], ["left no model.mindir"]),
    # evaluate() leaves the network in training mode, so without this line the export sees BatchNorm in training
    ("an export in training mode", nb07.q4,
     [("    net.set_train(False)     # BatchNorm: stored statistics", "    # (removed)")], ["training mode"]),
    # MindSpore's translate=(a, b) is the range of the horizontal shift: (0.1, 0.1) moves every image right
    ("a one-sided augmentation", nb07.q3, [("translate=(-0.1, 0.1, -0.1, 0.1)", "translate=(0.1, 0.1)")],
     ["the target is 93%"]),
]


@pytest.mark.slow
@pytest.mark.parametrize("mistake, exercise, edits, fragments", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_script_gets_the_message_that_names_its_mistake(tmp_path, mistake, exercise, edits, fragments):
    incorrect(exercise.check(mutant(tmp_path, *edits)), *fragments)
