"""Drive one notebook in JupyterLab the way a learner does, and collect what is wrong on the page.

Everything here goes through the page a learner sees: the menus (Edit > Clear Outputs of All Cells,
Run > Run All Cells), the prompts (``[*]:``, ``[3]:``), the kernel indicator, the rendered outputs and
the widget controls (sliders are dragged with the mouse). What is checked is the rendered page, not the
kernel's messages: an error that never reaches the page cannot confuse a learner, and one that does is
found however it got there.

``run_notebook()`` returns a ``NotebookRun`` with a list of problems (empty when all is well) so the
caller can show them all at once instead of stopping at the first one.
"""

from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path

import nbformat

from support.notebook_outputs import OPTIONAL_TAG

#: Text that must never reach a learner's page: MindSpore's glog lines, Python warnings, tracebacks.
NOISE = re.compile(
    r"\[(?:WARNING|ERROR|CRITICAL|INFO|DEBUG)\] [A-Z_]+\(\d+"   # [WARNING] ME(1234,...), [ERROR] CORE(...
    r"|^\s*\S+:\d+: \w*Warning: "                                # warnings.warn as Python prints it
    r"|Traceback \(most recent call last\)"
    r"|Get realpath failed",
    re.M)

KERNEL_DISPLAY_NAME = "Python 3 (ipykernel)"

_STDERR = "application/vnd.jupyter.stderr"

# What the page shows, read in one call: the cells in order with prompt, outputs, images and widgets.
_READ_PAGE_JS = r"""
() => {
  const hash = (s) => { let h = 2166136261; for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i);
                        h = Math.imul(h, 16777619); } return (h >>> 0).toString(16) + ':' + s.length; };
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  if (!panel) return null;
  const indicator = panel.querySelector('.jp-Notebook-ExecutionIndicator');
  const cells = Array.from(panel.querySelectorAll('.jp-Notebook .jp-Cell')).map((cell, index) => {
    const type = cell.classList.contains('jp-CodeCell') ? 'code'
               : cell.classList.contains('jp-MarkdownCell') ? 'markdown' : 'raw';
    const prompt = cell.querySelector('.jp-InputPrompt');
    const area = cell.querySelector('.jp-Cell-outputArea');
    const outputs = area ? Array.from(area.querySelectorAll('.jp-OutputArea-output[data-mime-type]')).map(o => ({
      mime: o.getAttribute('data-mime-type'),
      text: o.innerText.slice(0, 4000),
      in_widget: !!o.closest('.jupyter-widgets'),
    })) : [];
    const topImages = area ? Array.from(area.querySelectorAll(':scope > .jp-OutputArea-child img')) : [];
    const allImages = area ? Array.from(area.querySelectorAll('img')) : [];
    const widgetTexts = area ? Array.from(area.querySelectorAll('.widget-html-content, .widget-output'))
                                 .map(e => e.innerText) : [];
    return {
      index, type,
      prompt: prompt ? prompt.textContent.trim() : '',
      outputs,
      top_images: topImages.length,
      broken_images: allImages.filter(i => !(i.complete && i.naturalWidth > 0)).length,
      widgets: area ? area.querySelectorAll('.jupyter-widgets').length : 0,
      widget_errors: area ? Array.from(area.querySelectorAll('.jp-OutputArea-output'))
        .map(o => o.innerText).filter(t => /Error displaying widget|Loading widget/.test(t)) : [],
      // Everything a widget callback can change, as a fingerprint (images hashed).
      fingerprint: [outputs.map(o => o.mime + ':' + o.text).join('\n'), widgetTexts.join('\n'),
                    allImages.map(i => hash(i.src)).join(',')].join('\n--\n'),
    };
  });
  const dialogs = Array.from(document.querySelectorAll('.jp-Dialog')).map(d => d.innerText.slice(0, 500));
  const bar = document.querySelector('#jp-main-statusbar');
  return {status: indicator ? indicator.getAttribute('data-status') : null, cells, dialogs,
          statusbar: bar ? bar.innerText.replace(/\s*\n\s*/g, ' ') : ''};
}
"""

