// peek-client's procedural landscape "photos" (examples/peek-client/PeekUI/Artwork.swift) and its
// photo library, drawn with QPainter: the same item gets the same picture as in peek-client and
// peek-gtk (examples/peek-gtk/artwork.py). Served to QML as image://photos/INDEX.
#pragma once

#include <QtCore/QVariantList>
#include <QtQuick/QQuickImageProvider>

class QPainter;

namespace Artwork {
// Photo number `index` filling the rectangle.
void draw(QPainter &painter, int index, qreal x, qreal y, qreal w, qreal h);
// peek-client's deterministic library of `count` photos: id, title, place, date, artwork.
QVariantList samples(int count);
}

class PhotoProvider : public QQuickImageProvider
{
public:
    PhotoProvider();
    QImage requestImage(const QString &id, QSize *size, const QSize &requestedSize) override;
};
