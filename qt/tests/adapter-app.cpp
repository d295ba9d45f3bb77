// A real Qt window with items (QML) or widgets that have a PreviewInteraction, for
// run-adapter-test.py: every signal is printed as a line ("should-begin right pen measured
// x y w h accept", "preview right 0.500 - x y", ...), and each scenario changes the window the
// way its name says, mid-press.
// usage: adapter-app SCENARIO
#include <PreviewInteraction>

#include <QtCore/QMetaEnum>
#include <QtCore/QTimer>
#include <QtQml/QQmlError>
#include <QtQml/QQmlApplicationEngine>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>
#include <QtWidgets/QApplication>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QWidget>

#include <cstdio>
#include <functional>

// Calls `then` once, on the loop's next turn after the window's first expose.
class ExposeWatcher : public QObject
{
public:
    ExposeWatcher(QObject *parent, std::function<void()> then) : QObject(parent), m_then(std::move(then)) {}
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Expose && static_cast<QWindow *>(watched)->isExposed() && m_then) {
            QTimer::singleShot(0, this, m_then);
            m_then = nullptr;
        }
        return false;
    }

private:
    std::function<void()> m_then;
};

static void say(const QString &line);

// Hides the window right after its first expose, then shows it again.
class ReshowOnce : public QObject
{
public:
    using QObject::QObject;
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        auto *window = static_cast<QWindow *>(watched);
        if (event->type() != QEvent::Expose || !window->isExposed() || m_done)
            return false;
        m_done = true;
        QTimer::singleShot(0, this, [window] {
            window->hide();
            say(QStringLiteral("hidden"));
            window->show();
            say(QStringLiteral("shown again"));
        });
        return false;
    }

private:
    bool m_done = false;
};

static void say(const QString &line)
{
    std::printf("%s\n", qPrintable(line));
    std::fflush(stdout);
}

static QString key(const char *enumName, int value)
{
    QMetaEnum meta = PreviewInteraction::staticMetaObject.enumerator(
        PreviewInteraction::staticMetaObject.indexOfEnumerator(enumName));
    return QString::fromLatin1(meta.valueToKey(value)).toLower();
}

static QString point(QPointF p)
{
    return QString::asprintf("%.1f %.1f", p.x(), p.y());
}

// Two items side by side, or one on the right half, in a 1280×800 window (the headless output's
// size: the recorded pen lands at about 824,310).
static const char *scene(const QString &scenario)
{
    if (scenario == QLatin1String("two") || scenario == QLatin1String("keyboard") || scenario == QLatin1String("version1"))
        return R"(
import QtQuick
import PreviewInteraction
Window {
    width: 1280; height: 800; visible: true
    Row {
        anchors.fill: parent
        Rectangle { objectName: "left"; width: 640; height: 800; color: "#8ec5fc"; activeFocusOnTab: true
                    PreviewInteraction.enabled: true }
        Rectangle { objectName: "right"; width: 640; height: 800; color: "#f6a04d"; focus: true
                    PreviewInteraction.enabled: true }
    }
})";
    if (scenario == QLatin1String("clipped"))
        return R"(
import QtQuick
import PreviewInteraction
Window {
    width: 1280; height: 800; visible: true
    Flickable {
        objectName: "view"
        x: 0; y: 500; width: 1280; height: 300; clip: true
        contentWidth: 1280; contentHeight: 3000
        contentY: 200
        Rectangle { objectName: "button"; x: 700; y: 0; width: 300; height: 400; color: "#7d5bb5"
                    PreviewInteraction.enabled: true }
    }
})";
    if (scenario == QLatin1String("scrolled"))
        return R"(
import QtQuick
import PreviewInteraction
Window {
    width: 1280; height: 800; visible: true
    Flickable {
        objectName: "view"
        x: 0; y: 200; width: 1280; height: 600; clip: true
        contentWidth: 1280; contentHeight: 3000
        contentY: 0
        Rectangle { objectName: "button"; x: 700; y: 0; width: 300; height: 400; color: "#7d5bb5"
                    PreviewInteraction.enabled: true }
    }
})";
    return R"(
import QtQuick
import PreviewInteraction
Window {
    width: 1280; height: 800; visible: true
    Rectangle { objectName: "button"; x: 640; y: 0; width: 640; height: 800; color: "#f6a04d"
                PreviewInteraction.enabled: true }
})";
}

