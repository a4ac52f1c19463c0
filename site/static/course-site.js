/* The course website's page script: the language switch keeps the reader's place, and the search page runs
   Pagefind's UI (the query of the theme's search box arrives as ?q=). No network beyond this site. */
(function () {
  "use strict";
  var HEADER = 80; // px hidden under the sticky header

  // The cell the reader is at: the element the address points to, else the last cell anchor above the top edge.
  function cellAt() {
    var anchors = Array.prototype.slice.call(document.querySelectorAll('[id^="cell-"]'));
    if (!anchors.length) return null;
    var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.getBoundingClientRect().top < window.innerHeight && target.getBoundingClientRect().bottom > 0) {
      if (/^cell-/.test(target.id)) return target.id;
      var before = anchors.filter(function (a) {
        return a === target || (a.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING) ||
          a.contains(target);
      });
      if (before.length) return before[before.length - 1].id;
    }
    var above = anchors.filter(function (a) { return a.getBoundingClientRect().top <= HEADER + 1; });
    return above.length ? above[above.length - 1].id : null;
  }

  // Pages without cells (the guides): the n-th section; the twin page resolves "#course-section-n".
  function sectionAt() {
    var sections = Array.prototype.slice.call(document.querySelectorAll("article.bd-article section[id]"));
    var index = -1;
    sections.forEach(function (s, i) { if (s.getBoundingClientRect().top <= HEADER + 1) index = i; });
    return index > 0 ? "course-section-" + index : null;
  }

  // The theme's search buttons say "Search" to a screen reader but show "Search Ctrl+K": the visible text is their
  // name (axe-core: label-content-name-mismatch). They exist only with JavaScript on, as does this fix.
  document.querySelectorAll(".search-button-field[aria-label]").forEach(function (b) {
    b.removeAttribute("aria-label");
  });

  function place() {
    return cellAt() || sectionAt();
  }

  document.querySelectorAll("a.course-lang-switch").forEach(function (link) {
    var base = link.getAttribute("href").split("#")[0];
    function update() {
      var here = place();
      link.setAttribute("href", here ? base + "#" + here : base);
    }
    ["mousedown", "focus", "touchstart", "keydown"].forEach(function (e) {
      link.addEventListener(e, update, {passive: true});
    });
    link.addEventListener("click", update);
  });

  var m = /^#course-section-(\d+)$/.exec(location.hash);
  if (m) {
    var sections = document.querySelectorAll("article.bd-article section[id]");
    var section = sections[Number(m[1])];
    if (section) {
      history.replaceState(null, "", "#" + section.id);
      section.scrollIntoView();
    }
  }

  var search = document.getElementById("course-search");
  if (search && window.PagefindUI) {
    var ui = new window.PagefindUI({element: "#course-search", showSubResults: true, showImages: false,
                                    resetStyles: false});
    var input = search.querySelector("input");
    var label = document.querySelector("label[for=course-search-input]");
    if (input && label) input.id = "course-search-input";
    var query = new URLSearchParams(location.search).get("q");
    if (query) ui.triggerSearch(query);
  }
})();
