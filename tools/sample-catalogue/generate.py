#!/usr/bin/env python3
"""Generate quaketui's bundled *sample* earthquake catalogue.

The output is a synthetic catalogue in the exact USGS GeoJSON summary-feed
format.  It is NOT real data: every event is drawn from a simple seismicity
model (source zones along real plate boundaries, Gutenberg-Richter magnitudes,
depth distributions per tectonic setting) with a fixed seed, so two runs give
byte-identical output.

Usage:
    python3 tools/sample-catalogue/generate.py            # writes the Swift file
    python3 tools/sample-catalogue/generate.py --stdout   # GeoJSON to stdout
    python3 tools/sample-catalogue/generate.py --geojson out.geojson
    python3 tools/sample-catalogue/generate.py --stats    # counts per zone, histograms

Python 3 standard library only; no network.
"""

import math
import os
import random
import sys

SEED = 20261122
GENERATED_MS = 1767225600000  # 2026-01-01T00:00:00Z, fixed on purpose
DAY_MS = 86_400_000
SPAN_MS = 30 * DAY_MS
MAG_CAP = 7.8
FEED_URL = "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_month.geojson"
TITLE = "quaketui bundled sample (not real data)"

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SWIFT_OUT = os.path.join(REPO, "Sources", "QuakeFeed", "SampleCatalogue+Data.swift")

# ---------------------------------------------------------------------------
# Depth distributions, as lists of (weight, kind, params...).
#   ("u", lo, hi)        uniform
#   ("t", lo, mode, hi)  triangular
#   ("fix", v)           fixed depth (NEIC's default 10 km for poorly
#                        constrained shallow events; 5 km for some networks)
# ---------------------------------------------------------------------------
CRUSTAL = [(0.85, "t", 0.5, 7.0, 20.0), (0.15, "u", 0.0, 4.0)]
SHALLOW_NEIC = [(0.45, "fix", 10.0), (0.55, "t", 5.0, 15.0, 35.0)]
SUBDUCTION = [(0.30, "fix", 10.0), (0.55, "t", 8.0, 25.0, 70.0), (0.15, "u", 70.0, 140.0)]
INTERMEDIATE = [(1.0, "t", 70.0, 110.0, 300.0)]
DEEP = [(0.25, "u", 300.0, 500.0), (0.75, "t", 480.0, 590.0, 660.0)]
RIDGE = [(0.8, "fix", 10.0), (0.2, "u", 5.0, 15.0)]
INDUCED = [(1.0, "t", 1.0, 4.5, 9.0)]
GEOTHERMAL = [(1.0, "t", 0.3, 2.2, 4.5)]

# ---------------------------------------------------------------------------
# Towns: (name, region-suffix, lat, lon).  Real places, approximate coordinates.
# US suffixes follow USGS ("CA", "Alaska", "Nevada" ...).
# ---------------------------------------------------------------------------


def T(region, *rows):
    return [(name, region, lat, lon) for (name, lat, lon) in rows]


