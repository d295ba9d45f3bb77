// peek-qt: peek and pop on a Qt Quick photo grid, on the PreviewInteraction QML module.
// usage: peek-qt [--items N] [--log] [--open N] [--markup]
#include "artwork.h"

#include <QtCore/QCommandLineParser>
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlApplicationEngine>
#include <QtQml/QQmlContext>
#include <QtQuickControls2/QQuickStyle>

#include <cstdio>

// What the app tells a test or a curious user, a line per event (--log).
class Log : public QObject
{
    Q_OBJECT
public:
    explicit Log(bool enabled) : m_enabled(enabled) {}
    Q_INVOKABLE void say(const QString &line) const
    {
        if (!m_enabled)
            return;
        std::printf("%s\n", qPrintable(line));
        std::fflush(stdout);
    }

private:
    bool m_enabled;
};

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv);
    app.setApplicationName(QStringLiteral("peek-qt"));
    app.setApplicationDisplayName(QStringLiteral("Photos"));
    app.setDesktopFileName(QStringLiteral("org.swiftpreviewinteraction.PeekQt"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Peek and pop on a Qt Quick photo grid"));
    parser.addHelpOption();
    QCommandLineOption items(QStringLiteral("items"), QStringLiteral("Number of photos (0…1000, default 12)."),
        QStringLiteral("N"), QStringLiteral("12"));
    QCommandLineOption log(QStringLiteral("log"), QStringLiteral("Print each interaction event on stdout."));
    QCommandLineOption open(QStringLiteral("open"), QStringLiteral("Start on the page of photo N (from 1)."),
        QStringLiteral("N"));
    QCommandLineOption markup(QStringLiteral("markup"), QStringLiteral("With --open: start with Markup on."));
    parser.addOptions({items, log, open, markup});
    parser.process(app);

    // A Plasma-like look: Qt Quick Controls' Fusion style (unless the user chose one) and the
    // system font.
    if (qEnvironmentVariableIsEmpty("QT_QUICK_CONTROLS_STYLE"))
        QQuickStyle::setStyle(QStringLiteral("Fusion"));
    QQmlApplicationEngine engine;
    engine.addImageProvider(QStringLiteral("photos"), new PhotoProvider);
    Log logger(parser.isSet(log));
    engine.rootContext()->setContextProperty(QStringLiteral("log"), &logger);
    engine.rootContext()->setContextProperty(QStringLiteral("photoLibrary"),
        Artwork::samples(qBound(0, parser.value(items).toInt(), 1000)));
    engine.rootContext()->setContextProperty(QStringLiteral("opening"), parser.isSet(open) ? qMax(1, parser.value(open).toInt()) : 0);
    engine.rootContext()->setContextProperty(QStringLiteral("startWithMarkup"), parser.isSet(markup));
    QObject::connect(&engine, &QQmlApplicationEngine::objectCreationFailed, &app, [] { QCoreApplication::exit(1); },
        Qt::QueuedConnection);
    engine.load(QUrl(QStringLiteral("qrc:/PeekQt/Main.qml")));
    if (engine.rootObjects().isEmpty())
        return 1;
    return app.exec();
}

#include "main.moc"
