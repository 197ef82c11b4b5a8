"""Text pools for generated reviews, reviewers, customers and addresses.

Aspect sentences each mention exactly one aspect keyword (the key of :data:`ASPECTS`);
no other sentence of these pools mentions any keyword, so "which reviewers mention X"
has one right answer.
"""

from __future__ import annotations

#: keyword -> (positive sentences, negative sentences); every sentence contains the keyword.
ASPECTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "packaging": (("The packaging was neat and everything arrived intact.", "Nice packaging, it would make a great gift."),
                  ("The packaging was damaged when it arrived.", "Flimsy packaging, the box was crushed.")),
    "price": (("Worth every penny at this price.", "The price is hard to beat."),
              ("The price is too high for what you get.", "Not worth the price.")),
    "delivery": (("Fast delivery, it came two days early.",), ("The delivery took almost three weeks.",)),
    "customer service": (("Customer service answered my question within an hour.",),
                         ("Customer service never replied to my emails.",)),
    "instructions": (("The instructions were clear and easy to follow.",),
                     ("The instructions were confusing and missing steps.",)),
    "taste": (("The taste is rich and not too sweet.",), ("The taste was bland and stale.",)),
    "expiration date": (("It arrived well before the expiration date.",),
                        ("It arrived two weeks past the expiration date.",)),
    "scent": (("The scent is light and pleasant.",), ("The scent is overpowering and gave me a headache.",)),
    "skin": (("My skin feels softer after a week.",), ("It made my skin break out in a rash.",)),
    "battery": (("The battery lasts all day.",), ("The battery died after two hours.",)),
    "setup": (("Setup took less than five minutes.",), ("Setup was a nightmare and the app kept crashing.",)),
    "fabric": (("The fabric is soft and thick.",), ("The fabric is thin and see-through.",)),
    "sizing": (("The sizing is spot on, I got my usual.",), ("The sizing runs small, order one up.",)),
    "smell": (("There is no smell at all.",), ("The smell is awful.",)),
    "results": (("I noticed results within a week.",), ("I saw no results after a month.",)),
    "color": (("The color matches the photos exactly.",), ("The color looks nothing like the photos.",)),
    "durability": (("The durability is impressive after months of use.",), ("Durability is poor, it cracked within days.",)),
    "ink": (("The ink flows smoothly without smudging.",), ("The ink ran dry in a week.",)),
    "weight": (("The weight feels solid and balanced.",), ("The weight is lighter than advertised.",)),
    "controls": (("The controls are responsive.",), ("The controls feel laggy.",)),
    "build quality": (("The build quality is excellent.",), ("The build quality feels cheap.",)),
}

GENERAL_ASPECTS = ("packaging", "price", "delivery", "customer service", "instructions")
GROUP_ASPECTS: dict[str, tuple[str, ...]] = {
    "grocery": ("taste", "expiration date"),
    "beauty": ("scent", "skin"),
    "electronics": ("battery", "setup"),
    "clothing": ("fabric", "sizing"),
    "health": ("smell", "results"),
    "home": ("color", "durability"),
    "office": ("ink", "durability"),
    "sports": ("weight", "durability"),
    "games": ("controls", "build quality"),
}

#: rating -> sentences that judge the product without naming an aspect.
OPINIONS: dict[int, tuple[str, ...]] = {
    5: ("Absolutely love it.", "Exceeded my expectations.", "I would buy this again in a heartbeat.",
        "Works exactly as described.", "My whole family uses it now.", "Best purchase I've made this year."),
    4: ("Really good overall.", "Does what it promises with minor quirks.", "Happy with this purchase.",
        "Solid product, I'd recommend it.", "Good, but not perfect."),
    3: ("It's okay, nothing special.", "Does the job but I expected more.", "Average at best.",
        "Some things I like, some I don't."),
    2: ("Not impressed.", "I expected much better.", "It stopped working properly after a few uses.",
        "Would not recommend."),
    1: ("Terrible, I returned it.", "Complete waste of money.", "Broke on the first day.", "Do not buy this."),
}

SUMMARIES: dict[int, tuple[str, ...]] = {
    5: ("Love it!", "Five stars", "Excellent", "Highly recommend", "Perfect", "Great buy"),
    4: ("Very good", "Pretty good", "Good value", "Recommended", "Nice"),
    3: ("Okay", "Average", "Mixed feelings", "Decent"),
    2: ("Disappointed", "Not great", "Meh"),
    1: ("Awful", "Returned it", "Junk", "Don't waste your time"),
}

