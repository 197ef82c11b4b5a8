"""Vocabulary the admin store's seed data is drawn from (all invented for this project)."""

from __future__ import annotations

#: (category, SKU prefix, product nouns, size scale, colour palette, price range).
CATEGORIES: list[tuple[str, str, tuple[str, ...], str, tuple[str, ...], tuple[int, int]]] = [
    ("Tees", "TS", ("Tee", "Crew Tee", "Running Tee", "V-Neck Tee", "Training Tee"), "letter",
     ("Black", "White", "Blue", "Red", "Gray", "Green"), (18, 36)),
    ("Hoodies & Sweatshirts", "HD", ("Hoodie", "Pullover Hoodie", "Sweatshirt", "Zip Hoodie"), "letter",
     ("Black", "Gray", "Blue", "Purple", "Orange"), (44, 78)),
    ("Jackets", "JK", ("Jacket", "Shell", "Windbreaker", "Insulated Jacket"), "letter",
     ("Black", "Blue", "Red", "Yellow", "Green"), (56, 112)),
    ("Pants", "PT", ("Pant", "Jogger", "Legging", "Track Pant"), "waist",
     ("Black", "Gray", "Blue", "Green"), (34, 76)),
    ("Shorts", "SH", ("Short", "Running Short", "Training Short"), "waist",
     ("Black", "Blue", "Red", "Gray", "Orange"), (24, 46)),
    ("Bras & Tanks", "TK", ("Tank", "Sports Bra", "Racerback Tank"), "letter",
     ("Black", "White", "Purple", "Blue", "Red"), (20, 46)),
    ("Bags", "BG", ("Backpack", "Duffle", "Tote", "Messenger Bag"), "",
     ("Black", "Gray", "Blue"), (30, 92)),
    ("Fitness Gear", "GR", ("Yoga Mat", "Water Bottle", "Resistance Band", "Foam Roller", "Kettlebell"), "",
     (), (9, 64)),
]

#: How many products each category gets (sums to 168).
CATEGORY_SIZES = {"Tees": 30, "Hoodies & Sweatshirts": 22, "Jackets": 20, "Pants": 22, "Shorts": 18,
                  "Bras & Tanks": 18, "Bags": 18, "Fitness Gear": 20}

SIZE_SCALES = {"letter": ("XS", "S", "M", "L", "XL"), "waist": ("28", "29", "30", "31", "32", "33", "34", "36")}

#: Invented style names that head product names ("Kestrel Running Tee").
STYLES = (
    "Alder", "Ardent", "Aspen", "Basalt", "Birch", "Bramble", "Brisa", "Canyon", "Cascade", "Cedar",
    "Cinder", "Cobalt", "Comet", "Coral", "Crest", "Delta", "Drift", "Dune", "Echo", "Ember",
    "Falcon", "Fern", "Fjord", "Flint", "Gale", "Garnet", "Glacier", "Granite", "Grove", "Harbor",
    "Hazel", "Heron", "Horizon", "Ion", "Iris", "Jasper", "Juniper", "Kestrel", "Krill", "Lagoon",
    "Larch", "Lumen", "Lynx", "Maple", "Marlin", "Meadow", "Mesa", "Mistral", "Nimbus", "Nova",
    "Oak", "Onyx", "Orion", "Osprey", "Pebble", "Pike", "Pinecrest", "Prairie", "Quarry", "Quill",
    "Rapid", "Raven", "Reef", "Ridge", "River", "Sable", "Saga", "Sierra", "Slate", "Solstice",
    "Sparrow", "Spruce", "Summit", "Tahoe", "Talon", "Tempo", "Thistle", "Timber", "Topaz", "Tundra",
    "Umber", "Vale", "Vega", "Vista", "Willow", "Wren", "Yarrow", "Zephyr", "Zinnia", "Zenith",
)

