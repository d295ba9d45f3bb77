#include "previewinteraction.h"

#include "displayclient_p.h"
#include "previewinteraction_p.h"
#include "surfacecontext_p.h"

#include <QtCore/QEvent>
#include <QtQml/QJSEngine>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>
#include <QtWidgets/QWidget>

using PreviewInteractionInternal::DisplayClient;
using PreviewInteractionInternal::SurfaceContext;

PreviewRequest *PreviewRequestPrivate::create(
    PreviewInteraction *interaction, uint press, QPointF location, int source, int force)
{
    auto d = std::make_unique<PreviewRequestPrivate>();
    d->interaction = interaction;
    d->press = press;
    d->location = location;
    d->source = source;
    d->force = force;
    auto *request = new PreviewRequest(std::move(d));
    request->setParent(interaction);
    return request;
}

PreviewRequest::PreviewRequest(std::unique_ptr<PreviewRequestPrivate> data)
    : d(std::move(data))
{
    QJSEngine::setObjectOwnership(this, QJSEngine::CppOwnership);
}

PreviewRequest::~PreviewRequest() = default;

bool PreviewRequest::isAccepted() const { return d->accepted; }
QPointF PreviewRequest::location() const { return d->location; }
int PreviewRequest::source() const { return d->source; }
int PreviewRequest::force() const { return d->force; }
uint PreviewRequest::press() const { return d->press; }

void PreviewRequest::setAccepted(bool accepted)
{
    if (d->accepted == accepted)
        return;
    d->accepted = accepted;
    Q_EMIT acceptedChanged();
}

void PreviewRequest::defer()
{
    d->deferred = true;
}

bool PreviewRequest::answer(bool accept)
{
    if (d->answered)
        return false;
    d->answered = true;
    setAccepted(accept);
    SurfaceContext *context =
        d->interaction != nullptr ? PreviewInteractionPrivate::get(d->interaction)->context.data() : nullptr;
    bool sent = context != nullptr && context->answer(d->interaction, d->press, accept) == PREVIEW_INTERACTION_CLIENT_OK;
    if (d->deferred)
        deleteLater();
    return sent;
}

PreviewInteraction::PreviewInteraction(QObject *target)
    : QObject(target), d(std::make_unique<PreviewInteractionPrivate>(this))
{
    if (auto *item = qobject_cast<QQuickItem *>(target)) {
        d->item = item;
        connect(item, &QQuickItem::windowChanged, this, [this] { d->rejoin(); });
        // Geometry, visibility and enabled changes reach the window's region on its next frame.
        for (auto signal : {&QQuickItem::visibleChanged, &QQuickItem::enabledChanged, &QQuickItem::xChanged,
                 &QQuickItem::yChanged, &QQuickItem::widthChanged, &QQuickItem::heightChanged})
            connect(item, signal, this, [this] { d->changed(); });
    } else if (auto *widget = qobject_cast<QWidget *>(target)) {
        d->widget = widget;
        widget->installEventFilter(this);
    }
    if (DisplayClient *client = DisplayClient::instance())
        connect(client, &DisplayClient::availableChanged, this, [this] { d->changed(); });
    d->rejoin();
}

PreviewInteraction::~PreviewInteraction()
{
    // The item is being destroyed: its running presses are cancelled on the wire, silently.
    blockSignals(true);
    d->leave();
    if (d->destroyed != nullptr)
        *d->destroyed = true;
}

PreviewInteraction *PreviewInteraction::qmlAttachedProperties(QObject *object)
{
    if (auto *item = qobject_cast<QQuickItem *>(object))
        return forItem(item);
    if (auto *widget = qobject_cast<QWidget *>(object))
        return forWidget(widget);
    return new PreviewInteraction(object);
}

PreviewInteraction *PreviewInteraction::forItem(QQuickItem *item)
{
    if (item == nullptr)
        return nullptr;
    if (auto *existing = item->findChild<PreviewInteraction *>(QString(), Qt::FindDirectChildrenOnly))
        return existing;
    return new PreviewInteraction(item);
}

PreviewInteraction *PreviewInteraction::forWidget(QWidget *widget)
{
    if (widget == nullptr)
        return nullptr;
    if (auto *existing = widget->findChild<PreviewInteraction *>(QString(), Qt::FindDirectChildrenOnly))
        return existing;
    return new PreviewInteraction(widget);
}

QQuickItem *PreviewInteraction::item() const
{
    return d->item;
}

QWidget *PreviewInteraction::widget() const
{
    return d->widget;
}

QObject *PreviewInteractionPrivate::target() const
{
    if (item != nullptr)
        return item;
    return widget;
}

bool PreviewInteraction::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == d->widget) {
        switch (event->type()) {
        case QEvent::Show:
        case QEvent::ParentChange:
        case QEvent::WinIdChange:
            d->rejoin();
            break;
        case QEvent::Hide:
        case QEvent::Move:
        case QEvent::Resize:
        case QEvent::EnabledChange:
            d->changed();
            break;
        default:
            break;
        }
    }
    return false;
}

