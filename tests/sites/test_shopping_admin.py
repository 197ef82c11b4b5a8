"""The store admin site, driven through real requests (and one real browser)."""

from __future__ import annotations

import re

import lxml.html
import pytest

from webarena_gym.sites import World, app_for, get_site
from webarena_gym.sites.webapp import WORLD_KEY, login_cookie

SITE = "shopping_admin"


def text(response) -> str:
    """The page's visible text, whitespace collapsed."""
    tree = lxml.html.fromstring(response.get_data(as_text=True))
    for node in tree.xpath("//style|//script"):
        node.drop_tree()
    return re.sub(r"\s+", " ", " ".join(tree.itertext()))


def value_of(response, css: str) -> str:
    """The value a form control shows (inputs: value; selects: the selected option; textareas: text)."""
    node = lxml.html.fromstring(response.get_data(as_text=True)).cssselect(css)[0]
    if node.tag == "select":
        chosen = node.cssselect("option[selected]") or node.cssselect("option")
        return chosen[0].get("value")
    if node.tag == "textarea":
        return node.text or ""
    return node.get("value", "")


@pytest.fixture
def admin(site_client):
    return site_client(SITE, user="admin")


@pytest.fixture
def data(world):
    return world.connection(SITE)


def test_spec_matches_webarena():
    spec = get_site(SITE)
    assert (spec.default_port, spec.url_prefix, spec.login_path, spec.default_user) == (
        7780, "/admin", "/admin", ("admin", "admin1234"))


def test_seed_sizes(data):
    counts = {t: data.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("sales_order", "customer", "product")}
    assert counts["sales_order"] >= 1000 and counts["customer"] >= 100 and counts["product"] >= 150
    statuses = {r[0] for r in data.execute("SELECT DISTINCT status FROM sales_order")}
    assert {"pending", "processing", "complete", "canceled", "closed"} <= statuses
    span = data.execute("SELECT MIN(created_at), MAX(created_at) FROM sales_order").fetchone()
    assert span[0].startswith("2022") and span[1].startswith("2023")


def test_login_required_login_and_logout(site_client):
    client = site_client(SITE)
    response = client.get("/admin/sales/order/")
    assert response.status_code == 302 and response.headers["Location"] == "/admin?next=/admin/sales/order/"
    assert "Welcome, please sign in" in text(client.get("/admin"))
    bad = client.post("/admin", data={"username": "admin", "password": "wrong"})
    assert bad.status_code == 401 and "sign-in was incorrect" in text(bad)
    good = client.post("/admin?next=/admin/sales/order/", data={"username": "admin", "password": "admin1234"})
    assert good.headers["Location"] == "/admin/sales/order/"
    assert "Orders" in text(client.get("/admin/sales/order/"))
    assert client.get("/admin").headers["Location"] == "/admin/admin/dashboard/"
    client.get("/admin/admin/auth/logout/")
    assert client.get("/admin/admin/dashboard/").status_code == 302


def test_dashboard_figures(admin, data):
    total = data.execute("SELECT SUM(grand_total) FROM sales_order WHERE status != 'canceled'").fetchone()[0]
    page = text(admin.get("/admin/admin/dashboard/"))
    assert f"Lifetime Sales: ${total:,.2f}" in page
    top_term = data.execute("SELECT query_text FROM search_term ORDER BY uses DESC LIMIT 1").fetchone()[0]
    latest = data.execute("SELECT customer_name FROM sales_order ORDER BY created_at DESC LIMIT 1").fetchone()[0]
    assert top_term in page and latest in page and "Most Viewed Products" in page


