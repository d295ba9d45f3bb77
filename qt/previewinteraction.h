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
#include <QtCore/QPointer>
#include <QtQml/qqmlregistration.h>

#include "previewinteractionglobal.h"

class QQuickItem;
class QWidget;

namespace PreviewInteractionPrivate {
class SurfaceContext;
}

class PreviewInteraction;

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
    bool isAccepted() const { return m_accepted; }
    void setAccepted(bool accepted);
    QPointF location() const { return m_location; }
    int source() const { return m_source; }
    int force() const { return m_force; }
    uint press() const { return m_press; }

    // The answer comes later, from answer().
    Q_INVOKABLE void defer();
    // Answers a deferred request; false when the press is gone (it timed out or was lifted).
    Q_INVOKABLE bool answer(bool accept);

Q_SIGNALS:
    void acceptedChanged();

private:
    friend class PreviewInteraction;
    friend class PreviewInteractionPrivate::SurfaceContext;
    PreviewRequest(PreviewInteraction *interaction, uint press, QPointF location, int source, int force);
    QPointer<PreviewInteraction> m_interaction;
    uint m_press;
    QPointF m_location;
    int m_source;
    int m_force;
    bool m_accepted = true;
    bool m_deferred = false;
    bool m_answered = false;
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
    // Where the latest press is (as the client library's core reports it).
    enum Phase {
        Idle = 0,         // no press yet
        Asking = 1,       // shouldBegin was emitted; the answer may be pending
        Previewing = 2,   // preview(progress, false)
        Committing = 3,   // after preview(1, true): commit(progress, false)
        Completed = 4,    // commit(1, true)
        Cancelled = 5,    // cancelled(reason)
        Accelerating = 6, // an Accelerator's press: stageChanged(stage)
        Refused = 7,      // the app declined it: nothing more comes
    };
    Q_ENUM(Phase)

    // The kind of device (the press's `source`), and sets of them as flags (`sources`).
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

    bool isEnabled() const { return m_enabled; }
    void setEnabled(bool enabled);
    Sources sources() const { return m_sources; }
    void setSources(Sources sources);
    Behaviour behaviour() const { return m_behaviour; }
    void setBehaviour(Behaviour behaviour);
    int stages() const { return m_stages; }
    void setStages(int stages);

    bool isAvailable() const;
    Phase phase() const { return m_phase; }
    Source source() const { return m_source; }
    Force force() const { return m_force; }
    uint press() const { return m_press; }
    QPointF location() const { return m_location; }
    qreal progress() const { return m_progress; }
    // The latest hardware event of the press, in µs on the clock of Qt's input event times
    // (divided by 1000 and truncated to 32 bits it is their timestamp()).
    quint64 timestamp() const { return m_timestamp; }
    int stage() const { return m_stage; }
    bool hapticsAvailable() const { return m_hapticsAvailable; }

    // A short effect on the device of the running press (a quick action highlighted: Tick).
    // False when nothing was sent (no running press, haptics unavailable, protocol version 1).
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
    friend class PreviewInteractionPrivate::SurfaceContext;
    friend class PreviewRequest;
    explicit PreviewInteraction(QObject *target);
    void rejoin();
    void leave();
    void changed();
    QObject *target() const;

    QPointer<QQuickItem> m_item;
    QPointer<QWidget> m_widget;
    // Weak: a window destroyed before its items takes its context with it.
    QPointer<PreviewInteractionPrivate::SurfaceContext> m_context;
    bool m_enabled = true;
    Sources m_sources = AllSources;
    Behaviour m_behaviour = DeepClick;
    int m_stages = 3;
    Phase m_phase = Idle;
    Source m_source = NoSource;
    Force m_force = UnknownForce;
    uint m_press = 0;
    QPointF m_location;
    qreal m_progress = 0;
    quint64 m_timestamp = 0;
    int m_stage = 0;
    bool m_hapticsAvailable = false;
    bool m_available = false;
};

Q_DECLARE_OPERATORS_FOR_FLAGS(PreviewInteraction::Sources)
