"""Customer account: sign in and out, dashboard, account information, address book, newsletter."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from ..webapp import db, login_required, login_user, logout_user, world
from . import store
from .data import password_hash
from .phrases import US_STATES
from .views_cart import ADDRESS_FIELDS, REQUIRED_ADDRESS_FIELDS, safe_return

bp = Blueprint("account", __name__)

LOGIN_FAILED = "The account sign-in was incorrect or your account is disabled temporarily. Please wait and try again later."


@bp.get("/customer/account/login/")
def login():
    next_url = safe_return(request.args.get("next"), url_for("account.account_dashboard"))
    if store.customer() is not None:
        return redirect(next_url)
    return render_template("login.html", next_url=next_url)


@bp.post("/customer/account/loginPost/")
def login_post():
    email = (request.form.get("email") or "").strip().lower()
    password = request.form.get("password") or ""
    next_url = safe_return(request.form.get("next"), url_for("account.account_dashboard"))
    row = db().execute("SELECT * FROM customers WHERE email = ?", (email,)).fetchone()
    if row is None or row["password_hash"] != password_hash(email, password):
        flash(LOGIN_FAILED, "error")
        return render_template("login.html", next_url=next_url, email=email), 401
    login_user(row["email"])
    return redirect(next_url)


@bp.get("/customer/account/logout/")
def logout():
    logout_user()
    flash("You are signed out.", "success")
    return redirect(url_for("catalog.home"))


@bp.get("/customer/account/")
@login_required(store.LOGIN_PATH)
def account_dashboard():
    customer = store.require_customer()
    orders = db().execute(
        "SELECT * FROM orders WHERE customer_id = ? ORDER BY created_at DESC, id DESC LIMIT 5", (customer["id"],)
    ).fetchall()
    return render_template(
        "account_dashboard.html",
        subscribed=store.is_subscribed(customer["email"]),
        billing=store.default_address(customer["id"], "billing"),
        shipping=store.default_address(customer["id"], "shipping"),
        orders=orders,
    )


@bp.get("/customer/account/edit/")
@login_required(store.LOGIN_PATH)
def account_edit():
    return render_template("account_edit.html", values=dict(store.require_customer()), error=None)


@bp.post("/customer/account/editPost/")
@login_required(store.LOGIN_PATH)
def account_edit_post():
    customer = store.require_customer()
    values = {name: (request.form.get(name) or "").strip() for name in ("firstname", "lastname", "email")}
    values["email"] = values["email"].lower()
    current, new, confirm = (request.form.get(k) or "" for k in ("current_password", "password", "password_confirmation"))
    error = None
    if not all(values.values()) or "@" not in values["email"]:
        error = "Please fill in your first name, last name and a valid email address."
    elif (values["email"] != customer["email"] or new) and password_hash(customer["email"], current) != customer["password_hash"]:
        error = "The password doesn't match this account. Verify the password and try again."
    elif new and new != confirm:
        error = "Please enter the same value again."
    elif values["email"] != customer["email"] and db().execute(
        "SELECT 1 FROM customers WHERE email = ?", (values["email"],)
    ).fetchone():
        error = "A customer with the same email address already exists."
    if error:
        return render_template("account_edit.html", values=values, error=error), 400
    password = password_hash(values["email"], new or current) if values["email"] != customer["email"] or new else customer["password_hash"]
    db().execute(
        "UPDATE customers SET firstname = ?, lastname = ?, email = ?, password_hash = ? WHERE id = ?",
        (values["firstname"], values["lastname"], values["email"], password, customer["id"]),
    )
    db().execute("UPDATE newsletter_subscribers SET email = ? WHERE customer_id = ?", (values["email"], customer["id"]))
    login_user(values["email"])
    flash("You saved the account information.", "success")
    return redirect(url_for("account.account_dashboard"))


@bp.get("/customer/address/")
@login_required(store.LOGIN_PATH)
def address_book():
    customer = store.require_customer()
    others = db().execute(
        "SELECT * FROM addresses WHERE customer_id = ? AND is_default_billing = 0 AND is_default_shipping = 0 ORDER BY id",
        (customer["id"],),
    ).fetchall()
    return render_template(
        "address_book.html",
        billing=store.default_address(customer["id"], "billing"),
        shipping=store.default_address(customer["id"], "shipping"),
        others=others,
    )


@bp.get("/customer/address/new/")
@bp.get("/customer/address/edit/id/<int:address_id>/")
@login_required(store.LOGIN_PATH)
def address_edit(address_id: int | None = None):
    customer = store.require_customer()
    address = _own_address(address_id, customer["id"]) if address_id else None
    values = dict(address) if address else {"firstname": customer["firstname"], "lastname": customer["lastname"],
                                            "country": "United States"}
    return render_template("address_form.html", values=values, address=address, states=US_STATES, error=None)


@bp.post("/customer/address/formPost/")
@bp.post("/customer/address/formPost/id/<int:address_id>/")
@login_required(store.LOGIN_PATH)
def address_save(address_id: int | None = None):
    customer = store.require_customer()
    address = _own_address(address_id, customer["id"]) if address_id else None
    values = {name: (request.form.get(name) or "").strip() for name in ADDRESS_FIELDS}
    if any(not values[name] for name in REQUIRED_ADDRESS_FIELDS) or values["region"] not in {s for s, _ in US_STATES}:
        error = "Please fill in every required field."
        return render_template("address_form.html", values=values, address=address, states=US_STATES, error=error), 400
    billing = bool(request.form.get("default_billing")) or bool(address and address["is_default_billing"])
    shipping = bool(request.form.get("default_shipping")) or bool(address and address["is_default_shipping"])
    if billing:
        db().execute("UPDATE addresses SET is_default_billing = 0 WHERE customer_id = ?", (customer["id"],))
    if shipping:
        db().execute("UPDATE addresses SET is_default_shipping = 0 WHERE customer_id = ?", (customer["id"],))
    columns = ", ".join(f"{name} = ?" for name in ADDRESS_FIELDS)
    if address:
        db().execute(
            f"UPDATE addresses SET {columns}, is_default_billing = ?, is_default_shipping = ? WHERE id = ?",
            (*(values[name] for name in ADDRESS_FIELDS), int(billing), int(shipping), address["id"]),
        )
    else:
        db().execute(
            f"INSERT INTO addresses (customer_id, {', '.join(ADDRESS_FIELDS)}, is_default_billing, is_default_shipping)"
            f" VALUES (?, {', '.join('?' for _ in ADDRESS_FIELDS)}, ?, ?)",
            (customer["id"], *(values[name] for name in ADDRESS_FIELDS), int(billing), int(shipping)),
        )
    flash("You saved the address.", "success")
    return redirect(url_for("account.address_book"))


@bp.post("/customer/address/delete/id/<int:address_id>/")
@login_required(store.LOGIN_PATH)
def address_delete(address_id: int):
    customer = store.require_customer()
    address = _own_address(address_id, customer["id"])
    if address["is_default_billing"] or address["is_default_shipping"]:
        flash("We can't delete the default address.", "error")
    else:
        db().execute("DELETE FROM addresses WHERE id = ?", (address_id,))
        flash("You deleted the address.", "success")
    return redirect(url_for("account.address_book"))


@bp.post("/newsletter/subscriber/new/")
def newsletter_subscribe():
    email = (request.form.get("email") or "").strip().lower()
    back = safe_return(request.form.get("return_url"), url_for("catalog.home"))
    if "@" not in email or "." not in email.partition("@")[2]:
        flash("Please enter a valid email address.", "error")
    elif store.is_subscribed(email):
        flash("This email address is already subscribed.", "error")
    else:
        _subscribe(email)
        flash("Thank you for your subscription.", "success")
    return redirect(back)


@bp.get("/newsletter/manage/")
@login_required(store.LOGIN_PATH)
def newsletter_manage():
    return render_template("newsletter.html", subscribed=store.is_subscribed(store.require_customer()["email"]))


@bp.post("/newsletter/manage/save/")
@login_required(store.LOGIN_PATH)
def newsletter_save():
    customer = store.require_customer()
    if request.form.get("is_subscribed"):
        if not store.is_subscribed(customer["email"]):
            _subscribe(customer["email"])
        flash("We have saved your subscription.", "success")
    else:
        db().execute("DELETE FROM newsletter_subscribers WHERE email = ?", (customer["email"],))
        flash("We have removed your newsletter subscription.", "success")
    return redirect(url_for("account.account_dashboard"))


@bp.get("/review/customer/")
@login_required(store.LOGIN_PATH)
def my_reviews():
    reviews = db().execute(
        "SELECT r.*, p.name, p.url_key FROM reviews r JOIN products p ON p.id = r.product_id"
        " WHERE r.customer_id = ? ORDER BY r.created_at DESC, r.id DESC",
        (store.require_customer()["id"],),
    ).fetchall()
    return render_template("my_reviews.html", reviews=reviews)


@bp.get("/downloadable/customer/products/")
@login_required(store.LOGIN_PATH)
def downloadable_products():
    """My Downloadable Products: the store sells no downloadable products, so the list is always empty."""
    return render_template("account_empty.html", endpoint="account.downloadable_products",
                           title="My Downloadable Products",
                           message="You have not purchased any downloadable products yet.")


@bp.get("/vault/cards/listaction/")
@login_required(store.LOGIN_PATH)
def stored_payment_methods():
    """Stored Payment Methods: orders are paid by check or money order, so no card is ever stored."""
    return render_template("account_empty.html", endpoint="account.stored_payment_methods",
                           title="Stored Payment Methods", message="You have no stored payment methods.")


@bp.get("/privacy-policy-cookie-restriction-mode/")
def privacy_policy():
    """The store's Privacy and Cookie Policy page (a CMS page in Magento)."""
    return render_template("privacy_policy.html")