def test_orders_grid_search_filter_sort_and_pages(admin, data):
    found = text(admin.get("/admin/sales/order/?search=000000042"))
    assert "1 records found" in found and "000000042" in found
    # An empty GET form field and a US-style date are normalised by a redirect.
    bounce = admin.get("/admin/sales/order/?search=&status=canceled&created_from=1/1/2023&created_to=1/31/2023")
    assert bounce.headers["Location"] == "/admin/sales/order/?status=canceled&created_from=2023-01-01&created_to=2023-01-31"
    expected = data.execute("SELECT COUNT(*) FROM sales_order WHERE status = 'canceled' AND created_at "
                            "BETWEEN '2023-01-01' AND '2023-01-31 23:59:59'").fetchone()[0]
    filtered = admin.get(bounce.headers["Location"])
    assert f"{expected} records found" in text(filtered)
    assert "Active filters: Status: Canceled; Purchase Date from: 1/1/2023" in text(filtered)
    cheapest = data.execute("SELECT increment_id FROM sales_order ORDER BY grand_total, id LIMIT 1").fetchone()[0]
    rows = lxml.html.fromstring(admin.get("/admin/sales/order/?sort=grand_total&dir=asc").data).cssselect("#orders-grid tr")
    assert rows[1].cssselect("td")[1].text == cheapest  # after the row's select box
    total = data.execute("SELECT COUNT(*) FROM sales_order").fetchone()[0]
    second = text(admin.get("/admin/sales/order/?page=2"))
    assert f"{total} records found · Page 2 of {-(-total // 20)}" in second
    assert admin.get("/admin/sales/order/?limit=20").headers["Location"] == "/admin/sales/order/"  # the default
    thirty = lxml.html.fromstring(admin.get("/admin/sales/order/?limit=30").data)
    assert len(thirty.cssselect("#orders-grid tr")) == 31 and f"Page 1 of {-(-total // 30)}" in thirty.text_content()
    email = data.execute("SELECT customer_email FROM sales_order WHERE id = 1").fetchone()[0]
    mine = data.execute("SELECT COUNT(*) FROM sales_order WHERE customer_email = ?", (email,)).fetchone()[0]
    assert f"{mine} records found" in text(admin.get("/admin/sales/order/", query_string={"customer": email}))
    ranged = data.execute("SELECT COUNT(*) FROM sales_order WHERE grand_total BETWEEN 100 AND 120").fetchone()[0]
    assert f"{ranged} records found" in text(admin.get("/admin/sales/order/?total_from=100&total_to=120"))


def test_grid_mass_actions(admin, data):
    pending = [r[0] for r in data.execute("SELECT id FROM sales_order WHERE status = 'pending' ORDER BY id LIMIT 2")]
    complete = data.execute("SELECT id FROM sales_order WHERE status = 'complete' LIMIT 1").fetchone()[0]
    page = text(admin.post("/admin/sales/order/massAction/", follow_redirects=True, data={
        "massaction": "hold", "selected": [*map(str, pending), str(complete)], "return_to": "/admin/sales/order/"}))
    assert "2 order(s) have been updated. 1 order(s) cannot be changed." in page
    statuses = [data.execute("SELECT status FROM sales_order WHERE id = ?", (i,)).fetchone()[0]
                for i in [*pending, complete]]
    assert statuses == ["holded", "holded", "complete"]
    products = [r[0] for r in data.execute("SELECT id FROM product WHERE status = 1 ORDER BY id LIMIT 3")]
    page = text(admin.post("/admin/catalog/product/massAction/", follow_redirects=True, data={
        "massaction": "disable", "selected": [str(p) for p in products]}))
    assert "A total of 3 record(s) have been updated." in page
    assert data.execute(f"SELECT COUNT(*) FROM product WHERE status = 2 AND id IN ({','.join('?' * 3)})",
                        products).fetchone()[0] == 3
    grid = lxml.html.fromstring(admin.get("/admin/catalog/product/").data)
    assert grid.cssselect("select[name=massaction]") and grid.cssselect("select[name=limit]")
    assert grid.cssselect("details.admin__data-grid-filters")[0].get("open") is None  # no filter: collapsed
    filtered = lxml.html.fromstring(admin.get("/admin/catalog/product/?status=2").data)
    assert filtered.cssselect("details.admin__data-grid-filters")[0].get("open") is not None


def test_rows_per_page_keep_observations_short(admin):
    reviews = lxml.html.fromstring(admin.get("/admin/review/product/?limit=10").data)
    assert [o.text for o in reviews.cssselect("select[name=limit] option")] == ["10", "20"]
    assert len(reviews.cssselect("#reviews-grid tr")) == 11
    assert admin.get("/admin/review/product/?limit=30").headers["Location"] == "/admin/review/product/"
    customers = lxml.html.fromstring(admin.get("/admin/customer/index/?limit=30").data)
    assert [o.text for o in customers.cssselect("select[name=limit] option")] == ["10", "20", "30"]
    assert len(customers.cssselect("#customers-grid tr")) == 31


