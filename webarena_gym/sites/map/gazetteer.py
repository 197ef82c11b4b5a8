"""Fixed geography of the embedded map: neighbourhoods, streets, landmarks, name parts.

Everything here is plain data; :mod:`.data` turns it into a road graph and places with
a seeded random generator. Landmark coordinates are close to the real ones, so the
map reads like Pittsburgh even though the street grid is synthetic.
"""

from __future__ import annotations

#: Bounding box of the map (south, west, north, east).
BOUNDS = (40.418, -80.020, 40.476, -79.892)
#: Street grid size: rows run east-west (south to north), columns north-south (west to east).
GRID_ROWS = 18
GRID_COLS = 24

#: (name, zip code, centre lat, centre lon); a place's neighbourhood is the nearest centre.
NEIGHBORHOODS = (
    ("Downtown", "15222", 40.4410, -80.0000),
    ("North Shore", "15212", 40.4500, -80.0090),
    ("Central Northside", "15212", 40.4620, -80.0120),
    ("Strip District", "15222", 40.4530, -79.9850),
    ("Hill District", "15219", 40.4460, -79.9760),
    ("Bluff", "15219", 40.4360, -79.9860),
    ("South Side", "15203", 40.4260, -79.9850),
    ("Polish Hill", "15219", 40.4570, -79.9680),
    ("Lawrenceville", "15201", 40.4690, -79.9590),
    ("Oakland", "15213", 40.4420, -79.9550),
    ("Bloomfield", "15224", 40.4600, -79.9460),
    ("Greenfield", "15207", 40.4250, -79.9400),
    ("Shadyside", "15232", 40.4530, -79.9320),
    ("Squirrel Hill", "15217", 40.4340, -79.9220),
    ("East Liberty", "15206", 40.4620, -79.9220),
    ("Point Breeze", "15208", 40.4460, -79.9020),
    ("Highland Park", "15206", 40.4730, -79.9080),
)

#: East-west streets, one per grid row from south to north, and their kind.
ROW_STREETS = (
    ("Three Rivers Heritage Trail", "trail"),
    ("East Carson Street", "avenue"),
    ("Second Avenue", "avenue"),
    ("Greenfield Avenue", "avenue"),
    ("Boulevard of the Allies", "avenue"),
    ("Forbes Avenue", "avenue"),
    ("Fifth Avenue", "avenue"),
    ("Wilkins Avenue", "street"),
    ("Centre Avenue", "avenue"),
    ("Ellsworth Avenue", "street"),
    ("Walnut Street", "street"),
    ("Baum Boulevard", "avenue"),
    ("Penn Avenue", "avenue"),
    ("Liberty Avenue", "avenue"),
    ("Smallman Street", "street"),
    ("Butler Street", "avenue"),
    ("Allegheny Avenue", "street"),
    ("East Ohio Street", "street"),
)

#: North-south streets, one per grid column from west to east.
COLUMN_STREETS = (
    ("Stanwix Street", "street"),
    ("Grant Street", "avenue"),
    ("Ross Street", "street"),
    ("Crawford Street", "street"),
    ("Dinwiddie Street", "street"),
    ("Kirkpatrick Street", "street"),
    ("Herron Avenue", "avenue"),
    ("Robinson Street", "street"),
    ("Atwood Street", "street"),
    ("Bouquet Street", "street"),
    ("Bigelow Boulevard", "avenue"),
    ("Craig Street", "street"),
    ("Neville Street", "street"),
    ("Morewood Avenue", "avenue"),
    ("Beeler Street", "street"),
    ("Murray Avenue", "avenue"),
    ("Aiken Avenue", "street"),
    ("Shady Avenue", "avenue"),
    ("Negley Avenue", "avenue"),
    ("Highland Avenue", "avenue"),
    ("Denniston Street", "street"),
    ("Braddock Avenue", "avenue"),
    ("Dallas Avenue", "street"),
    ("Homewood Avenue", "avenue"),
)

#: Car-only expressways: (name, "row"/"col", index, every n-th crossing is an exit, km/h).
HIGHWAYS = (
    ("Parkway East (I-376)", "row", 3, 4, 85.0),
    ("Crosstown Boulevard (I-579)", "col", 2, 3, 70.0),
    ("Allegheny Valley Expressway", "row", 14, 5, 80.0),
)

