"""peek-client's procedural landscape "photos" (examples/peek-client/PeekUI/Artwork.swift) and its
photo library (Item.swift), drawn with pycairo: the same item gets the same picture in both apps."""
import math

MASK = (1 << 64) - 1


class SplitMix:
    """peek-client's tiny deterministic generator, bit for bit."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def unit(self):
        return (self.next() >> 11) / float(1 << 53)


def rgb(value):
    return ((value >> 16) & 0xFF) / 255, ((value >> 8) & 0xFF) / 255, (value & 0xFF) / 255


def scene(sky_top, sky_bottom, sun=None, sun_at=(0.7, 0.3, 0.09), ridges=(), water=None, stars=False, aurora=False,
          smooth=False, pines=False, city=False):
    return dict(sky_top=sky_top, sky_bottom=sky_bottom, sun=sun, sun_at=sun_at, ridges=list(ridges), water=water,
                stars=stars, aurora=aurora, smooth=smooth, pines=pines, city=city)


SCENES = [
    scene(0x0B1026, 0x1F3A5F, None, ridges=[0x2C3E50, 0x1B2631, 0x0E1419], stars=True, aurora=True),
    scene(0x8EC5FC, 0xF9D7C3, 0xFFF3D6, (0.25, 0.35, 0.07), [0x7F8FA6, 0x4B5D73, 0x2F3E4E], water=0x3E6A8A),
    scene(0xF6A04D, 0xFCE1A8, 0xFFF5D1, (0.72, 0.42, 0.1), [0xE3A35B, 0xC97B36, 0xA65A22], smooth=True),
    scene(0x6DD5ED, 0xE0F7FA, 0xFFFFFF, (0.8, 0.2, 0.06), [0xDDE6EE, 0x8FA7B8, 0x5C7485], water=0x2BB5B8),
    scene(0x2E1A47, 0xE07A5F, 0xFFB26B, (0.3, 0.5, 0.08), [], water=0x2A2240, city=True),
    scene(0x9BD1F2, 0xE8F5E9, 0xFFFDE7, (0.18, 0.22, 0.07), [0x9CB7A5, 0x4F7F5B, 0x2E5339], smooth=True, pines=True),
    scene(0xA1C4FD, 0xFDE2F3, 0xFFFFFF, (0.5, 0.3, 0.06), [0xB8B5D6], water=0xE8E6F5),
    scene(0x4A90C2, 0xF3C99B, 0xFFF1C1, (0.82, 0.25, 0.07), [0xC8553D, 0xA63D2A, 0x7A2A1D]),
    scene(0xB7A8E8, 0xF8E1F4, 0xFFF6E5, (0.7, 0.3, 0.08), [0xA78BD9, 0x7D5BB5, 0x5A3E8C], smooth=True),
    scene(0xC9D6DF, 0xF0F4F7, None, ridges=[0xAAB7C0, 0x7B8C97, 0x4D5B64, 0x2F3A41]),
    scene(0x48C6EF, 0xB4F0FF, 0xFFFFFF, (0.2, 0.2, 0.07), [0x3FA796], water=0x1E8FB5),
    scene(0x3A1C71, 0xFFAF7B, 0xFFD29D, (0.55, 0.5, 0.12), [0x5B3A6B, 0x2D1B36]),
    scene(0xD4FC79, 0x96E6A1, 0xFFFFF0, (0.85, 0.18, 0.06), [0x6FBF73, 0x3E8E41, 0x25632A], smooth=True),
    scene(0x5DADE2, 0xD6EAF8, None, ridges=[0xAED6F1, 0x85C1E9, 0x2E86C1]),
    scene(0xF7971E, 0xFFD200, 0xFFF8E1, (0.3, 0.28, 0.07), [0xD35400, 0x8E3B0B], water=0x7A4A1A),
    scene(0x020111, 0x20202C, 0xF5F3CE, (0.75, 0.25, 0.05), [0x3B2F2F, 0x1E1717], stars=True, smooth=True),
]

CATALOGUE = [
    ("Aurora Ridge", "Tromsø, Norway"), ("Morning Fjord", "Geiranger, Norway"),
    ("Dune Sea", "Erg Chebbi, Morocco"), ("Glacier Lake", "Lake Tekapo, New Zealand"),
    ("Harbour Lights", "Valletta, Malta"), ("Pine Valley", "Yosemite, USA"),
    ("Salt Flats", "Uyuni, Bolivia"), ("Red Canyon", "Sedona, USA"),
    ("Lavender Hills", "Valensole, France"), ("Misty Peaks", "Zhangjiajie, China"),
    ("Coral Bay", "Ningaloo, Australia"), ("Volcano Dawn", "Bromo, Indonesia"),
    ("Tea Terraces", "Munnar, India"), ("Ice Cave", "Vatnajökull, Iceland"),
    ("Autumn Lake", "Bled, Slovenia"), ("Night Desert", "Wadi Rum, Jordan"),
]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def samples(count):
    """peek-client's deterministic library of `count` photos."""
    items = []
    for i in range(max(0, count)):
        title, place = CATALOGUE[i % len(CATALOGUE)]
        rnd = i // len(CATALOGUE)
        items.append(dict(id=i + 1, title=title if rnd == 0 else f"{title} {rnd + 1}", place=place,
                          date=f"{3 + (i * 7) % 26} {MONTHS[(i * 5) % 12]} 20{19 + i % 7}", artwork=i, rating=None))
    return items