static void watch(PreviewInteraction *interaction, const QString &name, const QString &scenario, QObject *target)
{
    auto size = [target]() -> QString {
        if (auto *item = qobject_cast<QQuickItem *>(target))
            return QString::asprintf("%.1f %.1f", item->width(), item->height());
        auto *widget = static_cast<QWidget *>(target);
        return QString::asprintf("%d %d", widget->width(), widget->height());
    };
    QObject::connect(interaction, &PreviewInteraction::shouldBegin, interaction, [=](PreviewRequest *request) {
        bool late = scenario == QLatin1String("late");
        say(QStringLiteral("should-begin %1 %2 %3 %4 %5 %6").arg(name, key("Source", request->source()),
            key("Force", request->force()), point(request->location()), size(), late ? QStringLiteral("later") : QStringLiteral("accept")));
        if (late) {
            request->defer();
            QTimer::singleShot(20, request, [request] { say(QStringLiteral("answered %1").arg(request->answer(true) ? QStringLiteral("true") : QStringLiteral("false"))); });
        }
    });
    QObject::connect(interaction, &PreviewInteraction::preview, interaction, [=](qreal progress, bool ended) {
        say(QStringLiteral("preview %1 %2 %3 %4").arg(name).arg(progress, 0, 'f', 3).arg(ended ? QStringLiteral("ended") : QStringLiteral("-"),
            point(interaction->location())));
    });
    QObject::connect(interaction, &PreviewInteraction::commit, interaction, [=](qreal progress, bool ended) {
        say(QStringLiteral("commit %1 %2 %3 %4").arg(name).arg(progress, 0, 'f', 3).arg(ended ? QStringLiteral("ended") : QStringLiteral("-"),
            point(interaction->location())));
    });
    QObject::connect(interaction, &PreviewInteraction::cancelled, interaction, [=](PreviewInteraction::CancelReason reason) {
        say(QStringLiteral("cancelled %1 %2").arg(name, key("CancelReason", reason)));
    });
    QObject::connect(interaction, &PreviewInteraction::stageChanged, interaction,
        [=](int stage) { say(QStringLiteral("stage %1 %2").arg(name).arg(stage)); });
}