def test_order_view_shows_items_totals_and_history(admin, data):
    order = data.execute("SELECT * FROM sales_order WHERE status = 'complete' LIMIT 1").fetchone()
    page = text(admin.get(f"/admin/sales/order/view/order_id/{order['id']}/"))
    item = data.execute("SELECT name FROM order_item WHERE order_id = ?", (order["id"],)).fetchone()[0]
    track = data.execute("SELECT number FROM shipment_track WHERE order_id = ?", (order["id"],)).fetchone()[0]
    assert f"# {order['increment_id']}" in page and item in page and track in page
    assert f"Grand Total ${order['grand_total']:,.2f}" in page and "Order Status Complete" in page
    toolbar = lxml.html.fromstring(admin.get(f"/admin/sales/order/view/order_id/{order['id']}/").data).cssselect(
        "[role=toolbar] button")
    assert [(b.text, b.get("disabled") is not None) for b in toolbar if b.text in ("Cancel", "Send Email")] == [
        ("Cancel", True), ("Send Email", False)]  # shipped orders cannot be canceled
    assert admin.get("/admin/sales/order/view/order_id/99999/").status_code == 404


def test_mega_menu_sections_collapse_and_lead_somewhere(admin):
    tree = lxml.html.fromstring(admin.get("/admin/sales/order/").data)
    sections = tree.cssselect("nav[aria-label='Admin menu'] details")
    assert len(sections) >= 8 and sum(len(d.cssselect("a")) for d in sections) >= 80
    opened = [d.cssselect("summary")[0].text for d in sections if d.get("open") is not None]
    assert opened == ["Sales"]  # the current page's section only
    for link in tree.cssselect("nav[aria-label='Admin menu'] a"):
        assert admin.get(link.get("href"), follow_redirects=True).status_code == 200, link.get("href")
    assert "We couldn't find any records." in text(admin.get("/admin/tax/rule/"))


def test_order_view_tabs_and_toolbar(admin, data):
    order = data.execute("SELECT * FROM sales_order WHERE status = 'closed' LIMIT 1").fetchone()
    view = f"/admin/sales/order/view/order_id/{order['id']}/"
    tabs = lxml.html.fromstring(admin.get(view).data).cssselect("[role=tablist] [role=tab]")
    assert [t.text for t in tabs] == ["Information", "Invoices", "Credit Memos", "Shipments", "Comments History"]
    assert [t.get("aria-selected") for t in tabs] == ["true", "false", "false", "false", "false"]
    memo = data.execute("SELECT increment_id FROM creditmemo WHERE order_id = ?", (order["id"],)).fetchone()[0]
    assert memo in text(admin.get(view + "?tab=creditmemos"))
    assert "Refunded amount of" in text(admin.get(view + "?tab=history"))
    assert "Items Ordered" in text(admin.get(view)) and "Items Ordered" not in text(admin.get(view + "?tab=invoices"))
    assert "You sent the order email." in text(admin.post(f"/admin/sales/order/email/order_id/{order['id']}/",
                                                          follow_redirects=True))


def test_product_toolbar_delete_asks_first(admin, data):
    product = data.execute("SELECT id, name FROM product LIMIT 1 OFFSET 3").fetchone()
    edit = f"/admin/catalog/product/edit/id/{product['id']}/"
    tree = lxml.html.fromstring(admin.get(edit).data)
    actions = [" ".join(e.text_content().split()) for e in tree.cssselect("[role=toolbar] a, [role=toolbar] button")]
    assert actions == ["Back", "Add Attribute", "Delete", "Reset", "Save and Continue Edit", "Save"]
    assert not tree.cssselect("[role=dialog]")
    dialog = lxml.html.fromstring(admin.get(edit + "?modal=delete").data).cssselect("[role=dialog]")[0]
    assert product["name"] in dialog.text_content()
    page = text(admin.post(f"/admin/catalog/product/delete/id/{product['id']}/", follow_redirects=True))
    assert f"You deleted the product {product['name']}." in page and admin.get(edit).status_code == 404


def test_cancel_hold_and_refusals(admin, data):
    pending = data.execute("SELECT id FROM sales_order WHERE status = 'pending' LIMIT 1").fetchone()[0]
    complete = data.execute("SELECT id FROM sales_order WHERE status = 'complete' LIMIT 1").fetchone()[0]
    view = f"/admin/sales/order/view/order_id/{pending}/"
    admin.post(f"/admin/sales/order/hold/order_id/{pending}/")
    assert "Order Status On Hold" in text(admin.get(view))
    admin.post(f"/admin/sales/order/unhold/order_id/{pending}/")
    page = text(admin.post(f"/admin/sales/order/cancel/order_id/{pending}/", follow_redirects=True))
    assert "You canceled the order." in page and "Order Status Canceled" in page and "Order canceled." in page
    refused = text(admin.post(f"/admin/sales/order/cancel/order_id/{complete}/", follow_redirects=True))
    assert "You have not canceled the item." in refused and "Order Status Complete" in refused


