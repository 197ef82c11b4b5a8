"""The embedded store (WebArena's OneStopShop): browsing, search, cart, checkout, account."""

from __future__ import annotations

import re

import lxml.html
import pytest

from webarena_gym.sites import World, app_for
from webarena_gym.sites.webapp import WORLD_KEY

EMMA = "emma.lopez@hotmail.com"


@pytest.fixture
def shop(site_client):
    """A client logged in as Emma Lopez."""
    return site_client("shopping", user=EMMA)


def page(response) -> lxml.html.HtmlElement:
    assert response.status_code == 200, response.status_code
    return lxml.html.fromstring(response.get_data(as_text=True))


def texts(doc, css: str) -> list[str]:
    return [" ".join(node.text_content().split()) for node in doc.cssselect(css)]


def prices(doc) -> list[float]:
    return [float(p.replace("$", "").replace(",", "")) for p in texts(doc, ".product-items .price")]


def product_of(world: World, where: str = "1 = 1", *args):
    return world.connection("shopping").execute(f"SELECT * FROM products WHERE {where} ORDER BY id LIMIT 1", args).fetchone()


def test_seed_data_has_the_promised_shape(world):
    conn = world.connection("shopping")
    assert conn.execute("SELECT COUNT(*) FROM products").fetchone()[0] >= 300
    assert conn.execute("SELECT COUNT(*) FROM categories").fetchone()[0] >= 20
    assert conn.execute("SELECT COUNT(*) FROM categories WHERE parent_id IS NOT NULL").fetchone()[0] >= 10
    assert conn.execute("SELECT COUNT(DISTINCT product_id) FROM product_options").fetchone()[0] >= 30
    assert conn.execute("SELECT COUNT(DISTINCT product_id) FROM reviews").fetchone()[0] >= 200
    orders = conn.execute(
        "SELECT o.status, o.created_at FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.email = ?", (EMMA,)
    ).fetchall()
    assert 30 <= len(orders) <= 40
    assert {status for status, _ in orders} == {"Complete", "Canceled", "Pending", "Processing"}
    assert all("2022-01-01" <= created < "2024" for _, created in orders)
    assert conn.execute("SELECT COUNT(*) FROM customers").fetchone()[0] > 3


def test_home_page_greets_the_customer_and_lists_categories(shop, site_client):
    doc = page(shop.get("/"))
    assert "Welcome, Emma Lopez!" in doc.text_content()
    menu = texts(doc, "nav.navigation a")
    assert "Home & Kitchen" in menu and len(menu) >= 8
    assert "Kitchen & Dining" in texts(doc, ".shop-by-category a")
    anonymous = page(site_client("shopping").get("/"))
    assert "Welcome, Emma" not in anonymous.text_content()
    assert "Sign In" in texts(anonymous, "header a")


def test_nested_category_page_has_breadcrumbs_and_subcategories(shop):
    doc = page(shop.get("/home-kitchen.html"))
    assert texts(doc, "h1") == ["Home & Kitchen"]
    assert "Kitchen & Dining" in texts(doc, ".filter-options-content a")
    child = page(shop.get("/home-kitchen/kitchen-dining.html"))
    assert texts(child, ".breadcrumbs li") == ["Home", "Home & Kitchen", "Kitchen & Dining"]
    assert texts(child, ".product-items .product-item-link")


def test_category_sorting_and_pagination(shop):
    first = page(shop.get("/electronics.html"))
    amount = texts(first, ".toolbar-amount")[0]
    total = int(re.search(r"of (\d+)", amount).group(1))
    assert amount.startswith("Items 1-12 of") and total > 24
    second = page(shop.get("/electronics.html?p=2"))
    assert texts(second, ".toolbar-amount")[0].startswith("Items 13-24")
    assert not set(texts(first, ".product-item-link")) & set(texts(second, ".product-item-link"))

    ascending = prices(page(shop.get("/electronics.html?product_list_order=price&product_list_dir=asc")))
    descending = prices(page(shop.get("/electronics.html?product_list_order=price&product_list_dir=desc")))
    assert ascending == sorted(ascending) and descending == sorted(descending, reverse=True)
    assert ascending[0] < descending[-1] or ascending[0] <= descending[0]
    names = texts(page(shop.get("/electronics.html?product_list_order=name")), ".product-item-link")
    assert names == sorted(names, key=str.lower)