# Tag the interactive widget controls so Playwright can address each one; returns their descriptions.
_FIND_CONTROLS_JS = r"""
() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  const cells = Array.from(panel.querySelectorAll('.jp-Notebook .jp-Cell'));
  const found = [];
  const add = (el, kind) => {
    if (el.disabled || el.getAttribute('disabled') !== null || el.closest('[disabled]')) return;
    const cell = el.closest('.jp-Cell');
    const id = 'c' + found.length;
    el.setAttribute('data-course-test', id);
    const box = el.closest('.widget-slider, .widget-dropdown, .widget-checkbox, .widget-toggle-buttons, ' +
                           '.widget-radio, .widget-button, .widget-toggle-button, .jupyter-widgets');
    const label = box && box.querySelector('.widget-label') ? box.querySelector('.widget-label').innerText : '';
    found.push({id, kind, cell: cells.indexOf(cell), label: label || el.innerText || kind});
  };
  for (const cell of cells) {
    const area = cell.querySelector('.jp-Cell-outputArea');
    if (!area) continue;
    area.querySelectorAll('.noUi-handle[role="slider"]').forEach(e => {
      if (!e.closest('.noUi-target').hasAttribute('disabled')) add(e, 'slider'); });
    area.querySelectorAll('.widget-dropdown select').forEach(e => add(e, 'dropdown'));
    area.querySelectorAll('.widget-checkbox input[type="checkbox"]').forEach(e => add(e, 'checkbox'));
    area.querySelectorAll('.widget-radio-box input[type="radio"]').forEach(e => add(e, 'radio'));
    area.querySelectorAll('.widget-toggle-buttons button').forEach(e => add(e, 'choice'));
    area.querySelectorAll('button.jupyter-button:not(.widget-toggle-buttons button)').forEach(
      e => add(e, 'button'));
  }
  return found;
}
"""


class PageProblem(AssertionError):
    """The notebook page is not what a learner should see; the message lists every problem found."""


@dataclasses.dataclass
class NotebookRun:
    name: str
    seconds: float = 0.0
    problems: list = dataclasses.field(default_factory=list)
    page: dict | None = None
    widgets_checked: list = dataclasses.field(default_factory=list)
    screenshot: Path | None = None
    executed: nbformat.NotebookNode | None = None

    def fail_if_problems(self) -> None:
        if self.problems:
            listed = "\n".join(f"  - {p}" for p in self.problems)
            raise PageProblem(f"{self.name}: {len(self.problems)} problem(s) in JupyterLab:\n{listed}")


def _clip(text: str, n: int = 600) -> str:
    """Shorten ``text`` for a message, keeping its end too: a traceback names the error on its last line."""
    text = text.strip()
    return text if len(text) <= n else f"{text[:n // 3]} ... {text[-(2 * n) // 3:]}"


def read_page(page) -> dict:
    return page.evaluate(_READ_PAGE_JS)


#: Menu titles in the UI languages the suite uses (JupyterLab in English, and in Chinese for notebooks/zh/).
MENU_TITLES = {"File": ("File", "文件"), "Edit": ("Edit", "编辑"), "Run": ("Run", "运行")}
#: The status bar's "kernel idle" word, in the same languages.
IDLE = r"\| (?:Idle|空闲)"


def _click_menu(page, menu: str, command: str) -> None:
    titles = "|".join(MENU_TITLES.get(menu, (menu,)))
    page.locator(".lm-MenuBar-item", has_text=re.compile(rf"^(?:{titles})$")).first.click()
    page.locator(f'.lm-Menu li[data-command="{command}"]').click()


def _wait(predicate, timeout: float, interval: float = 0.5, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


def _kernel_label(state: dict) -> str:
    return state.get("statusbar", "") if state else ""


def open_notebook(page, url: str, n_cells: int, timeout: float = 180) -> dict:
    """Open the notebook at ``url`` and wait until its cells are on the page and its kernel is idle."""
    page.goto(url)
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=timeout * 1000)

    seen = {}

    def ready():
        state = seen["state"] = read_page(page)
        if state and state["dialogs"]:
            return state  # a dialog blocks the kernel: report it instead of waiting for the timeout
        if state and len(state["cells"]) == n_cells and state["status"] == "idle" \
                and re.search(IDLE, _kernel_label(state)):
            return state
        return None

    try:
        state = _wait(ready, timeout, what="the notebook to open with an idle kernel")
    except TimeoutError as err:
        last = seen.get("state") or {}
        raise TimeoutError(f"{err}: the page shows {len(last.get('cells', []))} of {n_cells} cells, kernel "
                           f"indicator {last.get('status')!r}, status bar {_kernel_label(last)!r}") from None
    # More room for the notebook in screenshots: collapse the file browser as a learner might.
    if page.locator("#jp-left-stack:visible").count():
        page.keyboard.press("Control+b")
    return state