# ---------------------------------------------------------------------------
# Source zones.  Each zone: name, count (relative rate for this 30-day sample),
# mmin, b, net(s), whether oceanic (tsunami flag), towns and parts.  A part is
# (weight, polyline [(lat, lon) ...], depth distribution, jitter km,
#  fallback region name).  An epicentre is a random point along the polyline
# plus Gaussian jitter; the place is named after the nearest town within
# 300 km, else after the part's region (Flinn-Engdahl style, like USGS).
# ---------------------------------------------------------------------------
ZONES = [
    # ---------------- United States: dense local networks ----------------
    dict(name="Northern California: The Geysers", count=29, mmin=0.5, b=1.0, net="nc",
         towns=T("CA", ("The Geysers", 38.776, -122.756), ("Cobb", 38.822, -122.723),
                 ("Anderson Springs", 38.772, -122.686), ("Glen Ellen", 38.364, -122.524)),
         parts=[(1.0, [(38.75, -122.85), (38.84, -122.72)], GEOTHERMAL, 2.5, "Northern California")]),
    dict(name="Northern California: San Andreas-Calaveras-Hayward", count=35, mmin=0.8, b=1.0, net="nc",
         towns=T("CA", ("Pinnacles", 36.528, -121.147), ("Tres Pinos", 36.790, -121.321),
                 ("San Juan Bautista", 36.846, -121.538), ("Gilroy", 37.006, -121.568),
                 ("Morgan Hill", 37.130, -121.654), ("Alum Rock", 37.366, -121.827),
                 ("Danville", 37.822, -121.999), ("Piedmont", 37.824, -122.232),
                 ("Parkfield", 35.900, -120.433), ("Ridgemark", 36.812, -121.366),
                 ("Coalinga", 36.140, -120.360)),
         parts=[(1.0, [(37.90, -122.25), (37.40, -121.75), (36.85, -121.45), (36.55, -121.10),
                       (35.95, -120.50)], CRUSTAL, 6.0, "Northern California")]),
    dict(name="Northern California: Mendocino triple junction", count=9, mmin=1.0, b=1.0, net="nc",
         towns=T("CA", ("Petrolia", 40.325, -124.287), ("Ferndale", 40.576, -124.264),
                 ("Rio Dell", 40.499, -124.106), ("Fortuna", 40.598, -124.157)),
         parts=[(1.0, [(40.30, -125.60), (40.35, -124.60), (40.60, -124.00)],
                 [(1.0, "t", 1.0, 12.0, 32.0)], 12.0, "offshore Northern California")]),
    dict(name="California-Nevada border: Long Valley and Walker Lane", count=13, mmin=0.6, b=1.0, net="nc",
         towns=T("CA", ("Mammoth Lakes", 37.649, -118.972), ("Toms Place", 37.561, -118.680),
                 ("Bridgeport", 38.256, -119.231), ("Walker", 38.520, -119.477)),
         parts=[(1.0, [(37.50, -118.70), (37.65, -118.90), (38.10, -119.10), (38.50, -119.45)],
                 CRUSTAL, 8.0, "California-Nevada border region")]),
    dict(name="Southern California: San Jacinto-Elsinore-Imperial", count=37, mmin=0.6, b=1.0, net="ci",
         towns=T("CA", ("Anza", 33.555, -116.673), ("Aguanga", 33.443, -116.865),
                 ("Borrego Springs", 33.256, -116.375), ("Ocotillo Wells", 33.144, -116.133),
                 ("Salton City", 33.299, -115.956), ("Brawley", 32.979, -115.530),
                 ("Westmorland", 33.037, -115.621), ("Calipatria", 33.126, -115.514),
                 ("El Centro", 32.792, -115.563), ("Ocotillo", 32.739, -115.995),
                 ("Idyllwild", 33.740, -116.719), ("Cabazon", 33.918, -116.787),
                 ("San Jacinto", 33.784, -116.959), ("Yucaipa", 34.034, -117.043))
         + T("B.C., MX", ("Guadalupe Victoria", 32.290, -115.108)),
         parts=[(1.0, [(34.20, -117.40), (33.70, -116.70), (33.45, -116.45), (33.20, -116.10),
                       (33.00, -115.60), (32.70, -115.40), (32.30, -115.20)], CRUSTAL, 6.0,
                 "Southern California")]),
    dict(name="Southern California: Ridgecrest-Coso", count=20, mmin=0.6, b=1.0, net="ci",
         towns=T("CA", ("Ridgecrest", 35.623, -117.671), ("Searles Valley", 35.767, -117.405),
                 ("Little Lake", 35.937, -117.906), ("Coso Junction", 36.043, -117.945),
                 ("Olancha", 36.282, -118.005), ("Inyokern", 35.647, -117.812)),
         parts=[(1.0, [(35.55, -117.45), (35.80, -117.60), (36.00, -117.78), (36.10, -117.85)],
                 CRUSTAL, 5.0, "Southern California")]),
    dict(name="Southern California: Transverse Ranges and Los Angeles", count=13, mmin=0.8, b=1.0, net="ci",
         towns=T("CA", ("Fontana", 34.092, -117.435), ("Rancho Cucamonga", 34.106, -117.593),
                 ("Santa Clarita", 34.392, -118.543), ("Malibu", 34.026, -118.780),
                 ("Ojai", 34.448, -119.243), ("Castaic", 34.489, -118.623),
                 ("Lytle Creek", 34.261, -117.502), ("Big Bear City", 34.261, -116.845),
                 ("Yucca Valley", 34.114, -116.432)),
         parts=[(1.0, [(34.45, -119.20), (34.40, -118.60), (34.15, -118.00), (34.15, -117.30),
                       (34.25, -116.80)], CRUSTAL, 8.0, "Southern California")]),
    dict(name="Nevada: Walker Lane and Central Nevada", count=20, mmin=0.5, b=1.0, net="nn",
         towns=T("Nevada", ("Verdi", 39.518, -119.989), ("Dayton", 39.237, -119.593),
                 ("Smith Valley", 38.800, -119.340), ("Yerington", 38.986, -119.163),
                 ("Hawthorne", 38.525, -118.625), ("Mina", 38.390, -118.109),
                 ("Gabbs", 38.869, -117.923), ("Tonopah", 38.067, -117.230),
                 ("Silver Peak", 37.755, -117.635), ("Goldfield", 37.709, -117.236)),
         parts=[(1.0, [(39.50, -119.80), (38.80, -118.80), (38.20, -117.90), (37.50, -117.00)],
                 CRUSTAL, 15.0, "Nevada")]),
    dict(name="Utah: Wasatch front and central Utah", count=10, mmin=0.8, b=1.0, net="uu",
         towns=T("Utah", ("Magna", 40.709, -112.102), ("Herriman", 40.514, -112.033),
                 ("Tremonton", 41.712, -112.165), ("Garden City", 41.946, -111.393),
                 ("Scofield", 39.727, -111.159), ("Helper", 39.684, -110.855),
                 ("East Carbon", 39.546, -110.414), ("Richfield", 38.773, -112.084),
                 ("Beaver", 38.277, -112.641), ("Milford", 38.397, -113.011)),
         parts=[(0.7, [(41.80, -111.80), (40.70, -111.95), (39.70, -111.55), (38.70, -112.30),
                       (38.10, -112.70)], CRUSTAL, 12.0, "Utah"),
                (0.3, [(39.70, -111.10), (39.60, -110.60)], [(1.0, "u", 0.5, 3.0)], 6.0, "Utah")]),
    dict(name="Yellowstone", count=7, mmin=0.5, b=1.0, net="uu",
         towns=T("Montana", ("West Yellowstone", 44.662, -111.104), ("Gardiner", 45.032, -110.705))
         + T("Wyoming", ("Mammoth", 44.977, -110.702)),
         parts=[(1.0, [(44.78, -111.00), (44.62, -110.70), (44.45, -110.40)], CRUSTAL, 8.0,
                 "Yellowstone National Park, Wyoming")]),
    dict(name="Oklahoma (induced)", count=9, mmin=1.2, b=1.0, net="ok",
         towns=T("Oklahoma", ("Perry", 36.289, -97.288), ("Pawnee", 36.338, -96.804),
                 ("Cushing", 35.985, -96.767), ("Medford", 36.807, -97.734),
                 ("Cherokee", 36.755, -98.357), ("Guthrie", 35.879, -97.425),
                 ("Prague", 35.487, -96.685), ("Langston", 35.945, -97.255),
                 ("Crescent", 35.953, -97.595)),
         parts=[(1.0, [(36.80, -97.80), (36.30, -97.30), (35.70, -97.00), (35.90, -96.70)],
                 INDUCED, 10.0, "Oklahoma")]),
    dict(name="Texas and New Mexico: Permian Basin (induced)", count=14, mmin=1.5, b=1.0, net="tx",
         towns=T("Texas", ("Pecos", 31.423, -103.493), ("Mentone", 31.705, -103.599),
                 ("Coyanosa", 31.242, -103.059), ("Stanton", 32.129, -101.789),
                 ("Midland", 31.997, -102.078), ("Snyder", 32.718, -100.918))
         + T("New Mexico", ("Whites City", 32.176, -104.375)),
         parts=[(1.0, [(31.60, -104.20), (31.55, -103.60), (31.70, -102.70), (32.20, -102.00)],
                 INDUCED, 12.0, "western Texas")]),
    dict(name="Hawaii: Kilauea summit and rift zones", count=26, mmin=1.0, b=1.0, net="hv",
         towns=T("Hawaii", ("Volcano", 19.427, -155.235), ("Fern Forest", 19.464, -155.130),
                 ("Leilani Estates", 19.470, -154.918), ("Mountain View", 19.556, -155.108),
                 ("Pāhala", 19.203, -155.478)),
         parts=[(1.0, [(19.25, -155.45), (19.41, -155.28), (19.35, -155.10), (19.45, -154.90)],
                 [(0.8, "t", 0.0, 2.5, 8.0), (0.2, "u", 5.0, 13.0)], 3.0, "Island of Hawaii, Hawaii")]),
    dict(name="Hawaii: Pahala deep cluster and Mauna Loa", count=16, mmin=1.2, b=1.0, net="hv",
         towns=T("Hawaii", ("Pāhala", 19.203, -155.478), ("Hawaiian Ocean View", 19.071, -155.765),
                 ("Hilo", 19.720, -155.087), ("Waimea", 20.023, -155.672),
                 ("Kalaoa", 19.729, -155.990)),
         parts=[(0.6, [(19.18, -155.55), (19.25, -155.42)], [(1.0, "t", 25.0, 32.0, 42.0)], 5.0,
                 "Island of Hawaii, Hawaii"),
                (0.4, [(19.30, -155.80), (19.48, -155.60), (19.75, -155.40)], [(1.0, "t", 0.5, 6.0, 15.0)],
                 8.0, "Island of Hawaii, Hawaii")]),
    dict(name="Puerto Rico and the Virgin Islands", count=22, mmin=1.8, b=1.0, net="pr",
         towns=T("Puerto Rico", ("Guánica", 17.972, -66.908), ("Maria Antonia", 17.978, -66.889),
                 ("Indios", 17.994, -66.820), ("Aguada", 18.379, -67.188),
                 ("Isabela", 18.501, -67.024), ("Esperanza", 18.097, -65.471),
                 ("Cabo Rojo", 18.087, -67.146), ("Arecibo", 18.472, -66.716)),
         parts=[(0.6, [(17.88, -67.20), (17.92, -66.90), (17.98, -66.60)], CRUSTAL, 8.0, "Puerto Rico region"),
                (0.4, [(19.30, -67.40), (19.20, -66.20), (19.10, -64.80)],
                 [(0.6, "t", 10.0, 30.0, 50.0), (0.4, "u", 50.0, 110.0)], 20.0, "Puerto Rico region")]),
    dict(name="Washington and Oregon: Puget Sound, Cascades", count=14, mmin=0.8, b=1.0, net="uw",
         towns=T("Washington", ("Bremerton", 47.567, -122.633), ("Tacoma", 47.253, -122.444),
                 ("Ashford", 46.759, -122.033), ("Morton", 46.558, -122.275),
                 ("Amboy", 45.910, -122.447), ("Packwood", 46.608, -121.674),
                 ("Carbonado", 47.080, -122.053), ("Darrington", 48.255, -121.602),
                 ("Concrete", 48.539, -121.751), ("Port Townsend", 48.117, -122.776))
         + T("Oregon", ("Government Camp", 45.304, -121.754), ("Rhododendron", 45.327, -121.905)),
         parts=[(0.55, [(48.60, -121.80), (47.60, -122.30), (46.20, -122.19), (45.37, -121.70)],
                 CRUSTAL, 12.0, "Washington"),
                (0.2, [(47.90, -122.60), (47.10, -122.80)], [(1.0, "t", 35.0, 52.0, 65.0)], 15.0, "Washington"),
                (0.25, [(46.20, -122.19), (46.21, -122.18)], [(1.0, "t", 0.0, 3.0, 10.0)], 2.0, "Washington")]),
    dict(name="Offshore Oregon: Blanco and Gorda", count=5, mmin=2.6, b=1.0, net="us", oceanic=True,
         towns=T("Oregon", ("Bandon", 43.119, -124.408), ("Port Orford", 42.746, -124.497),
                 ("Gold Beach", 42.407, -124.422)),
         parts=[(1.0, [(43.00, -126.60), (43.60, -127.80), (44.40, -130.30)], RIDGE, 10.0,
                 "off the coast of Oregon")]),
    dict(name="Southern Alaska: Cook Inlet and Kenai", count=24, mmin=1.0, b=1.0, net="ak",
         towns=T("Alaska", ("Anchor Point", 59.777, -151.831), ("Homer", 59.643, -151.548),
                 ("Ninilchik", 60.046, -151.666), ("Nikiski", 60.690, -151.289),
                 ("Anchorage", 61.218, -149.900), ("Willow", 61.747, -150.038),
                 ("Skwentna", 61.965, -151.181), ("Tyonek", 61.068, -151.137),
                 ("Pedro Bay", 59.790, -154.130), ("Port Alsworth", 60.202, -154.312)),
         parts=[(0.65, [(59.50, -153.00), (60.50, -151.80), (61.50, -150.00), (62.20, -149.00)],
                 [(1.0, "t", 35.0, 70.0, 150.0)], 25.0, "Southern Alaska"),
                (0.35, [(59.80, -152.50), (61.20, -150.30), (61.60, -148.50)], CRUSTAL, 30.0,
                 "Southern Alaska")]),
    dict(name="Central Alaska: Denali and Tanana", count=19, mmin=1.0, b=1.0, net="ak",
         towns=T("Alaska", ("Cantwell", 63.392, -148.951), ("Healy", 63.858, -148.966),
                 ("Nenana", 64.564, -149.093), ("Fox", 64.959, -147.617),
                 ("Ester", 64.847, -148.014), ("Paxson", 63.033, -145.494),
                 ("Mentasta Lake", 62.921, -143.799), ("Tok", 63.337, -142.985),
                 ("Chistochina", 62.565, -144.665), ("Denali Park", 63.733, -148.914)),
         parts=[(0.7, [(63.30, -150.50), (63.50, -148.50), (63.40, -146.50), (62.90, -144.00)],
                 CRUSTAL, 30.0, "Central Alaska"),
                (0.3, [(62.80, -151.20), (63.30, -150.00)], [(1.0, "t", 60.0, 100.0, 140.0)], 25.0,
                 "Central Alaska")]),
    dict(name="Alaska Peninsula and Kodiak", count=17, mmin=1.5, b=1.0, net="ak", oceanic=True,
         towns=T("Alaska", ("Sand Point", 55.337, -160.497), ("King Cove", 55.061, -162.310),
                 ("Chignik", 56.295, -158.402), ("Perryville", 55.912, -159.163),
                 ("Old Harbor", 57.202, -153.304), ("Kodiak", 57.790, -152.407),
                 ("Akhiok", 56.945, -154.170), ("Karluk", 57.570, -154.455)),
         parts=[(1.0, [(54.20, -164.00), (54.80, -161.00), (55.50, -158.00), (56.60, -155.50),
                       (57.60, -153.00)], SUBDUCTION, 40.0, "Alaska Peninsula")]),
    dict(name="Aleutian Islands", count=19, mmin=1.8, b=1.0, net="ak", oceanic=True,
         towns=T("Alaska", ("Adak", 51.880, -176.658), ("Atka", 52.196, -174.201),
                 ("Nikolski", 52.938, -168.868), ("Unalaska", 53.874, -166.537),
                 ("Akutan", 54.136, -165.773), ("Attu Station", 52.946, 173.182)),
         parts=[(0.25, [(52.50, 172.50), (51.40, 178.00), (51.20, -178.50)], SUBDUCTION, 35.0,
                 "Rat Islands, Aleutian Islands, Alaska"),
                (0.45, [(51.20, -178.50), (51.40, -175.00), (51.80, -172.00)], SUBDUCTION, 35.0,
                 "Andreanof Islands, Aleutian Islands, Alaska"),
                (0.30, [(52.20, -170.50), (52.80, -168.50), (53.60, -165.50)], SUBDUCTION, 35.0,
                 "Fox Islands, Aleutian Islands, Alaska")]),

    # ---------------- Americas ----------------
    dict(name="Mexico: Guerrero and Oaxaca", count=12, mmin=3.8, b=1.0, net="us", oceanic=True,
         towns=T("Mexico", ("Zihuatanejo", 17.641, -101.551), ("Tecpan de Galeana", 17.220, -100.630),
                 ("San Marcos", 16.796, -99.386), ("Ometepec", 16.690, -98.410),
                 ("Pinotepa Nacional", 16.340, -98.053), ("San Pedro Pochutla", 15.746, -96.466),
                 ("Salina Cruz", 16.167, -95.200), ("Puerto Escondido", 15.862, -97.072),
                 ("Cruz Grande", 16.722, -99.124)),
         parts=[(0.65, [(18.10, -103.20), (17.20, -101.00), (16.60, -99.50), (16.10, -98.00),
                        (15.75, -96.50), (15.90, -95.00), (15.50, -94.00)], SUBDUCTION, 25.0,
                 "offshore Guerrero, Mexico"),
                (0.35, [(18.20, -100.50), (17.30, -98.20), (16.70, -96.00)], [(1.0, "t", 40.0, 60.0, 120.0)],
                 30.0, "Oaxaca, Mexico")]),
    dict(name="Central America: Guatemala, El Salvador, Nicaragua", count=10, mmin=3.6, b=1.0, net="us",
         oceanic=True,
         towns=T("Guatemala", ("Champerico", 14.293, -91.914), ("Puerto San José", 13.927, -90.821),
                 ("Iztapa", 13.933, -90.708))
         + T("El Salvador", ("Acajutla", 13.592, -89.828), ("La Libertad", 13.488, -89.322),
             ("Jiquilisco", 13.321, -88.579))
         + T("Nicaragua", ("Masachapa", 11.786, -86.517), ("Corinto", 12.483, -87.173),
             ("Jiquilillo", 12.748, -87.447)),
         parts=[(0.7, [(14.00, -92.60), (13.30, -91.00), (12.70, -89.30), (12.20, -87.80),
                       (11.50, -86.80)], SUBDUCTION, 25.0, "off the coast of Central America"),
                (0.3, [(14.80, -91.50), (14.00, -89.80), (13.30, -88.00)],
                 [(1.0, "t", 70.0, 110.0, 210.0)], 25.0, "Guatemala")]),
    dict(name="Costa Rica and Panama", count=9, mmin=3.6, b=1.0, net="us", oceanic=True,
         towns=T("Costa Rica", ("Nicoya", 10.148, -85.452), ("Hojancha", 10.058, -85.421),
                 ("Parrita", 9.520, -84.322), ("Quepos", 9.431, -84.162), ("Golfito", 8.639, -83.166))
         + T("Panama", ("Puerto Armuelles", 8.284, -82.862), ("Pedasí", 7.532, -80.026)),
         parts=[(0.7, [(10.80, -86.10), (9.70, -85.80), (9.10, -84.50), (8.30, -83.20)], SUBDUCTION, 25.0,
                 "Costa Rica"),
                (0.3, [(7.20, -82.60), (6.00, -82.70), (5.00, -82.60)], RIDGE, 15.0, "south of Panama")]),
    dict(name="Colombia: Pacific coast", count=6, mmin=3.6, b=1.0, net="us", oceanic=True,
         towns=T("Colombia", ("Buenaventura", 3.880, -77.031), ("Guapi", 2.571, -77.886), ("Tumaco", 1.799, -78.764)),
         parts=[(1.0, [(7.00, -77.90), (5.00, -77.60), (3.00, -78.20), (1.80, -79.20)], SUBDUCTION, 30.0,
                 "near the coast of Colombia")]),
    dict(name="Colombia: Bucaramanga nest", count=7, mmin=3.0, b=1.0, net="us",
         towns=T("Colombia", ("Los Santos", 6.756, -73.102),
                 ("Aratoca", 6.694, -73.018), ("Zapatoca", 6.815, -73.268), ("Piedecuesta", 6.988, -73.050)),
         parts=[(1.0, [(6.78, -73.12), (6.84, -73.05)], [(1.0, "t", 135.0, 150.0, 165.0)], 5.0,
                 "northern Colombia")]),
    dict(name="Ecuador", count=9, mmin=3.5, b=1.0, net="us", oceanic=True,
         towns=T("Ecuador", ("Bahía de Caráquez", -0.600, -80.424), ("Pedernales", 0.072, -80.052),
                 ("Muisne", 0.609, -80.019), ("Manta", -0.950, -80.730),
                 ("Machala", -3.258, -79.960),
                 ("Macas", -2.309, -78.118), ("Puyo", -1.483, -77.987)),
         parts=[(0.6, [(1.00, -80.10), (-0.50, -80.40), (-2.00, -80.90), (-3.20, -80.40)], SUBDUCTION, 25.0,
                 "near the coast of Ecuador"),
                (0.4, [(-1.00, -77.80), (-2.30, -78.00), (-3.50, -78.50)], [(1.0, "t", 80.0, 120.0, 200.0)],
                 25.0, "Ecuador")]),
    dict(name="Peru", count=16, mmin=3.5, b=1.0, net="us", oceanic=True,
         towns=T("Peru", ("Paita", -5.090, -81.114), ("Pimentel", -6.837, -79.934),
                 ("Chimbote", -9.075, -78.594), ("Huarmey", -10.068, -78.152), ("Huacho", -11.108, -77.610),
                 ("Chilca", -12.519, -76.737), ("Pisco", -13.710, -76.203), ("Ica", -14.068, -75.726),
                 ("Chala", -15.856, -74.250), ("Atico", -16.210, -73.611),
                 ("Mollendo", -17.023, -72.015), ("Ilo", -17.640, -71.338), ("Tacna", -18.014, -70.253),
                 ("Moyobamba", -6.034, -76.972), ("Pucallpa", -8.379, -74.554))
         + T("Brazil", ("Cruzeiro do Sul", -7.631, -72.670), ("Sena Madureira", -9.066, -68.657)),
         parts=[(0.55, [(-5.00, -81.30), (-8.00, -79.70), (-11.50, -78.00), (-13.50, -76.60),
                        (-15.50, -75.10), (-17.00, -72.50), (-18.00, -71.00)], SUBDUCTION, 30.0,
                 "near the coast of Peru"),
                (0.3, [(-6.00, -77.00), (-9.50, -75.50), (-14.50, -73.00), (-16.50, -70.50)],
                 [(1.0, "t", 70.0, 110.0, 250.0)], 40.0, "central Peru"),
                (0.15, [(-7.50, -71.20), (-9.00, -71.30), (-10.70, -70.80)], DEEP, 25.0,
                 "Peru-Brazil border region")]),
    dict(name="Chile", count=29, mmin=2.5, b=1.0, net="us", oceanic=True,
         towns=T("Chile", ("Arica", -18.476, -70.313), ("Iquique", -20.213, -70.152),
                 ("Tocopilla", -22.092, -70.198), ("Mejillones", -23.100, -70.450),
                 ("Antofagasta", -23.650, -70.400), ("Taltal", -25.405, -70.485),
                 ("Caldera", -27.067, -70.817), ("Copiapó", -27.367, -70.333),
                 ("Vallenar", -28.576, -70.759), ("La Serena", -29.908, -71.254),
                 ("Ovalle", -30.602, -71.199), ("Illapel", -31.633, -71.167),
                 ("Valparaíso", -33.046, -71.620), ("San Antonio", -33.593, -71.607),
                 ("Pichilemu", -34.387, -72.003),
                 ("Talcahuano", -36.725, -73.117), ("Lebu", -37.608, -73.648),
                 ("Pica", -20.490, -69.329), ("Calama", -22.456, -68.924),
                 ("San Pedro de Atacama", -22.911, -68.200)),
         parts=[(0.65, [(-18.50, -70.70), (-21.00, -70.50), (-23.50, -70.70), (-27.00, -71.10),
                        (-30.00, -71.70), (-33.00, -72.00), (-36.00, -73.10), (-38.50, -73.90)],
                 SUBDUCTION, 30.0, "offshore Chile"),
                (0.35, [(-19.50, -69.10), (-22.50, -68.70), (-24.50, -68.40), (-27.50, -69.30),
                        (-31.00, -70.40)], [(1.0, "t", 70.0, 105.0, 260.0)], 30.0, "Chile-Argentina border region")]),
    dict(name="Argentina: intermediate and deep", count=9, mmin=3.5, b=1.0, net="us",
         towns=T("Argentina", ("San Antonio de los Cobres", -24.218, -66.318), ("Abra Pampa", -22.721, -65.697),
                 ("Tinogasta", -28.067, -67.565), ("Chilecito", -29.163, -67.498),
                 ("Calingasta", -31.331, -69.428),
                 ("Santiago del Estero", -27.784, -64.264), ("Monte Quemado", -25.803, -62.829),
                 ("Suncho Corral", -27.936, -63.429)),
         parts=[(0.7, [(-23.00, -66.60), (-24.50, -66.90), (-27.00, -67.60), (-31.00, -68.30)],
                 [(1.0, "t", 90.0, 180.0, 260.0)], 30.0, "Jujuy, Argentina"),
                (0.3, [(-26.50, -63.40), (-28.50, -63.00)], [(1.0, "t", 520.0, 580.0, 620.0)], 25.0,
                 "Santiago del Estero, Argentina")]),
    dict(name="South Sandwich Islands", count=7, mmin=4.2, b=1.0, net="us", oceanic=True,
         towns=[],
         parts=[(1.0, [(-55.80, -26.50), (-57.50, -25.00), (-59.50, -25.50), (-60.50, -27.00)],
                 SUBDUCTION, 40.0, "South Sandwich Islands region")]),
    # ---------------- Atlantic ----------------
    dict(name="Mid-Atlantic Ridge", count=12, mmin=4.2, b=1.0, net="us", oceanic=True,
         towns=[],
         parts=[(0.4, [(52.60, -31.00), (47.00, -27.50), (42.00, -29.00), (37.00, -33.00), (33.00, -38.50),
                       (28.00, -43.50), (23.50, -45.00), (15.50, -46.50)], RIDGE, 15.0,
                 "northern Mid-Atlantic Ridge"),
                (0.35, [(12.00, -44.00), (7.50, -36.00), (1.00, -28.00), (0.00, -20.00), (-1.00, -15.50)],
                 RIDGE, 15.0, "central Mid-Atlantic Ridge"),
                (0.25, [(-7.00, -12.50), (-14.00, -13.50), (-22.00, -12.50), (-30.00, -13.50), (-36.00, -16.00),
                        (-42.00, -16.00)], RIDGE, 15.0, "southern Mid-Atlantic Ridge")]),
    dict(name="Iceland and Reykjanes Ridge", count=7, mmin=3.0, b=1.0, net="us", oceanic=True,
         towns=T("Iceland", ("Vogar", 63.979, -22.381), ("Selfoss", 63.933, -21.000),
                 ("Höfn", 64.254, -15.212), ("Akureyri", 65.684, -18.091)),
         parts=[(0.3, [(62.50, -25.00), (63.70, -22.80)], RIDGE, 15.0, "Reykjanes Ridge"),
                (0.3, [(63.85, -22.70), (63.95, -21.60)], CRUSTAL, 6.0, "Iceland"),
                (0.2, [(64.55, -17.60), (64.70, -17.30)], CRUSTAL, 8.0, "Iceland"),
                (0.2, [(66.30, -18.80), (66.50, -17.00)], CRUSTAL, 10.0, "Iceland region")]),
    # ---------------- Mediterranean and Asia ----------------
    dict(name="Greece: Hellenic arc, Corinth, North Aegean", count=13, mmin=3.0, b=1.0, net="us", oceanic=True,
         towns=T("Greece", ("Lithakiá", 37.717, 20.833), ("Chania", 35.512, 24.018),
                 ("Rethymno", 35.365, 24.482), ("Sitia", 35.207, 26.105), ("Kos", 36.893, 27.288),
                 ("Myrina", 39.877, 25.074), ("Mytilene", 39.110, 26.555)),
         parts=[(0.55, [(38.00, 20.30), (36.80, 21.30), (35.30, 23.30), (34.70, 25.50), (35.50, 27.50),
                        (36.50, 28.50)], SUBDUCTION, 25.0, "southern Greece"),
                (0.15, [(38.20, 22.10), (38.40, 23.00)], CRUSTAL, 10.0, "Greece"),
                (0.15, [(39.50, 24.00), (40.20, 25.50)], CRUSTAL, 15.0, "Aegean Sea"),
                (0.15, [(36.40, 25.40), (36.80, 27.00)], [(1.0, "t", 60.0, 130.0, 170.0)], 15.0,
                 "Dodecanese Islands, Greece")]),
    dict(name="Turkey: North and East Anatolian faults, western Anatolia", count=13, mmin=3.0, b=1.0, net="us",
         towns=T("Turkey", ("Sındırgı", 39.240, 28.176), ("Simav", 39.088, 28.979), ("Demirci", 39.046, 28.659),
                 ("Soma", 39.186, 27.609), ("Hendek", 40.799, 30.748), ("Gerede", 40.800, 32.197),
                 ("Tosya", 41.016, 34.040), ("Erzincan", 39.750, 39.490), ("Elbistan", 38.206, 37.198),
                 ("Malatya", 38.355, 38.309), ("Sivrice", 38.445, 39.311),
                 ("Gaziantep", 37.066, 37.383), ("Antakya", 36.206, 36.157)),
         parts=[(0.4, [(39.10, 28.20), (38.50, 27.60), (37.80, 28.50)], CRUSTAL, 15.0, "western Turkey"),
                (0.35, [(40.75, 30.50), (40.60, 33.00), (40.30, 36.50), (39.60, 39.50), (39.20, 41.00)],
                 CRUSTAL, 12.0, "Turkey"),
                (0.25, [(36.50, 36.20), (37.50, 37.30), (38.30, 38.70), (38.90, 40.30)], CRUSTAL, 12.0,
                 "eastern Turkey")]),
    dict(name="Iran: Zagros", count=9, mmin=4.0, b=1.0, net="us",
         towns=T("Iran", ("Kermanshah", 34.314, 47.065), ("Ahvaz", 31.320, 48.669), ("Bushehr", 28.969, 50.838),
                 ("Shiraz", 29.610, 52.543), ("Bandar Abbas", 27.187, 56.276), ("Qeshm", 26.958, 56.270),
                 ("Ḩājjīābād", 28.309, 55.902), ("Lar", 27.681, 54.340)),
         parts=[(1.0, [(35.50, 45.80), (33.50, 47.50), (31.00, 50.00), (28.50, 52.50), (27.30, 55.50),
                       (27.00, 57.00)], SHALLOW_NEIC, 35.0, "southern Iran")]),
    dict(name="Afghanistan: Hindu Kush", count=9, mmin=4.0, b=1.0, net="us",
         towns=T("Afghanistan", ("Jurm", 36.864, 70.834), ("Fayzabad", 37.117, 70.580))
         + T("Pakistan", ("Chitral", 35.851, 71.786)),
         parts=[(0.8, [(36.45, 70.60), (36.60, 71.20)], [(1.0, "t", 170.0, 205.0, 245.0)], 12.0,
                 "Hindu Kush region, Afghanistan"),
                (0.2, [(37.50, 71.50), (38.50, 73.50)], SHALLOW_NEIC, 25.0, "Tajikistan")]),
    dict(name="Nepal: Himalayan front", count=5, mmin=4.0, b=1.0, net="us",
         towns=T("Nepal", ("Gorkha", 28.000, 84.628), ("Kodari", 27.967, 85.960), ("Besisahar", 28.231, 84.380),
                 ("Jumla", 29.274, 82.184), ("Dipayal", 29.261, 80.940), ("Dailekh", 28.844, 81.710),
                 ("Namche Bazar", 27.805, 86.710), ("Jiri", 27.631, 86.231)),
         parts=[(1.0, [(29.60, 81.20), (28.80, 82.50), (28.30, 84.00), (27.90, 85.50), (27.60, 87.50)],
                 [(0.5, "fix", 10.0), (0.5, "t", 8.0, 15.0, 25.0)], 25.0, "Nepal")]),
    dict(name="Western China: Tian Shan and Xinjiang", count=6, mmin=4.0, b=1.0, net="us",
         towns=T("China", ("Kashgar", 39.470, 75.989), ("Atush", 39.716, 76.168), ("Aksu", 41.123, 80.264),
                 ("Kuqa", 41.728, 82.936), ("Hotan", 37.099, 79.927), ("Yining", 43.908, 81.278)),
         parts=[(1.0, [(39.60, 74.80), (40.00, 77.00), (41.50, 80.50), (42.50, 83.00), (43.50, 84.50)],
                 SHALLOW_NEIC, 30.0, "southern Xinjiang, China")]),
    dict(name="Taiwan", count=7, mmin=3.8, b=1.0, net="us", oceanic=True,
         towns=T("Taiwan", ("Hualien City", 23.977, 121.604), ("Yilan", 24.757, 121.753),
                 ("Taitung City", 22.755, 121.144), ("Hengchun", 22.004, 120.744)),
         parts=[(0.75, [(24.60, 122.00), (23.70, 121.70), (22.80, 121.35), (22.00, 121.00)],
                 [(0.3, "fix", 10.0), (0.7, "t", 5.0, 18.0, 45.0)], 15.0, "Taiwan region"),
                (0.25, [(24.30, 122.40), (24.60, 122.80)], [(1.0, "t", 60.0, 90.0, 140.0)], 15.0, "Taiwan region")]),
    dict(name="Japan: Honshu (Pacific coast)", count=14, mmin=4.0, b=1.0, net="us", oceanic=True,
         towns=T("Japan", ("Mutsu", 41.289, 141.183), ("Hachinohe", 40.512, 141.488), ("Miyako", 39.641, 141.957),
                 ("Kamaishi", 39.276, 141.886), ("Ōfunato", 39.072, 141.717),
                 ("Ishinomaki", 38.417, 141.300), ("Namie", 37.490, 141.000), ("Iwaki", 37.050, 140.883),
                 ("Hasaki", 35.733, 140.833)),
         parts=[(0.75, [(41.20, 143.00), (39.50, 143.00), (38.30, 142.60), (37.00, 141.70), (35.80, 141.10)],
                 SUBDUCTION, 30.0, "off the east coast of Honshu, Japan"),
                (0.25, [(40.00, 141.50), (38.50, 140.90), (36.50, 140.40)], [(1.0, "t", 60.0, 90.0, 160.0)],
                 20.0, "eastern Honshu, Japan")]),
    dict(name="Kuril Islands", count=9, mmin=4.0, b=1.0, net="us", oceanic=True,
         towns=T("Russia", ("Severo-Kuril’sk", 50.678, 156.125))
         + T("Japan", ("Nemuro", 43.323, 145.575)),
         parts=[(0.85, [(43.30, 147.50), (44.50, 149.50), (46.00, 152.00), (48.00, 154.50), (50.00, 156.80)],
                 SUBDUCTION, 30.0, "Kuril Islands"),
                (0.15, [(46.50, 146.50), (49.00, 150.50), (51.50, 152.00)], DEEP, 30.0, "Sea of Okhotsk")]),
    dict(name="Kamchatka", count=10, mmin=4.0, b=1.0, net="us", oceanic=True,
         towns=T("Russia", ("Petropavlovsk-Kamchatsky", 53.044, 158.651), ("Vilyuchinsk", 52.930, 158.405),
                 ("Yelizovo", 53.187, 158.381), ("Ozernovskiy", 51.500, 156.517)),
         parts=[(1.0, [(51.50, 158.30), (53.00, 160.30), (54.50, 162.20), (56.00, 163.80)], SUBDUCTION, 30.0,
                 "off the east coast of Kamchatka")]),
    dict(name="Philippines: Mindanao", count=12, mmin=4.0, b=1.0, net="us", oceanic=True,
         towns=T("Philippines", ("Bislig", 8.210, 126.316), ("Hinatuan", 8.366, 126.336), ("Mati", 6.955, 126.217),
                 ("Manay", 7.215, 126.540), ("Pondaguitan", 6.359, 126.180), ("Sarangani", 5.403, 125.463),
                 ("Kalamansig", 6.555, 124.051), ("Tandag", 9.078, 126.199)),
         parts=[(0.65, [(9.50, 126.70), (7.50, 127.00), (5.50, 126.90)], SUBDUCTION, 30.0,
                 "Mindanao, Philippines"),
                (0.2, [(6.50, 123.80), (5.50, 124.50)], SUBDUCTION, 30.0, "Moro Gulf, Mindanao, Philippines"),
                (0.15, [(5.20, 124.00), (4.00, 124.50)], DEEP, 30.0, "Celebes Sea")]),
    dict(name="Indonesia: Sumatra", count=10, mmin=4.0, b=1.0, net="us", oceanic=True,
         towns=T("Indonesia", ("Sinabang", 2.480, 96.380), ("Meulaboh", 4.137, 96.128),
                 ("Gunungsitoli", 1.289, 97.615), ("Teluk Dalam", 0.560, 97.820), ("Tuapejat", -2.033, 99.593),
                 ("Padang", -0.950, 100.354), ("Bengkulu", -3.800, 102.266)),
         parts=[(1.0, [(5.50, 94.00), (2.50, 95.80), (0.00, 97.80), (-2.50, 99.80), (-4.50, 101.80),
                       (-6.00, 103.50)], SUBDUCTION, 35.0, "southern Sumatra, Indonesia")]),
    dict(name="Indonesia: Java, Bali, Lombok", count=10, mmin=4.0, b=1.0, net="us", oceanic=True,
         towns=T("Indonesia", ("Pelabuhanratu", -6.987, 106.551), ("Cilacap", -7.727, 109.009),
                 ("Pacitan", -8.196, 111.089), ("Malang", -7.980, 112.630), ("Banyuwangi", -8.219, 114.369),
                 ("Denpasar", -8.650, 115.217), ("Mataram", -8.583, 116.117), ("Sumbawa Besar", -8.493, 117.420)),
         parts=[(0.55, [(-8.50, 106.00), (-9.50, 110.00), (-10.00, 114.00), (-10.50, 118.00)], SUBDUCTION, 35.0,
                 "south of Java, Indonesia"),
                (0.25, [(-7.50, 107.00), (-8.00, 112.00)], [(1.0, "t", 80.0, 110.0, 200.0)], 25.0, "Java, Indonesia"),
                (0.2, [(-6.00, 111.00), (-6.80, 115.50), (-7.20, 118.00)], DEEP, 30.0, "Bali Sea")]),
    dict(name="Indonesia: Banda Sea", count=9, mmin=4.0, b=1.0, net="us", oceanic=True,
         towns=T("Indonesia", ("Tual", -5.630, 132.750), ("Saumlaki", -7.983, 131.300), ("Ambon", -3.696, 128.181))
         + T("Timor Leste", ("Pante Makasar", -9.200, 124.383), ("Lospalos", -8.519, 127.002)),
         parts=[(0.5, [(-6.00, 126.50), (-6.80, 129.50), (-7.50, 130.50)], DEEP, 40.0, "Banda Sea"),
                (0.5, [(-7.80, 126.00), (-7.20, 129.00), (-6.00, 131.00)], [(1.0, "t", 40.0, 110.0, 250.0)], 40.0,
                 "Banda Sea")]),
    dict(name="Papua New Guinea: New Britain and New Ireland", count=12, mmin=4.0, b=1.0, net="us", oceanic=True,
         towns=T("Papua New Guinea", ("Kimbe", -5.551, 150.143), ("Kandrian", -6.217, 149.550),
                 ("Kokopo", -4.352, 152.263), ("Rabaul", -4.200, 152.163), ("Namatanai", -3.661, 152.440),
                 ("Lae", -6.723, 146.997), ("Arawa", -6.228, 155.566)),
         parts=[(0.7, [(-6.40, 147.50), (-6.60, 150.00), (-5.90, 152.00), (-4.80, 153.50), (-6.50, 155.00)],
                 SUBDUCTION, 30.0, "New Britain region, Papua New Guinea"),
                (0.3, [(-5.20, 150.00), (-4.80, 152.00), (-3.80, 152.80)], [(1.0, "t", 70.0, 120.0, 450.0)], 25.0,
                 "New Ireland region, Papua New Guinea")]),
    dict(name="Solomon Islands", count=7, mmin=4.0, b=1.0, net="us", oceanic=True,
         towns=T("Solomon Islands", ("Gizo", -8.103, 156.842), ("Honiara", -9.433, 159.950),
                 ("Buala", -8.145, 159.592), ("Kirakira", -10.455, 161.920), ("Lata", -10.725, 165.797)),
         parts=[(1.0, [(-6.80, 155.50), (-8.30, 157.50), (-9.80, 159.80), (-11.00, 162.00)], SUBDUCTION, 30.0,
                 "Solomon Islands")]),
    dict(name="Vanuatu", count=12, mmin=4.0, b=1.0, net="us", oceanic=True,
         towns=T("Vanuatu", ("Sola", -13.876, 167.552), ("Luganville", -15.512, 167.177), ("Norsup", -16.066, 167.383),
                 ("Port-Vila", -17.734, 168.322), ("Isangel", -19.541, 169.273)),
         parts=[(0.75, [(-12.80, 166.30), (-15.00, 166.80), (-17.00, 167.70), (-19.50, 169.00), (-21.50, 170.00)],
                 SUBDUCTION, 30.0, "Vanuatu region"),
                (0.25, [(-14.00, 167.50), (-17.00, 168.50), (-20.00, 169.50)], INTERMEDIATE, 25.0, "Vanuatu")]),
    dict(name="Fiji: deep Tonga slab", count=16, mmin=4.0, b=1.0, net="us",
         towns=T("Fiji", ("Ndoi Island", -20.650, -178.700), ("Levuka", -17.680, 178.840), ("Suva", -18.142, 178.442),
                 ("Vunisea", -19.050, 178.157)),
         parts=[(0.75, [(-17.50, -178.50), (-20.00, -178.30), (-22.50, -179.50), (-24.50, 179.80)], DEEP, 40.0,
                 "Fiji region"),
                (0.25, [(-22.50, -179.50), (-25.50, 179.00), (-26.50, 178.60)], [(1.0, "u", 330.0, 620.0)], 40.0,
                 "south of the Fiji Islands")]),
    dict(name="Tonga", count=16, mmin=4.0, b=1.0, net="us", oceanic=True,
         towns=T("Tonga", ("Hihifo", -15.951, -173.784), ("Neiafu", -18.650, -173.983), ("Pangai", -19.812, -174.350),
                 ("‘Ohonua", -21.336, -174.950)),
         parts=[(0.65, [(-15.50, -173.20), (-18.00, -173.50), (-20.50, -174.00), (-23.00, -175.20), (-25.00, -175.80)],
                 SUBDUCTION, 30.0, "Tonga region"),
                (0.35, [(-16.50, -174.50), (-19.00, -175.00), (-21.50, -176.00), (-23.50, -176.80)],
                 [(0.6, "t", 70.0, 120.0, 300.0), (0.4, "u", 300.0, 550.0)], 30.0, "Tonga")]),
    dict(name="Kermadec Islands", count=9, mmin=4.2, b=1.0, net="us", oceanic=True,
         towns=[],
         parts=[(0.5, [(-26.00, -176.50), (-29.00, -177.50)], SUBDUCTION, 35.0, "Kermadec Islands, New Zealand"),
                (0.5, [(-29.50, -177.70), (-32.00, -178.20), (-34.50, -179.20)],
                 [(0.7, "t", 8.0, 30.0, 70.0), (0.3, "u", 70.0, 350.0)], 35.0, "Kermadec Islands region")]),
    dict(name="New Zealand", count=10, mmin=3.5, b=1.0, net="us", oceanic=True,
         towns=T("New Zealand", ("Te Araroa", -37.633, 178.367), ("Gisborne", -38.662, 178.018),
                 ("Wairoa", -39.033, 177.417), ("Napier", -39.492, 176.912), ("Porangahau", -40.300, 176.610),
                 ("Seddon", -41.672, 174.073), ("Kaikoura", -42.400, 173.681), ("Hanmer Springs", -42.523, 172.830),
                 ("Arthur's Pass", -42.941, 171.564), ("Taupo", -38.686, 176.070)),
         parts=[(0.6, [(-37.50, 178.90), (-39.00, 178.30), (-40.50, 176.80), (-41.80, 174.20), (-42.50, 173.00),
                       (-43.30, 171.20)], [(0.3, "fix", 10.0), (0.7, "t", 5.0, 18.0, 40.0)], 25.0,
                 "off the east coast of the North Island of New Zealand"),
                (0.4, [(-38.00, 176.50), (-38.80, 176.00), (-39.60, 175.80)], [(1.0, "t", 60.0, 150.0, 250.0)], 20.0,
                 "North Island of New Zealand")]),
]

