// A Qt app on the installed Qt adapter: a QML window whose item has a PreviewInteraction
// (`import PreviewInteraction`, from the installed QML module), and a QWidget with one from C++.
// Prints "available true|false" (on Wayland when the adapter binds the global; elsewhere once the
// window is up), a cancelled press, a completed one. Exits 0 after a completed press (a commit
// that ended) or, off Wayland, when unavailable as it should be; 1 when the QML does not load.
#include <PreviewInteraction>

#include <QtCore/QTimer>
#include <QtQml/QQmlApplicationEngine>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>
#include <QtWidgets/QApplication>
#include <QtWidgets/QWidget>

#include <cstdio>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QWidget widget;
    PreviewInteraction *forWidget = PreviewInteraction::forWidget(&widget);
    std::printf("widget available %s\n", forWidget && forWidget->isAvailable() ? "true" : "false");

    QQmlApplicationEngine engine;
    engine.loadData(R"(
import QtQuick
import PreviewInteraction

Window {
    width: 1280; height: 800; visible: true
    Rectangle {
        objectName: "photo"
        anchors.fill: parent
        color: "#8ec5fc"
        PreviewInteraction.onShouldBegin: request => request.accepted = true
    }
}
)");
    if (engine.rootObjects().isEmpty())
        return 1;
    auto *window = qobject_cast<QQuickWindow *>(engine.rootObjects().first());
    auto *item = window->findChild<QQuickItem *>(QStringLiteral("photo"));
    PreviewInteraction *interaction = PreviewInteraction::forItem(item);
    QObject::connect(interaction, &PreviewInteraction::commit, &app, [](qreal progress, bool ended) {
        if (!ended)
            return;
        std::printf("commit %.3f ended\n", progress);
        std::fflush(stdout);
        QCoreApplication::exit(0);
    });
    QObject::connect(interaction, &PreviewInteraction::cancelled, &app,
                     [](PreviewInteraction::CancelReason reason) {
                         std::printf("cancelled %d\n", int(reason));
                         std::fflush(stdout);
                     });
    auto report = [interaction] {
        std::printf("available %s\n", interaction->isAvailable() ? "true" : "false");
        std::fflush(stdout);
    };
    QObject::connect(interaction, &PreviewInteraction::availableChanged, &app, report);
    if (QGuiApplication::platformName() == QLatin1String("wayland")) {
        // The window is up: the adapter may have bound the global already.
        if (interaction->isAvailable())
            report();
    } else {
        // Off Wayland it never becomes available: say so once the loop runs, and end.
        QTimer::singleShot(0, &app, [interaction, report] {
            report();
            QCoreApplication::exit(interaction->isAvailable() ? 1 : 0);
        });
    }
    return app.exec();
}