def run_all(page, code_cells: list, timeout: float) -> dict:
    """Clear all outputs, Run All, and wait until every code cell ran or the run stopped at an error.

    ``code_cells`` are the indices of the non-empty code cells (empty ones never get a prompt number).
    Returns the page state at the end.
    """
    _click_menu(page, "Edit", "editmenu:clear-all")
    _wait(lambda: all(c["prompt"] in ("[ ]:", "") for c in read_page(page)["cells"]), 30,
          what="the outputs to clear")
    _click_menu(page, "Run", "runmenu:run-all")
    settled, started = 0, not code_cells
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = read_page(page)
        if state["dialogs"] or state["status"] == "dead":
            return state  # e.g. "the kernel appears to have died": nothing more will run
        prompts = [state["cells"][i]["prompt"] for i in code_cells]
        busy = any(p == "[*]:" for p in prompts) or state["status"] != "idle"
        started = started or busy or any(re.fullmatch(r"\[\d+\]:", p) for p in prompts)
        settled = 0 if busy else settled + 1
        # Idle twice in a row after it started: finished, or stopped at an error (the rest stay "[ ]:").
        if started and settled >= 2:
            return state
        time.sleep(1.0)
    raise TimeoutError(f"Run All did not finish within {timeout:.0f} s (prompts: {prompts})")


def page_problems(state: dict, stored: nbformat.NotebookNode) -> list:
    """Everything wrong on a finished page, compared with the stored notebook."""
    problems = []
    if state["dialogs"]:
        problems.append(f"a dialog is open: {_clip(' / '.join(state['dialogs']), 300)}")
    if KERNEL_DISPLAY_NAME not in _kernel_label(state):
        problems.append(f"kernel is not {KERNEL_DISPLAY_NAME!r}: status bar says {_kernel_label(state)!r}")
    if len(state["cells"]) != len(stored.cells):
        problems.append(f"page shows {len(state['cells'])} cells, the notebook has {len(stored.cells)}")
        return problems
    for cell, src in zip(state["cells"], stored.cells):
        where = f"cell {cell['index']}"
        if src.cell_type != "code":
            continue
        if src.source.strip() and not re.fullmatch(r"\[\d+\]:", cell["prompt"]):
            problems.append(f"{where} did not run (prompt {cell['prompt']!r})")
        for out in cell["outputs"]:
            inside = " (inside a widget)" if out["in_widget"] else ""
            if out["mime"] == _STDERR:
                problems.append(f"{where}: error/stderr output{inside}: {_clip(out['text'])}")
            elif NOISE.search(out["text"]):
                problems.append(f"{where}: log or warning noise{inside}: {_clip(out['text'])}")
        stored_images = sum(1 for o in src.get("outputs", [])
                            if any(k.startswith("image/") for k in o.get("data", {})))
        if cell["top_images"] < stored_images and OPTIONAL_TAG not in src.get("metadata", {}).get("tags", []):
            problems.append(f"{where}: {cell['top_images']} plot(s) on the page, the stored notebook has "
                            f"{stored_images}")
        if cell["broken_images"]:
            problems.append(f"{where}: {cell['broken_images']} image(s) failed to render")
        stored_widgets = any("application/vnd.jupyter.widget-view+json" in o.get("data", {})
                             for o in src.get("outputs", []))
        if stored_widgets and not cell["widgets"]:
            problems.append(f"{where}: the stored notebook shows a widget here, the page shows none")
        for text in cell["widget_errors"]:
            problems.append(f"{where}: widget did not render: {_clip(text, 300)}")
    return problems


def _error_outputs(state: dict) -> set:
    return {(c["index"], o["text"]) for c in state["cells"] for o in c["outputs"]
            if o["mime"] == _STDERR or NOISE.search(o["text"])}


def _wait_idle(page, timeout: float) -> dict:
    state = {}

    def idle():
        nonlocal state
        state = read_page(page)
        return state["status"] == "idle" and not any(c["prompt"] == "[*]:" for c in state["cells"])
    _wait(idle, timeout, what="the kernel to go idle")
    return state