# Rare non-earthquake events, like real feeds: (zone name, type, count).
OTHER_EVENTS = [
    ("Southern California: Transverse Ranges and Los Angeles", "quarry blast", 2),
    ("Washington and Oregon: Puget Sound, Cascades", "explosion", 1),
]

# Mainshock-aftershock sequences: (zone name, mainshock magnitude floor, cap,
# mainshock depth distribution).  Shallow mainshocks: deep ones have few
# aftershocks.
SEQUENCES = [
    ("Tonga", 6.3, 7.6, [(1.0, "t", 10.0, 22.0, 45.0)]),
    ("Turkey: North and East Anatolian faults, western Anatolia", 5.6, 6.6, CRUSTAL),
]

# Decimal places per network (magnitude, coordinates, depth), as the feeds do.
NET_FORMAT = {
    "us": (1, 4, 3), "ak": (1, 4, 1), "nn": (1, 4, 1), "tx": (1, 3, 4),
    "nc": (2, 4, 2), "ci": (2, 7, 2), "uw": (2, 4, 2), "uu": (2, 7, 2),
    "hv": (2, 7, 2), "pr": (2, 7, 2), "ok": (2, 4, 2),
}

COMPASS = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
           "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]

R_EARTH = 6371.0


# ---------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------

def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * R_EARTH * math.asin(min(1.0, math.sqrt(a)))


