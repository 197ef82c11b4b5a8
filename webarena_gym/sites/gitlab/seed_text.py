"""Vocabulary the code host's seed data is generated from (names, projects, phrases).

Usernames and project paths follow WebArena's GitLab snapshot so task intents read
alike; people's full names are invented by combining the lists below.
"""

from __future__ import annotations

#: The account agents use, with the name WebArena gives it.
DEFAULT_USER = ("byteblaze", "Byte Blaze")

#: Usernames of everyone else (the administrator first).
USERNAMES = (
    "root", "convexegg", "yjlou", "vinta", "kkroening", "eriklindernoren", "koush", "lahwaacz",
    "dehenne", "amwhalen", "0ang3el", "bblanchon", "abisubramanya27", "Seirdy", "patrickhlauke",
    "westurner", "davepgreene", "Roshanjossey", "R1kk3r", "V13Axel", "alexhutnik", "patou",
    "egpast", "jontutcher", "JonasVautherin", "dilipchandima", "bmyun", "linkmatrix", "qhduan",
    "Agnes-U", "sayakpaul", "michaelfrost", "ericajones", "sarahkim", "danielwu", "priya.r",
    "tomasz.nowak", "lina_hassan", "olivergreen", "mariag", "jchen", "kwame.o",
)

FIRST_NAMES = (
    "Alma", "Bruno", "Carla", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas",
    "Keiko", "Lars", "Mina", "Nadia", "Omar", "Paula", "Quentin", "Rosa", "Sven", "Tariq",
    "Uma", "Viktor", "Wanda", "Xavier", "Yara", "Zoltan", "Anika", "Bastian", "Celine", "Dario",
    "Esme", "Felix", "Gideon", "Hanna", "Ivo", "Jelena", "Kofi", "Lucia", "Mateo", "Noor",
)

LAST_NAMES = (
    "Abernathy", "Brandt", "Castellano", "Dubois", "Eriksen", "Fontaine", "Garrido", "Halvorsen",
    "Ibarra", "Jovanovic", "Kowalczyk", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov",
    "Quintero", "Rasmussen", "Salazar", "Takahashi", "Umarov", "Vasquez", "Whitfield", "Xu",
    "Yilmaz", "Zimmermann", "Achterberg", "Bianchi", "Carvalho", "Demir",
)

EMAIL_DOMAINS = ("gmail.com", "outlook.com", "protonmail.com", "fastmail.com", "hey.com", "yahoo.com")

CITIES = (
    "Pittsburgh, PA", "Berlin, Germany", "Lisbon, Portugal", "Toronto, Canada", "Osaka, Japan",
    "Nairobi, Kenya", "Austin, TX", "Utrecht, Netherlands", "Seoul, South Korea", "", "", "",
)

BIOS = (
    "Front-end developer who cares about accessibility.",
    "Maintainer of a few small open source tools.",
    "Backend engineer. Coffee, bikes and distributed systems.",
    "PhD student working on machine learning.",
    "Designer turned developer.",
    "Security researcher.",
    "",
    "",
)

#: Groups: (path, display name, description).
GROUPS = (
    ("a11yproject", "The A11Y Project", "A community-driven effort to make digital accessibility easier."),
    ("primer", "Primer", "The design system of a large code hosting company."),
    ("keycloak", "Keycloak", "Open source identity and access management."),
    ("OpenAPITools", "OpenAPI Tools", "Tools for the OpenAPI specification."),
    ("CellularPrivacy", "Cellular Privacy", "Research on mobile network surveillance."),
    ("auth0", "Auth0", "Identity libraries for web frameworks."),
    ("umano", "Umano", "Android libraries."),
)