def _operate(page, control: dict) -> str:
    """Change one control as a user would; returns what was done."""
    loc = page.locator(f'[data-course-test="{control["id"]}"]')
    loc.scroll_into_view_if_needed()
    kind = control["kind"]
    if kind == "slider":
        before = loc.get_attribute("aria-valuenow")
        handle = loc.bounding_box()
        track = loc.locator("xpath=ancestor::div[contains(@class,'noUi-base')]").bounding_box()
        x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
        # Drag a quarter of the track, towards the side with more room.
        dx = track["width"] / 4 * (1 if x < track["x"] + track["width"] / 2 else -1)
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + dx, y, steps=8)
        page.mouse.up()
        after = loc.get_attribute("aria-valuenow")
        if after == before:  # the drag did not move it (tiny track): use the keyboard instead
            loc.focus()
            for _ in range(3):
                page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
            after = loc.get_attribute("aria-valuenow")
            return f"slider {control['label']!r} moved with arrow keys {before} -> {after}"
        return f"slider {control['label']!r} dragged {before} -> {after}"
    if kind == "dropdown":
        options = loc.locator("option").all_inner_texts()
        current = loc.evaluate("e => e.selectedIndex")
        if len(options) < 2:
            return ""
        target = (current + 1) % len(options)
        loc.select_option(index=target)
        return f"dropdown {control['label']!r} set to {options[target]!r}"
    if kind == "radio" and loc.is_checked():
        return ""
    if kind == "choice" and "mod-active" in (loc.get_attribute("class") or ""):
        return ""
    loc.click()
    return f"{kind} {control['label']!r} clicked"


def exercise_widgets(page, timeout: float = 120) -> tuple[list, list]:
    """Operate every widget control; each must change what the page shows, without errors.

    A control in an ``interact_manual`` box only takes effect with its button, so when nothing changed
    the box's button is pressed before the control counts as broken. Returns (done, problems).
    """
    done, problems = [], []
    controls = page.evaluate(_FIND_CONTROLS_JS)
    for control in controls:
        state = _wait_idle(page, timeout)
        before = state["cells"][control["cell"]]["fingerprint"]
        errors_before = _error_outputs(state)
        action = _operate(page, control)
        if not action:
            continue

        def changed(control=control, before=before):   # bound now: called within this iteration only
            now = read_page(page)
            return now if now["cells"][control["cell"]]["fingerprint"] != before else None

        try:
            _wait(changed, timeout, what="the output to change")
        except TimeoutError:
            box = page.locator(f'[data-course-test="{control["id"]}"]').locator(
                "xpath=ancestor::div[contains(@class,'widget-interact')][1]//button")
            if control["kind"] != "button" and box.count():
                box.first.click()
                action += " + run button"
                try:
                    _wait(changed, timeout, what="the output to change")
                except TimeoutError:
                    pass
        state = _wait_idle(page, timeout)
        where = f"cell {control['cell']}"
        if state["cells"][control["cell"]]["fingerprint"] == before:
            problems.append(f"{where}: {action}, but the output did not change (callback failed or not wired?)")
        for index, text in sorted(_error_outputs(state) - errors_before):
            problems.append(f"cell {index}: after {action}: error/noise output: {_clip(text)}")
        done.append(f"{where}: {action}")
    return done, problems


def full_page_screenshot(page, path: Path, max_height: int = 30000) -> None:
    """Screenshot the whole notebook: the page grows to the notebook's height for the shot."""
    path.parent.mkdir(parents=True, exist_ok=True)
    viewport = page.viewport_size
    scroller = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer"
    extra = page.evaluate(f"""() => {{ const s = document.querySelector('{scroller}');
                                       return s ? s.scrollHeight - s.clientHeight : 0; }}""")
    page.set_viewport_size({"width": viewport["width"], "height": min(viewport["height"] + extra, max_height)})
    try:
        page.evaluate(f"() => {{ const s = document.querySelector('{scroller}'); if (s) s.scrollTop = 0; }}")
        page.wait_for_timeout(500)  # let JupyterLab lay out at the new size
        page.screenshot(path=str(path), full_page=True)
    finally:
        page.set_viewport_size(viewport)