def bearing(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    x = math.sin(dl) * math.cos(p2)
    y = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return (math.degrees(math.atan2(x, y)) + 360.0) % 360.0


def wrap_lon(lon):
    while lon > 180.0:
        lon -= 360.0
    while lon <= -180.0:
        lon += 360.0
    return lon


def unwrap(poly):
    """Make a polyline's longitudes continuous across the antimeridian."""
    out = [poly[0]]
    for lat, lon in poly[1:]:
        prev = out[-1][1]
        while lon - prev > 180.0:
            lon -= 360.0
        while lon - prev < -180.0:
            lon += 360.0
        out.append((lat, lon))
    return out


def point_on_polyline(rng, poly):
    poly = unwrap(poly)
    if len(poly) == 1:
        return poly[0]
    lengths = [haversine(a[0], a[1], b[0], b[1]) for a, b in zip(poly, poly[1:])]
    total = sum(lengths)
    s = rng.random() * total
    last = len(lengths) - 1
    for k, ((a, b), seg) in enumerate(zip(zip(poly, poly[1:]), lengths)):
        if s <= seg or k == last:
            f = min(1.0, s / seg) if seg > 0 else 0.0
            return (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]))
        s -= seg
    return poly[-1]


def jitter(rng, lat, lon, km):
    dlat = rng.gauss(0.0, km) / 111.2
    dlon = rng.gauss(0.0, km) / (111.2 * max(0.2, math.cos(math.radians(lat))))
    return lat + dlat, wrap_lon(lon + dlon)