def test_sort_form_and_pager_keep_the_list_parameters(shop):
    doc = page(shop.get("/catalogsearch/result/?q=case&product_list_order=price&product_list_dir=desc&price=0-20"))
    assert prices(doc) == sorted(prices(doc), reverse=True) and max(prices(doc)) < 20
    form = doc.cssselect("form.toolbar-sorter")[0]
    assert [name for name, _ in form.form_values()] == ["q", "product_list_order", "product_list_dir", "price"]
    assert dict(form.form_values())["product_list_dir"] == "desc"


def test_direction_arrow_and_page_size_limiter(shop):
    doc = page(shop.get("/beauty-personal-care.html?product_list_order=price&p=2"))
    arrow = doc.cssselect("[role=toolbar] a.sorter-action")[0]
    assert arrow.text_content().strip() == "" and arrow.get("title") == "Set Descending Direction"
    assert arrow.get("href").endswith("/beauty-personal-care.html?product_list_order=price&product_list_dir=desc")
    flipped = page(shop.get(arrow.get("href")))
    assert prices(flipped) == sorted(prices(flipped), reverse=True)
    assert flipped.cssselect("a.sorter-action")[0].get("title") == "Set Ascending Direction"

    limiter = doc.cssselect("form.limiter")[0]
    assert [o.text_content() for o in limiter.cssselect("select[name=limit] option")] == ["12", "24"]
    kept = dict(limiter.form_values())
    assert kept == {"product_list_order": "price", "limit": "12"}
    bigger = page(shop.get("/beauty-personal-care.html", query_string={**kept, "limit": "24"}))
    total = int(re.search(r"of (\d+)", texts(bigger, ".toolbar-amount")[0]).group(1))
    assert total > 48 and len(prices(bigger)) == 24 and prices(bigger) == sorted(prices(bigger))
    pager = bigger.cssselect("nav[aria-label=Pagination] a.next")
    assert pager and "limit=24" in pager[0].get("href")


def test_price_and_brand_filters(shop):
    doc = page(shop.get("/electronics.html"))
    price_link = next(a for a in doc.cssselect(".filter-options-content a") if a.text_content().startswith("$"))
    filtered = page(shop.get(price_link.get("href")))
    low, high = [float(x.replace("$", "").replace(",", "")) for x in price_link.text_content().split(" - ")]
    assert prices(filtered) and all(low <= p <= high for p in prices(filtered))
    assert "Now Shopping by" in filtered.text_content()

    conn_brand = texts(doc, ".filter-options-content a")[-1]
    by_brand = page(shop.get(f"/electronics.html?brand={conn_brand}"))
    assert all(name.startswith(conn_brand) for name in texts(by_brand, ".product-item-link"))
    cleared = page(shop.get(by_brand.cssselect(".filter-current a")[-1].get("href")))
    assert len(texts(cleared, ".product-item-link")) == 12


def test_min_max_price_form_filters_by_a_typed_range(shop):
    doc = page(shop.get("/electronics.html?product_list_order=price&brand=EchoLine"))
    form = doc.cssselect("form.filter-price-range")[0]
    kept = {field.get("name"): field.get("value") for field in form.cssselect("input[type=hidden]")}
    assert kept == {"product_list_order": "price", "brand": "EchoLine"}
    response = shop.get("/electronics.html", query_string={**kept, "price_from": "", "price_to": "30"})
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/electronics.html?product_list_order=price&price=0-30&brand=EchoLine")
    filtered = page(shop.get(response.headers["Location"]))
    assert prices(filtered) and all(p < 30 for p in prices(filtered))
    assert "$0.00 - $29.99" in filtered.text_content()
    between = shop.get("/catalogsearch/result/", query_string={"q": "headphones", "price_from": "20", "price_to": "60.5"})
    assert between.headers["Location"].endswith("/catalogsearch/result/?q=headphones&price=20-60.50")
    assert all(20 <= p < 60.5 for p in prices(page(shop.get(between.headers["Location"]))))


