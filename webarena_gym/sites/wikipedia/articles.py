"""The articles of the embedded reference site, written for this package.

Each article is plain data: a title, a one-line description, an infobox of (label, value)
rows, a lead paragraph and sections. Text may link other articles with ``[[Title]]`` or
``[[Title|shown text]]``. The list articles ("List of museums in Pittsburgh", "Sports in
Pittsburgh") are not written here: :mod:`.data` builds them from these infoboxes, so a
list and the articles it lists always agree.

:data:`KINDS` groups the articles that a list collects (university, museum, park, stadium,
attraction, theatre, team).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Article:
    title: str
    description: str
    lead: str
    infobox: tuple[tuple[str, str], ...] = ()
    sections: tuple[tuple[str, str], ...] = ()


A = Article
PGH = "[[Pittsburgh]], Pennsylvania"

ARTICLES: tuple[Article, ...] = (
    # -- the city and its people -----------------------------------------------------------
    A("Pittsburgh", "City in Pennsylvania, United States",
      "'''Pittsburgh''' is a city in western Pennsylvania where the Allegheny and Monongahela rivers meet to form "
      "the Ohio River. Once the centre of the American steel industry, it is now known for its universities, "
      "hospitals, museums and its many bridges and hillside stairways.",
      (("Country", "United States"), ("State", "Pennsylvania"), ("County", "Allegheny County"),
       ("Founded", "1758"), ("Incorporated", "1816 (city)"), ("Nickname", "Steel City, City of Bridges"),
       ("Area code", "412")),
      (("History", "A British fort, Fort Pitt, was built at the forks of the rivers in 1758 and gave the town its "
                   "name. Iron and glass works grew in the nineteenth century, and by 1900 the mills of "
                   "[[Andrew Carnegie]] and [[Henry Clay Frick]] made the region the country's steel centre."),
       ("Neighborhoods", "The city has about ninety neighborhoods, among them Downtown at the Point, "
                         "[[Oakland (Pittsburgh)|Oakland]] with its universities and hospitals, the "
                         "[[North Shore (Pittsburgh)|North Shore]] with its stadiums, Shadyside, Squirrel Hill, "
                         "Lawrenceville and the Strip District."),
       ("Education", "Higher education is led by the [[University of Pittsburgh]] and "
                     "[[Carnegie Mellon University]], both in Oakland, together with [[Duquesne University]], "
                     "[[Chatham University]], [[Carlow University]] and [[Point Park University]]. See "
                     "[[List of universities in Pittsburgh]]."),
       ("Culture", "The [[Carnegie Museum of Art]], the [[Carnegie Museum of Natural History]] and "
                   "[[The Andy Warhol Museum]] are among the city's museums (see [[List of museums in Pittsburgh]]). "
                   "The Cultural District Downtown holds [[Heinz Hall]] and the [[Benedum Center]]."),
       ("Sports", "The city's professional teams are the [[Pittsburgh Pirates]], the [[Pittsburgh Steelers]] and "
                  "the [[Pittsburgh Penguins]]; see [[Sports in Pittsburgh]]."),
       ("Parks", "[[Schenley Park]], [[Frick Park]], [[Highland Park (Pittsburgh)|Highland Park]] and "
                 "[[Point State Park]] are the largest green spaces; see [[List of parks in Pittsburgh]]."))),
    A("Oakland (Pittsburgh)", "Neighborhood of Pittsburgh, Pennsylvania",
      "'''Oakland''' is the academic and medical district of [[Pittsburgh]], about three miles east of Downtown.",
      (("City", "[[Pittsburgh]]"), ("ZIP code", "15213")),
      (("Institutions", "The [[University of Pittsburgh]] with its [[Cathedral of Learning]], "
                        "[[Carnegie Mellon University]] and [[Carlow University]] share the neighborhood with the "
                        "[[Carnegie Museum of Natural History]], the [[Carnegie Museum of Art]] and the "
                        "[[Carnegie Music Hall]]."),
       ("Parks", "[[Schenley Park]] and [[Phipps Conservatory and Botanical Gardens]] lie on its southern edge."))),
    A("North Shore (Pittsburgh)", "Neighborhood of Pittsburgh, Pennsylvania",
      "The '''North Shore''' is the riverfront across the Allegheny River from Downtown [[Pittsburgh]].",
      (("City", "[[Pittsburgh]]"), ("ZIP code", "15212")),
      (("Landmarks", "It holds [[PNC Park]], [[Acrisure Stadium]], the [[Carnegie Science Center]] and "
                     "[[The Andy Warhol Museum]]."),)),
    A("Andrew Carnegie", "Scottish-American industrialist and philanthropist (1835-1919)",
      "'''Andrew Carnegie''' was a steel magnate who, after selling his company in 1901, gave most of his fortune "
      "to libraries, schools and museums.",
      (("Born", "25 November 1835, Dunfermline, Scotland"), ("Died", "11 August 1919"),
       ("Known for", "Carnegie Steel Company, philanthropy")),
      (("Pittsburgh", "In [[Pittsburgh]] he founded the Carnegie Technical Schools, today "
                      "[[Carnegie Mellon University]], and the Carnegie Institute, home of the "
                      "[[Carnegie Museum of Art]], the [[Carnegie Museum of Natural History]] and the "
                      "[[Carnegie Music Hall]]. His partner was [[Henry Clay Frick]]."),)),
    A("Henry Clay Frick", "American industrialist and art patron (1849-1919)",
      "'''Henry Clay Frick''' was a coke and steel businessman and a partner of [[Andrew Carnegie]].",
      (("Born", "19 December 1849"), ("Died", "2 December 1919"), ("Children", "Helen Clay Frick")),
      (("Legacy", "He left land and money for [[Frick Park]]; his daughter Helen founded "
                  "[[The Frick Pittsburgh]] at the family home, Clayton."),)),
    A("Andy Warhol", "American artist (1928-1987)",
      "'''Andy Warhol''' was a leading artist of the pop art movement, born in [[Pittsburgh]].",
      (("Born", "6 August 1928, Pittsburgh"), ("Died", "22 February 1987"), ("Education", "[[Carnegie Mellon University|Carnegie Institute of Technology]]")),
      (("Museum", "[[The Andy Warhol Museum]] on the [[North Shore (Pittsburgh)|North Shore]] holds the largest "
                  "collection of his work."),)),
    A("Mary Schenley", "American philanthropist (1826-1903)",
      "'''Mary Schenley''' was an heiress who owned much of the land of early [[Pittsburgh]].",
      (("Born", "1826"), ("Died", "1903")),
      (("Gifts", "In 1889 she gave the city the land that became [[Schenley Park]]."),)),
    # -- universities ------------------------------------------------------------------------
    A("Carnegie Mellon University", "Private research university in Pittsburgh, Pennsylvania",
      "'''Carnegie Mellon University''' ('''CMU''') is a private research university in the "
      "[[Oakland (Pittsburgh)|Oakland]] neighborhood of [[Pittsburgh]], known for computer science, engineering, "
      "drama and robotics.",
      (("Type", "Private research university"), ("Established", "1900"), ("Founder", "[[Andrew Carnegie]]"),
       ("Location", PGH), ("Students", "about 15,800"), ("Colors", "Carnegie red, gray"), ("Mascot", "Scotty")),
      (("History", "[[Andrew Carnegie]] founded the Carnegie Technical Schools in 1900; they became the Carnegie "
                   "Institute of Technology in 1912 and merged with the Mellon Institute of Industrial Research "
                   "in 1967 to form the present university."),
       ("Campus", "The campus sits between [[Schenley Park]] and the [[University of Pittsburgh]]. Hunt Library "
                  "is its main library."),
       ("Notable alumni", "Alumni include [[Andy Warhol]]."))),
    A("University of Pittsburgh", "State-related research university in Pittsburgh, Pennsylvania",
      "The '''University of Pittsburgh''' ('''Pitt''') is a state-related research university whose campus is "
      "centred on the [[Cathedral of Learning]] in [[Oakland (Pittsburgh)|Oakland]].",
      (("Type", "State-related research university"), ("Established", "1787"),
       ("Founder", "Hugh Henry Brackenridge"), ("Location", PGH), ("Students", "about 34,000"),
       ("Athletics", "[[Pittsburgh Panthers football|Pittsburgh Panthers]]")),
      (("History", "The school began in 1787 as the Pittsburgh Academy, chartered at the urging of Hugh Henry "
                   "Brackenridge, and took its present name in 1908 after moving to Oakland."),
       ("Campus", "The [[Cathedral of Learning]] and Hillman Library stand at the heart of the campus."))),
    A("Duquesne University", "Private Catholic university in Pittsburgh, Pennsylvania",
      "'''Duquesne University of the Holy Spirit''' is a private Catholic university on the Bluff above "
      "Downtown [[Pittsburgh]].",
      (("Type", "Private Catholic university"), ("Established", "1878"),
       ("Founder", "Congregation of the Holy Spirit"), ("Location", PGH), ("Students", "about 8,500")),
      (("History", "Priests of the Congregation of the Holy Spirit opened it in 1878 as the Pittsburgh Catholic "
                   "College; it was renamed for the Marquis Duquesne in 1911."),)),
    A("Chatham University", "Private university in Pittsburgh, Pennsylvania",
      "'''Chatham University''' is a private university in the Shadyside area of [[Pittsburgh]].",
      (("Type", "Private university"), ("Established", "1869"), ("Location", PGH), ("Students", "about 2,200")),
      (("History", "It opened in 1869 as the Pennsylvania Female College and admitted men as undergraduates "
                   "from 2015."),)),
    A("Carlow University", "Private Catholic university in Pittsburgh, Pennsylvania",
      "'''Carlow University''' is a private Catholic university in [[Oakland (Pittsburgh)|Oakland]].",
      (("Type", "Private Catholic university"), ("Established", "1929"), ("Founder", "Sisters of Mercy"),
       ("Location", PGH), ("Students", "about 2,100")),
      (("History", "The Sisters of Mercy opened it in 1929 as Mount Mercy College."),)),
    A("Point Park University", "Private university in Pittsburgh, Pennsylvania",
      "'''Point Park University''' is a private university in Downtown [[Pittsburgh]], near [[Point State Park]].",
      (("Type", "Private university"), ("Established", "1960"), ("Location", PGH), ("Students", "about 3,000")),
      (("History", "It began in 1960 as Point Park Junior College and became a university in 2004."),)),
    # -- museums -----------------------------------------------------------------------------
    A("Carnegie Museum of Natural History", "Natural history museum in Pittsburgh, Pennsylvania",
      "The '''Carnegie Museum of Natural History''' is one of the four Carnegie Museums of Pittsburgh, famous for "
      "its dinosaur fossils.",
      (("Type", "Natural history museum"), ("Opened", "1896"), ("Founder", "[[Andrew Carnegie]]"),
       ("Location", PGH)),
      (("Collections", "Its Dinosaurs in Their Time hall shows the Diplodocus carnegii skeleton known as Dippy."),
       ("Building", "It shares the Carnegie Institute building with the [[Carnegie Museum of Art]] and the "
                    "[[Carnegie Music Hall]]."))),
    A("Carnegie Museum of Art", "Art museum in Pittsburgh, Pennsylvania",
      "The '''Carnegie Museum of Art''' is an art museum in [[Oakland (Pittsburgh)|Oakland]], known for the "
      "Carnegie International exhibition.",
      (("Type", "Art museum"), ("Opened", "1895"), ("Founder", "[[Andrew Carnegie]]"), ("Location", PGH)),
      (("History", "[[Andrew Carnegie]] opened it in 1895 to collect the 'old masters of tomorrow'."),)),
    A("The Andy Warhol Museum", "Art museum in Pittsburgh, Pennsylvania",
      "'''The Andy Warhol Museum''' on the [[North Shore (Pittsburgh)|North Shore]] is devoted to the life and work "
      "of [[Andy Warhol]].",
      (("Type", "Art museum"), ("Opened", "1994"), ("Named after", "[[Andy Warhol]]"), ("Location", PGH)),
      (("Collection", "It holds thousands of paintings, drawings, prints, photographs and films by the artist."),)),
    A("Carnegie Science Center", "Science museum in Pittsburgh, Pennsylvania",
      "The '''Carnegie Science Center''' is a science museum on the Ohio River shore.",
      (("Type", "Science museum"), ("Opened", "1991"), ("Location", PGH)),
      (("Exhibits", "A planetarium, a sports science hall and the submarine USS Requin moored outside."),)),
    A("Senator John Heinz History Center", "History museum in Pittsburgh, Pennsylvania",
      "The '''Senator John Heinz History Center''' is a history museum in the Strip District, affiliated with the "
      "Smithsonian.",
      (("Type", "History museum"), ("Opened", "1996"), ("Named after", "H. John Heinz III"), ("Location", PGH)),
      (("Building", "It occupies a converted ice warehouse of 1898 and opened there in 1996."),)),
    A("Mattress Factory", "Contemporary art museum in Pittsburgh, Pennsylvania",
      "The '''Mattress Factory''' is a museum of room-sized installation art on the Northside.",
      (("Type", "Contemporary art museum"), ("Opened", "1977"), ("Founder", "Barbara Luderowski"),
       ("Location", PGH)),
      (("History", "The artist Barbara Luderowski founded it in 1977 in a former mattress warehouse."),)),
    A("Children's Museum of Pittsburgh", "Children's museum in Pittsburgh, Pennsylvania",
      "The '''Children's Museum of Pittsburgh''' is a hands-on museum in Allegheny Center.",
      (("Type", "Children's museum"), ("Opened", "1983"), ("Location", PGH)),
      (("Building", "It is housed in the old Allegheny post office and a former planetarium."),)),
    A("The Frick Pittsburgh", "Museum complex in Pittsburgh, Pennsylvania",
      "'''The Frick Pittsburgh''' is a museum complex at Clayton, the former home of [[Henry Clay Frick]].",
      (("Type", "Art museum and historic house"), ("Opened", "1970"), ("Founder", "Helen Clay Frick"),
       ("Location", PGH)),
      (("History", "Helen Clay Frick opened the Frick Art Museum on the grounds in 1970."),)),
    # -- parks --------------------------------------------------------------------------------
    A("Schenley Park", "Municipal park in Pittsburgh, Pennsylvania",
      "'''Schenley Park''' is a large park between [[Oakland (Pittsburgh)|Oakland]] and Squirrel Hill.",
      (("Type", "Municipal park"), ("Established", "1889"), ("Named after", "[[Mary Schenley]]"),
       ("Area", "456 acres"), ("Location", PGH)),
      (("History", "[[Mary Schenley]] gave most of its land in 1889."),
       ("Features", "[[Phipps Conservatory and Botanical Gardens]], a golf course, Panther Hollow Lake and an "
                    "ice rink."))),
    A("Frick Park", "Municipal park in Pittsburgh, Pennsylvania",
      "'''Frick Park''' is the largest municipal park of [[Pittsburgh]], with wooded valleys and trails.",
      (("Type", "Municipal park"), ("Established", "1927"), ("Named after", "[[Henry Clay Frick]]"),
       ("Area", "644 acres"), ("Location", PGH)),
      (("History", "[[Henry Clay Frick]] left the land in his will; the park opened in 1927."),)),
    A("Highland Park (Pittsburgh)", "Municipal park in Pittsburgh, Pennsylvania",
      "'''Highland Park''' is a park in the north-east of [[Pittsburgh]] that holds the city's zoo and reservoir.",
      (("Type", "Municipal park"), ("Established", "1893"), ("Area", "380 acres"), ("Location", PGH)),
      (("Features", "The Pittsburgh Zoo and a reservoir with a walking path."),)),
    A("Point State Park", "State park in Pittsburgh, Pennsylvania",
      "'''Point State Park''' is a state park at the tip of Downtown [[Pittsburgh]], where the rivers meet.",
      (("Type", "State park"), ("Established", "1974"), ("Area", "36 acres"), ("Location", PGH)),
      (("Features", "A large fountain and the outline of Fort Pitt; it was completed in 1974."),)),
    A("Mellon Park", "Municipal park in Pittsburgh, Pennsylvania",
      "'''Mellon Park''' is a park in Shadyside on the grounds of a former Mellon family estate.",
      (("Type", "Municipal park"), ("Established", "1943"), ("Named after", "Richard Beatty Mellon"),
       ("Location", PGH)),
      (("History", "The Mellon family gave the estate to the city, which opened it as a park in 1943."),)),
    A("Arsenal Park", "Municipal park in Pittsburgh, Pennsylvania",
      "'''Arsenal Park''' is a park in Lawrenceville on the site of the Allegheny Arsenal.",
      (("Type", "Municipal park"), ("Established", "1907"), ("Named after", "Allegheny Arsenal"),
       ("Location", PGH)),
      (("History", "An explosion at the arsenal in 1862 was the worst civilian disaster of the Civil War."),)),
    A("Allegheny Commons", "Municipal park in Pittsburgh, Pennsylvania",
      "'''Allegheny Commons''' is the oldest park of [[Pittsburgh]], on the Northside.",
      (("Type", "Municipal park"), ("Established", "1867"), ("Location", PGH)),
      (("History", "Common grazing land from 1788, it was laid out as a park in 1867."),)),
    # -- stadiums -------------------------------------------------------------------------------
    A("PNC Park", "Baseball park in Pittsburgh, Pennsylvania",
      "'''PNC Park''' is the baseball park of the [[Pittsburgh Pirates]] on the "
      "[[North Shore (Pittsburgh)|North Shore]], facing Downtown across the Roberto Clemente Bridge.",
      (("Type", "Baseball park"), ("Opened", "2001"), ("Capacity", "38,747"),
       ("Tenants", "[[Pittsburgh Pirates]] (MLB)"), ("Location", PGH)),
      (("History", "It replaced Three Rivers Stadium and opened on 9 April 2001."),)),
    A("Acrisure Stadium", "American football stadium in Pittsburgh, Pennsylvania",
      "'''Acrisure Stadium''', called Heinz Field until 2022, is the football stadium of the "
      "[[Pittsburgh Steelers]] and the [[Pittsburgh Panthers football|Pittsburgh Panthers]].",
      (("Type", "Football stadium"), ("Opened", "2001"), ("Former names", "Heinz Field (2001-2022)"),
       ("Capacity", "68,400"), ("Tenants", "[[Pittsburgh Steelers]] (NFL), [[Pittsburgh Panthers football|Pittsburgh Panthers]] (NCAA)"),
       ("Location", PGH)),
      (("History", "It opened in August 2001 next to the site of Three Rivers Stadium."),)),
    A("PPG Paints Arena", "Indoor arena in Pittsburgh, Pennsylvania",
      "'''PPG Paints Arena''', formerly the Consol Energy Center, is the home arena of the "
      "[[Pittsburgh Penguins]] in the Hill District.",
      (("Type", "Indoor arena"), ("Opened", "2010"), ("Former names", "Consol Energy Center (2010-2016)"),
       ("Capacity", "18,387 (ice hockey)"), ("Tenants", "[[Pittsburgh Penguins]] (NHL)"), ("Location", PGH)),
      (("History", "It replaced the Civic Arena across the street in 2010."),)),
    # -- teams ---------------------------------------------------------------------------------
    A("Pittsburgh Pirates", "Major League Baseball team",
      "The '''Pittsburgh Pirates''' are a professional baseball team based in [[Pittsburgh]].",
      (("League", "Major League Baseball (MLB)"), ("Sport", "Baseball"), ("Founded", "1881"),
       ("Home venue", "[[PNC Park]]"), ("Former venues", "Forbes Field (1909-1970), Three Rivers Stadium (1970-2000)"),
       ("World Series titles", "5")),
      (("Venues", "The team has played at [[PNC Park]] since 2001."),)),
    A("Pittsburgh Steelers", "National Football League team",
      "The '''Pittsburgh Steelers''' are a professional American football team based in [[Pittsburgh]].",
      (("League", "National Football League (NFL)"), ("Sport", "American football"), ("Founded", "1933"),
       ("Home venue", "[[Acrisure Stadium]]"), ("Former venues", "Forbes Field, Pitt Stadium, Three Rivers Stadium"),
       ("Super Bowl titles", "6")),
      (("Venues", "The team has played at [[Acrisure Stadium]] since 2001."),)),
    A("Pittsburgh Penguins", "National Hockey League team",
      "The '''Pittsburgh Penguins''' are a professional ice hockey team based in [[Pittsburgh]].",
      (("League", "National Hockey League (NHL)"), ("Sport", "Ice hockey"), ("Founded", "1967"),
       ("Home venue", "[[PPG Paints Arena]]"), ("Former venues", "Civic Arena (1967-2010)"),
       ("Stanley Cup titles", "5")),
      (("Venues", "The team moved to [[PPG Paints Arena]] in 2010."),)),
    A("Pittsburgh Panthers football", "College football team of the University of Pittsburgh",
      "The '''Pittsburgh Panthers football''' team represents the [[University of Pittsburgh]].",
      (("League", "NCAA Division I FBS (ACC)"), ("Sport", "American football"), ("Founded", "1889"),
       ("Home venue", "[[Acrisure Stadium]]"), ("Former venues", "Pitt Stadium (1925-1999)")),
      (("Venues", "The Panthers share [[Acrisure Stadium]] with the [[Pittsburgh Steelers]]."),)),
    # -- attractions and theatres ------------------------------------------------------------
    A("Cathedral of Learning", "Skyscraper at the University of Pittsburgh",
      "The '''Cathedral of Learning''' is a 42-storey Gothic Revival tower at the centre of the "
      "[[University of Pittsburgh]].",
      (("Type", "Academic building"), ("Opened", "1937"), ("Architect", "Charles Klauder"), ("Height", "163 m"),
       ("Location", PGH)),
      (("Nationality Rooms", "Its classrooms decorated in the styles of different nations are open to visitors."),)),
    A("Phipps Conservatory and Botanical Gardens", "Botanical garden in Pittsburgh, Pennsylvania",
      "'''Phipps Conservatory and Botanical Gardens''' is a Victorian glasshouse in [[Schenley Park]].",
      (("Type", "Botanical garden"), ("Opened", "1893"), ("Founder", "Henry Phipps"), ("Location", PGH)),
      (("History", "The steel executive Henry Phipps gave the glasshouse to the city in 1893."),)),
    A("Randyland", "Outdoor art landmark in Pittsburgh, Pennsylvania",
      "'''Randyland''' is a brightly painted house and courtyard on the Northside, made by the artist Randy Gilson.",
      (("Type", "Public art"), ("Opened", "1995"), ("Founder", "Randy Gilson"), ("Location", PGH)), ()),
    A("Duquesne Incline", "Funicular in Pittsburgh, Pennsylvania",
      "The '''Duquesne Incline''' is a cable railway up Mount Washington with views over Downtown.",
      (("Type", "Funicular"), ("Opened", "1877"), ("Length", "244 m"), ("Location", PGH)), ()),
    A("Monongahela Incline", "Funicular in Pittsburgh, Pennsylvania",
      "The '''Monongahela Incline''' is the oldest working funicular in the United States, near Station Square.",
      (("Type", "Funicular"), ("Opened", "1870"), ("Length", "194 m"), ("Location", PGH)), ()),
    A("Market Square", "Public square in Pittsburgh, Pennsylvania",
      "'''Market Square''' is a public square in Downtown [[Pittsburgh]], laid out with the first town plan.",
      (("Type", "Public square"), ("Opened", "1784"), ("Location", PGH)), ()),
    A("Heinz Hall", "Concert hall in Pittsburgh, Pennsylvania",
      "'''Heinz Hall for the Performing Arts''' is the home of the Pittsburgh Symphony Orchestra.",
      (("Type", "Concert hall"), ("Opened", "1927"), ("Former names", "Loew's Penn Theatre"), ("Location", PGH)),
      (("History", "Built as a movie palace in 1927, it reopened as a concert hall in 1971."),)),
    A("Benedum Center", "Theatre in Pittsburgh, Pennsylvania",
      "The '''Benedum Center for the Performing Arts''' is a theatre in the Cultural District.",
      (("Type", "Theatre"), ("Opened", "1928"), ("Former names", "Stanley Theatre"), ("Location", PGH)),
      (("History", "It opened as the Stanley Theatre in 1928 and was restored in 1987."),)),
    A("Carnegie Music Hall", "Concert hall in Pittsburgh, Pennsylvania",
      "The '''Carnegie Music Hall''' is a concert hall in the Carnegie Institute building in "
      "[[Oakland (Pittsburgh)|Oakland]].",
      (("Type", "Concert hall"), ("Opened", "1895"), ("Founder", "[[Andrew Carnegie]]"), ("Location", PGH)), ()),
)

#: Article title -> list kind, for the articles that the generated lists collect.
KINDS: dict[str, str] = {
    **{t: "university" for t in ("Carnegie Mellon University", "University of Pittsburgh", "Duquesne University",
                                 "Chatham University", "Carlow University", "Point Park University")},
    **{t: "museum" for t in ("Carnegie Museum of Natural History", "Carnegie Museum of Art", "The Andy Warhol Museum",
                             "Carnegie Science Center", "Senator John Heinz History Center", "Mattress Factory",
                             "Children's Museum of Pittsburgh", "The Frick Pittsburgh")},
    **{t: "park" for t in ("Schenley Park", "Frick Park", "Highland Park (Pittsburgh)", "Point State Park",
                           "Mellon Park", "Arsenal Park", "Allegheny Commons")},
    **{t: "stadium" for t in ("PNC Park", "Acrisure Stadium", "PPG Paints Arena")},
    **{t: "attraction" for t in ("Cathedral of Learning", "Phipps Conservatory and Botanical Gardens", "Randyland",
                                 "Duquesne Incline", "Monongahela Incline", "Market Square")},
    **{t: "theatre" for t in ("Heinz Hall", "Benedum Center", "Carnegie Music Hall")},
    **{t: "team" for t in ("Pittsburgh Pirates", "Pittsburgh Steelers", "Pittsburgh Penguins",
                           "Pittsburgh Panthers football")},
}

#: List kind -> (list article title, column heading of its year, plural noun).
LISTS: dict[str, tuple[str, str, str]] = {
    "university": ("List of universities in Pittsburgh", "Established", "universities"),
    "museum": ("List of museums in Pittsburgh", "Opened", "museums"),
    "park": ("List of parks in Pittsburgh", "Established", "parks"),
    "stadium": ("List of sports venues in Pittsburgh", "Opened", "sports venues"),
    "attraction": ("List of landmarks in Pittsburgh", "Opened", "landmarks"),
    "theatre": ("List of concert halls and theatres in Pittsburgh", "Opened", "concert halls and theatres"),
}