def save_and_read(page, path: Path, timeout: float = 60) -> nbformat.NotebookNode:
    """File > Save Notebook; return what was saved to ``path`` and put the file's previous bytes back, so the
    course copy stays as it was copied (its fixture checks that nothing else saved a notebook)."""
    original = path.read_bytes()
    before = path.stat().st_mtime_ns
    _click_menu(page, "File", "docmanager:save")
    _wait(lambda: path.stat().st_mtime_ns != before, timeout, what=f"{path.name} to be saved")

    def saved():  # the server may still be writing: wait for a complete notebook that no longer changes
        stamp = path.stat().st_mtime_ns
        try:
            nb = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
        except (ValueError, nbformat.reader.NotJSONError):
            return None
        time.sleep(0.5)
        return nb if path.stat().st_mtime_ns == stamp else None

    try:
        return _wait(saved, timeout, what=f"{path.name} to be saved completely")
    finally:
        path.write_bytes(original)


def expand_hidden_inputs(page, timeout: float = 30) -> dict | None:
    """Click each collapsed input open, as a learner who wants to see it does; returns the page state after, or
    None when nothing was collapsed.

    JupyterLab shows a collapsed input (``jupyter.source_hidden``: the run-summary cells) as a placeholder whose
    prompt stays empty, so whether the cell ran can only be read once it is open.
    """
    placeholders = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-InputPlaceholder .jp-Placeholder-content")
    if not placeholders.count():
        return None
    while placeholders.count():
        placeholders.first.click()
    return _wait(lambda: (state := read_page(page)) and not any(
        c["type"] == "code" and c["prompt"] == "" for c in state["cells"]) and state, timeout,
        what="the collapsed inputs to open")


def run_notebook(page, url: str, stored: nbformat.NotebookNode, name: str, screenshot: Path | None,
                 timeout: float, widget_timeout: float = 60, save_to: Path | None = None) -> NotebookRun:
    """Open, Run All, check the page, screenshot it, operate every widget. Never raises for page problems.

    ``timeout`` bounds Run All; ``widget_timeout`` how long one widget change may take to show.
    ``save_to``: the notebook's file on the server; saved after Run All, before any widget is touched, and
    read into ``result.executed``: the outputs of one clean run (the caller compares them with the stored ones).
    """
    result = NotebookRun(name=name)
    code_cells = [i for i, c in enumerate(stored.cells) if c.cell_type == "code" and c.source.strip()]
    state = open_notebook(page, url, len(stored.cells))
    if state["dialogs"]:
        result.problems.append(f"a dialog opened with the notebook: {_clip(' / '.join(state['dialogs']), 300)}")
        return result
    start = time.monotonic()
    try:
        state = run_all(page, code_cells, timeout)
    except TimeoutError:
        if screenshot is not None:  # what the page showed when it got stuck helps more than the message
            full_page_screenshot(page, screenshot)
        raise
    result.seconds = time.monotonic() - start
    result.page = state
    if screenshot is not None:
        full_page_screenshot(page, screenshot)
        result.screenshot = screenshot
    state = expand_hidden_inputs(page) or state
    result.problems += page_problems(state, stored)
    if save_to is not None:
        try:
            result.executed = save_and_read(page, save_to)
        except TimeoutError as err:
            result.problems.append(str(err))
    if not result.problems:
        result.widgets_checked, widget_problems = exercise_widgets(page, widget_timeout)
        result.problems += widget_problems
    return result


_SCRIPT_JS = r"""
() => {
  const han = s => (s.match(/[\u3400-\u9fff]/g) || []).length;
  const text = sel => Array.from(document.querySelectorAll(sel)).map(e => e.innerText).join('\n');
  const menus = Array.from(document.querySelectorAll('.lm-MenuBar-itemLabel')).map(e => e.innerText.trim());
  const where = document.querySelector('.jp-RenderedMarkdown') || document.body;
  const family = getComputedStyle(where).fontFamily;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const g = canvas.getContext('2d');
  const draw = ch => { g.clearRect(0, 0, 64, 64); g.font = '48px ' + family; g.fillText(ch, 4, 52);
                       return g.getImageData(0, 0, 64, 64).data.join(','); };
  return {menus, markdown_han: han(text('.jp-RenderedMarkdown')), output_han: han(text('.jp-OutputArea-output')),
          glyphs_differ: draw('中') !== draw('练') && draw('中') !== draw(' '), family};
}
"""


def script_rendering(page) -> dict:
    """How the page renders Chinese: menu titles, how many Han characters the Markdown and the outputs show,
    and whether the browser has glyphs for them (``glyphs_differ``: without a CJK font every character is the
    same "tofu" box)."""
    return page.evaluate(_SCRIPT_JS)
