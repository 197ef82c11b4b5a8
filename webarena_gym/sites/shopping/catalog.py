"""Word pools the store's catalog is generated from (categories, brands, product kinds).

Brands are invented. Each leaf category lists its brands, product kinds, pack/size
variants, a price range, the option selects its products may carry and the review
group that decides which aspects its reviews talk about.
"""

from __future__ import annotations

from dataclasses import dataclass

SIZES = ("XS", "S", "M", "L", "XL", "XXL")
SHOE_SIZES = ("6", "7", "8", "9", "10", "11")
COLORS = ("Black", "White", "Navy Blue", "Gray", "Red", "Green", "Beige", "Pink")
DEVICE_COLORS = ("Black", "White", "Silver", "Blue", "Rose Gold")
BED_SIZES = ("Twin", "Full", "Queen", "King")
PRINT_SIZES = ("12x16", "16x24", "24x36")
SHADES = ("Ivory", "Beige", "Sand", "Honey", "Mocha")


@dataclass(frozen=True)
class Leaf:
    """One leaf category and how to make its products."""

    name: str
    key: str
    brands: tuple[str, ...]
    kinds: tuple[str, ...]
    variants: tuple[str, ...]
    price: tuple[float, float]
    group: str
    #: (option name, possible values, share of the leaf's products that have it)
    options: tuple[tuple[str, tuple[str, ...], float], ...] = ()


def _leaf(name, key, brands, kinds, variants, price, group, options=()):
    return Leaf(name, key, tuple(brands), tuple(kinds), tuple(variants), price, group, tuple(options))