#: Foot-and-bike diagonal paths through parks.
TRAIL_NAMES = (
    "Panther Hollow Trail", "Junction Hollow Trail", "Frick Park Trail", "Schenley Park Loop",
    "Riverview Path", "Heritage Connector", "Highland Park Trail", "Mellon Park Path",
)
#: Foot-only public stairways (Pittsburgh's city steps).
STEPS_NAMES = (
    "Fineview Steps", "Joncaire Steps", "Oakland Avenue Steps", "Eliza Street Steps",
    "Romeo Street Steps", "Rising Main Steps", "Yard Way Steps", "Paulowna Steps",
    "Mission Street Steps", "Flowers Avenue Steps",
)

#: (slug, label, plural) in display order.
CATEGORIES = (
    ("university", "University", "Universities"),
    ("library", "Library", "Libraries"),
    ("museum", "Museum", "Museums"),
    ("attraction", "Attraction", "Attractions"),
    ("park", "Park", "Parks"),
    ("stadium", "Stadium", "Stadiums"),
    ("theatre", "Theatre", "Theatres"),
    ("station", "Transit Station", "Transit Stations"),
    ("hospital", "Hospital", "Hospitals"),
    ("hotel", "Hotel", "Hotels"),
    ("restaurant", "Restaurant", "Restaurants"),
    ("cafe", "Cafe", "Cafes"),
    ("bar", "Bar", "Bars"),
    ("supermarket", "Supermarket", "Supermarkets"),
    ("pharmacy", "Pharmacy", "Pharmacies"),
    ("bank", "Bank", "Banks"),
    ("fuel", "Gas Station", "Gas Stations"),
    ("bakery", "Bakery", "Bakeries"),
    ("bookstore", "Bookstore", "Bookstores"),
    ("bicycle_shop", "Bicycle Shop", "Bicycle Shops"),
    ("convenience", "Convenience Store", "Convenience Stores"),
    ("school", "School", "Schools"),
    ("cinema", "Cinema", "Cinemas"),
    ("gym", "Fitness Centre", "Fitness Centres"),
    ("place_of_worship", "Place of Worship", "Places of Worship"),
    ("post_office", "Post Office", "Post Offices"),
    ("police", "Police Station", "Police Stations"),
    ("fire_station", "Fire Station", "Fire Stations"),
)

