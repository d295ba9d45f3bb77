// The adapter's latency and cost at the app, side by side with Qt's own: a widget with a
// PreviewInteraction that also takes Qt's QTabletEvents. For every preview signal and every
// tablet event it prints when the app got it (CLOCK_MONOTONIC, µs) and the hardware event's
// time (the adapter's in µs, Qt's in ms), for qt/tests/latency.py to pair up; and the thread's
// CPU time spent in each dispatch of the adapter's descriptor and in Qt's delivery of each
// tablet event, with the frame each was for: the script compares the frames both handled
// (a hovering pen's tablet events, which Qt drops before any widget, are not such frames).
#include <PreviewInteraction>

#include <QtGui/QTabletEvent>
#include <QtWidgets/QApplication>
#include <QtWidgets/QWidget>

#include <cstdio>
#include <ctime>

static long long microseconds(clockid_t clock)
{
    timespec now;
    clock_gettime(clock, &now);
    return now.tv_sec * 1000000LL + now.tv_nsec / 1000;
}

// What the handlers of the delivery being timed saw: how many ran, and the frame of the first.
static int handled = 0;
static unsigned long long handledFrame = 0;

class Area : public QWidget
{
protected:
    void tabletEvent(QTabletEvent *event) override
    {
        long long now = microseconds(CLOCK_MONOTONIC);
        if (event->type() == QEvent::TabletPress || event->type() == QEvent::TabletMove) {
            std::printf("tablet %llu %lld\n", (unsigned long long)event->timestamp(), now);
            if (handled++ == 0)
                handledFrame = event->timestamp();
        }
        event->accept();
    }
};

// Times the event loop's delivery of the adapter's descriptor and of tablet events.
class Application : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject *receiver, QEvent *event) override
    {
        const char *kind = nullptr;
        if (event->type() == QEvent::SockAct && receiver->parent() != nullptr
            && qstrcmp(receiver->parent()->metaObject()->className(), "PreviewInteractionInternal::DisplayClient") == 0)
            kind = "dispatch";
        else if (event->type() == QEvent::TabletMove || event->type() == QEvent::TabletPress)
            kind = receiver->isWindowType() ? "qt" : nullptr;
        if (kind == nullptr)
            return QApplication::notify(receiver, event);
        handled = 0;
        long long before = microseconds(CLOCK_THREAD_CPUTIME_ID);
        bool result = QApplication::notify(receiver, event);
        long long spent = microseconds(CLOCK_THREAD_CPUTIME_ID) - before;
        // The frame: a preview signal's in µs, a tablet event's in ms (every tablet event: the
        // script also tells the median of all, hovering included).
        if (handled > 0 || kind[0] == 'q')
            std::printf("cpu-%s %lld %d %llu\n", kind, spent, handled, handledFrame);
        return result;
    }
};

int main(int argc, char **argv)
{
    setvbuf(stdout, nullptr, _IOLBF, 0);
    Application app(argc, argv);
    Area area;
    area.resize(1280, 800);
    PreviewInteraction *interaction = PreviewInteraction::forWidget(&area);
    QObject::connect(interaction, &PreviewInteraction::preview, [&](qreal, bool) {
        long long now = microseconds(CLOCK_MONOTONIC);
        unsigned long long frame = interaction->timestamp();
        if (handled++ == 0)
            handledFrame = frame;
        std::printf("signal %llu %lld\n", frame, now);
    });
    area.show();
    return app.exec();
}