def test_search_finds_products_sorts_and_paginates(shop, world):
    product = product_of(world, "name LIKE ?", "%Dark Roast Ground Coffee%")
    doc = page(shop.get("/catalogsearch/result/", query_string={"q": product["name"]}))
    assert texts(doc, ".product-item-link")[0] == product["name"]
    assert texts(doc, "h1") == [f"Search results for: '{product['name']}'"]

    many = page(shop.get("/catalogsearch/result/?q=case"))
    assert int(re.search(r"of (\d+)", texts(many, ".toolbar-amount")[0]).group(1)) > 12
    cheap_first = prices(page(shop.get("/catalogsearch/result/?q=case&product_list_order=price&product_list_dir=asc")))
    assert cheap_first == sorted(cheap_first)
    assert texts(page(shop.get("/catalogsearch/result/?q=case&p=2")), ".toolbar-amount")[0].startswith("Items 13-")
    empty = page(shop.get("/catalogsearch/result/?q=zzzxqv"))
    assert "Your search returned no results." in empty.text_content()


def test_product_page_shows_facts_options_and_reviews(shop, world):
    conn = world.connection("shopping")
    product = conn.execute(
        "SELECT p.* FROM products p WHERE p.id IN (SELECT product_id FROM product_options)"
        " AND p.id IN (SELECT product_id FROM reviews) ORDER BY p.id LIMIT 1"
    ).fetchone()
    reviews = conn.execute("SELECT rating, nickname FROM reviews WHERE product_id = ?", (product["id"],)).fetchall()
    doc = page(shop.get(f"/{product['url_key']}.html"))
    text = doc.text_content()
    assert f"SKU: {product['sku']}" in " ".join(text.split())
    assert f"${product['price'] / 100:,.2f}" in texts(doc, ".product-info-main .price")
    assert f"Rating: {round(sum(r[0] for r in reviews) / len(reviews) * 20)}%" in text
    assert sorted(texts(doc, ".review-author")) == sorted(r[1] for r in reviews)
    assert texts(doc, "nav[aria-label=Breadcrumb] li")[-1] == product["name"]
    # options are swatch links; Add to Cart stays disabled until every option is chosen
    groups = doc.cssselect("#product_addtocart_form [role=radiogroup]")
    assert groups and doc.cssselect("#product_addtocart_form button.tocart")[0].get("disabled") is not None
    for name in [group.get("aria-label") for group in groups]:
        swatch = doc.cssselect(f"[role=radiogroup][aria-label='{name}'] a[role=radio]")[0]
        assert swatch.get("aria-checked") == "false"
        doc = page(shop.get(swatch.get("href")))
        chosen = doc.cssselect(f"[role=radiogroup][aria-label='{name}'] a[aria-checked=true]")
        assert [a.text_content() for a in chosen] == [swatch.text_content()]
    assert doc.cssselect("#product_addtocart_form button.tocart")[0].get("disabled") is None
    hidden = {i.get("name"): i.get("value") for i in doc.cssselect("#product_addtocart_form input[type=hidden]")}
    assert all(hidden[f"option_{g.get('aria-label')}"] for g in groups)
    # Details / More Information / Reviews: tabs over collapsible panels, all open until one is chosen
    assert [t.text_content() for t in doc.cssselect("[role=tablist] [role=tab]")] == [
        "Details", "More Information", f"Reviews ({len(reviews)})"]
    assert all(d.get("open") is not None for d in doc.cssselect("details[role=tabpanel]"))
    reviews_tab = page(shop.get(doc.cssselect("[role=tab]")[2].get("href").split("#")[0]))
    panels = {d.get("id"): d.get("open") is not None for d in reviews_tab.cssselect("details[role=tabpanel]")}
    assert panels == {"description": False, "additional": False, "reviews": True}
    assert [a.text_content() for a in reviews_tab.cssselect("[aria-checked=true]")] == [
        hidden[f"option_{g.get('aria-label')}"] for g in groups]  # switching tabs keeps the chosen options
    assert [i.get("value") for i in reviews_tab.cssselect(".review-form input[name=rating]")] == ["1", "2", "3", "4", "5"]