#: Landmarks: (name, category, lat, lon, alternative name or "").
LANDMARKS = (
    ("Carnegie Mellon University", "university", 40.4433, -79.9436, "CMU"),
    ("University of Pittsburgh", "university", 40.4444, -79.9608, "Pitt"),
    ("Duquesne University", "university", 40.4362, -79.9906, ""),
    ("Chatham University", "university", 40.4487, -79.9243, ""),
    ("Carlow University", "university", 40.4402, -79.9640, ""),
    ("Point Park University", "university", 40.4383, -79.9998, ""),
    ("Cathedral of Learning", "attraction", 40.4443, -79.9532, ""),
    ("Hunt Library", "library", 40.4411, -79.9437, ""),
    ("Hillman Library", "library", 40.4425, -79.9540, ""),
    ("Carnegie Library of Pittsburgh - Main", "library", 40.4440, -79.9490, ""),
    ("Carnegie Library of Pittsburgh - Squirrel Hill", "library", 40.4385, -79.9230, ""),
    ("Carnegie Library of Pittsburgh - East Liberty", "library", 40.4616, -79.9239, ""),
    ("Carnegie Library of Pittsburgh - Lawrenceville", "library", 40.4689, -79.9581, ""),
    ("Carnegie Library of Pittsburgh - Downtown", "library", 40.4405, -79.9978, ""),
    ("Carnegie Museum of Natural History", "museum", 40.4433, -79.9497, ""),
    ("Carnegie Museum of Art", "museum", 40.4437, -79.9487, ""),
    ("Carnegie Music Hall", "theatre", 40.4437, -79.9511, ""),
    ("The Andy Warhol Museum", "museum", 40.4483, -80.0025, "Warhol Museum"),
    ("Carnegie Science Center", "museum", 40.4454, -80.0160, ""),
    ("Senator John Heinz History Center", "museum", 40.4468, -79.9925, "Heinz History Center"),
    ("Mattress Factory", "museum", 40.4569, -80.0122, ""),
    ("Children's Museum of Pittsburgh", "museum", 40.4527, -80.0060, ""),
    ("The Frick Pittsburgh", "museum", 40.4472, -79.9016, ""),
    ("Phipps Conservatory and Botanical Gardens", "attraction", 40.4390, -79.9474, "Phipps Conservatory"),
    ("Schenley Park", "park", 40.4353, -79.9476, ""),
    ("Frick Park", "park", 40.4327, -79.9066, ""),
    ("Highland Park", "park", 40.4740, -79.9130, ""),
    ("Point State Park", "park", 40.4416, -80.0107, ""),
    ("Mellon Park", "park", 40.4517, -79.9237, ""),
    ("Arsenal Park", "park", 40.4669, -79.9608, ""),
    ("Allegheny Commons", "park", 40.4528, -80.0100, ""),
    ("Market Square", "attraction", 40.4406, -80.0024, ""),
    ("Randyland", "attraction", 40.4558, -80.0117, ""),
    ("Duquesne Incline", "attraction", 40.4383, -80.0185, ""),
    ("Monongahela Incline", "attraction", 40.4315, -80.0046, ""),
    ("PNC Park", "stadium", 40.4469, -80.0057, ""),
    ("Acrisure Stadium", "stadium", 40.4468, -80.0158, ""),
    ("PPG Paints Arena", "stadium", 40.4395, -79.9892, ""),
    ("Heinz Hall", "theatre", 40.4423, -80.0002, ""),
    ("Benedum Center", "theatre", 40.4431, -80.0015, ""),
    ("Pittsburgh Union Station", "station", 40.4451, -79.9926, "Union Station"),
    ("Steel Plaza Station", "station", 40.4399, -79.9962, ""),
    ("Wood Street Station", "station", 40.4404, -79.9995, ""),
    ("Gateway Station", "station", 40.4416, -80.0041, ""),
    ("Station Square Station", "station", 40.4345, -80.0057, ""),
    ("East Liberty Station", "station", 40.4602, -79.9256, ""),
    ("Negley Station", "station", 40.4597, -79.9326, ""),
    ("Herron Station", "station", 40.4550, -79.9720, ""),
    ("UPMC Presbyterian", "hospital", 40.4421, -79.9606, ""),
    ("UPMC Shadyside", "hospital", 40.4546, -79.9397, ""),
    ("UPMC Mercy", "hospital", 40.4361, -79.9852, ""),
    ("Allegheny General Hospital", "hospital", 40.4572, -80.0037, ""),
    ("West Penn Hospital", "hospital", 40.4626, -79.9479, ""),
    ("UPMC Children's Hospital of Pittsburgh", "hospital", 40.4667, -79.9531, "Children's Hospital"),
    ("UPMC Magee-Womens Hospital", "hospital", 40.4370, -79.9603, ""),
    ("Wyndham Pittsburgh University Center", "hotel", 40.4446, -79.9560, ""),
    ("Hilton Garden Inn Pittsburgh University Place", "hotel", 40.4434, -79.9580, ""),
    ("Residence Inn Pittsburgh Oakland", "hotel", 40.4400, -79.9585, ""),
    ("Hampton Inn University Center", "hotel", 40.4452, -79.9495, ""),
    ("Omni William Penn Hotel", "hotel", 40.4393, -79.9967, ""),
    ("Fairmont Pittsburgh", "hotel", 40.4413, -80.0032, ""),
    ("Kimpton Hotel Monaco Pittsburgh", "hotel", 40.4404, -79.9986, ""),
    ("The Priory Hotel", "hotel", 40.4551, -80.0027, ""),
    ("Hotel Indigo Pittsburgh East Liberty", "hotel", 40.4610, -79.9269, ""),
    ("Mansions on Fifth Hotel", "hotel", 40.4502, -79.9302, ""),
    ("Shadyside Inn All Suites Hotel", "hotel", 40.4555, -79.9356, ""),
    ("Holiday Inn Express Pittsburgh North Shore", "hotel", 40.4475, -80.0128, ""),
    ("Renaissance Pittsburgh Hotel", "hotel", 40.4429, -80.0030, ""),
    ("The Oaklander Hotel", "hotel", 40.4459, -79.9522, ""),
    ("SpringHill Suites Pittsburgh Southside Works", "hotel", 40.4268, -79.9662, ""),
    ("Courtyard Pittsburgh Downtown", "hotel", 40.4418, -79.9985, ""),
    ("St. Paul Cathedral", "place_of_worship", 40.4457, -79.9517, ""),
    ("Heinz Memorial Chapel", "place_of_worship", 40.4451, -79.9518, ""),
    ("Allderdice High School", "school", 40.4323, -79.9226, ""),
    ("Schenley High School", "school", 40.4485, -79.9610, ""),
)