#: (top category name, url key, its leaves) in menu order. A kind reads
#: ``"Name@low-high|variant|variant"``: its own price range and pack/size variants
#: (a bare ``|`` means no variant); without them the leaf's apply.
CATALOG: tuple[tuple[str, str, tuple[Leaf, ...]], ...] = (
    ("Beauty & Personal Care", "beauty-personal-care", (
        _leaf("Skin Care", "skin-care", ["Glowra", "Pure Petal", "DermaLeaf", "Aqua Bloom"],
              ["Hyaluronic Acid Face Serum@12-38|1 Fl Oz|2 Fl Oz", "Vitamin C Brightening Cream@14-42|1.7 Ounce",
               "Gentle Foaming Facial Cleanser@6-18|6.7 Fl Oz|16 Fl Oz", "SPF 50 Daily Moisturizer@10-29|3 Fl Oz",
               "Retinol Night Cream@16-58|1.7 Ounce", "Exfoliating Sugar Scrub@7-19|8 Ounce Jar|16 Ounce Jar",
               "Aloe Vera Soothing Gel@6-14|8 Fl Oz|Pack of 2", "Under Eye Cream for Dark Circles@12-35|0.5 Fl Oz",
               "Kaolin Clay Face Mask@9-26|4 Ounce"],
              [""], (6.0, 58.0), "beauty"),
        _leaf("Hair Care", "hair-care", ["Silkstrand", "Curl Theory", "Rootwell"],
              ["Argan Oil Shampoo@7-24|12 Fl Oz|33.8 Fl Oz", "Moisturizing Conditioner@7-24|12 Fl Oz|16.9 Fl Oz",
               "Leave-In Detangling Spray@6-17|8 Fl Oz", "Heat Protectant Spray@7-19|6 Fl Oz|8 Fl Oz",
               "Volumizing Dry Shampoo@5-15|4.3 Ounce|Pack of 2", "Deep Conditioning Hair Mask@9-29|8 Ounce",
               "Tea Tree Scalp Treatment@11-34|4 Fl Oz", "Curl Defining Cream@8-22|8 Ounce|12 Ounce"],
              [""], (5.0, 34.0), "beauty"),
        _leaf("Makeup", "makeup", ["Lumiere Cosmetics", "Hue Studio", "Blush & Bare"],
              ["Waterproof Volumizing Mascara@5-19|", "Matte Liquid Lipstick@4-16|", "Eyeshadow Palette 12 Colors@9-39|",
               "Long Wear Liquid Foundation@8-36|1 Fl Oz", "Translucent Setting Powder@6-28|1 Ounce",
               "Gel Eyeliner Pencil@4-14|Pack of 2|", "Makeup Brush Set 14 Pieces@9-32|", "Cream Blush Stick@6-22|"],
              [""], (4.0, 39.0), "beauty", [("Shade", SHADES, 0.5)]),
        _leaf("Oral Care", "oral-care", ["BrightSmile", "Dentiva", "FreshMint Co."],
              ["Whitening Toothpaste@3-12|4 Ounce, Pack of 3|6 Ounce", "Sonic Electric Toothbrush@25-79|",
               "Cordless Water Flosser@29-69|", "Mint Waxed Dental Floss@2-9|Pack of 6|50 Yards",
               "Alcohol-Free Mouthwash@4-11|1 Liter|500 mL", "Teeth Whitening Strips@15-45|28 Treatments|14 Treatments",
               "Mouth Guard for Teeth Grinding@9-25|4 Pack|2 Sizes", "Replacement Brush Heads@9-29|8 Count|4 Count"],
              [""], (2.0, 79.0), "beauty"),
    )),
    ("Clothing, Shoes & Jewelry", "clothing-shoes-jewelry", (
        _leaf("Women", "women", ["Bella Loom", "Maple & Thread", "Coastline Apparel"],
              ["Women's Casual V-Neck T-Shirt@12-24", "Women's High Waist Yoga Leggings@16-34", "Women's Floral Maxi Dress@26-59",
               "Women's Knit Cardigan Sweater@29-64", "Women's Waterproof Rain Jacket@39-89", "Women's Denim Jacket@34-72",
               "Women's Linen Wide Leg Pants@24-49", "Women's Ribbed Tank Top@12-22"],
              [""], (12.0, 89.0), "clothing", [("Size", SIZES, 1.0), ("Color", COLORS, 0.8)]),
        _leaf("Men", "men", ["Northbound", "Ironside Outfitters", "Harbor & Oak"],
              ["Men's Classic Fit Polo Shirt@16-34", "Men's Slim Fit Chino Pants@24-49", "Men's Fleece Quarter Zip Pullover@26-54",
               "Men's Hooded Puffer Jacket@59-149", "Men's Flannel Button Down Shirt@22-44", "Men's Athletic Shorts@14-29",
               "Men's Crew Neck Sweatshirt@19-39", "Men's Straight Fit Jeans@29-69"],
              [""], (14.0, 149.0), "clothing", [("Size", SIZES, 1.0), ("Color", COLORS, 0.8)]),
        _leaf("Shoes", "shoes", ["Stride Lab", "Pebble Path", "Urban Step"],
              ["Lightweight Running Shoes@39-99", "Canvas Slip-On Sneakers@19-45", "Waterproof Hiking Boots@59-129",
               "Memory Foam Slippers@15-32", "Leather Chelsea Boots@69-129", "Breathable Walking Shoes@35-79",
               "Platform Sandals@24-49"],
              [""], (19.0, 129.0), "clothing", [("Size", SHOE_SIZES, 1.0), ("Color", COLORS, 0.6)]),
        _leaf("Jewelry", "jewelry", ["Aurelia", "Moonstone & Co.", "Silver Lane"],
              ["Sterling Silver Hoop Earrings@15-49", "Gold Plated Layered Necklace@12-39", "Freshwater Pearl Stud Earrings@19-59",
               "Stainless Steel Cuff Bracelet@9-29", "Birthstone Charm Necklace@14-44", "Stackable Midi Rings Set@9-24",
               "Men's Stainless Steel Watch@39-119"],
              ["", "Gift Boxed"], (9.0, 119.0), "clothing"),
    )),
    ("Electronics", "electronics", (
        _leaf("Headphones", "headphones", ["SonicWave", "AuraBeat", "Pulse Audio", "EchoLine"],
              ["Wireless Noise Cancelling Over-Ear Headphones@79-349", "True Wireless Earbuds@29-179",
               "Sports Bluetooth Earphones@19-69", "Wired Studio Monitor Headphones@39-149",
               "Kids Volume Limited Headphones@14-39", "Open Ear Bone Conduction Headphones@49-129",
               "Gaming Headset with Microphone@24-99"],
              [""], (14.0, 349.0), "electronics", [("Color", DEVICE_COLORS, 0.6)]),
        _leaf("Computers & Accessories", "computers-accessories", ["Nexlink", "ByteGear", "Corelogic", "Voltix"],
              ["USB-C Hub 7-in-1@19-49", "Wireless Ergonomic Mouse@14-45", "Mechanical Gaming Keyboard@39-129",
               "1TB Portable External Hard Drive@45-79", "Laptop Cooling Pad@16-39", "USB WiFi Adapter for Desktop PC@9-29",
               "27 Inch IPS Monitor@149-299", "Adjustable Aluminum Laptop Stand@19-49", "64GB USB 3.0 Flash Drive@7-19|2 Pack|",
               "HDMI Cable 6 Feet@7-15|2 Pack|"],
              [""], (7.0, 299.0), "electronics"),
        _leaf("Camera & Photo", "camera-photo", ["Optix", "FrameLight", "ClearShot"],
              ["Lightweight Travel Tripod@24-89", "128GB SD Memory Card@12-35|2 Pack|", "LED Ring Light with Phone Holder@19-59",
               "Waterproof Camera Backpack@35-99", "Lens Cleaning Kit@9-19", "1080p HD Webcam@24-69", "4K Action Camera@79-199",
               "Rechargeable Camera Battery Pack@19-45|2 Pack|"],
              [""], (9.0, 199.0), "electronics"),
        _leaf("Home Audio", "home-audio", ["Resonant", "Boomline", "HarborSound"],
              ["Portable Bluetooth Speaker@25-119", "Soundbar with Wireless Subwoofer@119-399", "Bookshelf Speakers Pair@79-249",
               "Smart Speaker with Voice Assistant@39-129", "Belt Drive Vinyl Record Player@69-199",
               "FM Radio Alarm Clock@19-45", "Waterproof Shower Speaker@19-39"],
              [""], (19.0, 399.0), "electronics", [("Color", DEVICE_COLORS, 0.3)]),
    )),
    ("Grocery & Gourmet Food", "grocery-gourmet-food", (
        _leaf("Snacks & Sweets", "snacks-sweets", ["Crunchwell", "Sweet Meadow", "Nutty Acres", "Golden Grove"],
              ["Sea Salt Kettle Potato Chips", "Dark Chocolate Almond Bar|Pack of 6|Pack of 12", "Honey Roasted Peanuts",
               "Trail Mix with Dried Cranberries", "Assorted Fruit Gummy Bears", "Cheddar Cheese Crackers", "Caramel Corn",
               "Organic Fruit Leather Strips|12 Count|24 Count", "Salted Caramel Pretzel Bites"],
              ["8 Ounce Bag", "Pack of 6", "1 Pound", "Family Size, 18 Ounce", "Pack of 12"], (2.0, 24.0), "grocery"),
        _leaf("Beverages", "beverages", ["Mountain Spring", "Leafwise", "Brewhaus", "Citrus Coast"],
              ["Organic Green Tea Bags|100 Count|40 Count", "Dark Roast Ground Coffee|12 Ounce Bag|2 Pound Bag",
               "Sparkling Mineral Water|Pack of 24|16.9 Fl Oz, Pack of 12", "Cold Brew Coffee Concentrate|32 Fl Oz",
               "Chamomile Herbal Tea|20 Count (Pack of 6)|100 Count", "Pure Coconut Water|Pack of 12|33.8 Fl Oz",
               "Earl Grey Black Tea|100 Count|20 Count (Pack of 6)", "Medium Roast Coffee Pods|72 Count|24 Count",
               "Electrolyte Drink Mix|30 Sticks|16 Ounce Tub"],
              [""], (3.0, 39.0), "grocery"),
        _leaf("Pantry Staples", "pantry-staples", ["Farmhouse Pantry", "Olive & Vine", "Prairie Mill", "Spice Route"],
              ["Extra Virgin Olive Oil|16.9 Fl Oz|33.8 Fl Oz", "Organic White Quinoa|2 Pound Bag|4 Pound Bag",
               "Thai Jasmine Rice|5 Pound Bag|10 Pound Bag", "Whole Wheat Penne Pasta|16 Ounce, Pack of 4",
               "Pure Maple Syrup Grade A|12 Fl Oz|32 Fl Oz", "Himalayan Pink Salt|2.2 Pound|8 Ounce Grinder",
               "Ground Ceylon Cinnamon|4 Ounce|16 Ounce", "Raw Unfiltered Honey|16 Ounce Jar|32 Ounce Jar",
               "Organic Chicken Bone Broth|32 Fl Oz, Pack of 6", "Granulated Garlic Powder|8 Ounce|3 Ounce"],
              [""], (2.0, 29.0), "grocery"),
        _leaf("Breakfast Foods", "breakfast-foods", ["Sunrise Farms", "Oat Haven", "Berry Bright"],
              ["Old Fashioned Rolled Oats|42 Ounce", "Honey Nut Granola|12 Ounce, Pack of 2", "Buttermilk Pancake Mix|32 Ounce",
               "Strawberry Fruit Spread|10 Ounce Jar", "Instant Oatmeal Variety Pack|40 Count",
               "Whole Grain Toaster Pastries|12 Count", "Crunchy Almond Butter|16 Ounce Jar", "Blueberry Muffin Mix|Pack of 2",
               "Irish Steel Cut Oats|28 Ounce Tin"],
              [""], (2.0, 19.0), "grocery"),
    )),
    ("Health & Household", "health-household", (
        _leaf("Vitamins & Supplements", "vitamins-supplements", ["VitaPeak", "NatureBloom", "Purely Well"],
              ["Vitamin D3 5000 IU Softgels|360 Count|120 Count", "Daily Multivitamin Gummies|90 Count|150 Count",
               "Omega-3 Fish Oil|240 Softgels|120 Softgels", "Magnesium Glycinate Capsules|120 Count",
               "Probiotic 50 Billion CFU|30 Capsules|60 Capsules", "Collagen Peptides Powder|16 Ounce|10 Ounce",
               "Elderberry Immune Support|60 Gummies", "Melatonin 5mg Tablets|120 Count|240 Count"],
              [""], (7.0, 44.0), "health"),
        _leaf("Household Supplies", "household-supplies", ["CleanCrest", "FreshHome", "EcoSpark"],
              ["HE Laundry Detergent Pacs|81 Count|42 Count", "Dishwasher Detergent Tablets|90 Count|60 Count",
               "Multi-Surface Cleaning Spray|32 Fl Oz, Pack of 3", "Select-A-Size Paper Towels|12 Double Rolls|6 Double Rolls",
               "Tall Kitchen Trash Bags 13 Gallon|90 Count|45 Count", "Fabric Softener Dryer Sheets|240 Sheets|120 Sheets",
               "Lemon Disinfecting Wipes|75 Count, Pack of 3", "Toilet Bowl Cleaner Gel|24 Fl Oz, Pack of 2"],
              [""], (3.0, 29.0), "health"),
        _leaf("Medical Supplies", "medical-supplies", ["CareWell", "MediGuard", "FirstStep"],
              ["Digital Oral Thermometer@6-15", "Upper Arm Blood Pressure Monitor@29-69", "Fingertip Pulse Oximeter@15-35",
               "First Aid Kit 250 Pieces@16-32", "Reusable Hot and Cold Gel Pack@7-16|2 Pack|", "Knee Compression Sleeve@9-22|",
               "Weekly Pill Organizer@5-12|2 Pack|"],
              [""], (5.0, 69.0), "health"),
    )),
    ("Home & Kitchen", "home-kitchen", (
        _leaf("Kitchen & Dining", "kitchen-dining", ["ChefCraft", "Copper Hearth", "KitchenNest", "Oak & Ember"],
              ["Stainless Steel Chef Knife@19-89|8 Inch", "Nonstick Frying Pan@19-59|10 Inch|12 Inch",
               "Pre-Seasoned Cast Iron Skillet@19-49|10.25 Inch|12 Inch", "Bamboo Cutting Board Set@14-39|Set of 3",
               "Glass Food Storage Containers@24-49|Set of 10|Set of 18", "French Press Coffee Maker@19-45|34 Ounce",
               "Silicone Baking Mat@8-19|Set of 2", "Electric Gooseneck Kettle@39-99|", "Stoneware Dinnerware Set@59-129|12 Piece|16 Piece",
               "Measuring Cups and Spoons Set@9-24|"],
              [""], (8.0, 129.0), "home"),
        _leaf("Bedding", "bedding", ["DreamWeave", "Cloud Nine Linens", "Cozy Cotton"],
              ["Microfiber Sheet Set@19-45", "Down Alternative Comforter@39-99", "Cooling Gel Memory Foam Pillow@24-59",
               "Weighted Blanket 15 lbs@49-119", "Waterproof Mattress Protector@19-49", "Cotton Duvet Cover Set@39-89",
               "Sherpa Fleece Throw Blanket@19-39"],
              [""], (19.0, 149.0), "home", [("Size", BED_SIZES, 0.8), ("Color", COLORS, 0.5)]),
        _leaf("Storage & Organization", "storage-organization", ["TidyNest", "StackSmart", "HomeHarbor"],
              ["Over the Door Shoe Organizer|24 Pockets|36 Pockets", "Collapsible Fabric Storage Bins|Set of 3|Set of 6",
               "Clear Plastic Drawer Organizers|Set of 25", "Under Bed Storage Bags|Pack of 3", "Hanging Closet Organizer|6 Shelves",
               "Expandable Bamboo Drawer Dividers|Set of 4", "Stackable Pantry Baskets|Set of 2|Set of 4",
               "Velvet Clothes Hangers|50 Pack|100 Pack"],
              [""], (9.0, 59.0), "home"),
        _leaf("Home Decor", "home-decor", ["Willow & Pine", "Urban Canvas", "Lumina Living"],
              ["Abstract Canvas Wall Art@19-89|", "Lavender Scented Soy Candle@9-24|8 Ounce|Set of 2",
               "Decorative Throw Pillow Covers@12-29|18x18 Inch, Set of 2", "Warm White LED String Lights@9-22|33 Feet|66 Feet",
               "Ceramic Bud Vase@12-34|Set of 3", "Round Wall Mirror@29-89|24 Inch", "Framed Botanical Poster@14-49|",
               "Faux Eucalyptus Plant in Pot@16-39|"],
              [""], (9.0, 89.0), "home", [("Size", PRINT_SIZES, 0.25)]),
    )),
    ("Office Products", "office-products", (
        _leaf("Office & School Supplies", "office-school-supplies", ["Scribe & Co.", "PaperTrail", "DeskMate"],
              ["Retractable Gel Ink Pens@6-16|12 Pack|24 Pack", "College Ruled Spiral Notebooks@7-18|5 Pack",
               "Sticky Notes Assorted Colors@5-14|24 Pads", "Heavy Duty Stapler@12-34|", "Mesh Desk Organizer with Drawer@14-29|",
               "Pastel Highlighters Set@4-12|12 Count", "Low Odor Dry Erase Markers@6-15|8 Count|12 Count",
               "Expanding File Folder@9-24|13 Pockets"],
              [""], (2.0, 34.0), "office"),
        _leaf("Office Electronics", "office-electronics", ["PrintPro", "Ledgerline", "ShredSafe"],
              ["Bluetooth Label Maker@24-59", "Cross-Cut Paper Shredder@39-129", "Scientific Calculator@12-29",
               "Desktop Document Scanner@89-249", "Thermal Laminator@19-45", "Monochrome Laser Printer@99-229",
               "Wireless Presentation Clicker@14-35"],
              [""], (12.0, 249.0), "office"),
    )),
    ("Cell Phones & Accessories", "cell-phones-accessories", (
        _leaf("Cases & Holsters", "cases-holsters", ["ArmorEdge", "SlimShell", "Casewise"],
              ["Shockproof Case for iPhone 14", "Clear Case for Galaxy S23", "Leather Wallet Case for iPhone 13",
               "Rugged Holster Case for Pixel 7", "Silicone Case for iPhone 14 Pro", "Glitter Case for Galaxy A54",
               "Slim Fit Case for iPhone 12"],
              [""], (6.0, 39.0), "electronics", [("Color", DEVICE_COLORS, 0.7)]),
        _leaf("Chargers & Power Adapters", "chargers-power-adapters", ["ChargeIt", "PowerNest", "AmpCore"],
              ["20W USB-C Fast Charger@9-24", "15W Wireless Charging Pad@12-29", "10000mAh Portable Power Bank@19-45",
               "Dual Port Car Charger@8-19", "3-in-1 Charging Station@29-59", "Braided Lightning Cable 6ft@8-19|2 Pack|",
               "USB-C to USB-C Cable 2-Pack@9-19"],
              [""], (8.0, 59.0), "electronics"),
    )),
    ("Sports & Outdoors", "sports-outdoors", (
        _leaf("Exercise & Fitness", "exercise-fitness", ["FlexCore", "IronPulse", "ZenFit"],
              ["Non-Slip Yoga Mat@16-49|6mm|1/4 Inch", "Adjustable Dumbbell Set@89-199|52.5 lb", "Resistance Bands Set@12-29|Set of 5",
               "High Density Foam Roller@12-29|18 Inch", "Speed Jump Rope with Counter@7-16|", "Cast Iron Kettlebell@24-59|15 lb|25 lb",
               "Ab Roller Wheel@9-24|", "Doorway Pull Up Bar@19-39|"],
              [""], (7.0, 199.0), "sports"),
        _leaf("Outdoor Recreation", "outdoor-recreation", ["TrailMark", "Summit Ridge", "Campfire Co."],
              ["2 Person Camping Tent@59-179", "Insulated Stainless Steel Water Bottle@14-39|32 Ounce|20 Ounce",
               "Hiking Daypack 30L@34-89", "Rechargeable LED Camping Lantern@14-34|2 Pack|", "Mummy Sleeping Bag 20 Degree@39-99",
               "Portable Nylon Hammock@19-45", "Collapsible Trekking Poles@24-59|Pair", "Compact Backpacking Stove@19-49"],
              [""], (9.0, 179.0), "sports"),
    )),
    ("Video Games", "video-games", (
        _leaf("Nintendo Switch", "nintendo-switch", ["Playfield", "NeoGame", "PixelForge"],
              ["Game Card Storage Case 24 Slots@9-19", "Hard Shell Carrying Case@12-29", "Wireless Pro Controller@29-69",
               "Tempered Glass Screen Protector@9-14|2 Pack|3 Pack", "Joy-Con Charging Dock@16-34",
               "Adventure Quest Deluxe Edition@39-59", "Kart Racer Party Game@39-59", "Joy-Con Comfort Grip Kit@9-19"],
              [""], (9.0, 69.0), "games"),
        _leaf("PlayStation 4", "playstation-4", ["RapidFire", "ShadowPlay", "GameCore"],
              ["Wireless Controller for PS4@24-59", "Dual Controller Charging Station@14-29", "Vertical Cooling Stand@19-39",
               "Galactic Warfare Standard Edition@19-49", "Street Racer Ultimate@24-49", "Headset Stand with USB Hub@16-32",
               "Analog Thumb Grips 8 Pack@9-14"],
              [""], (9.0, 59.0), "games"),
        _leaf("Xbox One", "xbox-one", ["Titan Play", "GripLord", "XStream Gear"],
              ["Wireless Controller Carbon Black@39-64", "Rechargeable Battery Pack 2x@16-29", "Wired Chat Headset@12-29",
               "Kinetic Sports Challenge@19-39", "Controller Skin Kit@9-16", "Media Remote Control@14-24",
               "Play and Charge Kit@19-29"],
              [""], (9.0, 69.0), "games", [("Color", DEVICE_COLORS, 0.3)]),
    )),
)


