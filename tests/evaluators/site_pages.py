"""HTML shaped like the real WebArena sites' pages, and the official locators that read them.

Each case is (name, html, locator, expected value). The expected values were written by
hand from what a browser shows; ``test_locators_match_chromium`` checks them against a
real Chromium too.
"""

from __future__ import annotations

FORUM_POST = """<html><body><main id="main">
<div class="submission__vote"><form class="vote vote--user-upvoted" action="/sv/1" method="post">
  <button class="vote__up" type="submit">Upvote</button><span class="vote__net-score">12</span></form></div>
<div class="submission__inner">
  <header>
    <h1 class="submission__title"><a href="/f/books/59421/good-book" class="submission__link">
      To Kill a Mockingbird by Harper Lee</a></h1>
    <p class="submission__info">Submitted by <a href="/user/MarvelsGrantMan136">MarvelsGrantMan136</a>
      <time datetime="2023-06-01T09:00:00+00:00">1 hour ago</time> in <a href="/f/books">books</a></p>
  </header>
  <div class="submission__body"><p>good book!</p>
    <p>It is   a   <em>classic</em>.<br>Read it again.</p></div>
  <a class="submission__image" href="/submission_images/b02113033af32feae9ff147dbbe3764039368d67d193885bd04e65c2e6beea9c.jpg">
    <img src="/media/cache/b0211.jpg" alt="picture"></a>
  <nav><ul class="submission__nav"><li><a href="/f/books/59421/good-book#comments">3 comments</a></li>
    <li><span hidden>Edit</span></li></ul></nav>
</div>
<div class="comment__body"><p>Nice   post</p></div>
<section class="user-bio"><p class="user-bio__biography">I love <strong>books</strong> and tea.</p></section>
<form><textarea id="forum_description" name="forum[description]">
A place for readers</textarea>
<textarea id="forum_sidebar">Rules:
1. be kind</textarea></form>
</main></body></html>"""

STORE_ADMIN_PRODUCT = """<html><body><div class="admin__field" data-index="configurable">
  <div class="admin__field-label"><span>Configurations</span></div>
  <div class="admin__field-control"><table><thead><tr><th>Name</th><th>SKU</th></tr></thead>
    <tbody><tr><td>Tee-S-Blue</td><td>MS01-S-Blue</td></tr><tr><td>Tee-M-Blue</td><td>MS01-M-Blue</td></tr></tbody>
  </table></div></div>
<form>
 <input class="admin__control-text" type="text" name="product[name]" value="Sprite Yoga Strap 6 foot">
 <input type="text" name="product[price]" value="29.00">
 <input type="text" name="product[quantity_and_stock_status][qty]" value="100">
 <select name="product[quantity_and_stock_status][is_in_stock]"><option value="1">In Stock</option>
   <option value="0" selected>Out of Stock</option></select>
 <select name="product[status]"><option value="1">Enabled</option><option value="2">Disabled</option></select>
 <select name="website_ids" multiple><option value="1" selected>Main Website</option></select>
 <select name="customer_group_ids"><option>NOT LOGGED IN</option><option>General</option>
   <option selected>Wholesale</option></select>
 <input type="checkbox" title="General Subscription" name="subscription" checked>
 <input type="text" name="route_from" value="Carnegie Mellon University, Pittsburgh">
 <div data-role="selected-option"><span>Bags</span>  <span>Gear</span></div>
</form>
<div class="admin__data-grid-filters-current"><ul><li><span>Keyword:</span> <span>tote</span></li>
  <li><span>Status:</span> <span>Enabled</span></li></ul></div>
</body></html>"""

STORE_ORDER = """<html><body><div class="order-details-items ordered">
<div class="order-title"><strong>Items Ordered</strong></div>
<table class="data table table-order-items" id="my-orders-table"><caption class="table-caption">Items Ordered</caption>
<thead><tr><th class="col name">Product Name</th><th class="col sku">SKU</th><th class="col qty">Qty</th></tr></thead>
<tbody><tr><td class="col name"><strong class="product name">Kellogg's Special K Protein Bars</strong>
  <dl class="item-options"><dt>Size</dt><dd>12 Count (Pack of 1)</dd></dl></td>
  <td class="col sku">B00MXUFL0E</td><td class="col qty"><ul class="items-qty"><li class="item">
  <span class="title">Ordered</span> <span class="content">2</span></li></ul></td></tr></tbody>
<tbody><tr><td class="col name"><strong class="product name">Cookie Dough Bars</strong></td>
  <td class="col sku">B07ZD2PB9F</td><td class="col qty"><span class="title">Ordered</span> <span class="content">1</span></td></tr></tbody>
</table></div>
<div class="box box-address-shipping"><strong class="box-title"><span>Shipping Address</span></strong>
<div class="box-content"><address>Emma Lopez<br>
101 S San Mateo Dr<br>
San Mateo,  California, 94010<br>United States<br>T: <a href="tel:6505550100">6505550100</a></address></div></div>
<div id="order_history_block"><ul class="note-list"><li class="note-list-item">
  <span class="note-list-date">Jun 1, 2023</span><div class="note-list-comment">Customer asked   for a refund</div></li>
  <li class="note-list-item"><div class="note-list-comment">Older note</div></li></ul></div>
<span id="order_status">Processing</span>
</body></html>"""