#: Chains: (name, category, how many branches).
CHAINS = (
    ("Starbucks", "cafe", 6),
    ("Dunkin'", "cafe", 3),
    ("Giant Eagle", "supermarket", 4),
    ("ALDI", "supermarket", 2),
    ("Trader Joe's", "supermarket", 1),
    ("Whole Foods Market", "supermarket", 1),
    ("CVS Pharmacy", "pharmacy", 5),
    ("Rite Aid", "pharmacy", 4),
    ("Walgreens", "pharmacy", 3),
    ("PNC Bank", "bank", 5),
    ("Citizens Bank", "bank", 3),
    ("Dollar Bank", "bank", 3),
    ("Huntington Bank", "bank", 3),
    ("Sunoco", "fuel", 3),
    ("GetGo", "fuel", 3),
    ("Sheetz", "fuel", 2),
    ("BP", "fuel", 2),
    ("7-Eleven", "convenience", 4),
    ("Planet Fitness", "gym", 2),
)

#: Words that open generated business names.
NAME_PREFIXES = (
    "Golden", "Little", "Blue Door", "Red Oak", "Old Town", "Iron City", "Copper Kettle", "Three Rivers",
    "Steel City", "Allegheny", "Ohio Valley", "Mon Valley", "Hilltop", "Riverside", "Smoky", "Sunny Side",
    "Lucky", "Silver Spoon", "Black Cat", "Green Light", "Corner", "Northside", "Eastside", "Union",
    "Liberty", "Monroe", "Bridgeview", "Incline", "Mulberry", "Juniper", "Maple", "Cedar", "Harbor",
    "Lantern", "Hearth", "Anchor", "Keystone", "Fox & Hound", "Wildflower", "Bluebird",
)

#: Category -> (suffixes, how many generated businesses, cuisine per suffix or None).
GENERATED = {
    "restaurant": (
        ("Noodle House", "Pierogi Kitchen", "Taqueria", "Trattoria", "Grill", "Bistro", "Diner", "Sushi Bar",
         "Curry House", "Smokehouse", "Pizzeria", "Dumpling House", "Steakhouse", "Cantina", "Thai Kitchen",
         "Ramen Bar", "Falafel Shop", "Burger Joint"),
        72,
        ("noodles", "polish", "mexican", "italian", "american", "french", "american", "japanese", "indian",
         "barbecue", "pizza", "chinese", "steak", "mexican", "thai", "japanese", "middle eastern", "burger"),
    ),
    "cafe": (("Coffee", "Cafe", "Tea House", "Espresso Bar", "Coffee Roasters"), 28,
             ("coffee", "coffee", "tea", "coffee", "coffee")),
    "bar": (("Tavern", "Pub", "Brewing Company", "Taproom", "Saloon"), 20, None),
    "bakery": (("Bakery", "Bakehouse", "Pastry Shop"), 10, None),
    "bookstore": (("Books", "Bookshop", "Used Books"), 8, None),
    "bicycle_shop": (("Bike Shop", "Cycles", "Bicycle Works"), 6, None),
    "convenience": (("Market", "Corner Store"), 5, None),
    "cinema": (("Cinema", "Theater", "Film House"), 4, None),
    "gym": (("Fitness", "Climbing Gym", "Yoga Studio"), 6, None),
    "supermarket": (("Grocery",), 2, None),
    "pharmacy": (("Pharmacy",), 2, None),
}