def test_invoice_then_ship_with_tracking(admin, data):
    order = data.execute("SELECT * FROM sales_order WHERE status = 'pending' LIMIT 1 OFFSET 2").fetchone()
    assert "Submit Invoice" in text(admin.get(f"/admin/sales/order_invoice/new/order_id/{order['id']}/"))
    page = text(admin.post(f"/admin/sales/order_invoice/new/order_id/{order['id']}/", follow_redirects=True))
    assert "The invoice has been created." in page and "Order Status Processing" in page
    assert f"Captured amount of ${order['grand_total']:,.2f}" in page
    form = {"carrier": "fedex", "number": "8974568499"}
    page = text(admin.post(f"/admin/admin/order_shipment/new/order_id/{order['id']}/", data=form, follow_redirects=True))
    assert "Order Status Complete" in page and "Tracking number 8974568499 for Federal Express assigned." in page
    page = text(admin.post(f"/admin/admin/order_shipment/addTrack/order_id/{order['id']}/",
                           data={"carrier": "ups", "number": "1Z999"}, follow_redirects=True))
    assert "United Parcel Service 1Z999" in page


def test_comment_with_customer_notification(admin, data):
    order_id = data.execute("SELECT id FROM sales_order WHERE status = 'processing' LIMIT 1").fetchone()[0]
    url = f"/admin/sales/order/addComment/order_id/{order_id}/"
    admin.post(url, data={"comment": "Packed and ready", "is_customer_notified": "1"})
    admin.post(url, data={"comment": "Internal note"})
    history = lxml.html.fromstring(admin.get(f"/admin/sales/order/view/order_id/{order_id}/").data).cssselect("#order_history li")
    assert "Customer Not Notified | Internal note" in history[0].text_content()
    assert "Customer Notified | Packed and ready" in history[1].text_content()
    assert "Please enter a comment." in text(admin.post(url, data={"comment": " "}, follow_redirects=True))


def test_edit_order_address(admin, data):
    address = data.execute("SELECT * FROM order_address WHERE address_type = 'shipping' LIMIT 1").fetchone()
    url = f"/admin/sales/order/address/address_id/{address['id']}/"
    form = {"firstname": "Ann", "lastname": "Lee", "street": "456 Oak Avenue, Apartment 5B", "city": "New York",
            "region": "New York", "postcode": "10001", "country": "United States", "telephone": "+1 2125550100"}
    page = text(admin.post(url, data=form, follow_redirects=True))
    assert "You updated the order address." in page and "456 Oak Avenue, Apartment 5B" in page
    assert admin.post(url, data=form | {"city": ""}).status_code == 400


def test_invoices_grid_and_view(admin, data):
    invoice = data.execute("SELECT * FROM invoice WHERE increment_id = '000000007'").fetchone()
    grid = text(admin.get("/admin/sales/invoice/?search=000000007"))
    assert f"${invoice['grand_total']:,.2f}" in grid
    view = text(admin.get(f"/admin/sales/invoice/view/invoice_id/{invoice['id']}/"))
    assert "Invoice # 000000007" in view and f"Grand Total ${invoice['grand_total']:,.2f}" in view


def test_customers_grid_and_edit(admin, data):
    customer = data.execute("SELECT * FROM customer WHERE id = 5").fetchone()
    found = text(admin.get("/admin/customer/index/", query_string={"search": customer["phone"]}))
    assert "1 records found" in found and customer["email"] in found
    wholesale = data.execute("SELECT COUNT(*) FROM customer WHERE group_name = 'Wholesale'").fetchone()[0]
    assert f"{wholesale} records found" in text(admin.get("/admin/customer/index/?group=Wholesale"))
    edit = admin.get("/admin/customer/index/edit/id/5/")
    form = {field.get("name"): value_of(edit, f"[name='{field.get('name')}']")
            for field in lxml.html.fromstring(edit.data).cssselect("form[aria-label=Customer] [name]")}
    saved = text(admin.post("/admin/customer/index/save/id/5/", data=form | {"customer[email]": "new.mail@example.com"},
                            follow_redirects=True))
    assert "You saved the customer." in saved
    assert "new.mail@example.com" in text(admin.get("/admin/customer/index/?search=new.mail"))
    bad = admin.post("/admin/customer/index/save/id/5/", data=form | {"customer[email]": "not-an-email"})
    assert bad.status_code == 400 and "valid email" in text(bad)


