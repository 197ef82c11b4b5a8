"""Small geometry and formatting helpers shared by the map's seed code, views and tasks."""

from __future__ import annotations

import math

EARTH_RADIUS_M = 6_371_000.0


def haversine_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in metres.

    >>> round(haversine_m(40.4433, -79.9436, 40.4444, -79.9608))
    1461
    """
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(math.sqrt(a))


def bearing_deg(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Compass bearing from the first point to the second, 0-360 (0 = north, 90 = east)."""
    dy = lat2 - lat1
    dx = (lon2 - lon1) * math.cos(math.radians((lat1 + lat2) / 2))
    return math.degrees(math.atan2(dx, dy)) % 360


def format_distance(metres: float) -> str:
    """OpenStreetMap's style: whole metres below a kilometre, else kilometres with one decimal.

    >>> format_distance(748.4), format_distance(2345)
    ('748m', '2.3km')
    """
    if metres < 1000:
        return f"{round(metres)}m"
    return f"{metres / 1000:.1f}km"


def format_duration(seconds: float) -> str:
    """Whole minutes (at least one), with hours from an hour on.

    >>> format_duration(420), format_duration(6300), format_duration(10)
    ('7 min', '1h 45min', '1 min')
    """
    minutes = max(1, round(seconds / 60))
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60}h {minutes % 60}min"


def format_coordinates(lat: float, lon: float) -> str:
    """Decimal degrees with five decimals (about a metre), the way place pages show them.

    >>> format_coordinates(40.44331, -79.9436)
    '40.44331, -79.94360'
    """
    return f"{lat:.5f}, {lon:.5f}"


def turn_word(previous_bearing: float, next_bearing: float) -> str:
    """How a driver would describe the change of heading between two road segments."""
    delta = (next_bearing - previous_bearing + 540) % 360 - 180
    if abs(delta) < 30:
        return "Continue"
    if abs(delta) > 150:
        return "Make a U-turn"
    side = "right" if delta > 0 else "left"
    return f"Turn {'slight ' if abs(delta) < 60 else ''}{side}"