#: Names for generated schools and churches.
SCHOOL_NAMES = ("Colfax", "Linden", "Minadeo", "Sunnyside", "Fulton", "Dilworth", "Woolslair", "Arsenal",
                "Manchester", "Phillips", "Greenfield", "Liberty")
SCHOOL_KINDS = ("Elementary School", "Middle School", "K-8 School")
SAINTS = ("St. Mary", "St. Joseph", "St. Stanislaus Kostka", "St. Rosalia", "St. Lawrence", "St. Patrick",
          "St. Nicholas", "St. Benedict", "St. Andrew", "St. Augustine")
CHURCH_KINDS = ("Church", "Parish", "Chapel")

#: OpenStreetMap-style opening hours by category (one is picked per place).
OPENING_HOURS = {
    "restaurant": ("Mo-Su 11:00-22:00", "Tu-Su 12:00-21:30", "Mo-Th 11:30-21:00; Fr-Sa 11:30-23:00; Su 12:00-20:00"),
    "cafe": ("Mo-Fr 07:00-19:00; Sa-Su 08:00-17:00", "Mo-Su 06:30-20:00", "Mo-Sa 07:30-18:00"),
    "bar": ("Mo-Su 16:00-02:00", "Tu-Sa 17:00-01:00", "Mo-Su 12:00-00:00"),
    "supermarket": ("Mo-Su 07:00-22:00", "Mo-Su 08:00-21:00", "Mo-Sa 07:00-23:00; Su 08:00-21:00"),
    "pharmacy": ("Mo-Fr 08:00-21:00; Sa-Su 09:00-18:00", "Mo-Su 24/7", "Mo-Fr 09:00-19:00; Sa 09:00-14:00"),
    "bank": ("Mo-Fr 09:00-17:00", "Mo-Fr 09:00-17:00; Sa 09:00-12:00"),
    "library": ("Mo-Th 10:00-20:00; Fr-Sa 10:00-17:30; Su 12:00-17:00", "Mo-Sa 10:00-18:00"),
    "museum": ("Tu-Su 10:00-17:00", "We-Mo 10:00-17:00; Th 10:00-20:00"),
    "bakery": ("Tu-Sa 07:00-15:00", "Mo-Sa 06:30-14:00; Su 07:00-12:00"),
    "bookstore": ("Mo-Sa 10:00-19:00; Su 11:00-17:00", "Tu-Su 11:00-18:00"),
    "bicycle_shop": ("Tu-Fr 11:00-19:00; Sa 10:00-17:00",),
    "convenience": ("Mo-Su 24/7", "Mo-Su 06:00-23:00"),
    "fuel": ("Mo-Su 24/7",),
    "gym": ("Mo-Fr 05:00-23:00; Sa-Su 07:00-20:00",),
    "cinema": ("Mo-Su 12:00-23:30",),
    "post_office": ("Mo-Fr 08:30-17:00; Sa 09:00-13:00",),
}

#: Problems people report in map notes ({street}, {month} and {number} are filled in).
NOTE_TEMPLATES = (
    "The opening hours shown here are outdated; they changed this spring.",
    "The entrance has moved to {street}.",
    "This place closed permanently in {month}.",
    "The name on the sign is now different, please check.",
    "There is a wheelchair ramp at the side entrance on {street}.",
    "The address number is wrong, it should be {number}.",
    "Bike parking is available in front of the building.",
    "The building is under renovation; access from {street} only.",
    "The parking lot behind the building is gone.",
    "This is listed in the wrong category.",
    "The footpath next to this place is blocked by construction.",
    "There is a new bus stop right outside on {street}.",
)
NOTE_COMMENTS = (
    "I can confirm this, walked by yesterday.",
    "Is there a source for this?",
    "Checked on site, still the same.",
    "Thanks, updated the map.",
    "Fixed.",
    "Could someone take a photo?",
)
NOTE_AUTHORS = ("anonymous", "steelcitymapper", "oakland_walker", "pgh_cyclist", "rivertrail", "incline_fan")
