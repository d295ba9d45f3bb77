#include "artwork.h"

#include <QtCore/QVariantMap>
#include <QtGui/QLinearGradient>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>
#include <QtGui/QRadialGradient>

#include <cmath>
#include <optional>
#include <vector>

namespace {

// peek-client's tiny deterministic generator, bit for bit.
struct SplitMix
{
    quint64 state;
    quint64 next()
    {
        state += 0x9E3779B97F4A7C15ull;
        quint64 z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double unit() { return double(next() >> 11) / double(quint64(1) << 53); }
};

QColor rgb(quint32 value, qreal alpha = 1)
{
    QColor colour((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF);
    colour.setAlphaF(alpha);
    return colour;
}

struct Scene
{
    quint32 skyTop, skyBottom;
    std::optional<quint32> sun;
    double sunAt[3];
    std::vector<quint32> ridges;
    std::optional<quint32> water;
    bool stars = false, aurora = false, smooth = false, pines = false, city = false;
};

const std::vector<Scene> &scenes()
{
    static const std::vector<Scene> all = {
        {0x0B1026, 0x1F3A5F, {}, {0.7, 0.3, 0.09}, {0x2C3E50, 0x1B2631, 0x0E1419}, {}, true, true},
        {0x8EC5FC, 0xF9D7C3, 0xFFF3D6, {0.25, 0.35, 0.07}, {0x7F8FA6, 0x4B5D73, 0x2F3E4E}, 0x3E6A8A},
        {0xF6A04D, 0xFCE1A8, 0xFFF5D1, {0.72, 0.42, 0.1}, {0xE3A35B, 0xC97B36, 0xA65A22}, {}, false, false, true},
        {0x6DD5ED, 0xE0F7FA, 0xFFFFFF, {0.8, 0.2, 0.06}, {0xDDE6EE, 0x8FA7B8, 0x5C7485}, 0x2BB5B8},
        {0x2E1A47, 0xE07A5F, 0xFFB26B, {0.3, 0.5, 0.08}, {}, 0x2A2240, false, false, false, false, true},
        {0x9BD1F2, 0xE8F5E9, 0xFFFDE7, {0.18, 0.22, 0.07}, {0x9CB7A5, 0x4F7F5B, 0x2E5339}, {}, false, false, true, true},
        {0xA1C4FD, 0xFDE2F3, 0xFFFFFF, {0.5, 0.3, 0.06}, {0xB8B5D6}, 0xE8E6F5},
        {0x4A90C2, 0xF3C99B, 0xFFF1C1, {0.82, 0.25, 0.07}, {0xC8553D, 0xA63D2A, 0x7A2A1D}, {}},
        {0xB7A8E8, 0xF8E1F4, 0xFFF6E5, {0.7, 0.3, 0.08}, {0xA78BD9, 0x7D5BB5, 0x5A3E8C}, {}, false, false, true},
        {0xC9D6DF, 0xF0F4F7, {}, {0.7, 0.3, 0.09}, {0xAAB7C0, 0x7B8C97, 0x4D5B64, 0x2F3A41}, {}},
        {0x48C6EF, 0xB4F0FF, 0xFFFFFF, {0.2, 0.2, 0.07}, {0x3FA796}, 0x1E8FB5},
        {0x3A1C71, 0xFFAF7B, 0xFFD29D, {0.55, 0.5, 0.12}, {0x5B3A6B, 0x2D1B36}, {}},
        {0xD4FC79, 0x96E6A1, 0xFFFFF0, {0.85, 0.18, 0.06}, {0x6FBF73, 0x3E8E41, 0x25632A}, {}, false, false, true},
        {0x5DADE2, 0xD6EAF8, {}, {0.7, 0.3, 0.09}, {0xAED6F1, 0x85C1E9, 0x2E86C1}, {}},
        {0xF7971E, 0xFFD200, 0xFFF8E1, {0.3, 0.28, 0.07}, {0xD35400, 0x8E3B0B}, 0x7A4A1A},
        {0x020111, 0x20202C, 0xF5F3CE, {0.75, 0.25, 0.05}, {0x3B2F2F, 0x1E1717}, {}, true, false, true},
    };
    return all;
}

const char *catalogue[][2] = {
    {"Aurora Ridge", "Tromsø, Norway"}, {"Morning Fjord", "Geiranger, Norway"},
    {"Dune Sea", "Erg Chebbi, Morocco"}, {"Glacier Lake", "Lake Tekapo, New Zealand"},
    {"Harbour Lights", "Valletta, Malta"}, {"Pine Valley", "Yosemite, USA"},
    {"Salt Flats", "Uyuni, Bolivia"}, {"Red Canyon", "Sedona, USA"},
    {"Lavender Hills", "Valensole, France"}, {"Misty Peaks", "Zhangjiajie, China"},
    {"Coral Bay", "Ningaloo, Australia"}, {"Volcano Dawn", "Bromo, Indonesia"},
    {"Tea Terraces", "Munnar, India"}, {"Ice Cave", "Vatnajökull, Iceland"},
    {"Autumn Lake", "Bled, Slovenia"}, {"Night Desert", "Wadi Rum, Jordan"},
};
const char *months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

void ridge(QPainter &painter, SplitMix &random, qreal w, qreal base, qreal amplitude, bool smooth, qreal bottom,
    const QColor &colour)
{
    int steps = smooth ? 6 : 9;
    QPainterPath path(QPointF(0, bottom));
    qreal px = 0, py = base - random.unit() * amplitude;
    path.lineTo(px, py);
    for (int i = 1; i <= steps; i++) {
        qreal x = w * i / steps;
        qreal y = base - random.unit() * amplitude;
        if (smooth) {
            qreal mx = (px + x) / 2;
            path.cubicTo(mx, py, mx, y, x, y);
        } else {
            path.lineTo((px + x) / 2, std::min(py, y) - amplitude * random.unit() * 0.6);
            path.lineTo(x, y);
        }
        px = x;
        py = y;
    }
    path.lineTo(w, bottom);
    path.closeSubpath();
    painter.fillPath(path, colour);
}

} // namespace

void Artwork::draw(QPainter &painter, int index, qreal x, qreal y, qreal w, qreal h)
{
    const Scene &s = scenes()[size_t(index) % scenes().size()];
    SplitMix random{quint64(index) * 7919 + 17};
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setClipRect(QRectF(x, y, w, h));
    painter.translate(x, y);
    painter.setPen(Qt::NoPen);
    const QRectF all(0, 0, w, h);
    qreal horizon = s.water ? h * 0.62 : h;

    QLinearGradient sky(0, 0, 0, horizon);
    sky.setColorAt(0, rgb(s.skyTop));
    sky.setColorAt(1, rgb(s.skyBottom));
    painter.fillRect(all, sky);

    if (s.stars) {
        for (int i = 0; i < 40; i++) {
            qreal sx = random.unit() * w;
            qreal sy = random.unit() * horizon * 0.7;
            qreal r = std::max(0.4, random.unit() * 1.1) * w / 200;
            painter.setBrush(QColor::fromRgbF(1, 1, 1, 0.4 + random.unit() * 0.5));
            painter.drawEllipse(QPointF(sx, sy), r, r);
        }
    }
    if (s.aurora) {
        for (int band = 0; band < 3; band++) {
            QLinearGradient g(0, 0, 0, h * 0.6);
            g.setColorAt(0, QColor::fromRgbF(0.3, 1, 0.6, 0));
            g.setColorAt(0.5, QColor::fromRgbF(0.35, 1, 0.65, 0.45 - band * 0.1));
            g.setColorAt(1, QColor::fromRgbF(0.2, 0.8, 0.9, 0));
            QPainterPath path(QPointF(0, h * (0.35 + band * 0.06)));
            qreal bx = 0;
            while (bx <= w) {
                bx += w / 12;
                qreal wave = std::sin(bx / w * 7 + band) * h * 0.08;
                path.lineTo(bx, h * (0.3 + band * 0.06) + wave);
            }
            path.lineTo(w, 0);
            path.lineTo(0, 0);
            path.closeSubpath();
            painter.fillPath(path, g);
        }
    }
    if (s.sun) {
        qreal cx = s.sunAt[0] * w, cy = s.sunAt[1] * h, r = s.sunAt[2] * w;
        QRadialGradient glow(QPointF(cx, cy), r * 4, QPointF(cx, cy), r * 0.5);
        glow.setColorAt(0, rgb(*s.sun, 0.55));
        glow.setColorAt(1, rgb(*s.sun, 0));
        painter.fillRect(all, glow);
        painter.setBrush(rgb(*s.sun));
        painter.drawEllipse(QPointF(cx, cy), r, r);
    }
    if (s.city) {
        qreal bx = 0;
        while (bx < w) {
            qreal bw = w * (0.04 + random.unit() * 0.06);
            qreal bh = horizon * (0.12 + random.unit() * 0.3);
            painter.fillRect(QRectF(bx, horizon - bh, bw - 1, bh), rgb(0x1D1530));
            for (int i = 0; i < int(bh / 6); i++) {
                qreal wx = bx + random.unit() * (bw - 3);
                qreal wy = horizon - random.unit() * bh;
                painter.fillRect(QRectF(wx, wy, 1.5, 1.5), QColor::fromRgbF(1, 0.85, 0.5, 0.9));
            }
            bx += bw;
        }
    }
    const int layers = int(s.ridges.size());
    for (int i = 0; i < layers; i++) {
        qreal depth = qreal(i) / std::max(1, layers);
        qreal base = horizon * (0.55 + depth * 0.3) + (s.water ? 0 : h * 0.05);
        qreal amplitude = horizon * (s.smooth ? 0.1 : 0.28) * (1 - depth * 0.4);
        ridge(painter, random, w, base, amplitude, s.smooth, horizon, rgb(s.ridges[size_t(i)]));
        if (s.pines && i == layers - 1) {
            for (int p = 0; p < 14; p++) {
                qreal px = random.unit() * w;
                qreal ph = h * (0.08 + random.unit() * 0.1);
                qreal py = base + random.unit() * (h - base) * 0.5;
                QPainterPath tree(QPointF(px, py - ph));
                tree.lineTo(px + ph * 0.3, py);
                tree.lineTo(px - ph * 0.3, py);
                tree.closeSubpath();
                painter.fillPath(tree, rgb(0x1B3B24));
            }
        }
    }
    if (s.water) {
        QLinearGradient g(0, horizon, 0, h);
        QColor c = rgb(*s.water);
        g.setColorAt(0, rgb(*s.water, 0.92));
        g.setColorAt(1, QColor::fromRgbF(c.redF() * 0.7, c.greenF() * 0.7, c.blueF() * 0.7, 1));
        painter.fillRect(QRectF(0, horizon, w, h - horizon), g);
        for (int i = 0; i < 6; i++) {
            qreal wy = horizon + (h - horizon) * (0.15 + i * 0.14);
            qreal wx = random.unit() * w * 0.6;
            painter.fillRect(QRectF(wx, wy, w * (0.15 + random.unit() * 0.3), std::max(1.0, h / 160)),
                QColor::fromRgbF(1, 1, 1, 0.25));
        }
    }
    painter.restore();
}

QVariantList Artwork::samples(int count)
{
    QVariantList items;
    const int entries = int(sizeof catalogue / sizeof catalogue[0]);
    for (int i = 0; i < count; i++) {
        QString title = QString::fromUtf8(catalogue[i % entries][0]);
        int round = i / entries;
        if (round > 0)
            title += QStringLiteral(" %1").arg(round + 1);
        QVariantMap item;
        item[QStringLiteral("id")] = i + 1;
        item[QStringLiteral("title")] = title;
        item[QStringLiteral("place")] = QString::fromUtf8(catalogue[i % entries][1]);
        item[QStringLiteral("date")] = QStringLiteral("%1 %2 20%3")
                                           .arg(3 + (i * 7) % 26)
                                           .arg(QString::fromLatin1(months[(i * 5) % 12]))
                                           .arg(19 + i % 7);
        item[QStringLiteral("artwork")] = i;
        items.append(item);
    }
    return items;
}

PhotoProvider::PhotoProvider()
    : QQuickImageProvider(QQuickImageProvider::Image)
{
}

// image://photos/INDEX at the size asked for (sourceSize), 4:3 by default.
QImage PhotoProvider::requestImage(const QString &id, QSize *size, const QSize &requestedSize)
{
    QSize wanted(requestedSize.width() > 0 ? requestedSize.width() : 640,
        requestedSize.height() > 0 ? requestedSize.height() : 480);
    wanted = wanted.boundedTo(QSize(4096, 4096));
    QImage image(wanted, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    Artwork::draw(painter, qMax(0, id.toInt()), 0, 0, wanted.width(), wanted.height());
    painter.end();
    if (size != nullptr)
        *size = wanted;
    return image;
}