static int runWidgets(QApplication &app, const QString &scenario)
{
    QWidget window;
    window.resize(1280, 800);
    auto *layout = new QHBoxLayout(&window);
    auto *left = new QPushButton(QStringLiteral("Left"));
    auto *button = new QPushButton(QStringLiteral("Button"));
    left->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    layout->addWidget(left);
    layout->addWidget(button);
    PreviewInteraction *interaction = PreviewInteraction::forWidget(button);
    watch(interaction, QStringLiteral("button"), scenario, button);
    QObject::connect(button, &QPushButton::clicked, [] { say(QStringLiteral("clicked button")); });
    auto announce = [interaction] {
        say(QStringLiteral("available %1").arg(interaction->isAvailable() ? QStringLiteral("True") : QStringLiteral("False")));
    };
    QObject::connect(interaction, &PreviewInteraction::availableChanged, announce);
    window.show();
    window.windowHandle()->installEventFilter(new ExposeWatcher(window.windowHandle(), announce));
    say(QStringLiteral("shown"));
    return app.exec();
}

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QString scenario = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("button");
    if (scenario == QLatin1String("widgets"))
        return runWidgets(app, scenario);
    QQmlApplicationEngine engine;
    if (scenario == QLatin1String("--qml") && argc > 2) {
        // A document's snippet: it loads, its bindings and handlers compile, then the app quits.
        QObject::connect(&engine, &QQmlApplicationEngine::warnings, [](const QList<QQmlError> &warnings) {
            for (const QQmlError &warning : warnings)
                std::fprintf(stderr, "%s\n", qPrintable(warning.toString()));
        });
        engine.load(QUrl::fromLocalFile(QString::fromLocal8Bit(argv[2])));
        if (engine.rootObjects().isEmpty())
            return 2;
        const auto attached = engine.rootObjects().first()->findChildren<PreviewInteraction *>();
        say(QStringLiteral("loaded %1 interaction(s)").arg(attached.size()));
        return attached.isEmpty() ? 3 : 0;
    }
    engine.loadData(scene(scenario));
    if (engine.rootObjects().isEmpty())
        return 2;
    auto *window = qobject_cast<QQuickWindow *>(engine.rootObjects().first());
    QList<PreviewInteraction *> interactions;
    const auto items = window->findChildren<QQuickItem *>();
    for (QQuickItem *item : items) {
        QString name = item->objectName();
        if (name.isEmpty() || name == QLatin1String("view"))
            continue;
        PreviewInteraction *interaction = PreviewInteraction::forItem(item);
        interactions.append(interaction);
        watch(interaction, name, scenario, item);
        if (name == QLatin1String("right") && scenario == QLatin1String("version1")) {
            // Version 2's calls do nothing on version 1: the haptic effect is not sent.
            QObject::connect(interaction, &PreviewInteraction::preview, item, [interaction](qreal progress, bool) {
                static bool once = false;
                if (progress > 0.1 && !once) {
                    once = true;
                    bool sent = interaction->playHaptic(PreviewInteraction::Tick);
                    say(QStringLiteral("haptic %1").arg(sent ? QStringLiteral("True") : QStringLiteral("False")));
                }
            });
        }
        if (name == QLatin1String("button") && scenario == QLatin1String("hostile-cancelled-commit")) {
            // The app cancels in the commit phase; the hostile compositor goes on with the commit.
            QObject::connect(interaction, &PreviewInteraction::commit, item, [interaction](qreal, bool ended) {
                static bool once = false;
                if (!ended && !once) {
                    once = true;
                    interaction->cancel();
                }
            });
        }
        if (name == QLatin1String("button") && scenario == QLatin1String("resize")) {
            // Once the firm press previews, the item moves 300 px right under the pen.
            QObject::connect(interaction, &PreviewInteraction::preview, item, [item](qreal progress, bool) {
                if (progress > 0.1 && item->x() < 700) {
                    item->setX(item->x() + 300);
                    say(QStringLiteral("moved button"));
                }
            });
        }
        if (name == QLatin1String("button") && scenario == QLatin1String("destroy")) {
            QObject::connect(interaction, &PreviewInteraction::preview, item, [item](qreal progress, bool) {
                if (progress > 0.1)
                    item->deleteLater();
            });
            QObject::connect(item, &QObject::destroyed, [window] {
                say(QStringLiteral("destroyed button"));
                QTimer::singleShot(0, window, [window] {
                    bool gone = window->findChildren<PreviewInteraction *>().isEmpty();
                    say(QStringLiteral("after-destroy %1").arg(gone ? QStringLiteral("gone") : QStringLiteral("left")));
                });
            });
        }
        if (name == QLatin1String("button") && scenario == QLatin1String("scrolled")) {
            // The tap's end scrolls the item away from the pen: the firm press misses it.
            QObject::connect(interaction, &PreviewInteraction::cancelled, item, [window] {
                window->findChild<QObject *>(QStringLiteral("view"))->setProperty("contentY", 500);
                say(QStringLiteral("scrolled"));
            });
        }
    }
    if (scenario == QLatin1String("reshow")) {
        // The window is hidden as soon as it has first been exposed, then shown again: Qt makes a
        // new wl_surface (the compositor's replay begins when the window maps).
        window->installEventFilter(new ReshowOnce(window));
    }
    if (scenario == QLatin1String("keyboard"))
        window->findChild<QQuickItem *>(QStringLiteral("right"))->forceActiveFocus();
    if (scenario == QLatin1String("keyboard"))
        QObject::connect(window, &QQuickWindow::activeFocusItemChanged, window, [window] {
            if (window->activeFocusItem() != nullptr)
                say(QStringLiteral("focused %1").arg(window->activeFocusItem()->objectName()));
        });
    PreviewInteraction *first = interactions.value(0);
    if (first != nullptr) {
        auto announce = [first] {
            say(QStringLiteral("available %1").arg(first->isAvailable() ? QStringLiteral("True") : QStringLiteral("False")));
            if (first->isAvailable())
                say(QStringLiteral("settings %1").arg(PreviewSettings::instance()->isAvailable() ? QStringLiteral("True") : QStringLiteral("False")));
        };
        QObject::connect(first, &PreviewInteraction::availableChanged, first, announce);
        if (scenario == QLatin1String("unavailable")) {
            // Without the global (or outside Wayland): say so once the window shows, and quit.
            window->installEventFilter(new ExposeWatcher(window, [announce] {
                announce();
                QCoreApplication::quit();
            }));
            return app.exec();
        }
        // Once the window is exposed (its surface exists), after the adapter has seen it.
        window->installEventFilter(new ExposeWatcher(window, announce));
    }
    say(QStringLiteral("shown"));
    return app.exec();
}