def test_cart_add_needs_options_then_updates_and_removes(shop, world):
    product = world.connection("shopping").execute(
        "SELECT p.*, o.name AS option, o.choices FROM products p JOIN product_options o ON o.product_id = p.id"
        " WHERE p.id NOT IN (SELECT product_id FROM product_options WHERE name != o.name) ORDER BY p.id LIMIT 1"
    ).fetchone()
    refused = shop.post("/checkout/cart/add/", data={"product": product["id"], "qty": "1"}, follow_redirects=True)
    assert "You need to choose options for your item." in refused.get_data(as_text=True)
    assert "You have no items in your shopping cart." in shop.get("/checkout/cart/").get_data(as_text=True)

    choice = product["choices"].split("\n")[0]
    added = shop.post("/checkout/cart/add/", data={"product": product["id"], "qty": "2", f"option_{product['option']}": choice},
                      follow_redirects=True)
    assert f"You added {product['name']} to your shopping cart." in added.get_data(as_text=True)
    cart = page(shop.get("/checkout/cart/"))
    assert texts(cart, ".product-item-name") == [product["name"]]
    assert f"{product['option']}: {choice}" in texts(cart, ".item-options")
    cart_icon = cart.cssselect("a.minicart")[0]
    assert cart_icon.text_content().strip() == "" and cart_icon.get("aria-label") == "My Cart"
    assert texts(cart, ".minicart-wrapper .counter") == ["2 items"]

    item_id = cart.cssselect("form input[name=item_id]")[0].get("value")
    page(shop.post("/checkout/cart/updateItemQty/", data={"item_id": item_id, "qty": "5"}, follow_redirects=True))
    cart = page(shop.get("/checkout/cart/"))
    assert cart.cssselect("input[name=qty]")[0].get("value") == "5"
    assert texts(cart, ".col.subtotal") == [f"${product['price'] * 5 / 100:,.2f}"]
    shop.post("/checkout/cart/delete/", data={"item_id": item_id})
    assert "You have no items in your shopping cart." in shop.get("/checkout/cart/").get_data(as_text=True)


def test_checkout_places_a_pending_order_dated_by_the_world_clock(shop, world):
    product = product_of(world, "id NOT IN (SELECT product_id FROM product_options)")
    shop.post("/checkout/cart/add/", data={"product": product["id"], "qty": "2"})
    shipping = page(shop.get("/checkout/"))
    form = shipping.cssselect("form.form-shipping-address")[0]
    values = dict(form.form_values())
    assert values["street1"] == "101 S San Mateo Dr" and values["shipping_method"] == "Flat Rate - Fixed"
    review = shop.post("/checkout/shipping/", data=values, follow_redirects=True)
    assert "Place Order" in review.get_data(as_text=True)
    success = page(shop.post("/checkout/placeOrder/", follow_redirects=True))
    number = texts(success, ".order-number")[0]
    order = world.connection("shopping").execute("SELECT * FROM orders WHERE increment_id = ?", (number,)).fetchone()
    assert order["status"] == "Pending" and order["created_at"].startswith("2023-06-01")
    assert order["grand_total"] == product["price"] * 2 + 1000  # $5 flat rate per item
    view = page(shop.get(f"/sales/order/view/order_id/{order['id']}/"))
    assert product["sku"] in texts(view, ".order-details-items.ordered")[0]
    assert "Order Date: June 1, 2023" in " ".join(view.text_content().split())
    assert texts(page(shop.get("/sales/order/history/")), "#my-orders-table tbody td.id")[0] == number
    assert "You have no items in your shopping cart." in shop.get("/checkout/cart/").get_data(as_text=True)


def test_checkout_rejects_a_missing_address_field(shop, world):
    shop.post("/checkout/cart/add/", data={"product": product_of(world, "id NOT IN (SELECT product_id FROM product_options)")["id"]})
    values = dict(page(shop.get("/checkout/")).cssselect("form.form-shipping-address")[0].form_values())
    response = shop.post("/checkout/shipping/", data=dict(values, city=""))
    assert response.status_code == 400 and "required field" in response.get_data(as_text=True)


def test_wish_list_add_move_and_remove(shop, world):
    product = product_of(world, "id NOT IN (SELECT product_id FROM product_options)"
                         " AND id NOT IN (SELECT product_id FROM wishlist_items)")
    before = texts(page(shop.get("/wishlist/")), ".products-grid.wishlist .product-item-link")
    assert len(before) == 3
    shop.post("/wishlist/index/add/", data={"product": product["id"]})
    doc = page(shop.get("/wishlist/"))
    assert product["name"] in texts(doc, ".products-grid.wishlist .product-item-link")
    item = next(li for li in doc.cssselect(".product-item") if product["name"] in li.text_content())
    item_id = item.cssselect("input[name=item]")[0].get("value")
    shop.post("/wishlist/index/cart/", data={"item": item_id})
    assert texts(page(shop.get("/checkout/cart/")), ".product-item-name") == [product["name"]]
    remaining = texts(page(shop.get("/wishlist/")), ".product-item-link")
    assert remaining == before
    first_id = page(shop.get("/wishlist/")).cssselect("input[name=item]")[0].get("value")
    shop.post("/wishlist/index/remove/", data={"item": first_id})
    assert len(texts(page(shop.get("/wishlist/")), ".product-item-link")) == 2


