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


#: (top category name, url key, its leaves) in menu order.
CATALOG: tuple[tuple[str, str, tuple[Leaf, ...]], ...] = (
    ("Beauty & Personal Care", "beauty-personal-care", (
        _leaf("Skin Care", "skin-care", ["Glowra", "Pure Petal", "DermaLeaf", "Aqua Bloom"],
              ["Hyaluronic Acid Face Serum", "Vitamin C Brightening Cream", "Gentle Foaming Facial Cleanser",
               "SPF 50 Daily Moisturizer", "Retinol Night Cream", "Exfoliating Sugar Scrub", "Aloe Vera Soothing Gel",
               "Under Eye Cream for Dark Circles", "Kaolin Clay Face Mask"],
              ["1 Fl Oz", "1.7 Ounce", "4 Fl Oz", "Pack of 2", "8 Ounce Jar"], (6.0, 58.0), "beauty"),
        _leaf("Hair Care", "hair-care", ["Silkstrand", "Curl Theory", "Rootwell"],
              ["Argan Oil Shampoo", "Moisturizing Conditioner", "Leave-In Detangling Spray", "Heat Protectant Spray",
               "Volumizing Dry Shampoo", "Deep Conditioning Hair Mask", "Tea Tree Scalp Treatment", "Curl Defining Cream"],
              ["12 Fl Oz", "16.9 Fl Oz", "Pack of 2", "8 Ounce", "33.8 Fl Oz"], (5.0, 34.0), "beauty"),
        _leaf("Makeup", "makeup", ["Lumiere Cosmetics", "Hue Studio", "Blush & Bare"],
              ["Waterproof Volumizing Mascara", "Matte Liquid Lipstick", "Eyeshadow Palette 12 Colors",
               "Long Wear Liquid Foundation", "Translucent Setting Powder", "Gel Eyeliner Pencil",
               "Makeup Brush Set 14 Pieces", "Cream Blush Stick"],
              ["", "0.34 Fl Oz", "1 Ounce", "Pack of 3"], (4.0, 39.0), "beauty", [("Shade", SHADES, 0.5)]),
        _leaf("Oral Care", "oral-care", ["BrightSmile", "Dentiva", "FreshMint Co."],
              ["Whitening Toothpaste@3-12|4 Ounce, Pack of 3|6 Ounce", "Sonic Electric Toothbrush@25-79|", "Cordless Water Flosser@29-69|",
               "Mint Waxed Dental Floss@2-9|Pack of 6|50 Yards", "Alcohol-Free Mouthwash@4-11|1 Liter|500 mL",
               "Teeth Whitening Strips@15-45|28 Treatments|14 Treatments", "Mouth Guard for Teeth Grinding@9-25|4 Pack|2 Sizes",
               "Replacement Brush Heads@9-29|8 Count|4 Count"],
              [""], (2.0, 79.0), "beauty"),
    )),
    ("Clothing, Shoes & Jewelry", "clothing-shoes-jewelry", (
        _leaf("Women", "women", ["Bella Loom", "Maple & Thread", "Coastline Apparel"],
              ["Women's Casual V-Neck T-Shirt", "Women's High Waist Yoga Leggings", "Women's Floral Maxi Dress",
               "Women's Knit Cardigan Sweater", "Women's Waterproof Rain Jacket", "Women's Denim Jacket",
               "Women's Linen Wide Leg Pants", "Women's Ribbed Tank Top"],
              [""], (12.0, 89.0), "clothing", [("Size", SIZES, 1.0), ("Color", COLORS, 0.8)]),
        _leaf("Men", "men", ["Northbound", "Ironside Outfitters", "Harbor & Oak"],
              ["Men's Classic Fit Polo Shirt", "Men's Slim Fit Chino Pants", "Men's Fleece Quarter Zip Pullover",
               "Men's Hooded Puffer Jacket", "Men's Flannel Button Down Shirt", "Men's Athletic Shorts",
               "Men's Crew Neck Sweatshirt", "Men's Straight Fit Jeans"],
              [""], (14.0, 149.0), "clothing", [("Size", SIZES, 1.0), ("Color", COLORS, 0.8)]),
        _leaf("Shoes", "shoes", ["Stride Lab", "Pebble Path", "Urban Step"],
              ["Lightweight Running Shoes", "Canvas Slip-On Sneakers", "Waterproof Hiking Boots",
               "Memory Foam Slippers", "Leather Chelsea Boots", "Breathable Walking Shoes", "Platform Sandals"],
              [""], (19.0, 129.0), "clothing", [("Size", SHOE_SIZES, 1.0), ("Color", COLORS, 0.6)]),
        _leaf("Jewelry", "jewelry", ["Aurelia", "Moonstone & Co.", "Silver Lane"],
              ["Sterling Silver Hoop Earrings", "Gold Plated Layered Necklace", "Freshwater Pearl Stud Earrings",
               "Stainless Steel Cuff Bracelet", "Birthstone Charm Necklace", "Stackable Midi Rings Set",
               "Men's Stainless Steel Watch"],
              ["", "Gift Boxed"], (9.0, 119.0), "clothing"),
    )),
    ("Electronics", "electronics", (
        _leaf("Headphones", "headphones", ["SonicWave", "AuraBeat", "Pulse Audio", "EchoLine"],
              ["Wireless Noise Cancelling Over-Ear Headphones", "True Wireless Earbuds", "Sports Bluetooth Earphones",
               "Wired Studio Monitor Headphones", "Kids Volume Limited Headphones", "Open Ear Bone Conduction Headphones",
               "Gaming Headset with Microphone"],
              [""], (14.0, 349.0), "electronics", [("Color", DEVICE_COLORS, 0.6)]),
        _leaf("Computers & Accessories", "computers-accessories", ["Nexlink", "ByteGear", "Corelogic", "Voltix"],
              ["USB-C Hub 7-in-1", "Wireless Ergonomic Mouse", "Mechanical Gaming Keyboard",
               "1TB Portable External Hard Drive", "Laptop Cooling Pad", "USB WiFi Adapter for Desktop PC",
               "27 Inch IPS Monitor", "Adjustable Aluminum Laptop Stand", "64GB USB 3.0 Flash Drive",
               "HDMI Cable 6 Feet"],
              ["", "2 Pack", "Black"], (7.0, 299.0), "electronics"),
        _leaf("Camera & Photo", "camera-photo", ["Optix", "FrameLight", "ClearShot"],
              ["Lightweight Travel Tripod", "128GB SD Memory Card", "LED Ring Light with Phone Holder",
               "Waterproof Camera Backpack", "Lens Cleaning Kit", "1080p HD Webcam", "4K Action Camera",
               "Rechargeable Camera Battery Pack"],
              ["", "2 Pack"], (9.0, 199.0), "electronics"),
        _leaf("Home Audio", "home-audio", ["Resonant", "Boomline", "HarborSound"],
              ["Portable Bluetooth Speaker", "Soundbar with Wireless Subwoofer", "Bookshelf Speakers Pair",
               "Smart Speaker with Voice Assistant", "Belt Drive Vinyl Record Player", "FM Radio Alarm Clock",
               "Waterproof Shower Speaker"],
              [""], (19.0, 399.0), "electronics", [("Color", DEVICE_COLORS, 0.3)]),
    )),
    ("Grocery & Gourmet Food", "grocery-gourmet-food", (
        _leaf("Snacks & Sweets", "snacks-sweets", ["Crunchwell", "Sweet Meadow", "Nutty Acres", "Golden Grove"],
              ["Sea Salt Kettle Potato Chips", "Dark Chocolate Almond Bar", "Honey Roasted Peanuts",
               "Trail Mix with Dried Cranberries", "Assorted Fruit Gummy Bears", "Cheddar Cheese Crackers",
               "Caramel Corn", "Organic Fruit Leather Strips", "Salted Caramel Pretzel Bites"],
              ["8 Ounce Bag", "Pack of 6", "12 Count", "1 Pound", "Family Size, 18 Ounce", "Pack of 12"],
              (2.0, 24.0), "grocery"),
        _leaf("Beverages", "beverages", ["Mountain Spring", "Leafwise", "Brewhaus", "Citrus Coast"],
              ["Organic Green Tea Bags", "Dark Roast Ground Coffee", "Sparkling Mineral Water",
               "Cold Brew Coffee Concentrate", "Chamomile Herbal Tea", "Pure Coconut Water", "Earl Grey Black Tea",
               "Medium Roast Coffee Pods", "Electrolyte Drink Mix"],
              ["100 Count", "12 Ounce Bag", "Pack of 24", "32 Fl Oz", "20 Count (Pack of 6)", "2 Pound Bag"],
              (3.0, 39.0), "grocery"),
        _leaf("Pantry Staples", "pantry-staples", ["Farmhouse Pantry", "Olive & Vine", "Prairie Mill", "Spice Route"],
              ["Extra Virgin Olive Oil", "Organic White Quinoa", "Thai Jasmine Rice", "Whole Wheat Penne Pasta",
               "Pure Maple Syrup Grade A", "Himalayan Pink Salt", "Ground Ceylon Cinnamon", "Raw Unfiltered Honey",
               "Organic Chicken Bone Broth", "Granulated Garlic Powder"],
              ["16.9 Fl Oz", "2 Pound Bag", "5 Pound Bag", "Pack of 4", "32 Ounce", "8 Ounce Jar"], (2.0, 29.0), "grocery"),
        _leaf("Breakfast Foods", "breakfast-foods", ["Sunrise Farms", "Oat Haven", "Berry Bright"],
              ["Old Fashioned Rolled Oats", "Honey Nut Granola", "Buttermilk Pancake Mix", "Strawberry Fruit Spread",
               "Instant Oatmeal Variety Pack", "Whole Grain Toaster Pastries", "Crunchy Almond Butter",
               "Blueberry Muffin Mix", "Irish Steel Cut Oats"],
              ["18 Ounce", "Pack of 2", "32 Ounce", "12 Count", "2.5 Pound Bag"], (2.0, 19.0), "grocery"),
    )),
    ("Health & Household", "health-household", (
        _leaf("Vitamins & Supplements", "vitamins-supplements", ["VitaPeak", "NatureBloom", "Purely Well"],
              ["Vitamin D3 5000 IU Softgels", "Daily Multivitamin Gummies", "Omega-3 Fish Oil",
               "Magnesium Glycinate Capsules", "Probiotic 50 Billion CFU", "Collagen Peptides Powder",
               "Elderberry Immune Support", "Melatonin 5mg Tablets"],
              ["60 Count", "120 Count", "240 Softgels", "90 Gummies", "16 Ounce"], (7.0, 44.0), "health"),
        _leaf("Household Supplies", "household-supplies", ["CleanCrest", "FreshHome", "EcoSpark"],
              ["HE Laundry Detergent Pacs", "Dishwasher Detergent Tablets", "Multi-Surface Cleaning Spray",
               "Select-A-Size Paper Towels", "Tall Kitchen Trash Bags 13 Gallon", "Fabric Softener Dryer Sheets",
               "Lemon Disinfecting Wipes", "Toilet Bowl Cleaner Gel"],
              ["81 Count", "Pack of 3", "32 Fl Oz", "12 Double Rolls", "90 Count", "120 Sheets"], (3.0, 29.0), "health"),
        _leaf("Medical Supplies", "medical-supplies", ["CareWell", "MediGuard", "FirstStep"],
              ["Digital Oral Thermometer", "Upper Arm Blood Pressure Monitor", "Fingertip Pulse Oximeter",
               "First Aid Kit 250 Pieces", "Reusable Hot and Cold Gel Pack", "Knee Compression Sleeve",
               "Weekly Pill Organizer"],
              ["", "2 Pack"], (5.0, 69.0), "health"),
    )),
    ("Home & Kitchen", "home-kitchen", (
        _leaf("Kitchen & Dining", "kitchen-dining", ["ChefCraft", "Copper Hearth", "KitchenNest", "Oak & Ember"],
              ["Stainless Steel Chef Knife", "Nonstick Frying Pan", "Pre-Seasoned Cast Iron Skillet",
               "Bamboo Cutting Board Set", "Glass Food Storage Containers", "French Press Coffee Maker",
               "Silicone Baking Mat", "Electric Gooseneck Kettle", "Stoneware Dinnerware Set",
               "Measuring Cups and Spoons Set"],
              ["", "8 Inch", "10 Inch", "Set of 3", "12 Piece"], (8.0, 129.0), "home"),
        _leaf("Bedding", "bedding", ["DreamWeave", "Cloud Nine Linens", "Cozy Cotton"],
              ["Microfiber Sheet Set", "Down Alternative Comforter", "Cooling Gel Memory Foam Pillow",
               "Weighted Blanket 15 lbs", "Waterproof Mattress Protector", "Cotton Duvet Cover Set",
               "Sherpa Fleece Throw Blanket"],
              [""], (19.0, 149.0), "home", [("Size", BED_SIZES, 0.8), ("Color", COLORS, 0.5)]),
        _leaf("Storage & Organization", "storage-organization", ["TidyNest", "StackSmart", "HomeHarbor"],
              ["Over the Door Shoe Organizer", "Collapsible Fabric Storage Bins", "Clear Plastic Drawer Organizers",
               "Under Bed Storage Bags", "Hanging Closet Organizer", "Expandable Bamboo Drawer Dividers",
               "Stackable Pantry Baskets", "Velvet Clothes Hangers"],
              ["Set of 3", "Pack of 6", "24 Pockets", "Set of 2", "50 Pack"], (9.0, 59.0), "home"),
        _leaf("Home Decor", "home-decor", ["Willow & Pine", "Urban Canvas", "Lumina Living"],
              ["Abstract Canvas Wall Art", "Lavender Scented Soy Candle", "Decorative Throw Pillow Covers",
               "Warm White LED String Lights", "Ceramic Bud Vase", "Round Wall Mirror", "Framed Botanical Poster",
               "Faux Eucalyptus Plant in Pot"],
              ["", "Set of 2", "33 Feet"], (9.0, 89.0), "home", [("Size", PRINT_SIZES, 0.25)]),
    )),
    ("Office Products", "office-products", (
        _leaf("Office & School Supplies", "office-school-supplies", ["Scribe & Co.", "PaperTrail", "DeskMate"],
              ["Retractable Gel Ink Pens", "College Ruled Spiral Notebooks", "Sticky Notes Assorted Colors",
               "Heavy Duty Stapler", "Mesh Desk Organizer with Drawer", "Pastel Highlighters Set",
               "Low Odor Dry Erase Markers", "Expanding File Folder"],
              ["12 Pack", "5 Pack", "24 Pads", "", "8 Count"], (2.0, 34.0), "office"),
        _leaf("Office Electronics", "office-electronics", ["PrintPro", "Ledgerline", "ShredSafe"],
              ["Bluetooth Label Maker", "Cross-Cut Paper Shredder", "Scientific Calculator",
               "Desktop Document Scanner", "Thermal Laminator", "Monochrome Laser Printer",
               "Wireless Presentation Clicker"],
              [""], (14.0, 249.0), "office"),
    )),
    ("Cell Phones & Accessories", "cell-phones-accessories", (
        _leaf("Cases & Holsters", "cases-holsters", ["ArmorEdge", "SlimShell", "Casewise"],
              ["Shockproof Case for iPhone 14", "Clear Case for Galaxy S23", "Leather Wallet Case for iPhone 13",
               "Rugged Holster Case for Pixel 7", "Silicone Case for iPhone 14 Pro", "Glitter Case for Galaxy A54",
               "Slim Fit Case for iPhone 12"],
              [""], (6.0, 39.0), "electronics", [("Color", DEVICE_COLORS, 0.7)]),
        _leaf("Chargers & Power Adapters", "chargers-power-adapters", ["ChargeIt", "PowerNest", "AmpCore"],
              ["20W USB-C Fast Charger", "15W Wireless Charging Pad", "10000mAh Portable Power Bank",
               "Dual Port Car Charger", "3-in-1 Charging Station", "Braided Lightning Cable 6ft",
               "USB-C to USB-C Cable 2-Pack"],
              [""], (8.0, 59.0), "electronics"),
    )),
    ("Sports & Outdoors", "sports-outdoors", (
        _leaf("Exercise & Fitness", "exercise-fitness", ["FlexCore", "IronPulse", "ZenFit"],
              ["Non-Slip Yoga Mat", "Adjustable Dumbbell Set", "Resistance Bands Set", "High Density Foam Roller",
               "Speed Jump Rope with Counter", "Cast Iron Kettlebell", "Ab Roller Wheel", "Doorway Pull Up Bar"],
              ["", "Set of 5", "15 lb", "25 lb"], (7.0, 199.0), "sports"),
        _leaf("Outdoor Recreation", "outdoor-recreation", ["TrailMark", "Summit Ridge", "Campfire Co."],
              ["2 Person Camping Tent", "Insulated Stainless Steel Water Bottle", "Hiking Daypack 30L",
               "Rechargeable LED Camping Lantern", "Mummy Sleeping Bag 20 Degree", "Portable Nylon Hammock",
               "Collapsible Trekking Poles", "Compact Backpacking Stove"],
              ["", "32 Ounce", "Pair"], (9.0, 179.0), "sports"),
    )),
    ("Video Games", "video-games", (
        _leaf("Nintendo Switch", "nintendo-switch", ["Playfield", "NeoGame", "PixelForge"],
              ["Game Card Storage Case 24 Slots", "Hard Shell Carrying Case", "Wireless Pro Controller",
               "Tempered Glass Screen Protector", "Joy-Con Charging Dock", "Adventure Quest Deluxe Edition",
               "Kart Racer Party Game", "Joy-Con Comfort Grip Kit"],
              [""], (9.0, 69.0), "games"),
        _leaf("PlayStation 4", "playstation-4", ["RapidFire", "ShadowPlay", "GameCore"],
              ["Wireless Controller for PS4", "Dual Controller Charging Station", "Vertical Cooling Stand",
               "Galactic Warfare Standard Edition", "Street Racer Ultimate", "Headset Stand with USB Hub",
               "Analog Thumb Grips 8 Pack"],
              [""], (9.0, 59.0), "games"),
        _leaf("Xbox One", "xbox-one", ["Titan Play", "GripLord", "XStream Gear"],
              ["Wireless Controller Carbon Black", "Rechargeable Battery Pack 2x", "Wired Chat Headset",
               "Kinetic Sports Challenge", "Controller Skin Kit", "Media Remote Control", "Play and Charge Kit"],
              [""], (9.0, 69.0), "games", [("Color", DEVICE_COLORS, 0.3)]),
    )),
)

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
