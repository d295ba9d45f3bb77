// Prints the adapter's meta-enums as QML and Qt's meta-object system see them ("Enum Key Value"
// lines): scripts/vocabulary --qt checks them against rules/vocabulary.txt.
#include <previewinteraction.h>

#include <QtCore/QMetaEnum>

#include <cstdio>

int main()
{
    const QMetaObject &meta = PreviewInteraction::staticMetaObject;
    for (const char *name : {"Phase", "CancelReason", "Source"}) {
        QMetaEnum enumerator = meta.enumerator(meta.indexOfEnumerator(name));
        for (int i = 0; i < enumerator.keyCount(); i++)
            std::printf("%s %s %d\n", name, enumerator.key(i), enumerator.value(i));
    }
    return 0;
}