GITLAB_MEMBERS = """<html><body><table><tbody>
<tr><td data-label="Account"><a href="/byteblaze"><span class="gl-avatar-labeled-label">Byte Blaze</span>
  <span class="gl-avatar-labeled-sublabel">@byteblaze</span></a></td>
  <td class="col-max-role"><span>Owner</span></td></tr>
<tr><td data-label="Account"><a href="/yjlou"><span class="gl-avatar-labeled-label">Yijun Lou</span>
  <span class="gl-avatar-labeled-sublabel">@yjlou</span></a></td>
  <td class="col-max-role"><span>Guest</span></td></tr>
</tbody></table>
<div class="detail-page-description"><a class="gl-font-monospace" href="#">redesign</a> into
  <a class="gl-font-monospace" href="#">master</a></div>
<div class="block assignee"><div class="title">Assignee <a href="#" hidden>Edit</a></div>
  <div class="value"><a href="/byteblaze">Byte Blaze</a><div class="username">@byteblaze</div></div></div>
<div id="notes-list"><div class="note"><div class="timeline-discussion-body"><p>first</p></div></div>
  <div class="note"><div class="timeline-discussion-body"><p>Good idea</p></div></div></div>
<span class="visibility-icon" title="Private - Project access must be granted explicitly.">lock</span>
<p class="cover-status"><span class="icon"></span>
  Busy right now</p>
</body></html>"""

MAP_DIRECTIONS = """<html><body><div id="content"><form>
<select class="routing_engines"><option value="fossgis_osrm_car">Car (OSRM)</option>
  <option value="fossgis_osrm_bike" selected>Bicycle (OSRM)</option><option value="fossgis_osrm_foot">Foot (OSRM)</option></select>
<input name="route_to" value="Pittsburgh International Airport"></form>
<div id="sidebar_content"><h2>Directions</h2><p>Distance: 23km. Time: 0:27.</p>
<table><tr><td>1.</td><td>Start on Forbes Avenue</td><td>200m</td></tr><tr><td>2.</td><td>Turn left</td><td>1km</td></tr></table>
</div></div></body></html>"""

