"""The admin's main menu: Magento's ten sections, each a collapsible list of grouped links.

An entry names a Flask endpoint of a real page, or an admin path for a page this store
does not use (it renders an empty grid, as a fresh Magento section does).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MenuLink:
    """One menu entry: its label and an endpoint (``sales.orders``) or an admin path (``/admin/...``)."""

    label: str
    target: str

    @property
    def is_page(self) -> bool:
        """Whether it opens one of the store's own pages (else a section page with no records)."""
        return not self.target.startswith("/")


def _links(*pairs: tuple[str, str]) -> tuple[MenuLink, ...]:
    return tuple(MenuLink(label, target) for label, target in pairs)


#: (section, ((group heading or "", links), ...)) in the menu's order.
MENU: tuple[tuple[str, tuple[tuple[str, tuple[MenuLink, ...]], ...]], ...] = (
    ("Dashboard", (("", _links(("Dashboard", "dashboard.dashboard"))),)),
    ("Sales", (("Operations", _links(
        ("Orders", "sales.orders"), ("Invoices", "sales.invoices"), ("Shipments", "/admin/sales/shipment/"),
        ("Credit Memos", "/admin/sales/creditmemo/"), ("Billing Agreements", "/admin/paypal/billing_agreement/"),
        ("Transactions", "/admin/sales/transactions/"))),
        ("Archive", _links(("Archived Orders", "/admin/sales/archive/"))))),
    ("Catalog", (("Inventory", _links(("Products", "catalog.products"), ("Categories", "/admin/catalog/category/"))),
                 ("Merchandising", _links(("Visual Merchandiser", "/admin/catalog/merchandiser/"))))),
    ("Customers", (("", _links(
        ("All Customers", "customers.customers"), ("Now Online", "/admin/customer/online/"),
        ("Customer Groups", "/admin/customer/group/"), ("Segments", "/admin/customer/segment/"))),)),
    ("Marketing", (
        ("Promotions", _links(("Catalog Price Rule", "/admin/catalog_rule/promo_catalog/"),
                              ("Cart Price Rules", "/admin/sales_rule/promo_quote/"))),
        ("Communications", _links(("Email Templates", "/admin/admin/email_template/"),
                                  ("Newsletter Templates", "/admin/newsletter/template/"),
                                  ("Newsletter Queue", "/admin/newsletter/queue/"),
                                  ("Newsletter Subscribers", "/admin/newsletter/subscriber/"))),
        ("SEO & Search", _links(("URL Rewrites", "/admin/admin/url_rewrite/"), ("Search Terms", "marketing.search_terms"),
                                ("Search Synonyms", "/admin/search/synonyms/"), ("Site Map", "/admin/admin/sitemap/"))),
        ("User Content", _links(("All Reviews", "marketing.reviews"), ("Pending Reviews", "marketing.reviews_pending"))))),
    ("Content", (
        ("Elements", _links(("Pages", "content.cms_pages"), ("Blocks", "/admin/cms/block/"),
                            ("Widgets", "/admin/admin/widget_instance/"))),
        ("Design", _links(("Configuration", "/admin/theme/design_config/"), ("Themes", "content.themes"),
                          ("Schedule", "/admin/admin/system_design/"))))),
    ("Reports", (
        ("Marketing", _links(("Products in Cart", "/admin/reports/report_shopcart/product/"),
                             ("Search Terms Report", "marketing.search_terms"),
                             ("Abandoned Carts", "/admin/reports/report_shopcart/abandoned/"),
                             ("Newsletter Problem Reports", "/admin/newsletter/problem/"))),
        ("Reviews", _links(("By Customers", "/admin/reports/report_review/customer/"),
                           ("By Products", "/admin/reports/report_review/product/"))),
        ("Sales", _links(("Orders Report", "reports.report_sales"), ("Tax", "/admin/reports/report_sales/tax/"),
                         ("Invoiced", "/admin/reports/report_sales/invoiced/"),
                         ("Shipping Report", "reports.report_shipping"), ("Refunds Report", "reports.report_refunded"),
                         ("Coupons", "/admin/reports/report_sales/coupons/"),
                         ("PayPal Settlement", "/admin/paypal/paypal_reports/"))),
        ("Customers", _links(("Order Total", "/admin/reports/report_customer/totals/"),
                             ("Order Count", "reports.report_customer_orders"),
                             ("New", "/admin/reports/report_customer/accounts/"))),
        ("Products", _links(("Views", "/admin/reports/report_product/viewed/"), ("Bestsellers", "reports.report_bestsellers"),
                            ("Low Stock", "/admin/reports/report_product/lowstock/"),
                            ("Ordered", "/admin/reports/report_product/sold/"),
                            ("Downloads", "/admin/reports/report_product/downloads/"))),
        ("Statistics", _links(("Refresh Statistics", "/admin/reports/report_statistics/"))),
        ("Business Intelligence", _links(("Advanced Reporting", "/admin/analytics/reports/"),
                                         ("BI Essentials", "/admin/analytics/bi_essentials/"))))),
    ("Stores", (
        ("Settings", _links(("All Stores", "/admin/admin/system_store/"), ("Configuration", "/admin/admin/system_config/"),
                            ("Terms and Conditions", "/admin/checkout/agreement/"),
                            ("Order Status", "/admin/sales/order_status/"))),
        ("Inventory", _links(("Sources", "/admin/inventory/source/"), ("Stocks", "/admin/inventory/stock/"))),
        ("Taxes", _links(("Tax Rules", "/admin/tax/rule/"), ("Tax Zones and Rates", "/admin/tax/rate/"))),
        ("Currency", _links(("Currency Rates", "/admin/admin/system_currency/"),
                            ("Currency Symbols", "/admin/admin/system_currencysymbol/"))),
        ("Attributes", _links(("Product", "/admin/catalog/product_attribute/"), ("Attribute Set", "/admin/catalog/product_set/"),
                              ("Rating", "/admin/review/rating/"))),
        ("Other Settings", _links(("Customer Groups Settings", "/admin/customer/group/settings/"))))),
    ("System", (
        ("Data Transfer", _links(("Import", "/admin/admin/import/"), ("Export", "/admin/admin/export/"),
                                 ("Import History", "/admin/admin/history/"))),
        ("Extensions", _links(("Integrations", "/admin/admin/integration/"))),
        ("Tools", _links(("Cache Management", "/admin/admin/cache/"), ("Index Management", "/admin/indexer/indexer/list/"),
                         ("Backups", "/admin/backup/index/"))),
        ("Action Logs", _links(("Bulk Actions", "/admin/bulk/index/"))),
        ("Permissions", _links(("All Users", "/admin/admin/user/"), ("Locked Users", "/admin/admin/locks/"),
                               ("User Roles", "/admin/admin/user_role/"))),
        ("Other Settings", _links(("Notifications", "/admin/admin/notification/"),
                                  ("Custom Variables", "/admin/admin/system_variable/"),
                                  ("Manage Encryption Key", "/admin/admin/crypt_key/"))))),
    ("Find Partners & Extensions", (("", _links(("Partner Listing", "/admin/marketplace/partners/"),
                                                ("Extension Marketplace", "/admin/marketplace/index/"))),)),
)


def section_pages() -> list[tuple[str, str, str]]:
    """(section, label, path) of every entry that is not one of the store's own pages."""
    return [(section, link.label, link.target) for section, groups in MENU for _group, links in groups
            for link in links if not link.is_page]