# ---------------------------------------------------------------------------
# Distributions
# ---------------------------------------------------------------------------

def draw_depth(rng, spec):
    r = rng.random() * sum(w for w, *_ in spec)
    for w, kind, *p in spec:
        if r <= w:
            break
        r -= w
    if kind == "fix":
        return p[0]
    if kind == "u":
        return rng.uniform(p[0], p[1])
    return rng.triangular(p[0], p[2], p[1])


def gutenberg_richter(rng, mmin, b, cap=MAG_CAP):
    """M = Mmin - log10(U)/b, U uniform in (0, 1]; truncated at cap."""
    while True:
        u = 1.0 - rng.random()
        m = mmin - math.log10(u) / b
        if m <= cap:
            return m


def pick_part(rng, zone):
    r = rng.random() * sum(p[0] for p in zone["parts"])
    for part in zone["parts"]:
        if r <= part[0]:
            return part
        r -= part[0]
    return zone["parts"][-1]


# ---------------------------------------------------------------------------
# Number formatting like the feeds: compact, no trailing zeros, no "-0".
# ---------------------------------------------------------------------------

def num(x, places):
    if x is None:
        return "null"
    s = "%.*f" % (places, x)
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    if s in ("-0", ""):
        s = "0"
    return s


def jstr(s):
    if s is None:
        return "null"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---------------------------------------------------------------------------