FIRST_NAMES = (
    "Emma", "Liam", "Olivia", "Noah", "Ava", "Ethan", "Sophia", "Mason", "Isabella", "Lucas",
    "Mia", "Logan", "Amelia", "James", "Harper", "Aiden", "Evelyn", "Elijah", "Abigail", "Jacob",
    "Emily", "Michael", "Ella", "Daniel", "Grace", "Henry", "Chloe", "Samuel", "Victoria", "David",
    "Lily", "Joseph", "Hannah", "Carter", "Zoe", "Owen", "Nora", "Wyatt", "Riley", "Julian",
    "Sarah", "Adam", "Jennifer", "Brian", "Laura", "Kevin", "Rachel", "Jason", "Megan", "Alex",
)

LAST_NAMES = (
    "Lopez", "Smith", "Johnson", "Brown", "Garcia", "Miller", "Davis", "Martinez", "Wilson", "Anderson",
    "Taylor", "Thomas", "Moore", "Jackson", "Martin", "Lee", "Thompson", "White", "Harris", "Clark",
    "Lewis", "Walker", "Hall", "Allen", "Young", "King", "Wright", "Scott", "Green", "Baker",
    "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Roberts", "Carter", "Phillips", "Evans", "Turner",
    "Parker", "Collins", "Edwards", "Stewart", "Morris", "Murphy", "Cook", "Rogers", "Reed", "Bennett",
)

EMAIL_DOMAINS = ("gmail.com", "yahoo.com", "hotmail.com", "outlook.com", "icloud.com", "mail.com")

STREETS = (
    "Oak Street", "Maple Avenue", "Pine Road", "Cedar Lane", "Elm Street", "Lakeview Drive", "Hillcrest Road",
    "Sunset Boulevard", "Park Avenue", "River Road", "Main Street", "Washington Street", "Highland Avenue",
    "Chestnut Street", "Spring Street", "Church Street", "Meadow Lane", "Forest Drive", "Willow Way",
    "Harbor Street", "Cherry Lane", "Mill Road", "Broad Street", "Franklin Avenue", "Valley View Road",
)

#: (city, state, ZIP code).
CITIES = (
    ("New York", "New York", "10001"), ("Brooklyn", "New York", "11201"), ("Boston", "Massachusetts", "02108"),
    ("Cambridge", "Massachusetts", "02139"), ("Chicago", "Illinois", "60601"), ("Austin", "Texas", "78701"),
    ("Houston", "Texas", "77002"), ("Dallas", "Texas", "75201"), ("Seattle", "Washington", "98101"),
    ("Portland", "Oregon", "97201"), ("San Francisco", "California", "94103"),
    ("Los Angeles", "California", "90012"), ("San Diego", "California", "92101"), ("Denver", "Colorado", "80202"),
    ("Phoenix", "Arizona", "85004"), ("Atlanta", "Georgia", "30303"), ("Miami", "Florida", "33130"),
    ("Orlando", "Florida", "32801"), ("Philadelphia", "Pennsylvania", "19103"),
    ("Pittsburgh", "Pennsylvania", "15222"), ("Columbus", "Ohio", "43215"), ("Detroit", "Michigan", "48226"),
    ("Minneapolis", "Minnesota", "55401"), ("Nashville", "Tennessee", "37203"), ("Salt Lake City", "Utah", "84101"),
)

#: Review sentences by sentiment; details draw two or three of them.
POSITIVE_SENTENCES = (
    "Really comfortable and fits true to size.", "I love the color, it looks great.",
    "Great quality for the price.", "Soft fabric that stays soft after washing.",
    "Perfect for my morning runs.", "I would recommend it to anyone.", "Bought it as a gift and they loved it.",
    "Very stylish, I get compliments every time.", "Keeps me warm on cold hikes.",
    "Lightweight and breathable during workouts.", "Exactly what I was looking for.",
    "Durable, still like new after months of use.",
)
NEGATIVE_SENTENCES = (
    "I was disappointed with the quality.", "It runs small, order a size up.", "The fabric feels cheap.",
    "The zipper broke after two weeks.", "Itchy material, I could not wear it long.",
    "The color faded after one wash.", "Not worth the money.", "I had to return it.",
    "Stitching came apart quickly.", "Too heavy for running.",
)
NEUTRAL_SENTENCES = (
    "It is okay for casual wear.", "Arrived on time and well packed.", "Fits as expected.",
    "Decent product, nothing special.", "Shipping was fast.",
)
POSITIVE_TITLES = ("Love it", "Great buy", "Five stars", "Highly recommend", "Super comfy", "Perfect fit",
                   "Excellent", "Worth every penny")