def test_write_a_review(shop, world):
    product = product_of(world)
    url = f"/{product['url_key']}.html"
    bad = shop.post(f"/review/product/post/id/{product['id']}/", data={"nickname": "Em", "title": "x"}, follow_redirects=True)
    assert "Please select a rating" in bad.get_data(as_text=True)
    shop.post(f"/review/product/post/id/{product['id']}/",
              data={"rating": "4", "nickname": "EmmaL", "title": "Nice one", "detail": "Works for me."})
    doc = page(shop.get(url))
    first = doc.cssselect(".review-item")[0]
    assert "EmmaL" in first.text_content() and "Rating: 80%" in first.text_content()
    assert "Nice one: Works for me." in texts(page(shop.get("/review/customer/")), "#my-reviews-table tbody tr")[0]


def test_compare_products_icons_and_list(shop, world):
    doc = page(shop.get("/electronics/headphones.html"))
    compare = doc.cssselect(".product-item button.tocompare")
    assert compare and compare[0].text_content().strip() == "" and compare[0].get("aria-label") == "Add to Compare"
    products = world.connection("shopping").execute(
        "SELECT id, name, sku FROM products WHERE category_id = (SELECT id FROM categories WHERE url_path ="
        " 'electronics/headphones') ORDER BY id LIMIT 5").fetchall()
    for product in products[:2]:
        shop.post("/catalog/product_compare/add/", data={"product": product["id"]})
    listed = page(shop.get("/catalog/product_compare/"))
    assert texts(listed, "#product-comparison .product-item-link") == [p["name"] for p in products[:2]]
    assert texts(listed, "#product-comparison td.sku") == [p["sku"] for p in products[:2]]
    assert "Compare Products (2)" in texts(listed, ".header.links a")
    for product in products[2:]:
        shop.post("/catalog/product_compare/add/", data={"product": product["id"]})
    full = page(shop.post("/catalog/product_compare/add/", data={"product": products[0]["id"] + 100}, follow_redirects=True))
    assert len(texts(full, "#product-comparison .product-item-link")) == 4 and "up to 4 products" in full.text_content()
    remove = full.cssselect("#product-comparison button.delete")[0]
    item = remove.getparent().cssselect("input[name=item]")[0].get("value")
    after = page(shop.post("/catalog/product_compare/remove/", data={"item": item}, follow_redirects=True))
    assert texts(after, "#product-comparison .product-item-link") == [p["name"] for p in products[1:4]]


def test_newsletter_footer_and_account_setting(shop, site_client):
    manage = page(shop.get("/newsletter/manage/"))
    assert manage.cssselect('[title="General Subscription"]')[0].get("checked") is None
    shop.post("/newsletter/manage/save/", data={"is_subscribed": "1"})
    assert page(shop.get("/newsletter/manage/")).cssselect('[title="General Subscription"]')[0].get("checked") is not None
    assert 'You are subscribed to "General Subscription".' in shop.get("/customer/account/").get_data(as_text=True)
    shop.post("/newsletter/manage/save/", data={})
    assert "You aren't subscribed" in shop.get("/customer/account/").get_data(as_text=True)

    guest = site_client("shopping")
    thanks = guest.post("/newsletter/subscriber/new/", data={"email": "new.reader@example.com", "return_url": "/contact/"},
                        follow_redirects=True)
    assert "Thank you for your subscription." in thanks.get_data(as_text=True)
    again = guest.post("/newsletter/subscriber/new/", data={"email": "new.reader@example.com"}, follow_redirects=True)
    assert "already subscribed" in again.get_data(as_text=True)