def parse_kind(kind: str, leaf: Leaf) -> tuple[str, tuple[float, float], tuple[str, ...]]:
    """(name, price range, variants) of one kind spec (see :data:`CATALOG`)."""
    head, *variants = kind.split("|")
    name, _, prices = head.partition("@")
    price_range = tuple(float(p) for p in prices.split("-")) if prices else leaf.price
    return name, price_range, tuple(variants) if variants else leaf.variants


#: Sentences for product descriptions, by review group.
FEATURES: dict[str, tuple[str, ...]] = {
    "beauty": ("Dermatologist tested and suitable for daily use.", "Free of parabens, sulfates and artificial dyes.",
               "Cruelty-free and made in small batches.", "A lightweight formula that absorbs quickly.",
               "Travel friendly and easy to apply.", "Recyclable container made from post-consumer plastic."),
    "clothing": ("Made from soft, breathable materials for all-day comfort.", "Machine washable; tumble dry low.",
                 "A relaxed cut that works for the office and the weekend.", "Reinforced seams for long wear.",
                 "Check the size chart before ordering.", "Designed in California."),
    "electronics": ("Plug and play with no drivers needed.", "Backed by an 18-month limited warranty.",
                    "Compact design that fits in a backpack.", "Compatible with Windows, macOS, iOS and Android.",
                    "Includes a USB cable and a quick start guide.", "Energy efficient standby mode."),
    "grocery": ("Non-GMO and certified kosher.", "Packed in a resealable bag to stay fresh.",
                "Made with simple ingredients you can pronounce.", "Great for lunch boxes, road trips and the office.",
                "Produced in a facility that also processes tree nuts.", "Store in a cool, dry place."),
    "health": ("Third-party tested for purity.", "Made in an FDA-registered facility.",
               "Easy to use at home.", "Gluten free with no artificial preservatives.",
               "Trusted by families for everyday care.", "Keep out of reach of children."),
    "home": ("Designed to brighten any room of the house.", "Easy to clean and built to last.",
             "Makes a thoughtful housewarming gift.", "Space-saving design for small apartments.",
             "Made from responsibly sourced materials.", "Backed by a one-year satisfaction guarantee."),
    "office": ("Ideal for home offices, classrooms and businesses.", "Smooth, reliable performance every day.",
               "Sturdy construction for heavy use.", "Acid-free and archival safe.",
               "Compact footprint that saves desk space.", "Includes everything you need to get started."),
    "sports": ("Built for workouts at home or at the gym.", "Lightweight and easy to carry on the trail.",
               "Durable materials tested in tough conditions.", "Non-toxic and latex free.",
               "Folds flat for easy storage.", "Suitable for beginners and experienced athletes."),
    "games": ("Officially licensed accessory.", "Works with both handheld and docked modes.",
              "Rated E for Everyone.", "Precise controls with low latency.",
              "Protects your gear from scratches and bumps.", "Includes a one-year replacement warranty."),
}