// The window the item shows in (a QWindow per Qt Quick window or top-level widget).
void PreviewInteractionPrivate::rejoin()
{
    QWindow *window = nullptr;
    if (item != nullptr)
        window = item->window();
    else if (widget != nullptr)
        window = widget->window()->windowHandle();
    if (context != nullptr && context->window() == window)
        return;
    leave();
    if (window != nullptr)
        context = SurfaceContext::join(window, q);
    changed();
}

void PreviewInteractionPrivate::leave()
{
    // Where the press was stays once the item has no window.
    currentLocation();
    if (SurfaceContext *left = context) {
        context = nullptr;
        left->leave(q);
    }
}

void PreviewInteractionPrivate::changed()
{
    bool now = q->isAvailable();
    if (now != available) {
        available = now;
        Q_EMIT q->availableChanged();
    }
    if (context != nullptr)
        context->invalidate();
}

preview_interaction_client_press PreviewInteractionPrivate::latest() const
{
    preview_interaction_client_press press = {};
    if (last.id != 0 && context != nullptr && context->latestPress(q, &press) && press.id == last.id)
        return press;
    return last;
}

bool PreviewInteractionPrivate::take(const preview_interaction_client_press *press)
{
    // A cancelled press's item may be going away: its last location stays.
    if (press->phase == PREVIEW_INTERACTION_CLIENT_PHASE_CANCELLED || context == nullptr) {
        currentLocation();
        last = *press;
        return false;
    }
    bool moved = last.id != press->id || last.x != press->x || last.y != press->y;
    last = *press;
    locationPending = locationPending || moved;
    return moved;
}

QPointF PreviewInteractionPrivate::currentLocation() const
{
    // An item being destroyed keeps the location it had.
    if (locationPending && context != nullptr && target() != nullptr)
        location = context->toTarget(q, &last);
    locationPending = false;
    return location;
}

bool PreviewInteraction::isEnabled() const { return d->enabled; }
PreviewInteraction::Sources PreviewInteraction::sources() const { return d->sources; }
PreviewInteraction::Behaviour PreviewInteraction::behaviour() const { return d->behaviour; }
int PreviewInteraction::stages() const { return d->stages; }

bool PreviewInteraction::isAvailable() const
{
    return d->context != nullptr && d->context->isAvailable();
}

// The press's values are the library's, by the one vocabulary's numbers (rules/vocabulary.txt).
PreviewInteraction::Phase PreviewInteraction::phase() const
{
    preview_interaction_client_press press = d->latest();
    return press.phase <= PREVIEW_INTERACTION_CLIENT_PHASE_DECLINED ? Phase(press.phase) : NoPhase;
}

PreviewInteraction::Source PreviewInteraction::source() const
{
    uint32_t source = d->latest().source;
    // A press's source is its flag.
    return source >= PREVIEW_INTERACTION_CLIENT_SOURCE_PEN && source <= PREVIEW_INTERACTION_CLIENT_SOURCE_KEYBOARD
        ? Source(1 << (source - 1))
        : NoSource;
}

PreviewInteraction::Force PreviewInteraction::force() const
{
    uint32_t force = d->latest().force;
    return force <= PREVIEW_INTERACTION_CLIENT_FORCE_SIMULATED ? Force(force) : UnknownForce;
}

uint PreviewInteraction::press() const { return d->last.id; }
QPointF PreviewInteraction::location() const { return d->currentLocation(); }
qreal PreviewInteraction::progress() const { return d->latest().progress; }
quint64 PreviewInteraction::timestamp() const { return d->latest().time_usec; }
int PreviewInteraction::stage() const { return int(d->latest().stage); }
bool PreviewInteraction::hapticsAvailable() const { return d->latest().haptics_available; }

void PreviewInteraction::setEnabled(bool enabled)
{
    if (d->enabled == enabled)
        return;
    d->enabled = enabled;
    Q_EMIT enabledChanged();
    d->changed();
}

void PreviewInteraction::setSources(Sources sources)
{
    sources &= AllSources;
    if (d->sources == sources)
        return;
    d->sources = sources;
    Q_EMIT sourcesChanged();
    d->changed();
}

void PreviewInteraction::setBehaviour(Behaviour behaviour)
{
    if (behaviour < DeepClick || behaviour > Accelerator || d->behaviour == behaviour)
        return;
    d->behaviour = behaviour;
    Q_EMIT behaviourChanged();
    d->changed();
}

void PreviewInteraction::setStages(int stages)
{
    stages = qBound(2, stages, 5);
    if (d->stages == stages)
        return;
    d->stages = stages;
    Q_EMIT stagesChanged();
    d->changed();
}

bool PreviewInteraction::playHaptic(HapticEffect effect)
{
    // Whether the press may have one is the library's to say (it sends nothing otherwise).
    return d->context != nullptr && d->last.id != 0 && d->context->playHaptic(this, d->last.id, int(effect));
}

void PreviewInteraction::cancel()
{
    if (d->context != nullptr)
        d->context->cancelPressesOf(this);
}