def test_login_logout_and_login_required(site_client):
    guest = site_client("shopping")
    redirect = guest.get("/sales/order/history/")
    assert redirect.status_code == 302
    assert redirect.headers["Location"] == "/customer/account/login/?next=/sales/order/history/"
    wrong = guest.post("/customer/account/loginPost/", data={"email": EMMA, "password": "nope"})
    assert wrong.status_code == 401 and "sign-in was incorrect" in wrong.get_data(as_text=True)
    ok = guest.post("/customer/account/loginPost/",
                    data={"email": EMMA, "password": "Password.123", "next": "/sales/order/history/"})
    assert ok.headers["Location"] == "/sales/order/history/"
    assert "Welcome, Emma Lopez!" in guest.get("/sales/order/history/").get_data(as_text=True)
    guest.get("/customer/account/logout/")
    assert guest.get("/customer/account/").status_code == 302


def test_account_information_edit(shop):
    shop.post("/customer/account/editPost/", data={"firstname": "Emily", "lastname": "Lopez", "email": EMMA})
    assert "Welcome, Emily Lopez!" in shop.get("/customer/account/").get_data(as_text=True)
    refused = shop.post("/customer/account/editPost/",
                        data={"firstname": "Emily", "lastname": "Lopez", "email": "emily@example.com", "current_password": "x"})
    assert refused.status_code == 400
    assert "password doesn't match" in lxml.html.fromstring(refused.get_data(as_text=True)).text_content()
    shop.post("/customer/account/editPost/", data={"firstname": "Emily", "lastname": "Lopez", "email": "emily@example.com",
                                                   "current_password": "Password.123"})
    assert "emily@example.com" in shop.get("/customer/account/").get_data(as_text=True)


def test_address_book_edit_changes_default_addresses(shop):
    book = page(shop.get("/customer/address/"))
    assert "San Mateo, California, 94010" in texts(book, ".box.box-address-billing > .box-content")[0]
    edit_url = next(a.get("href") for a in book.cssselect("a") if a.text_content() == "Change Billing Address")
    values = dict(page(shop.get(edit_url)).cssselect("form.form-address-edit")[0].form_values())
    values.update(street1="231 Willow Way", street2="Suite 100", city="Chicago", region="Illinois", postcode="60601")
    shop.post(edit_url.replace("/edit/", "/formPost/"), data=values)
    book = page(shop.get("/customer/address/"))
    for box in (".box.box-address-billing > .box-content", ".box.box-address-shipping > .box-content"):
        content = texts(book, box)[0]
        assert "231 Willow Way" in content and "Suite 100" in content and "Chicago, Illinois, 60601" in content
    bad = shop.post(edit_url.replace("/edit/", "/formPost/"), data=dict(values, region="Atlantis"))
    assert bad.status_code == 400


def test_order_history_pages_and_order_view(shop, world):
    conn = world.connection("shopping")
    emma = conn.execute("SELECT id FROM customers WHERE email = ?", (EMMA,)).fetchone()[0]
    orders = conn.execute("SELECT * FROM orders WHERE customer_id = ? ORDER BY created_at DESC", (emma,)).fetchall()
    first = page(shop.get("/sales/order/history/"))
    assert texts(first, "td.id") == [o["increment_id"] for o in orders[:10]]
    last_page = (len(orders) + 9) // 10
    tail = page(shop.get(f"/sales/order/history/?p={last_page}"))
    assert texts(tail, "td.id") == [o["increment_id"] for o in orders[(last_page - 1) * 10 :]]
    assert set(texts(first, "td.status")) <= {"Complete", "Canceled", "Pending", "Processing"}

    order = orders[5]
    items = conn.execute("SELECT * FROM order_items WHERE order_id = ?", (order["id"],)).fetchall()
    view = page(shop.get(f"/sales/order/view/order_id/{order['id']}/"))
    assert texts(view, "h1") == [f"Order # {order['increment_id']}"]
    assert texts(view, "td.sku") == [i["sku"] for i in items]
    assert texts(view, "tr.grand_total td") == [f"${order['grand_total'] / 100:,.2f}"]
    other = conn.execute("SELECT id FROM orders WHERE customer_id != ? LIMIT 1", (emma,)).fetchone()[0]
    assert shop.get(f"/sales/order/view/order_id/{other}/").status_code == 404

    # Items Ordered / Invoices / Order Shipments tabs: a complete order was invoiced and shipped, a canceled one not
    tabs = view.cssselect("[role=tablist] a[role=tab]")
    assert [t.text_content() for t in tabs] == ["Items Ordered", "Invoices", "Order Shipments"]
    assert [t.get("aria-selected") for t in tabs] == ["true", "false", "false"]
    assert "My Wish List" in texts(view, "nav.account-nav a")
    for status, shipped in (("Complete", True), ("Canceled", False)):
        chosen = next(o for o in orders if o["status"] == status)
        lines = conn.execute("SELECT sku FROM order_items WHERE order_id = ?", (chosen["id"],)).fetchall()
        shipments = page(shop.get(f"/sales/order/view/order_id/{chosen['id']}/?tab=shipment"))
        assert not shipments.cssselect(".order-details-items.ordered")
        assert (texts(shipments, "table.shipment td.sku") == [r[0] for r in lines]) is shipped
        invoice = page(shop.get(f"/sales/order/view/order_id/{chosen['id']}/?tab=invoice"))
        assert bool(invoice.cssselect("table.invoice")) is shipped
        assert ("There is no invoice for this order yet." in invoice.text_content()) is not shipped

    shop.post(f"/sales/order/reorder/order_id/{order['id']}/")
    assert sorted(texts(page(shop.get("/checkout/cart/")), ".product-item-name")) == sorted(i["name"] for i in items)


