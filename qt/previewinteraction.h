// The preview interaction ("peek and pop", UIKit's UIPreviewInteraction) for Qt Quick items and
// QWidgets on Wayland. In QML it is an attached type (`import PreviewInteraction`):
//
//     Image {
//         PreviewInteraction.onShouldBegin: request => request.accepted = photo.ready
//         PreviewInteraction.onPreview: (progress, ended) => lift(progress)
//         PreviewInteraction.onCommit: (progress, ended) => { if (ended) open() }
//         PreviewInteraction.onCancelled: reason => restore()
//     }
//
// From C++ (and for widgets): PreviewInteraction::forWidget(widget) or ::forItem(item), with
// the same signals and properties. Every item of a window shares the window's one protocol
// object: presses are routed to the item under them, the keyboard's preview key to the item
// with keyboard focus. Outside Wayland, or where the compositor has no preview interactions,
// `available` is false and nothing is ever emitted.
#pragma once

#include <QtCore/QObject>
#include <QtCore/QPointF>
#include <QtQml/qqmlregistration.h>

#include <memory>

#include "previewinteractionglobal.h"

class QQuickItem;
class QWidget;

class PreviewInteraction;
class PreviewRequestPrivate;
class PreviewInteractionPrivate;

// A press asks whether it may begin (UIKit's previewInteractionShouldBegin:). Leave `accepted`
// true to accept, set it false to decline, or call defer() and answer(accept) later, on the
// GUI thread, within the compositor's wait (150 ms by default; late answers time out).
class PREVIEWINTERACTIONQT_EXPORT PreviewRequest : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("PreviewRequest comes with PreviewInteraction.shouldBegin")
    Q_PROPERTY(bool accepted READ isAccepted WRITE setAccepted NOTIFY acceptedChanged)
    Q_PROPERTY(QPointF location READ location CONSTANT)
    Q_PROPERTY(int source READ source CONSTANT)
    Q_PROPERTY(int force READ force CONSTANT)
    Q_PROPERTY(uint press READ press CONSTANT)

public:
    ~PreviewRequest() override;

    bool isAccepted() const;
    void setAccepted(bool accepted);
    QPointF location() const;
    int source() const;
    int force() const;
    uint press() const;

    // The answer comes later, from answer().
    Q_INVOKABLE void defer();
    // Answers a deferred request; false when the press is gone (it timed out or was lifted).
    Q_INVOKABLE bool answer(bool accept);

Q_SIGNALS:
    void acceptedChanged();

private:
    friend class PreviewRequestPrivate;
    explicit PreviewRequest(std::unique_ptr<PreviewRequestPrivate> d);
    // Qt's convention: the data lives behind one pointer, so the class can change without
    // changing its size (the library's ABI; docs/abi.md).
    std::unique_ptr<PreviewRequestPrivate> const d;
};

class PREVIEWINTERACTIONQT_EXPORT PreviewInteraction : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("PreviewInteraction is an attached property: PreviewInteraction.onPreview")
    QML_ATTACHED(PreviewInteraction)
    Q_PROPERTY(bool enabled READ isEnabled WRITE setEnabled NOTIFY enabledChanged)
    Q_PROPERTY(Sources sources READ sources WRITE setSources NOTIFY sourcesChanged)
    Q_PROPERTY(Behaviour behaviour READ behaviour WRITE setBehaviour NOTIFY behaviourChanged)
    Q_PROPERTY(int stages READ stages WRITE setStages NOTIFY stagesChanged)
    Q_PROPERTY(bool available READ isAvailable NOTIFY availableChanged)
    Q_PROPERTY(Phase phase READ phase NOTIFY phaseChanged)
    Q_PROPERTY(Source source READ source NOTIFY pressChanged)
    Q_PROPERTY(Force force READ force NOTIFY pressChanged)
    Q_PROPERTY(uint press READ press NOTIFY pressChanged)
    Q_PROPERTY(QPointF location READ location NOTIFY locationChanged)
    Q_PROPERTY(qreal progress READ progress NOTIFY progressChanged)
    Q_PROPERTY(quint64 timestamp READ timestamp NOTIFY progressChanged)
    Q_PROPERTY(int stage READ stage NOTIFY stageChanged)
    Q_PROPERTY(bool hapticsAvailable READ hapticsAvailable NOTIFY hapticsAvailableChanged)