def test_products_grid_filters_and_edit(admin, data):
    bags = data.execute("SELECT COUNT(*) FROM product WHERE category = 'Bags'").fetchone()[0]
    assert f"{bags} records found" in text(admin.get("/admin/catalog/product/?category=Bags"))
    disabled = data.execute("SELECT COUNT(*) FROM product WHERE status = 2").fetchone()[0]
    assert f"{disabled} records found" in text(admin.get("/admin/catalog/product/?status=2"))
    product = data.execute("SELECT * FROM product WHERE status = 1 AND qty > 0 LIMIT 1").fetchone()
    assert "1 records found" in text(admin.get("/admin/catalog/product/", query_string={"search": product["sku"]}))
    edit = admin.get(f"/admin/catalog/product/edit/id/{product['id']}/")
    assert value_of(edit, "input[name='product[price]']") == f"{product['price']:.2f}"
    form = {f.get("name"): value_of(edit, f"[name='{f.get('name')}']")
            for f in lxml.html.fromstring(edit.data).cssselect("form[aria-label=Product] [name]")}
    form |= {"product[price]": "27", "product[status]": "2", "product[quantity_and_stock_status][qty]": "0",
             "product[quantity_and_stock_status][is_in_stock]": "0", "product[sale]": "1", "product[color]": "Red,Teal"}
    after = admin.post(f"/admin/catalog/product/save/id/{product['id']}/", data=form, follow_redirects=True)
    assert "You saved the product." in text(after)
    assert value_of(after, "input[name='product[price]']") == "27.00"
    assert value_of(after, "[name='product[status]']") == "2" and value_of(after, "[name='product[sale]']") == "1"
    assert value_of(after, "[name='product[quantity_and_stock_status][is_in_stock]']") == "0"
    assert value_of(after, "[name='product[color]']") == "Red, Teal"
    bad = admin.post(f"/admin/catalog/product/save/id/{product['id']}/", data=form | {"product[price]": "cheap"})
    assert bad.status_code == 400 and "valid price" in text(bad)


def test_reviews_filter_mass_approve_edit_and_delete(admin, data):
    pending = data.execute("SELECT COUNT(*) FROM review WHERE status = 'Pending'").fetchone()[0]
    assert f"{pending} records found" in text(admin.get("/admin/review/product/pending/"))
    assert f"{pending} records found" in text(admin.get("/admin/review/product/?status=pending"))
    term = data.execute("SELECT COUNT(*) FROM review WHERE detail LIKE '%disappointed%'").fetchone()[0]
    assert f"{term} records found" in text(admin.get("/admin/review/product/?detail=disappointed"))
    ids = [r[0] for r in data.execute("SELECT id FROM review WHERE status = 'Pending' ORDER BY id LIMIT 2")]
    page = text(admin.post("/admin/review/product/massUpdateStatus/", follow_redirects=True,
                           data={"reviews": [str(i) for i in ids], "massaction": "approved",
                                 "return_to": "/admin/review/product/pending/"}))
    assert "A total of 2 record(s) have been updated." in page and f"{pending - 2} records found" in page
    review = ids[0]
    admin.post(f"/admin/review/product/save/id/{review}/",
               data={"status_id": "not_approved", "nickname": "Sam", "title": "Changed", "detail": "Edited text",
                     "stores": "1"})
    edit = admin.get(f"/admin/review/product/edit/id/{review}/")
    assert value_of(edit, "#status_id") == "not_approved" and value_of(edit, "#title") == "Changed"
    deleted = text(admin.post(f"/admin/review/product/delete/id/{review}/", follow_redirects=True))
    assert "The review has been deleted." in deleted
    assert admin.get(f"/admin/review/product/edit/id/{review}/").status_code == 404


def test_reports(admin, data):
    page = admin.get("/admin/reports/report_sales/sales/?from=2/1/23&to=2/28/23&period=month", follow_redirects=True)
    assert value_of(page, "#sales_report_from") == "2/1/2023" and value_of(page, "#sales_report_to") == "2/28/2023"
    orders, total = data.execute("SELECT COUNT(*), SUM(grand_total) FROM sales_order WHERE status != 'canceled' "
                                 "AND created_at LIKE '2023-02%'").fetchone()
    assert f"Feb 2023 {orders} " in text(page) and f"${total:,.2f}" in text(page)
    best = data.execute("SELECT i.name FROM order_item i JOIN sales_order o ON o.id = i.order_id WHERE o.status != "
                        "'canceled' AND o.created_at LIKE '2022%' GROUP BY i.product_id ORDER BY SUM(i.qty) DESC, i.name "
                        "LIMIT 1").fetchone()[0]
    assert f"2022 1 {best}" in text(admin.get("/admin/reports/report_sales/bestsellers/?from=2022-01-01&to=2022-12-31&period=year"))
    refunded = data.execute("SELECT SUM(grand_total) FROM creditmemo WHERE created_at LIKE '2022%'").fetchone()[0]
    assert f"${refunded:,.2f}" in text(admin.get("/admin/reports/report_sales/refunded/?from=2022-01-01&to=2022-12-31&period=year"))
    assert "Flat Rate - Fixed" in text(admin.get("/admin/reports/report_sales/shipping/?from=2022-01-01&to=2022-03-31&period=month"))
    assert "must be on or before" in text(admin.get("/admin/reports/report_sales/sales/?from=2023-03-01&to=2023-01-01"))
    terms = [r[0] for r in data.execute("SELECT query_text FROM search_term ORDER BY uses DESC LIMIT 3")]
    rows = lxml.html.fromstring(admin.get("/admin/search/term/report/").data).cssselect("#search-terms-grid tr td:first-child")
    assert [r.text for r in rows[:3]] == terms