def test_order_view_prints_and_account_nav_has_every_magento_section(shop, world):
    conn = world.connection("shopping")
    emma = conn.execute("SELECT id FROM customers WHERE email = ?", (EMMA,)).fetchone()[0]
    order = conn.execute("SELECT * FROM orders WHERE customer_id = ? ORDER BY created_at DESC", (emma,)).fetchone()
    skus = [r[0] for r in conn.execute("SELECT sku FROM order_items WHERE order_id = ? ORDER BY id", (order["id"],))]
    view = page(shop.get(f"/sales/order/view/order_id/{order['id']}/"))
    assert texts(view, "nav.account-nav li") == [
        "My Account", "My Orders", "My Downloadable Products", "My Wish List", "Address Book", "Account Information",
        "Stored Payment Methods", "My Product Reviews", "Newsletter Subscriptions"]
    # Magento's account sidebar blocks under the nav: Compare Products and My Wish List, not Recently Ordered
    assert texts(view, ".sidebar-additional .block-title strong") == ["Compare Products", "My Wish List"]

    printed = page(shop.get(view.cssselect("a.action.print")[0].get("href")))
    assert texts(printed, "h1") == [f"Order # {order['increment_id']}"]
    assert texts(printed, "td.sku") == skus
    assert texts(printed, ".box-title") == ["Shipping Address", "Shipping Method", "Billing Address", "Payment Method"]
    assert not printed.cssselect("nav.account-nav") and not printed.cssselect("[role=tablist]")
    assert printed.cssselect("a.action.back")[0].get("href") == f"/sales/order/view/order_id/{order['id']}/"

    for label, message in (("My Downloadable Products", "You have not purchased any downloadable products yet."),
                           ("Stored Payment Methods", "You have no stored payment methods.")):
        link = next(a for a in view.cssselect("nav.account-nav a") if a.text_content() == label)
        section = page(shop.get(link.get("href")))
        assert texts(section, "h1") == [label] and texts(section, ".message.info") == [message]
        assert texts(section, "nav.account-nav strong") == [label]


def test_footer_privacy_policy_page(shop):
    home = page(shop.get("/"))
    assert texts(home, "footer .footer.links a") == ["Privacy and Cookie Policy", "Search Terms", "Contact Us"]
    policy = page(shop.get(home.cssselect("footer .footer.links a")[0].get("href")))
    assert texts(policy, "h1") == ["Privacy and Cookie Policy"]
    assert "session cookie" in policy.text_content()