#: (page html, locator, expected value)
LOCATOR_CASES = [
    (
        FORUM_POST,
        "document.querySelector('.submission__title').outerText",
        "To Kill a Mockingbird by Harper Lee",
    ),
    (
        FORUM_POST,
        "document.querySelector('.submission__body').outerText",
        "good book!\n\nIt is a classic.\nRead it again.",
    ),
    (FORUM_POST, "document.querySelector('.comment__body').outerText", "Nice post"),
    (FORUM_POST, "document.querySelector('.user-bio__biography').outerText", "I love books and tea."),
    (
        FORUM_POST,
        "document.querySelector('div.submission__vote').querySelector('form').getAttribute('class')",
        "vote vote--user-upvoted",
    ),
    (FORUM_POST, 'document.querySelector("#forum_description").value', "A place for readers"),
    (FORUM_POST, 'document.querySelector("#forum_sidebar").value', "Rules:\n1. be kind"),
    (
        FORUM_POST,
        "[...document.querySelector('.submission__inner').querySelectorAll('[href],[src]')]"
        ".map(elem => elem.getAttribute('href') || elem.getAttribute('src')).join(' ')",
        "/f/books/59421/good-book /user/MarvelsGrantMan136 /f/books "
        "/submission_images/b02113033af32feae9ff147dbbe3764039368d67d193885bd04e65c2e6beea9c.jpg /media/cache/b0211.jpg "
        "/f/books/59421/good-book#comments",
    ),
    (
        FORUM_POST,
        "document.querySelector('.submission__inner').outerText",
        "To Kill a Mockingbird by Harper Lee\n\nSubmitted by MarvelsGrantMan136 1 hour ago in books\n\ngood book!\n\n"
        "It is a classic.\nRead it again.\n\n3 comments",
    ),
    (STORE_ADMIN_PRODUCT, "document.querySelector('[name=\"product[price]\"').value", "29.00"),
    (
        STORE_ADMIN_PRODUCT,
        "document.querySelector('[name=\"product[name]\"').value",
        "Sprite Yoga Strap 6 foot",
    ),
    (
        STORE_ADMIN_PRODUCT,
        "document.querySelector('[name=\"product[quantity_and_stock_status][is_in_stock]\"').value",
        "0",
    ),
    (STORE_ADMIN_PRODUCT, "document.querySelector('[name=\"product[status]\"').value", "1"),
    (STORE_ADMIN_PRODUCT, "document.querySelector('[name=\"website_ids\"').selectedIndex", "0"),
    (STORE_ADMIN_PRODUCT, "document.querySelector('[name=\"customer_group_ids\"').selectedIndex", "2"),
    (
        STORE_ADMIN_PRODUCT,
        "document.querySelector('[title=\"General Subscription\"').checked.toString()",
        "true",
    ),
    (
        STORE_ADMIN_PRODUCT,
        "document.querySelector('[data-index=\"configurable\"').outerText",
        "Configurations\nName\tSKU\nTee-S-Blue\tMS01-S-Blue\nTee-M-Blue\tMS01-M-Blue",
    ),
    (STORE_ADMIN_PRODUCT, "document.querySelector('[data-role=\"selected-option\"').outerText", "Bags Gear"),
    (
        STORE_ADMIN_PRODUCT,
        'document.querySelector("div.admin__data-grid-filters-current").outerText',
        "Keyword: tote\nStatus: Enabled",
    ),
    (STORE_ADMIN_PRODUCT, "document.querySelector(\"[name='name'\").value", ""),
    (
        STORE_ORDER,
        'document.querySelector(".order-details-items.ordered").outerText',
        "Items Ordered\nItems Ordered\nProduct Name\tSKU\tQty\nKellogg's Special K Protein Bars\nSize\n12 Count (Pack of 1)\n\t"
        "B00MXUFL0E\t\nOrdered 2\n\nCookie Dough Bars\tB07ZD2PB9F\tOrdered 1",
    ),
    (
        STORE_ORDER,
        'document.querySelector(".box.box-address-shipping > .box-content").outerText',
        "Emma Lopez\n101 S San Mateo Dr\nSan Mateo, California, 94010\nUnited States\nT: 6505550100",
    ),
    (
        STORE_ORDER,
        'document.querySelector("#order_history_block").querySelector(".note-list").firstElementChild'
        '.querySelector(".note-list-comment").outerText',
        "Customer asked for a refund",
    ),
    (STORE_ORDER, 'document.querySelector("#order_status").outerText', "Processing"),
    (
        GITLAB_MEMBERS,
        'document.querySelectorAll(".detail-page-description > a.gl-font-monospace")[1].outerText',
        "master",
    ),
    (
        GITLAB_MEMBERS,
        "document.querySelector('.block.assignee').outerText",
        "Assignee\nByte Blaze\n@byteblaze",
    ),
    (
        GITLAB_MEMBERS,
        "document.querySelector('[id=\"notes-list\"').lastElementChild.querySelector("
        "'.timeline-discussion-body').outerText",
        "Good idea",
    ),
    (
        GITLAB_MEMBERS,
        "document.querySelector('.visibility-icon').getAttribute('title')",
        "Private - Project access must be granted explicitly.",
    ),
    (GITLAB_MEMBERS, "document.querySelector('.cover-status').lastChild.textContent", "\n  Busy right now"),
    (GITLAB_MEMBERS, "document.querySelector('.missing').outerText", ""),
    (GITLAB_MEMBERS, "document.querySelector('.missing')?.outerText || 'fallback'", "fallback"),
    (MAP_DIRECTIONS, 'document.querySelector("div#content select.routing_engines").selectedIndex', "1"),
    (
        MAP_DIRECTIONS,
        "document.querySelector('[name=\"route_to\"').value",
        "Pittsburgh International Airport",
    ),
    (
        MAP_DIRECTIONS,
        "document.querySelector('[id=\"sidebar_content\"').outerText",
        "Directions\n\nDistance: 23km. Time: 0:27.\n\n1.\tStart on Forbes Avenue\t200m\n2.\tTurn left\t1km",
    ),
    (MAP_DIRECTIONS, "document.getElementById('content').querySelectorAll('option').length", "3"),
]