def test_customer_order_count_report(admin, data):
    page = admin.get("/admin/reports/report_customer/orders/?from=1/1/22&to=5/31/23&status=canceled",
                     follow_redirects=True)
    assert value_of(page, "#customer_report_from") == "1/1/2022" and value_of(page, "#customer_report_status") == "canceled"
    ranking = data.execute("SELECT customer_name, COUNT(*) AS n FROM sales_order WHERE status = 'canceled' "
                           "GROUP BY customer_id ORDER BY n DESC, SUM(grand_total) DESC LIMIT 2").fetchall()
    rows = lxml.html.fromstring(page.data).cssselect("#customer-report-grid tr")
    cells = [[" ".join(c.text_content().split()) for c in row.cssselect("td")] for row in rows[1:3]]
    assert [(c[0], c[1], c[3]) for c in cells] == [("1", ranking[0][0], str(ranking[0][1])),
                                                 ("2", ranking[1][0], str(ranking[1][1]))]
    name, count = data.execute("SELECT customer_name, COUNT(*) AS n FROM sales_order WHERE status != 'canceled' "
                               "GROUP BY customer_id ORDER BY n DESC LIMIT 1").fetchone()
    assert f"1 {name} " in text(admin.get("/admin/reports/report_customer/orders/?from=2022-01-01&to=2023-05-31"))
    assert count != ranking[0][1]  # without a status the report counts every order but canceled ones
    assert "must be on or before" in text(admin.get("/admin/reports/report_customer/orders/?from=2023-03-01&to=2023-01-01"))


def test_report_scope_switcher_and_export(admin, data):
    url = "/admin/reports/report_sales/sales/?from=2022-01-01&to=2022-03-31&period=month"
    tree = lxml.html.fromstring(admin.get(url + "&store=default").data)
    scope = tree.cssselect("#store_switcher option[selected]")[0]
    assert scope.text == "Default Store View" and "Jan 2022" in tree.text_content()
    assert admin.get(url + "&store=nowhere").status_code == 200  # an unknown scope shows all websites
    export = admin.get(url + "&export=csv")
    lines = lxml.html.fromstring(export.data).cssselect("#report-export")[0].text.splitlines()
    orders = data.execute("SELECT COUNT(*) FROM sales_order WHERE status != 'canceled' "
                          "AND created_at LIKE '2022-02%'").fetchone()[0]
    assert lines[0].startswith("Interval,Orders,") and lines[2].startswith(f"Feb 2022,{orders},") and len(lines) == 4
    blank = lxml.html.fromstring(admin.get("/admin/reports/report_sales/sales/").data)
    assert blank.cssselect("select[name=export]") and blank.cssselect("#sales_report_from._has-datepicker")


def test_review_form_star_rating(admin, data):
    review = data.execute("SELECT * FROM review WHERE rating = 5 LIMIT 1").fetchone()
    edit = f"/admin/review/product/edit/id/{review['id']}/"
    radios = lxml.html.fromstring(admin.get(edit).data).cssselect("input[type=radio][name=rating]")
    assert [r.get("value") for r in radios] == ["1", "2", "3", "4", "5"] and radios[4].get("checked") is not None
    form = {"status_id": "approved", "nickname": review["nickname"], "title": review["title"],
            "detail": review["detail"], "rating": "2", "stores": "1"}
    admin.post(f"/admin/review/product/save/id/{review['id']}/", data=form)
    assert data.execute("SELECT rating FROM review WHERE id = ?", (review["id"],)).fetchone()[0] == 2
    assert "2 out of 5 stars" in text(admin.get(edit))
    tree = lxml.html.fromstring(admin.get(edit).data)
    actions = [" ".join(e.text_content().split()) for e in tree.cssselect("[role=toolbar] a, [role=toolbar] button")]
    assert actions == ["Back", "Reset", "Delete Review", "Save Review"] and not tree.cssselect("[role=dialog]")
    dialog = lxml.html.fromstring(admin.get(edit + "?modal=delete").data).cssselect("[role=dialog]")[0]
    assert "Are you sure you want to delete this review?" in dialog.text_content()