FIRST_NAMES = (
    "Jennifer", "Michael", "Sarah", "David", "Jessica", "Chris", "Ashley", "Brian", "Amanda", "Kevin", "Melissa",
    "Jason", "Nicole", "Ryan", "Stephanie", "Eric", "Laura", "Daniel", "Rachel", "Mark", "Heather", "Steven",
    "Megan", "Paul", "Lisa", "Andrew", "Karen", "Joshua", "Emily", "Justin", "Angela", "Tyler", "Olivia", "Sean",
    "Grace", "Omar", "Priya", "Wei", "Carlos", "Fatima",
)
LAST_INITIALS = "ABCDEGHKLMNPRSTW"
HANDLES = (
    "coffeeLover88", "TechieTom", "BargainHunter", "MomOfThree", "GadgetGuru", "HappyCamper", "BookwormBeth",
    "NightOwl42", "Runner_Jay", "PlantMom", "DIY Dan", "KitchenQueen", "GamerGirl99", "FrugalFred", "SunnyD",
)

#: (first name, last name, email) of the store's other customers.
OTHER_CUSTOMERS = (
    ("Alex", "Martin", "alex.martin@gmail.com"),
    ("Grace", "Nguyen", "grace.nguyen@yahoo.com"),
    ("Jason", "Miller", "jason.miller@outlook.com"),
    ("Sophia", "Kim", "sophia.kim@gmail.com"),
    ("Daniel", "Okafor", "daniel.okafor@hotmail.com"),
    ("Lily", "Chen", "lily.chen@gmail.com"),
)

#: (city, state, zip) for generated addresses.
PLACES = (
    ("Chicago", "Illinois", "60601"), ("Seattle", "Washington", "98101"), ("Austin", "Texas", "78701"),
    ("Denver", "Colorado", "80202"), ("Boston", "Massachusetts", "02108"), ("Portland", "Oregon", "97205"),
    ("Miami", "Florida", "33131"), ("Phoenix", "Arizona", "85004"), ("Atlanta", "Georgia", "30303"),
    ("Nashville", "Tennessee", "37203"), ("Minneapolis", "Minnesota", "55401"), ("Pittsburgh", "Pennsylvania", "15222"),
    ("Columbus", "Ohio", "43215"), ("Salt Lake City", "Utah", "84111"), ("Raleigh", "North Carolina", "27601"),
    ("Madison", "Wisconsin", "53703"), ("Albuquerque", "New Mexico", "87102"), ("Richmond", "Virginia", "23219"),
    ("Kansas City", "Missouri", "64105"), ("Baltimore", "Maryland", "21202"),
)
STREET_NAMES = (
    "Willow Way", "Maple Avenue", "Oak Street", "Cedar Lane", "Pine Road", "Elm Drive", "Lakeview Boulevard",
    "Sunset Avenue", "Highland Road", "River Street", "Park Place", "Chestnut Court", "Meadow Lane", "Harbor Drive",
    "Birch Street", "Summit Avenue", "Orchard Road", "Spring Street", "Valley View Drive", "Bay Street",
)
SECOND_LINES = ("Suite 100", "Apt 4B", "Unit 12", "Apt 301", "Suite 220", "Floor 3")

#: US states (name, abbreviation), the region select of address forms.
US_STATES = (
    ("Alabama", "AL"), ("Alaska", "AK"), ("Arizona", "AZ"), ("Arkansas", "AR"), ("California", "CA"),
    ("Colorado", "CO"), ("Connecticut", "CT"), ("Delaware", "DE"), ("District of Columbia", "DC"), ("Florida", "FL"),
    ("Georgia", "GA"), ("Hawaii", "HI"), ("Idaho", "ID"), ("Illinois", "IL"), ("Indiana", "IN"), ("Iowa", "IA"),
    ("Kansas", "KS"), ("Kentucky", "KY"), ("Louisiana", "LA"), ("Maine", "ME"), ("Maryland", "MD"),
    ("Massachusetts", "MA"), ("Michigan", "MI"), ("Minnesota", "MN"), ("Mississippi", "MS"), ("Missouri", "MO"),
    ("Montana", "MT"), ("Nebraska", "NE"), ("Nevada", "NV"), ("New Hampshire", "NH"), ("New Jersey", "NJ"),
    ("New Mexico", "NM"), ("New York", "NY"), ("North Carolina", "NC"), ("North Dakota", "ND"), ("Ohio", "OH"),
    ("Oklahoma", "OK"), ("Oregon", "OR"), ("Pennsylvania", "PA"), ("Rhode Island", "RI"), ("South Carolina", "SC"),
    ("South Dakota", "SD"), ("Tennessee", "TN"), ("Texas", "TX"), ("Utah", "UT"), ("Vermont", "VT"),
    ("Virginia", "VA"), ("Washington", "WA"), ("West Virginia", "WV"), ("Wisconsin", "WI"), ("Wyoming", "WY"),
)
