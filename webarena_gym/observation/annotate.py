"""What the browser adds to its DOM before the Playwright backend serializes it.

The simplifier reads one HTML string on both backends. In Chromium, :data:`ANNOTATE_DOM_JS`
first copies what only the live page knows into attributes: each element's position
(:data:`INDEX_ATTRIBUTE`, the key the backend acts on), typed values and checked boxes
(the ``LIVE_*`` attributes), and what the browser's computed style and layout say about
visibility (:data:`HIDDEN_ATTRIBUTE`, :data:`SCREEN_READER_ATTRIBUTE`). It returns a
copy of the page without scripts, styles and hidden subtrees, which is what the
simplifier would drop anyway (and what makes parsing it cheap).
"""

from __future__ import annotations

#: Attribute set on every element: its position in document order.
INDEX_ATTRIBUTE = "data-wa-idx"
#: Attribute set on elements the browser does not show: ``display: none``,
#: ``visibility: hidden``, no box at all (inside a closed ``<details>``...), or placed
#: entirely above or left of the page, where no scrolling reaches.
HIDDEN_ATTRIBUTE = "data-wa-hidden"
#: Attribute set on elements clipped to a pixel or less: text meant for screen readers
#: (a name for an icon-only control), or a form control driven by a visible widget.
SCREEN_READER_ATTRIBUTE = "data-wa-sr"
#: Attributes where live form state is recorded (typed values, checked boxes, selected
#: options). The real ``value``/``checked``/``selected`` attributes are left alone: they
#: are the controls' defaults, which browsers compare against when they restore typed
#: values on Back.
LIVE_VALUE, LIVE_CHECKED, LIVE_SELECTED = "data-wa-value", "data-wa-checked", "data-wa-selected"

#: Run in the page; returns the annotated, pruned HTML of the document.
ANNOTATE_DOM_JS = """() => {
  const sx = window.scrollX, sy = window.scrollY;
  let i = 0;
  for (const el of document.querySelectorAll('*')) {
    el.setAttribute('data-wa-idx', String(i++));
    el.removeAttribute('data-wa-hidden');
    el.removeAttribute('data-wa-sr');
    const tag = el.tagName;
    if (tag === 'INPUT') {
      if (el.type === 'checkbox' || el.type === 'radio') el.setAttribute('data-wa-checked', el.checked ? '1' : '0');
      else if (el.type !== 'file') el.setAttribute('data-wa-value', el.value);
    } else if (tag === 'TEXTAREA') {
      el.setAttribute('data-wa-value', el.value);
    } else if (tag === 'OPTION') {
      el.setAttribute('data-wa-selected', el.selected ? '1' : '0');
    }
    if (!document.body || !document.body.contains(el) || el.closest('select, svg')) continue;
    const style = window.getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse'
        || (style.display !== 'contents' && el.checkVisibility && !el.checkVisibility())) {
      el.setAttribute('data-wa-hidden', '1');
      continue;
    }
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.right + sx < 0 || box.bottom + sy < 0) {
      el.setAttribute('data-wa-hidden', '1');
    } else if (box.width <= 1 && box.height <= 1 && (style.overflow === 'hidden' || style.clip !== 'auto')) {
      el.setAttribute('data-wa-sr', '1');
    }
  }
  const copy = document.documentElement.cloneNode(true);
  for (const el of copy.querySelectorAll('script, style, noscript, template, link, meta, [data-wa-hidden]')) {
    if (!el.parentElement || el.parentElement.closest('.admin__action-multiselect-wrap')) continue;
    const before = el.previousElementSibling;  // a select that select2 3.x drives: its options are the choices
    if (el.tagName === 'SELECT' && before && before.classList.contains('select2-container')) continue;
    el.remove();
  }
  for (const svg of copy.querySelectorAll('svg')) {
    for (const child of [...svg.children]) if (child.tagName.toLowerCase() !== 'title') child.remove();
  }
  return copy.outerHTML;
}"""