@bp.route("/contact/index/", methods=["GET", "POST"])
@bp.route("/contact/", methods=["GET", "POST"])  # registered first, so url_for() gives the short address
def contact():
    customer = store.customer()
    values = {name: (request.form.get(name) or "").strip() for name in ("name", "email", "telephone", "comment")}
    if request.method == "GET":
        if customer:
            values.update(name=f"{customer['firstname']} {customer['lastname']}", email=customer["email"])
        return render_template("contact.html", values=values, error=None)
    if not (values["name"] and "@" in values["email"] and values["comment"]):
        return render_template("contact.html", values=values, error="Please fill in every required field."), 400
    db().execute(
        "INSERT INTO contact_messages (name, email, telephone, comment, created_at) VALUES (?, ?, ?, ?, ?)",
        (values["name"], values["email"], values["telephone"], values["comment"], world().now().isoformat(" ")),
    )
    flash("Thanks for contacting us with your comments and questions. We'll respond to you very soon.", "success")
    return redirect(url_for("account.contact"))


def _own_address(address_id: int, customer_id: int):
    address = db().execute("SELECT * FROM addresses WHERE id = ? AND customer_id = ?", (address_id, customer_id)).fetchone()
    if address is None:
        abort(404)
    return address


def _subscribe(email: str) -> None:
    owner = db().execute("SELECT id FROM customers WHERE email = ?", (email,)).fetchone()
    db().execute(
        "INSERT INTO newsletter_subscribers (email, customer_id, subscribed_at) VALUES (?, ?, ?)",
        (email, owner["id"] if owner else None, world().now().isoformat(" ")),
    )