def test_header_icon_controls_are_named(admin):
    header = lxml.html.fromstring(admin.get("/admin/sales/order/").data).cssselect("header")[0]
    icons = [(e.get("title"), e.text_content().strip()) for e in header.cssselect("a[title], button[title]")]
    assert icons == [("Global Search", ""), ("Notifications", ""), ("Account Setting (admin)", "")]
    found = text(admin.get("/admin/sales/order/?search=000000042"))
    assert "1 records found" in found


def test_cms_pages_and_themes(admin, data):
    assert "404 Not Found" in text(admin.get("/admin/cms/page/?search=404"))
    form = {"title": "Bruh bro you clicked the wrong page", "identifier": "no-route", "content": "Oops", "is_active": "1"}
    page = admin.post("/admin/cms/page/save/page_id/1/", data=form, follow_redirects=True)
    assert "You saved the page." in text(page) and value_of(page, "input[name=title]") == form["title"]
    created = admin.post("/admin/cms/page/save/", data=form | {"identifier": "new-page", "title": "New"},
                         follow_redirects=True)
    assert "You saved the page." in text(created) and "new-page" in text(admin.get("/admin/cms/page/?search=new-page"))
    assert admin.post("/admin/cms/page/save/", data=form).status_code == 400  # URL key taken
    themes = text(admin.get("/admin/admin/system_design_theme/"))
    assert "Luma" in themes and "Theme: Luma" in text(admin.get("/admin/admin/system_design_theme/edit/id/2/"))


def test_worlds_are_isolated_and_reset(world, admin, data):
    pending = data.execute("SELECT id FROM sales_order WHERE status = 'pending' LIMIT 1").fetchone()[0]
    admin.post(f"/admin/sales/order/cancel/order_id/{pending}/")
    view = f"/admin/sales/order/view/order_id/{pending}/"
    assert "Order Status Canceled" in text(admin.get(view))
    other = World()
    other_client = app_for(SITE).test_client()
    other_client.environ_base[WORLD_KEY] = other
    other_client.set_cookie(*login_cookie(SITE, "admin"))
    assert "Order Status Pending" in text(other_client.get(view))
    other.close()
    world.reset()
    assert "Order Status Pending" in text(admin.get(view))


@pytest.mark.browser
def test_browser_cancel_an_order(browser_page, site_server):
    page, world = browser_page(SITE, "admin")
    base = site_server.base_urls[SITE]
    order_id = world.connection(SITE).execute(
        "SELECT id FROM sales_order WHERE status = 'pending' ORDER BY created_at DESC LIMIT 1").fetchone()[0]
    page.goto(f"{base}/sales/order/?status=pending")
    page.click(f"a[href='/admin/sales/order/view/order_id/{order_id}/']")
    assert page.inner_text("#order_status") == "Pending"
    page.fill("#history_comment", "Customer asked to cancel")
    page.click("text=Submit Comment")
    page.click("button:has-text('Cancel')")
    assert page.inner_text("#order_status") == "Canceled"
    assert "Customer asked to cancel" in page.inner_text("#order_history")


def test_browser_menu_tabs_and_star_rating(browser_page, site_server):
    page, world = browser_page(SITE, "admin")
    base = site_server.base_urls[SITE]
    page.goto(f"{base}/sales/order/view/order_id/7/")
    menu = page.locator("nav[aria-label='Admin menu']")
    assert not menu.get_by_role("link", name="Orders", exact=True).is_visible()  # the Sales section is collapsed
    menu.locator("summary", has_text="Sales").click()
    menu.get_by_role("link", name="Orders", exact=True).click()
    assert page.url == f"{base}/sales/order/"
    page.goto(f"{base}/sales/order/view/order_id/7/")
    page.get_by_role("tab", name="Comments History").click()
    assert page.url.endswith("?tab=history") and "Order placed." in page.inner_text("#order-comments-grid")
    review = world.connection(SITE).execute("SELECT id FROM review WHERE rating = 5 LIMIT 1").fetchone()[0]
    page.goto(f"{base}/review/product/edit/id/{review}/")
    page.check("#rating_2")
    page.click("text=Save Review")
    assert "2 out of 5 stars" in page.inner_text("#review-details")