def draw(cr, index, x, y, w, h):
    """Draws photo number `index` filling the rectangle."""
    s = SCENES[index % len(SCENES)]
    random = SplitMix(index * 7919 + 17)
    cr.save()
    cr.rectangle(x, y, w, h)
    cr.clip()
    cr.translate(x, y)
    horizon = h * 0.62 if s["water"] is not None else h

    sky = _linear(0, 0, 0, horizon)
    sky.add_color_stop_rgb(0, *rgb(s["sky_top"]))
    sky.add_color_stop_rgb(1, *rgb(s["sky_bottom"]))
    cr.set_source(sky)
    cr.paint()

    if s["stars"]:
        for _ in range(40):
            sx = random.unit() * w
            sy = random.unit() * horizon * 0.7
            cr.arc(sx, sy, max(0.4, random.unit() * 1.1) * w / 200, 0, 2 * math.pi)
            cr.set_source_rgba(1, 1, 1, 0.4 + random.unit() * 0.5)
            cr.fill()
    if s["aurora"]:
        for band in range(3):
            g = _linear(0, 0, 0, h * 0.6)
            g.add_color_stop_rgba(0, 0.3, 1, 0.6, 0)
            g.add_color_stop_rgba(0.5, 0.35, 1, 0.65, 0.45 - band * 0.1)
            g.add_color_stop_rgba(1, 0.2, 0.8, 0.9, 0)
            cr.move_to(0, h * (0.35 + band * 0.06))
            bx = 0.0
            while bx <= w:
                bx += w / 12
                wave = math.sin(bx / w * 7 + band) * h * 0.08
                cr.line_to(bx, h * (0.3 + band * 0.06) + wave)
            cr.line_to(w, 0)
            cr.line_to(0, 0)
            cr.close_path()
            cr.set_source(g)
            cr.fill()
    if s["sun"] is not None:
        cx, cy, r = s["sun_at"][0] * w, s["sun_at"][1] * h, s["sun_at"][2] * w
        glow = _radial(cx, cy, r * 0.5, cx, cy, r * 4)
        c = rgb(s["sun"])
        glow.add_color_stop_rgba(0, *c, 0.55)
        glow.add_color_stop_rgba(1, *c, 0)
        cr.set_source(glow)
        cr.paint()
        cr.arc(cx, cy, r, 0, 2 * math.pi)
        cr.set_source_rgb(*c)
        cr.fill()
    if s["city"]:
        bx = 0.0
        while bx < w:
            bw = w * (0.04 + random.unit() * 0.06)
            bh = horizon * (0.12 + random.unit() * 0.3)
            cr.rectangle(bx, horizon - bh, bw - 1, bh)
            cr.set_source_rgb(*rgb(0x1D1530))
            cr.fill()
            for _ in range(int(bh / 6)):
                cr.rectangle(bx + random.unit() * (bw - 3), horizon - random.unit() * bh, 1.5, 1.5)
                cr.set_source_rgba(1, 0.85, 0.5, 0.9)
                cr.fill()
            bx += bw
    layers = len(s["ridges"])
    for i, colour in enumerate(s["ridges"]):
        depth = i / max(1, layers)
        base = horizon * (0.55 + depth * 0.3) + (h * 0.05 if s["water"] is None else 0)
        amplitude = horizon * (0.1 if s["smooth"] else 0.28) * (1 - depth * 0.4)
        _ridge(cr, random, w, base, amplitude, s["smooth"], horizon)
        cr.set_source_rgb(*rgb(colour))
        cr.fill()
        if s["pines"] and i == layers - 1:
            for _ in range(14):
                px = random.unit() * w
                ph = h * (0.08 + random.unit() * 0.1)
                py = base + random.unit() * (h - base) * 0.5
                cr.move_to(px, py - ph)
                cr.line_to(px + ph * 0.3, py)
                cr.line_to(px - ph * 0.3, py)
                cr.close_path()
                cr.set_source_rgb(*rgb(0x1B3B24))
                cr.fill()
    if s["water"] is not None:
        g = _linear(0, horizon, 0, h)
        c = rgb(s["water"])
        g.add_color_stop_rgba(0, *c, 0.92)
        g.add_color_stop_rgba(1, c[0] * 0.7, c[1] * 0.7, c[2] * 0.7, 1)
        cr.rectangle(0, horizon, w, h - horizon)
        cr.set_source(g)
        cr.fill()
        for i in range(6):
            wy = horizon + (h - horizon) * (0.15 + i * 0.14)
            wx = random.unit() * w * 0.6
            cr.rectangle(wx, wy, w * (0.15 + random.unit() * 0.3), max(1, h / 160))
            cr.set_source_rgba(1, 1, 1, 0.25)
            cr.fill()
    cr.restore()


def _ridge(cr, random, w, base, amplitude, smooth, bottom):
    steps = 6 if smooth else 9
    cr.move_to(0, bottom)
    px, py = 0.0, base - random.unit() * amplitude
    cr.line_to(px, py)
    for i in range(1, steps + 1):
        x = w * i / steps
        y = base - random.unit() * amplitude
        if smooth:
            mx = (px + x) / 2
            cr.curve_to(mx, py, mx, y, x, y)
        else:
            cr.line_to((px + x) / 2, min(py, y) - amplitude * random.unit() * 0.6)
            cr.line_to(x, y)
        px, py = x, y
    cr.line_to(w, bottom)
    cr.close_path()


def _linear(*args):
    import cairo
    return cairo.LinearGradient(*args)


def _radial(*args):
    import cairo
    return cairo.RadialGradient(*args)