#: Projects: (namespace, path, description, visibility, popularity, size).
#: popularity weights stars; size scales issues, merge requests and commits.
PROJECTS = (
    ("byteblaze", "a11y-syntax-highlighting", "Accessible light and dark syntax highlighting themes.", "public", 3, 2),
    ("byteblaze", "dotfiles", "My dotfiles: shell, editor and terminal configuration.", "public", 2, 2),
    ("byteblaze", "a11y-webring.club", "A webring for digital accessibility practitioners.", "public", 2, 1),
    ("byteblaze", "empathy-prompts", "Ideas to help consider Inclusive Design principles when making things for others to use.", "public", 3, 2),
    ("byteblaze", "cloud-to-butt", "Browser extension that replaces occurrences of 'the cloud' with 'my butt'.", "public", 4, 1),
    ("byteblaze", "solarized-prism-theme", "A Solarized theme for the Prism syntax highlighter.", "public", 2, 1),
    ("byteblaze", "gimmiethat.space", "A hosted tool that generates blank space characters.", "public", 1, 1),
    ("byteblaze", "accessible-html-content-patterns", "The full HTML5 tag set, with accessible usage patterns.", "public", 3, 2),
    ("byteblaze", "timeit", "A small command-line stopwatch for shell commands.", "public", 1, 1),
    ("byteblaze", "millennials-to-snake-people", "Browser extension that replaces 'Millennials' with 'Snake People'.", "public", 2, 1),
    ("byteblaze", "remove-board-movement-events-from-the-github-issue-timeline", "Browser extension that hides project board movement events in issue timelines.", "public", 1, 1),
    ("byteblaze", "awesome_web_agents", "A curated list of papers and tools about web agents.", "private", 0, 1),
    ("byteblaze", "project_site", "Source of my personal project site.", "internal", 0, 1),
    ("byteblaze", "llm_bulk_inference", "Scripts for running batched inference with large language models.", "private", 0, 1),
    ("a11yproject", "a11yproject.com", "The A11Y Project is a community-driven effort to make digital accessibility easier.", "public", 9, 4),
    ("primer", "design", "Primer design guidelines, principles and component documentation.", "public", 8, 3),
    ("keycloak", "keycloak", "Open source identity and access management for modern applications.", "public", 8, 3),
    ("OpenAPITools", "openapi-generator", "Generate API clients, server stubs and documentation from an OpenAPI document.", "public", 7, 3),
    ("CellularPrivacy", "Android-IMSI-Catcher-Detector", "Detect and avoid fake base stations (IMSI catchers) in GSM and UMTS networks.", "public", 5, 2),
    ("auth0", "angular-storage", "A storage library for AngularJS done right.", "public", 3, 1),
    ("umano", "AndroidSlidingUpPanel", "A simple way to add a draggable sliding up panel to an Android app.", "public", 6, 2),
    ("root", "metaseq", "Repository for large-scale language model training and inference work.", "public", 6, 2),
    ("convexegg", "chatgpt", "Unofficial client for a chat completion API.", "public", 5, 2),
    ("convexegg", "super_awesome_robot", "A robot that is super awesome.", "public", 1, 1),
    ("vinta", "awesome-python", "A curated list of awesome Python frameworks, libraries, software and resources.", "public", 10, 2),
    ("kkroening", "ffmpeg-python", "Python bindings for FFmpeg with complex filtering support.", "public", 7, 2),
    ("eriklindernoren", "PyTorch-GAN", "PyTorch implementations of generative adversarial networks.", "public", 7, 2),
    ("koush", "AndroidAsync", "Asynchronous socket, HTTP, WebSocket and socket.io library for Android.", "public", 5, 2),
    ("lahwaacz", "arch-wiki-docs", "A script to download pages from the Arch Wiki for offline browsing.", "public", 2, 1),
    ("dehenne", "awesome-visibility", "A curated list of tools that help open source projects get noticed.", "public", 2, 1),
    ("amwhalen", "archive-my-tweets", "A PHP app that backs up your tweets to your own server.", "public", 2, 1),
    ("0ang3el", "aem-hacker", "Tools to find misconfigured Adobe Experience Manager web applications.", "public", 3, 1),
    ("bblanchon", "ArduinoJson", "A JSON library for Arduino and embedded C++.", "public", 7, 3),
    ("yjlou", "2019-nCov", "Tracker of the spread of the 2019 novel coronavirus.", "public", 3, 1),
    ("abisubramanya27", "viewgrades-scraper", "Scrape grades from a university portal into a spreadsheet.", "public", 1, 1),
    ("Seirdy", "seirdy.one", "Source of my personal website and blog.", "public", 2, 1),
    ("patrickhlauke", "touch", "Demos and tests of touch and pointer events in browsers.", "public", 3, 1),
)

LABELS = (
    ("bug", "#d9534f", "Something is not working"),
    ("enhancement", "#5cb85c", "New feature or request"),
    ("documentation", "#428bca", "Improvements or additions to documentation"),
    ("help wanted", "#009966", "Extra attention is needed"),
    ("good first issue", "#7f8c8d", "Good for newcomers"),
    ("question", "#cc338b", "Further information is requested"),
    ("accessibility", "#8e44ad", "Concerns people using assistive technology"),
    ("design", "#f0ad4e", "Visual and interaction design"),
    ("performance", "#ed9121", "Speed and resource use"),
    ("security", "#ff0000", "Security related"),
    ("needs triage", "#a8d695", "Not yet looked at by a maintainer"),
    ("wontfix", "#ffffff", "This will not be worked on"),
    ("dependencies", "#0033cc", "Updates to third-party packages"),
)