public:
    // Where the latest press is, as the client library's core reports it. The numbers are the
    // project's one vocabulary (rules/vocabulary.txt), the C library's and GTK's.
    enum Phase {
        NoPhase = 0,      // no press yet
        Asking = 1,       // shouldBegin was emitted; the answer may be pending
        Preview = 2,      // preview(progress, false)
        Commit = 3,       // after preview(1, true): commit(progress, false)
        Completed = 4,    // commit(1, true)
        Cancelled = 5,    // cancelled(reason)
        Accelerating = 6, // an Accelerator's press: stageChanged(stage)
        Refused = 7,      // declined (by the app, or no item took it): nothing more comes
        // The names before 2.0.
        Idle = NoPhase,
        Previewing = Preview,
        Committing = Commit,
    };
    Q_ENUM(Phase)

    // The kind of device: as flags (`sources`), and a press's `source` is its flag (Qt's
    // convention, as Qt::MouseButton).
    enum Source {
        NoSource = 0,
        Pen = 1,
        Touchpad = 2,
        Touchscreen = 4,
        Pointer = 8,     // a button without force: a long press simulates it
        Keyboard = 16,   // the user's preview key held on the focused item
        AllSources = 31,
    };
    Q_DECLARE_FLAGS(Sources, Source)
    Q_FLAG(Sources)
    Q_ENUM(Source)

    enum Force { UnknownForce = 0, Measured = 1, Simulated = 2 };
    Q_ENUM(Force)

    // What force means on the item.
    enum Behaviour {
        DeepClick = 1,   // peek and pop: preview, then commit (the default)
        Generic = 2,     // nothing: the app reads raw pressure (a drawing canvas)
        Accelerator = 3, // the force selects one of `stages` levels (stageChanged)
    };
    Q_ENUM(Behaviour)

    enum CancelReason {
        Lifted = 1,
        ClientCancelled = 2,
        Declined = 3,
        Timeout = 4,
        DeviceRemoved = 5,
        SurfaceGone = 6,
        Desynchronised = 7,
        Moved = 8,
        System = 9,
        Dismissed = 10,
    };
    Q_ENUM(CancelReason)

    enum HapticEffect { Tick = 1, Snap = 2, Confirm = 3 };
    Q_ENUM(HapticEffect)

    ~PreviewInteraction() override;

    // The interaction of a Qt Quick item or a widget, made on first use (a child of it).
    static PreviewInteraction *forItem(QQuickItem *item);
    static PreviewInteraction *forWidget(QWidget *widget);
    static PreviewInteraction *qmlAttachedProperties(QObject *object);

    QQuickItem *item() const;
    QWidget *widget() const;

    bool isEnabled() const;
    void setEnabled(bool enabled);
    Sources sources() const;
    void setSources(Sources sources);
    Behaviour behaviour() const;
    void setBehaviour(Behaviour behaviour);
    int stages() const;
    void setStages(int stages);

    bool isAvailable() const;
    Phase phase() const;
    Source source() const;
    Force force() const;
    uint press() const;
    QPointF location() const;
    qreal progress() const;
    // The latest hardware event of the press, in µs on the clock of Qt's input event times
    // (divided by 1000 and truncated to 32 bits it is their timestamp()).
    quint64 timestamp() const;
    int stage() const;
    bool hapticsAvailable() const;

    // A short effect on the device of the running press (a quick action highlighted: Tick).
    // False when nothing was sent (no running press, haptics unavailable, protocol version 1):
    // the client library says whether the press may have one.
    Q_INVOKABLE bool playHaptic(HapticEffect effect);
    // Cancels the item's running presses (UIKit's cancelInteraction): cancelled(ClientCancelled).
    Q_INVOKABLE void cancel();

Q_SIGNALS:
    void shouldBegin(PreviewRequest *request);
    void preview(qreal progress, bool ended);
    void commit(qreal progress, bool ended);
    void cancelled(PreviewInteraction::CancelReason reason);
    void stageChanged(int stage);

    void enabledChanged();
    void sourcesChanged();
    void behaviourChanged();
    void stagesChanged();
    void availableChanged();
    void phaseChanged();
    void pressChanged();
    void locationChanged();
    void progressChanged();
    void hapticsAvailableChanged();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    friend class PreviewInteractionPrivate;
    explicit PreviewInteraction(QObject *target);
    // Qt's convention: the data lives behind one pointer, so the class can change without
    // changing its size (the library's ABI; docs/abi.md).
    std::unique_ptr<PreviewInteractionPrivate> const d;
};

Q_DECLARE_OPERATORS_FOR_FLAGS(PreviewInteraction::Sources)
