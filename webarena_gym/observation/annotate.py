"""What the browser adds to its DOM before the Playwright backend serializes it.

The simplifier reads one HTML string on both backends. In Chromium, :data:`ANNOTATE_DOM_JS`
numbers each element of the live page by its position (:data:`INDEX_ATTRIBUTE`, the key the
backend acts on) and returns a copy of the page that also carries what only the live page
knows: typed values and checked boxes (the ``LIVE_*`` attributes), and what the browser's
style and layout say about visibility (:data:`HIDDEN_ATTRIBUTE`, :data:`SCREEN_READER_ATTRIBUTE`).
The copy has no scripts, styles or hidden subtrees, which the simplifier would drop anyway
(and which makes parsing it cheap).
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

#: Run in the page; returns the annotated, pruned HTML of the document. The live page gets only
#: :data:`INDEX_ATTRIBUTE` (and only where it changed): the other marks go on the copy, whose
#: attributes cost no style invalidation. Visibility is read with ``checkVisibility``; the
#: computed style only where it says hidden (to tell ``display: none`` apart) or where a box is a
#: pixel or less; and inside a subtree without boxes (``display: none``, a closed ``<details>``)
#: every element is hidden without asking.
ANNOTATE_DOM_JS = """() => {
  const sx = window.scrollX, sy = window.scrollY, body = document.body;
  const live = document.getElementsByTagName('*'), count = live.length;
  const marks = new Array(count);  // what the copy's element at the same position gets: 'hidden' or 'sr'
  const dropped = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta']);
  let unmeasured = null, boxless = null;
  for (let i = 0; i < count; i++) {
    const el = live[i], key = String(i);
    if (el.getAttribute('data-wa-idx') !== key) el.setAttribute('data-wa-idx', key);
    if (!body || (unmeasured && unmeasured.contains(el))) continue;
    if (el.localName === 'select' || el.localName === 'svg') { unmeasured = el; continue; }
    if (boxless && boxless.contains(el)) { marks[i] = 'hidden'; continue; }
    if (!body.contains(el)) continue;
    if (el.checkVisibility ? !el.checkVisibility({visibilityProperty: true}) : true) {
      const style = window.getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse') {
        marks[i] = 'hidden';
        if (style.display === 'none') boxless = el;
        continue;
      }
      if (style.display !== 'contents' && el.checkVisibility) { marks[i] = 'hidden'; boxless = el; continue; }
    }
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.right + sx < 0 || box.bottom + sy < 0) {
      marks[i] = 'hidden';
    } else if (box.width <= 1 && box.height <= 1) {
      const style = window.getComputedStyle(el);
      if (style.overflow === 'hidden' || style.clip !== 'auto') marks[i] = 'sr';
    }
  }
  const copy = document.documentElement.cloneNode(true);
  const copies = copy.getElementsByTagName('*');
  const pruned = [];
  for (let i = 0; i < count; i++) {
    const el = i === 0 ? copy : copies[i - 1], tag = el.localName;
    if (tag === 'input') {
      const type = live[i].type;
      if (type === 'checkbox' || type === 'radio') el.setAttribute('data-wa-checked', live[i].checked ? '1' : '0');
      else if (type !== 'file') el.setAttribute('data-wa-value', live[i].value);
    } else if (tag === 'textarea') {
      el.setAttribute('data-wa-value', live[i].value);
    } else if (tag === 'option') {
      el.setAttribute('data-wa-selected', live[i].selected ? '1' : '0');
    }
    const mark = marks[i];
    if (mark === 'sr') el.setAttribute('data-wa-sr', '1');
    else if (mark === 'hidden') { el.setAttribute('data-wa-hidden', '1'); pruned.push(el); }
    else if (dropped.has(tag)) pruned.push(el);
  }
  for (const el of pruned) {
    if (!el.parentElement || el.parentElement.closest('.admin__action-multiselect-wrap')) continue;
    const before = el.previousElementSibling;  // a select that select2 3.x drives: its options are the choices
    if (el.localName === 'select' && before && before.classList.contains('select2-container')) continue;
    el.remove();
  }
  for (const svg of copy.querySelectorAll('svg')) {
    for (const child of [...svg.children]) if (child.tagName.toLowerCase() !== 'title') child.remove();
  }
  return copy.outerHTML;
}"""