# Event construction
# ---------------------------------------------------------------------------

ALL_TOWNS = []
for _z in ZONES:
    for _t in _z["towns"]:
        if _t not in ALL_TOWNS:
            ALL_TOWNS.append(_t)


def place_for(lat, lon, region):
    best = None
    for name, suffix, tlat, tlon in ALL_TOWNS:
        d = haversine(tlat, tlon, lat, lon)
        if best is None or d < best[0]:
            best = (d, name, suffix, tlat, tlon)
    if best is None or best[0] > 300.0:
        return region, None
    d, name, suffix, tlat, tlon = best
    b = bearing(tlat, tlon, lat, lon)
    direction = COMPASS[int((b + 11.25) // 22.5) % 16]
    return "%d km %s of %s, %s" % (int(round(d)), direction, name, suffix), d


def mag_type(rng, net, m):
    if net == "us":
        if m >= 5.5:
            return "mww"
        if m >= 4.8 and rng.random() < 0.2:
            return "mwr"
        if m < 4.0 and rng.random() < 0.3:
            return "ml"
        return "mb"
    if m >= 4.0 and net in ("ci", "nc", "uu", "uw", "nn"):
        return "mw"
    if net == "nc":
        return "md" if m < 3.5 else "ml"
    if net == "hv":
        return "md" if m < 2.0 else "ml"
    if net == "pr":
        return "md"
    if net == "uu":
        return "md" if m < 2.5 and rng.random() < 0.5 else "ml"
    return "ml"


def intensity(m, r_km):
    """A rough, monotonic intensity model: I = 1.6 M - 2.6 log10(R) + 1.0."""
    return max(1.0, min(10.0, 1.6 * m - 2.6 * math.log10(max(r_km, 5.0)) + 1.0))


def make_event(rng, zone, when_ms, lat=None, lon=None, depth=None, mag=None, etype="earthquake",
               region=None, part=None):
    if part is None:
        part = pick_part(rng, zone)
    if lat is None:
        plat, plon = point_on_polyline(rng, part[1])
        lat, lon = jitter(rng, plat, wrap_lon(plon), part[3])
        depth = draw_depth(rng, part[2])
        if zone["net"] != "us" and depth == 10.0:
            depth = rng.triangular(5.0, 50.0, 20.0)  # only NEIC fixes depths at 10 km
    if region is None:
        region = part[4]
    if mag is None:
        mag = gutenberg_richter(rng, zone["mmin"], zone["b"])
    net = zone["net"]
    if net == "ak" and mag >= 5.0:
        net = "us"
    return dict(zone=zone["name"], oceanic=zone.get("oceanic", False), net=net, lat=lat, lon=lon,
                depth=depth, mag=mag, time=when_ms, type=etype, region=region)


def finish(rng, ev, code):
    net = ev["net"]
    mplaces, cplaces, dplaces = NET_FORMAT[net]
    mag = round(ev["mag"], mplaces)
    mtype = mag_type(rng, net, mag)
    if mtype in ("mww", "mwr", "mb"):
        mag = round(mag, 1)
    lat, lon, depth = ev["lat"], ev["lon"], ev["depth"]
    if ev["type"] != "earthquake":
        depth = rng.uniform(-0.9, 0.4)
    place, town_km = place_for(lat, lon, ev["region"])

    age = GENERATED_MS - ev["time"]
    if age < DAY_MS:
        status = "automatic" if rng.random() < 0.85 else "reviewed"
    else:
        status = "reviewed"
    updated = ev["time"] + int(rng.lognormvariate(math.log(40 * 60_000), 1.2))
    updated = min(updated, GENERATED_MS - rng.randint(1_000, 600_000))
    updated = max(updated, ev["time"] + 60_000)

    felt = cdi = mmi = alert = None
    types = {"origin", "phase-data"}
    if net not in ("us", "ak", "tx", "ok", "pr"):
        types.add("nearby-cities")
    if net in ("ci", "nc"):
        types.add("scitech-link")
    hypo = math.hypot(town_km if town_km is not None else 1000.0, depth)
    if town_km is not None and mag >= 2.5 and ev["type"] == "earthquake":
        i_town = intensity(mag, hypo)
        if i_town >= 2.5 and rng.random() < 0.7:
            # Fewer DYFI reports outside the US (NEIC-located events).
            people = 0.15 if net == "us" else 1.0
            felt = int(round(10 ** (0.9 * (i_town - 2.5)) * rng.uniform(0.5, 3.0) * people))
            felt = max(0, felt - (1 if mag < 3.5 else 0))
            cdi = round(max(1.0, min(i_town + rng.gauss(0, 0.4), 9.1)), 1)
            if felt == 0:
                cdi = 1
            types.add("dyfi")
    shakemap = mag >= 4.5 or (net != "us" and mag >= 3.5)
    if shakemap:
        epi_i = intensity(mag, math.hypot(depth, 20.0))
        mmi = round(max(1.0, min(epi_i + rng.gauss(0, 0.3), 8.6)), 3)
        types.add("shakemap")
    if mag >= 5.5:
        alert = "green"
        if mag >= 6.5 and depth < 70 and town_km is not None and town_km < 120:
            alert = "yellow"
        types.update(("losspager", "moment-tensor"))
    if mag >= 6.0:
        types.add("ground-failure")
    if mtype in ("mww", "mwr", "mw"):
        types.add("moment-tensor")
    if net in ("ci", "nc", "uu") and mag >= 2.5:
        types.add("focal-mechanism")
    tsunami = 1 if (mag >= 6.5 and ev["oceanic"] and depth < 100) else 0

    sig = int(round(mag * 100.0 * mag / 6.5))
    if felt:
        sig += int(round(min(felt, 1000) * (cdi or 1) / 10.0))
    if alert == "yellow":
        sig = max(sig, 650)

    if net == "us":
        nst = None if rng.random() < 0.3 else int(10 + (mag - 3.5) * 40 * rng.uniform(0.6, 1.4))
        nst = None if nst is None else max(8, nst)
        if town_km is not None:  # nearest station: roughly as far as the nearest town, or nearer
            dmin = round(rng.uniform(0.1, 0.8) + town_km / 111.2 * rng.uniform(0.3, 1.0), 3)
        else:
            dmin = round(rng.uniform(3.0, 15.0), 3)
        rms = round(rng.uniform(0.45, 1.3), 2)
        gap = int(rng.uniform(15, 110) if mag >= 4.5 else rng.uniform(40, 200))
    elif net == "ak":
        nst, dmin, gap = None, None, None
        rms = round(rng.uniform(0.25, 1.1), 2)
    else:
        nst = int(rng.uniform(4, 20) + 8 * max(0.0, mag - 1.0) * rng.uniform(0.5, 1.5))
        dmin = round(rng.uniform(0.004, 0.25) if net != "pr" else rng.uniform(0.02, 0.8), 4 if net != "tx" else 2)
        rms = round(rng.uniform(0.02, 0.35), 2)
        gap = int(rng.uniform(30, 250))

    if ev["type"] == "earthquake":
        title = "M %s - %s" % ("%.1f" % mag, place)
    else:
        title = "M %s %s - %s" % ("%.1f" % mag, ev["type"].title(), place)

    eid = "sample%05d" % code
    if cplaces == 7:
        lat = round(lat * 6000) / 6000.0
        lon = round(lon * 6000) / 6000.0
    props = [
        ("mag", num(mag, mplaces)),
        ("place", jstr(place)),
        ("time", str(ev["time"])),
        ("updated", str(updated)),
        ("tz", "null"),
        # Invented events have no USGS event page or detail feed: a link would be dead.
        ("url", "null"),
        ("detail", "null"),
        ("felt", "null" if felt is None else str(felt)),
        ("cdi", num(cdi, 1)),
        ("mmi", num(mmi, 3)),
        ("alert", jstr(alert)),
        ("status", jstr(status)),
        ("tsunami", str(tsunami)),
        ("sig", str(sig)),
        ("net", jstr(net)),
        ("code", jstr("%05d" % code)),
        ("ids", jstr("," + eid + ",")),
        ("sources", jstr("," + net + ",")),
        ("types", jstr("," + ",".join(sorted(types)) + ",")),
        ("nst", "null" if nst is None else str(nst)),
        ("dmin", num(dmin, 4)),
        ("rms", num(rms, 2)),
        ("gap", "null" if gap is None else str(gap)),
        ("magType", jstr(mtype)),
        ("type", jstr(ev["type"])),
        ("title", jstr(title)),
    ]
    coords = "[%s,%s,%s]" % (num(lon, cplaces), num(lat, cplaces), num(depth, dplaces))
    text = ('{"type":"Feature","properties":{' + ",".join('"%s":%s' % kv for kv in props) +
            '},"geometry":{"type":"Point","coordinates":' + coords + '},"id":' + jstr(eid) + "}")
    stats = dict(zone=ev["zone"], net=net, mag=mag, lat=float(num(lat, cplaces)), lon=float(num(lon, cplaces)),
                 depth=float(num(depth, dplaces)))
    return text, stats


def random_time(rng):
    return GENERATED_MS - 1 - int(rng.random() * SPAN_MS)


def build():
    rng = random.Random(SEED)
    zones = {z["name"]: z for z in ZONES}
    events = []
    for zone in ZONES:
        for _ in range(zone["count"]):
            events.append(make_event(rng, zone, random_time(rng)))

    # Mainshock-aftershock sequences: G-R mainshock above a floor, Bath's law
    # cap, Omori-like (p ~ 1, log-uniform) aftershock times, rupture-sized cloud.
    for zname, floor, cap, main_depth in SEQUENCES:
        zone = zones[zname]
        t0 = GENERATED_MS - int(rng.uniform(4, 24) * DAY_MS)
        main = make_event(rng, zone, t0, mag=gutenberg_richter(rng, floor, zone["b"], cap=cap),
                          part=zone["parts"][0])
        main["depth"] = draw_depth(rng, main_depth)
        events.append(main)
        n_after = max(8, min(30, int(10 ** (main["mag"] - 4.6))))
        rupture_km = 10 ** (0.5 * main["mag"] - 1.85)
        for _ in range(n_after):
            dt = math.exp(rng.uniform(math.log(120_000), math.log(GENERATED_MS - t0 - 60_000)))
            lat, lon = jitter(rng, main["lat"], main["lon"], rupture_km / 2.0)
            depth = max(0.5, main["depth"] + rng.gauss(0, 4.0)) if main["depth"] != 10.0 else \
                (10.0 if rng.random() < 0.5 else rng.uniform(5, 20))
            m = gutenberg_richter(rng, zone["mmin"], zone["b"], cap=main["mag"] - 0.6)
            events.append(make_event(rng, zone, t0 + int(dt), lat=lat, lon=lon, depth=depth, mag=m,
                                     region=main["region"]))

    for zname, etype, n in OTHER_EVENTS:
        zone = zones[zname]
        for _ in range(n):
            day = GENERATED_MS - int(rng.uniform(1, 29)) * DAY_MS
            day -= day % DAY_MS
            when = day + int(rng.uniform(18.5, 23.0) * 3_600_000)  # local daytime (UTC-8)
            ev = make_event(rng, zone, when, mag=rng.uniform(1.1, 1.9), etype=etype)
            events.append(ev)

    events.sort(key=lambda e: e["time"])
    feats = []
    stats = []
    for i, ev in enumerate(events, start=1):
        text, st = finish(rng, ev, i)
        feats.append((ev["time"], text))
        stats.append(st)
    feats.reverse()  # newest first, like USGS
    lons = [s["lon"] for s in stats]
    lats = [s["lat"] for s in stats]
    deps = [s["depth"] for s in stats]
    bbox = "[%s,%s,%s,%s,%s,%s]" % (num(min(lons), 4), num(min(lats), 4), num(min(deps), 3),
                                     num(max(lons), 4), num(max(lats), 4), num(max(deps), 3))
    meta = ('{"generated":%d,"url":%s,"title":%s,"status":200,"api":"1.14.1","count":%d}'
            % (GENERATED_MS, jstr(FEED_URL), jstr(TITLE), len(feats)))
    body = ",\n".join(t for _, t in feats)
    geojson = ('{"type":"FeatureCollection","metadata":' + meta + ',"features":[' + body +
               '],"bbox":' + bbox + "}")
    return geojson, stats


def swift_source(geojson):
    if '"""' in geojson or "\\" in geojson or "\r" in geojson:
        raise SystemExit("generated JSON cannot be embedded in a raw string literal")
    indented = "\n".join("    " + line for line in geojson.split("\n"))
    return ("// Generated by tools/sample-catalogue/generate.py — do not edit.\n"
            "// A synthetic sample in the USGS GeoJSON summary format: NOT real earthquake data.\n"
            "\n"
            "extension SampleCatalogue {\n"
            "    /// The bundled sample in USGS GeoJSON, generated at `generatedMilliseconds`.\n"
            "    static let generatedMilliseconds: Int64 = %d\n"
            "    static let geoJSON = #\"\"\"\n"
            "%s\n"
            "    \"\"\"#\n"
            "}\n") % (GENERATED_MS, indented)


def print_stats(geojson, stats, out):
    out.write("features: %d, bytes: %d\n" % (len(stats), len(geojson.encode("utf-8"))))
    for label, keep in (("all", lambda s: True),
                        ("US regional networks", lambda s: s["net"] != "us"),
                        ("NEIC (us)", lambda s: s["net"] == "us")):
        hist = {}
        for st in stats:
            if keep(st):
                k = int(math.floor(st["mag"]))
                hist[k] = hist.get(k, 0) + 1
        out.write("magnitudes, %s: %s\n" % (label, ", ".join("M%d: %d" % kv for kv in sorted(hist.items()))))
    counts = {}
    for st in stats:
        counts[st["zone"]] = counts.get(st["zone"], 0) + 1
    for z in ZONES:
        out.write("%4d  %s\n" % (counts.get(z["name"], 0), z["name"]))


def main(argv):
    geojson, stats = build()
    if "--stats" in argv:
        print_stats(geojson, stats, sys.stdout)
        return
    if "--stdout" in argv:
        sys.stdout.buffer.write(geojson.encode("utf-8") + b"\n")
        return
    if "--geojson" in argv:
        path = argv[argv.index("--geojson") + 1]
        with open(path, "wb") as f:
            f.write(geojson.encode("utf-8") + b"\n")
        return
    with open(SWIFT_OUT, "wb") as f:
        f.write(swift_source(geojson).encode("utf-8"))
    sys.stderr.write("wrote %s (%d bytes)\n" % (os.path.relpath(SWIFT_OUT, REPO), os.path.getsize(SWIFT_OUT)))


if __name__ == "__main__":
    main(sys.argv[1:])