def test_category_sidebar_blocks_follow_the_customer(shop, world):
    conn = world.connection("shopping")
    emma = conn.execute("SELECT id FROM customers WHERE email = ?", (EMMA,)).fetchone()[0]
    wished = conn.execute("SELECT p.name FROM wishlist_items w JOIN products p ON p.id = w.product_id"
                          " WHERE w.customer_id = ? ORDER BY w.added_at DESC, w.id DESC", (emma,)).fetchall()
    latest = conn.execute("SELECT i.name FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.customer_id = ?"
                          " ORDER BY o.created_at DESC, i.id DESC LIMIT 1", (emma,)).fetchone()[0]
    path = "/electronics/headphones.html"
    listing = page(shop.get(path))
    assert texts(listing, ".block-reorder .block-item")[0] == latest
    assert texts(listing, ".block-compare .empty") == ["You have no items to compare."]
    assert len(wished) >= 2, "the seed gives Emma a few wished products"
    assert texts(listing, ".block-wishlist .counter") == [f"{len(wished)} items"]
    assert texts(listing, ".block-wishlist .product-item-name") == [row[0] for row in wished[:3]]
    # the listing's own product list and prices stay apart from the sidebar's products
    assert len(prices(listing)) == len(listing.cssselect(".product-items .product-item"))

    product = listing.cssselect(".product-items .product-item")[0]
    product_id = product.cssselect("input[name=product]")[0].get("value")
    shop.post("/catalog/product_compare/add/", data={"product": product_id})
    listing = page(shop.get(path))
    assert texts(listing, ".block-compare .product-item-name") == [texts(product, ".product-item-link")[0]]
    assert texts(listing, ".block-compare a.action.compare") == ["Compare"]

    # each wished item has Add to Cart and an icon-only Remove This Item; removing one drops it from the block
    removes = listing.cssselect(".block-wishlist button[title='Remove This Item']")
    assert len(removes) == min(len(wished), 3) and all(b.get("aria-label") == "Remove This Item" for b in removes)
    item = removes[0].getparent().cssselect("input[name=item]")[0].get("value")
    shop.post("/wishlist/index/remove/", data={"item": item})
    after = page(shop.get(path))
    assert texts(after, ".block-wishlist .product-item-name") == [row[0] for row in wished[1:4]]


def test_product_page_related_products_from_its_category(shop, world):
    conn = world.connection("shopping")
    product = conn.execute("SELECT * FROM products WHERE id IN (SELECT product_id FROM product_options)"
                           " ORDER BY id LIMIT 1").fetchone()
    doc = page(shop.get(f"/{product['url_key']}.html"))
    related = texts(doc, ".block.related .related-item .product-item-link")
    assert len(related) == 4 and product["name"] not in related
    trail = texts(doc, ".breadcrumbs a")
    for name in related:
        other = page(shop.get(doc.xpath(f'//a[@class="product-item-link" and text()="{name}"]')[0].get("href")))
        assert texts(other, ".breadcrumbs a")[:len(trail)] == trail
    assert len(doc.cssselect(".block.related button.tocart")) == 4


def test_contact_form(site_client):
    guest = site_client("shopping")
    sent = guest.post("/contact/", data={"name": "Ann", "email": "ann@example.com", "telephone": "", "comment": "Hello"},
                      follow_redirects=True)
    assert "Thanks for contacting us" in sent.get_data(as_text=True)
    assert guest.post("/contact/", data={"name": "Ann", "email": "", "comment": ""}).status_code == 400
    assert "What’s on your mind?" in page(guest.get("/contact/index/")).text_content()  # Magento's long address


def test_writes_are_isolated_between_worlds_and_reset_restores(world):
    other = World()
    clients = []
    for w in (world, other):
        client = app_for("shopping").test_client()
        client.environ_base[WORLD_KEY] = w
        client.post("/customer/account/loginPost/", data={"email": EMMA, "password": "Password.123"})
        clients.append(client)
    product = product_of(world, "id NOT IN (SELECT product_id FROM product_options)")
    clients[0].post("/checkout/cart/add/", data={"product": product["id"], "qty": "1"})
    assert product["name"] in clients[0].get("/checkout/cart/").get_data(as_text=True)
    assert "You have no items in your shopping cart." in clients[1].get("/checkout/cart/").get_data(as_text=True)
    world.reset()
    assert "You have no items in your shopping cart." in clients[0].get("/checkout/cart/").get_data(as_text=True)
    other.close()


@pytest.mark.browser
def test_browser_adds_a_product_to_the_wish_list(browser_page, site_server):
    page_, world = browser_page("shopping", EMMA)
    base = site_server.base_urls["shopping"]
    page_.goto(base + "/")
    assert "Welcome, Emma Lopez!" in page_.content()
    page_.click("nav.navigation >> text=Video Games")
    page_.click(".filter-options-content >> text=Nintendo Switch")
    name = page_.inner_text(".product-item-link >> nth=0")
    page_.click(".product-item >> nth=0 >> button[title='Add to Wish List']")
    assert page_.url.endswith("/wishlist/")
    assert name in page_.inner_text(".products-grid.wishlist")
    count = world.connection("shopping").execute("SELECT COUNT(*) FROM wishlist_items").fetchone()[0]
    assert count == 4