NEGATIVE_TITLES = ("Disappointing", "Not great", "Poor quality", "Would not buy again", "Fell apart",
                   "Meh")
NEUTRAL_TITLES = ("It's fine", "Okay", "Average", "As described")

#: Words shoppers type into the store's search box.
SEARCH_TERMS = (
    "hoodie", "yoga pants", "running shorts", "backpack", "water bottle", "tank top", "sports bra",
    "rain jacket", "joggers", "leggings", "tee", "windbreaker", "duffle bag", "yoga mat", "foam roller",
    "kettlebell", "zip hoodie", "training shorts", "black tee", "white tee", "gym bag", "sweatshirt",
    "insulated jacket", "track pants", "resistance band", "v-neck", "crew neck", "tote", "messenger bag",
    "green jacket", "red shorts", "purple tank", "plus size", "sale", "gift card", "socks", "hat",
    "gloves", "headband", "running shoes", "hiking", "waterproof", "fleece", "compression", "cotton",
    "organic", "kids", "mens hoodie", "womens tee", "workout", "summer", "winter", "blue hoodie",
    "orange hoodie", "bottle", "mat", "shell", "short", "pullover", "jacket xl",
)

#: (title, URL key, active, body) of the store's content pages.
CMS_PAGES = (
    ("404 Not Found", "no-route", 1, "The page you requested was not found. Check the address or search our store."),
    ("Home Page", "home", 1, "Gear up for every season: new arrivals in tees, hoodies, jackets and bags."),
    ("Enable Cookies", "enable-cookies", 1, "Please enable cookies in your browser to use the shopping cart."),
    ("Privacy and Cookie Policy", "privacy-policy-cookie-restriction-mode", 1,
     "We collect only the data we need to process your orders and never sell it."),
    ("About Us", "about-us", 1, "We are a small team of runners and hikers making honest athletic wear."),
    ("Customer Service", "customer-service", 1, "Questions about an order? Our team answers within one business day."),
    ("Shipping Policy", "shipping-policy", 1, "Orders ship within two business days with flat-rate shipping."),
    ("Returns and Exchanges", "returns", 1, "Unworn items can be returned within 30 days of delivery."),
    ("Size Guide", "size-guide", 1, "Measure your chest, waist and hips, then compare with our size charts."),
    ("Holiday Sale 2022", "holiday-sale-2022", 0, "Up to 40% off selected jackets and hoodies until December 31."),
    ("Careers", "careers", 0, "We are hiring warehouse and customer service staff."),
    ("Store Locations", "stores", 1, "Visit our flagship stores in Boston, Denver and Seattle."),
)

#: (title, parent title or "", code) of the storefront themes.
THEMES = (
    ("Blank", "", "Storefront/blank"), ("Luma", "Blank", "Storefront/luma"), ("Alpine", "Luma", "Outfitter/alpine"),
    ("Harbor", "Blank", "Outfitter/harbor"), ("Meadow", "Luma", "Outfitter/meadow"),
    ("Granite", "Blank", "Outfitter/granite"), ("Coral Reef", "Luma", "Outfitter/coral"),
    ("Nordic Night", "Blank", "Outfitter/nordic"), ("Sunset Trail", "Luma", "Outfitter/sunset"),
    ("Slate Pro", "Blank", "Outfitter/slate"),
)

#: Shipping carriers offered when shipping an order (code, title).
CARRIERS = (("custom", "Custom Value"), ("dhl", "DHL"), ("fedex", "Federal Express"),
            ("ups", "United Parcel Service"), ("usps", "United States Postal Service"))