COMPONENTS = (
    "navigation menu", "search field", "dark mode toggle", "code block", "color picker",
    "install script", "sidebar", "settings page", "release notes", "login form", "date picker",
    "tooltip", "modal dialog", "toast notification", "keyboard shortcut", "README badge",
    "CI pipeline", "build script", "test suite", "config loader", "footer", "skip link",
    "error page", "image gallery", "data table", "pagination", "dropdown", "file upload",
)

FEATURES = (
    "right-to-left languages", "high contrast mode", "keyboard navigation", "Windows", "Docker",
    "TypeScript types", "localization", "reduced motion", "ARM64 builds", "offline mode",
    "screen reader hints", "custom fonts", "plugin hooks", "YAML configuration", "Python 3.11",
)

HOWTOS = (
    "set up a development environment", "run the tests locally", "contribute translations",
    "release a new version", "configure the theme", "report a security issue", "build the docs",
)

DEPENDENCIES = ("eslint", "webpack", "pytest", "node", "prettier", "jest", "babel", "gradle", "sass", "flask")

#: Issue title templates and the label they usually carry.
ISSUE_TEMPLATES = (
    ("{c} is not announced by screen readers", "accessibility"),
    ("{c} overlaps the footer on small screens", "bug"),
    ("{c} loses focus after closing", "bug"),
    ("Contrast of the {c} is too low", "accessibility"),
    ("{c} breaks in Safari", "bug"),
    ("Crash when opening the {c}", "bug"),
    ("Add support for {f}", "enhancement"),
    ("Support {f} in the {c}", "enhancement"),
    ("Document how to {h}", "documentation"),
    ("Improve performance of the {c}", "performance"),
    ("Redesign the {c}", "design"),
    ("Update {d} to the latest version", "dependencies"),
    ("How do I {h}?", "question"),
    ("Typo in the {c} documentation", "documentation"),
)

MR_TEMPLATES = (
    "Fix {c} focus handling",
    "Add {f} support",
    "Update {d} to v{n}",
    "Refactor the {c}",
    "Document how to {h}",
    "Improve {c} contrast",
    "Draft: Rework the {c}",
    "Speed up the {c}",
)

COMMIT_TEMPLATES = (
    "Fix {c} on small screens",
    "Update README",
    "Add tests for the {c}",
    "Bump {d} from {n}.0 to {n}.1",
    "Refactor {c}",
    "Improve wording in the docs",
    "Add {f} support",
    "Fix typo",
    "Clean up the {c} styles",
    "Merge branch 'develop' into 'main'",
    "Remove unused code from the {c}",
    "Handle empty {c} state",
)

ISSUE_BODIES = (
    "Steps to reproduce:\n1. Open the {c}.\n2. Use it with the keyboard only.\n\nExpected: it works.\nActual: it does not.",
    "I noticed this while testing the latest release. It happens every time.",
    "It would be great to have this. Happy to help with a merge request.",
    "The current behaviour is confusing for new users. See the discussion in the chat.",
    "Reported by a user by email. I have not been able to reproduce it yet.",
)

COMMENTS = (
    "I can reproduce this on Firefox.",
    "Thanks for reporting! Would you like to open a merge request?",
    "+1, seeing the same thing here.",
    "Could you share a screenshot?",
    "This looks related to the work on the {c}.",
    "Working on it.",
    "Fixed on main, it will ship with the next release.",
    "I am not sure this is worth the extra complexity.",
    "Good catch, thank you.",
    "Can we add a test for this?",
    "Looks good to me.",
    "Please rebase on main before we merge.",
)

EXTERNAL_CONTRIBUTORS = 16

#: What merge request authors answer a review with.
AUTHOR_REPLIES = (
    "Thanks for the review! I pushed a fix for your comments.",
    "Addressed all the feedback, could you take another look?",
    "Good catch, updated the tests as suggested.",
    "Rebased on main and resolved the conflicts.",
    "I split the change into two commits as you asked.",
)

#: Feature branches without a merge request yet.
FEATURE_BRANCHES = (
    "redesign", "dark-mode", "fix-typos", "update-dependencies", "docs-refresh", "perf-tuning", "i18n",
    "ci-cache", "refactor-config", "release-prep", "a11y-audit", "new-landing-page", "cleanup", "feature/search",
)