def test_review_form_detailed_rating_kinds_and_visibility(admin, data):
    review = data.execute("SELECT * FROM review WHERE rating = 4 LIMIT 1").fetchone()
    edit = f"/admin/review/product/edit/id/{review['id']}/"
    tree = lxml.html.fromstring(admin.get(edit).data)
    kinds = [" ".join(th.text_content().split()) for th in tree.cssselect("#detailed-rating th")]
    assert kinds == ["Quality", "Value", "Price", "Rating"] and len(tree.cssselect("#detailed-rating input[type=radio]")) == 20
    assert value_of(admin.get(edit), "#select_stores") == "1"
    form = {"status_id": "approved", "nickname": review["nickname"], "title": review["title"],
            "detail": review["detail"], "rating": "4", "vote_quality": "3"}
    refused = text(admin.post(f"/admin/review/product/save/id/{review['id']}/", data=form, follow_redirects=True))
    assert "Please select at least one store view in Visibility" in refused
    assert lxml.html.fromstring(admin.get(edit).data).cssselect("#vote_quality_3[checked]") == []
    saved = admin.post(f"/admin/review/product/save/id/{review['id']}/", data=form | {"stores": "1"}, follow_redirects=True)
    assert "You saved the review." in text(saved)
    tree = lxml.html.fromstring(saved.data)
    assert tree.cssselect("#vote_quality_3[checked]") and not tree.cssselect("#vote_value_1[checked], #vote_value_5[checked]")
    assert "4 out of 5 stars" in text(saved)


def test_order_view_links_and_comment_status(admin, data):
    order = data.execute("SELECT * FROM sales_order WHERE id IN (SELECT order_id FROM shipment_track) "
                         "AND customer_id IS NOT NULL LIMIT 1").fetchone()
    view = admin.get(f"/admin/sales/order/view/order_id/{order['id']}/")
    tree = lxml.html.fromstring(view.data)
    assert tree.cssselect(f"a[href='mailto:{order['customer_email']}']")
    phone = data.execute("SELECT telephone FROM order_address WHERE order_id = ? AND address_type = 'billing'",
                         (order["id"],)).fetchone()[0]
    assert tree.cssselect(f"#billing-address a[href='tel:{phone}']") and f"T: {phone}" in text(view)
    links = {" ".join(a.text_content().split()): a.get("href") for a in tree.cssselect("main a")}
    assert links["Edit Customer"].endswith(f"/customer/index/edit/id/{order['customer_id']}/")
    assert links["Track Order"].endswith("?tab=shipments")
    assert value_of(view, "#history_status") == order["status"]
    url = f"/admin/sales/order/addComment/order_id/{order['id']}/"
    refused = text(admin.post(url, data={"comment": "Moved", "status": "holded"}, follow_redirects=True))
    assert "a comment keeps that status" in refused and "Moved" not in text(admin.get(
        f"/admin/sales/order/view/order_id/{order['id']}/?tab=history"))
    added = text(admin.post(url, data={"comment": "Checked", "status": order["status"]}, follow_redirects=True))
    assert "You added a comment to the order." in added


def test_report_empty_rows_and_statistics_note(admin):
    base = "/admin/reports/report_sales/sales/"
    blank = admin.get(base)
    assert "We couldn't find any records." in text(blank) and "Statistics last updated:" in text(blank)
    assert [th.text_content() for th in lxml.html.fromstring(blank.data).cssselect("#report-grid tr:first-child th")][:3] \
        == ["Interval", "Orders", "Sales Items"]
    quiet = "?from=2030-01-01&to=2030-03-31&period=month"
    assert "We couldn't find any records." in text(admin.get(base + quiet))
    filled = text(admin.get(base + quiet + "&empty_rows=1"))
    assert "Jan 2030 0 0 $0.00" in filled and "Feb 2030" in filled and "Mar 2030" in filled
    shipping = text(admin.get("/admin/reports/report_sales/shipping/" + quiet + "&empty_rows=1"))
    assert "Mar 2030 0 $0.00" in shipping


def test_footer_and_customer_view(admin):
    page = admin.get("/admin/sales/order/")
    footer = " ".join(lxml.html.fromstring(page.data).cssselect("footer")[0].text_content().split())
    assert "Magento ver. 2.4.6" in footer and "Privacy Policy" in footer and "Report an Issue" in footer
    header = lxml.html.fromstring(page.data).cssselect("header")[0]
    assert [a.get("href") for a in header.cssselect("a") if a.text_content() == "Customer View"][0].endswith(":7770/")
