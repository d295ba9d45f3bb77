#include "surfacecontext_p.h"

#include "displayclient_p.h"
#include "previewinteraction_p.h"

#include <QtCore/QLoggingCategory>
#include <QtCore/QThread>
#include <QtGui/QGuiApplication>
#include <QtGui/QTabletEvent>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>
#include <QtWidgets/QApplication>
#include <QtWidgets/QWidget>
#include <qpa/qplatformnativeinterface.h>

#include <algorithm>

Q_DECLARE_LOGGING_CATEGORY(lcPreview)

namespace PreviewInteractionInternal {

static const char contextProperty[] = "_preview_interaction_context";

static PreviewInteractionPrivate *dataOf(PreviewInteraction *interaction)
{
    return PreviewInteractionPrivate::get(interaction);
}

SurfaceContext *SurfaceContext::join(QWindow *window, PreviewInteraction *interaction)
{
    auto *context = window->property(contextProperty).value<SurfaceContext *>();
    if (context == nullptr) {
        context = new SurfaceContext(window);
        window->setProperty(contextProperty, QVariant::fromValue(context));
    }
    if (!context->m_interactions.contains(interaction)) {
        context->m_interactions.append(interaction);
        context->addItem(interaction);
        // Its update requests paint and commit the window (eventFilter).
        if (QWidget *widget = dataOf(interaction)->widget)
            widget->window()->installEventFilter(context);
    }
    context->checkSurface();
    context->invalidate();
    return context;
}

SurfaceContext::SurfaceContext(QWindow *window)
    : QObject(window), m_window(window), m_quick(qobject_cast<QQuickWindow *>(window) != nullptr),
      m_client(DisplayClient::instance())
{
    if (m_client != nullptr) {
        connect(m_client, &DisplayClient::dispatched, this, &SurfaceContext::dispatched);
        connect(m_client, &DisplayClient::goingAway, this, &SurfaceContext::clientGone);
    }
    window->installEventFilter(this);
    if (auto *quick = qobject_cast<QQuickWindow *>(window)) {
        // After Qt Quick's polish (layouts final): the items' rectangles, before the frame.
        connect(quick, &QQuickWindow::afterAnimating, this, &SurfaceContext::update);
        // Once the frame's state is synchronised to the scene graph, the acknowledgements of what
        // it shows. The threaded render loop synchronises on its render thread, once the frame
        // before has been committed: the acknowledgement then follows on this thread (the
        // library's) as the render thread draws and commits the frame, so a screenshot of a
        // moment shows it (or a later frame). The basic loop synchronises here, before its commit.
        connect(
            quick, &QQuickWindow::afterSynchronizing, this,
            [this] {
                if (QThread::currentThread() == thread())
                    acknowledge();
                else
                    QMetaObject::invokeMethod(this, &SurfaceContext::acknowledge, Qt::QueuedConnection);
            },
            Qt::DirectConnection);
        connect(quick, &QQuickWindow::activeFocusItemChanged, this, &SurfaceContext::invalidate);
        // Qt committed a frame: the state sent before it applied.
        connect(quick, &QQuickWindow::frameSwapped, this, [this] { m_commitFallback.stop(); });
    } else if (auto *app = qobject_cast<QApplication *>(QCoreApplication::instance())) {
        connect(app, &QApplication::focusChanged, this, &SurfaceContext::invalidate);
    }
    m_ackFallback.setSingleShot(true);
    m_ackFallback.setInterval(50);
    connect(&m_ackFallback, &QTimer::timeout, this, &SurfaceContext::acknowledge);
    m_commitFallback.setSingleShot(true);
    m_commitFallback.setInterval(500);
    connect(&m_commitFallback, &QTimer::timeout, this, &SurfaceContext::commitItself);
}

SurfaceContext::~SurfaceContext()
{
    detach();
    if (m_window != nullptr)
        m_window->removeEventFilter(this);
}

void SurfaceContext::leave(PreviewInteraction *interaction)
{
    // Its running presses are cancelled (the compositor gives the contacts back), their
    // cancelled signals made before this returns.
    dataOf(interaction)->handle = nullptr;
    if (preview_interaction_client_item *item = m_items.take(interaction))
        preview_interaction_client_item_remove(item);
    m_interactions.removeAll(interaction);
    if (!m_interactions.isEmpty()) {
        invalidate();
        return;
    }
    // The last item left: the window has no protocol object any more.
    if (m_window != nullptr)
        m_window->setProperty(contextProperty, QVariant());
    detach();
    deleteLater();
}

// Qt's Wayland platform makes a new wl_surface each time the window is shown.
void SurfaceContext::checkSurface()
{
    if (m_window == nullptr || m_client == nullptr || m_client->handle() == nullptr || m_interactions.isEmpty())
        return;
    QPlatformNativeInterface *native = QGuiApplication::platformNativeInterface();
    auto *surface = m_window->handle() != nullptr && native != nullptr
        ? static_cast<struct wl_surface *>(native->nativeResourceForWindow(QByteArrayLiteral("surface"), m_window))
        : nullptr;
    if (surface == m_surface)
        return;
    qCDebug(lcPreview) << "window" << m_window << "surface" << surface << "was" << m_surface;
    detach();
    if (surface != nullptr)
        attach(surface);
}

void SurfaceContext::attach(struct wl_surface *surface)
{
    preview_interaction_client_surface_callbacks callbacks = {};
    callbacks.size = sizeof callbacks;
    callbacks.pick = onPick;
    int status = preview_interaction_client_surface_attach(m_client->handle(), surface, &callbacks, this, &m_handle);
    if (status != PREVIEW_INTERACTION_CLIENT_OK) {
        qCDebug(lcPreview) << "no preview interaction on" << m_window << preview_interaction_client_status_string(status);
        m_handle = nullptr;
        return;
    }
    m_surface = surface;
    // Qt commits on its own: the acknowledgements leave right before the frame that shows them.
    preview_interaction_client_surface_set_hold_acks(m_handle, true);
    for (PreviewInteraction *interaction : std::as_const(m_interactions))
        addItem(interaction);
    update();
    for (PreviewInteraction *interaction : std::as_const(m_interactions))
        dataOf(interaction)->changed();
}

void SurfaceContext::addItem(PreviewInteraction *interaction)
{
    if (m_handle == nullptr || m_items.contains(interaction))
        return;
    static const preview_interaction_client_item_callbacks callbacks = {
        sizeof callbacks, onShouldBegin, onPreview, onCommit, onCancelled, onStage, onHaptics, onPhaseChanged,
        onAcceleratorEnded,
    };
    preview_interaction_client_item *item = nullptr;
    int status = preview_interaction_client_item_add(m_handle, &callbacks, interaction, &item);
    if (status == PREVIEW_INTERACTION_CLIENT_OK) {
        m_items.insert(interaction, item);
        dataOf(interaction)->handle = item;
    }
    else
        qCDebug(lcPreview) << "no item for" << dataOf(interaction)->target() << preview_interaction_client_status_string(status);
}

void SurfaceContext::detach()
{
    m_ackFallback.stop();
    m_commitFallback.stop();
    if (m_handle != nullptr) {
        // Each running press's item gets cancelled (SurfaceGone) before this returns.
        preview_interaction_client_surface *handle = m_handle;
        m_handle = nullptr;
        preview_interaction_client_surface_detach(handle);
        m_items.clear();
        for (PreviewInteraction *interaction : std::as_const(m_interactions))
            dataOf(interaction)->handle = nullptr;
        for (PreviewInteraction *interaction : std::as_const(m_interactions))
            dataOf(interaction)->changed();
    }
    m_surface = nullptr;
}

void SurfaceContext::clientGone()
{
    detach();
    m_client = nullptr;
}

bool SurfaceContext::isAvailable() const
{
    return m_handle != nullptr && m_client != nullptr && m_client->isAvailable();
}

bool SurfaceContext::eventFilter(QObject *watched, QEvent *event)
{
    // The top-level widget paints and commits in its update request: what was dispatched
    // before it shows in that picture.
    if (watched != m_window) {
        if (event->type() == QEvent::UpdateRequest)
            acknowledge();
        return false;
    }
    switch (event->type()) {
    case QEvent::Expose:
    case QEvent::Show:
    case QEvent::PlatformSurface:
        checkSurface();
        break;
    case QEvent::Hide:
        // Before the platform destroys the wl_surface: the protocol object goes first.
        qCDebug(lcPreview) << "window" << m_window << "hidden";
        detach();
        break;
    case QEvent::UpdateRequest:
        // Widgets lay out, paint and commit in this event; Qt Quick windows have their signals.
        if (!m_quick)
            frame();
        break;
    case QEvent::TabletRelease: {
        // Whether the commit phase took this release away (no click) is the library's to say.
        bool swallow = false;
        if (m_handle == nullptr
            || preview_interaction_client_surface_pen_released(m_handle, &swallow) != PREVIEW_INTERACTION_CLIENT_OK
            || !swallow)
            break;
        event->accept();
        return true;
    }
    default:
        break;
    }
    return false;
}

void SurfaceContext::invalidate()
{
    requestFrame();
    if (!m_commitFallback.isActive())
        m_commitFallback.start();
}

void SurfaceContext::requestFrame()
{
    if (m_window == nullptr)
        return;
    if (m_quick)
        static_cast<QQuickWindow *>(m_window.data())->update();
    else
        m_window->requestUpdate();
}

void SurfaceContext::dispatched()
{
    if (m_handle == nullptr)
        return;
    // Give Qt a frame soon: its commit carries the acknowledgement of what was dispatched.
    requestFrame();
    if (m_quick) {
        // Restarted by nothing but an acknowledgement: a timer started on every dispatch would
        // be registered anew (an allocation) each time.
        if (!m_ackFallback.isActive())
            m_ackFallback.start();
        return;
    }
    // Widgets paint and commit what the app's slots invalidated in the update request Qt posted
    // to the top-level widget (after every event posted ahead of it); the acknowledgement goes
    // right before that paint, or in the update request asked for here when nothing is drawn
    // (eventFilter). Nothing is posted per dispatch: no allocation, no wake-up.
}

// Every frame of a widget window: the items after layout, then the acknowledgements of the
// callbacks the frame shows.
void SurfaceContext::frame()
{
    m_commitFallback.stop();
    update();
    acknowledge();
}

// Qt drew no frame for half a second since the items changed: Qt 6.4's renderer cannot draw a
// window of an absurd size or scale (it fails to make its framebuffer, so it neither lays out
// nor commits), and the items' region would never apply. The items are read now and the
// window's surface is committed without a new picture, so presses still reach the app.
void SurfaceContext::commitItself()
{
    update();
    if (m_handle == nullptr)
        return;
    m_commitFallback.stop();
    qCDebug(lcPreview) << "window" << m_window << "drew nothing since its items changed: committing it";
    preview_interaction_client_surface_commit_surface(m_handle);
}

void SurfaceContext::acknowledge()
{
    m_ackFallback.stop();
    if (m_handle != nullptr)
        preview_interaction_client_surface_will_commit(m_handle, nullptr);
}

// Surface coordinates are the window's plus the decorations Qt draws itself.
QPointF SurfaceContext::surfaceOffset() const
{
    QMargins margins = m_window != nullptr ? m_window->frameMargins() : QMargins();
    return QPointF(margins.left(), margins.top());
}

PreviewInteraction *SurfaceContext::interactionOf(QObject *target) const
{
    for (PreviewInteraction *interaction : m_interactions)
        if (target != nullptr && dataOf(interaction)->target() == target)
            return interaction;
    return nullptr;
}

// The part of the item its ancestors let show, in window coordinates, while presses can begin.
bool SurfaceContext::visibleRect(PreviewInteraction *interaction, QRectF *rect) const
{
    const PreviewInteractionPrivate *d = dataOf(interaction);
    if (!d->enabled || d->sources == PreviewInteraction::NoSource || m_window == nullptr)
        return false;
    QRectF bounds;
    if (QQuickItem *item = d->item) {
        if (item->window() != m_window || !item->isVisible() || !item->isEnabled())
            return false;
        bounds = item->mapRectToScene(item->boundingRect());
        for (QQuickItem *ancestor = item->parentItem(); ancestor != nullptr; ancestor = ancestor->parentItem())
            if (ancestor->clip())
                bounds &= ancestor->mapRectToScene(ancestor->boundingRect());
    } else if (QWidget *widget = d->widget) {
        if (widget->window()->windowHandle() != m_window || !widget->isVisible() || !widget->isEnabled())
            return false;
        QRect visible = widget->visibleRegion().boundingRect();
        bounds = QRectF(visible.translated(widget->mapTo(widget->window(), QPoint(0, 0))));
    } else {
        return false;
    }
    bounds &= QRectF(QPointF(0, 0), m_window->size());
    *rect = bounds;
    return !bounds.isEmpty();
}

bool SurfaceContext::takesKeyboard(PreviewInteraction *interaction) const
{
    QRectF rect;
    const PreviewInteractionPrivate *d = dataOf(interaction);
    return (d->sources & PreviewInteraction::Keyboard) && d->behaviour != PreviewInteraction::Generic
        && visibleRect(interaction, &rect);
}

static int depthOf(PreviewInteraction *interaction)
{
    int depth = 0;
    if (QQuickItem *item = interaction->item())
        for (; item != nullptr; item = item->parentItem())
            depth++;
    else if (QWidget *widget = interaction->widget())
        for (; widget != nullptr; widget = widget->parentWidget())
            depth++;
    return depth;
}

static bool isAncestor(QObject *ancestor, PreviewInteraction *interaction)
{
    if (QQuickItem *item = interaction->item()) {
        for (; item != nullptr; item = item->parentItem())
            if (item == ancestor)
                return true;
    } else if (QWidget *widget = interaction->widget()) {
        for (; widget != nullptr; widget = widget->parentWidget())
            if (widget == ancestor)
                return true;
    }
    return false;
}

// The item a keyboard press goes to and its centre (window coordinates): the focused item's,
// or its nearest ancestor's with an interaction, or, when the focus is on a container (a grid
// view's delegate, a list row), the first item inside it with an interaction.
PreviewInteraction *SurfaceContext::focusTarget(QPointF *point) const
{
    QObject *focus = nullptr;
    QList<QObject *> chain;
    if (auto *quick = qobject_cast<QQuickWindow *>(m_window.data())) {
        for (QQuickItem *item = quick->activeFocusItem(); item != nullptr; item = item->parentItem())
            chain.append(item);
    } else if (QWidget *widget = QApplication::focusWidget(); widget != nullptr && widget->window()->windowHandle() == m_window) {
        for (; widget != nullptr; widget = widget->parentWidget())
            chain.append(widget);
    }
    if (chain.isEmpty())
        return nullptr;
    focus = chain.first();
    PreviewInteraction *target = nullptr;
    for (QObject *object : std::as_const(chain))
        if ((target = interactionOf(object)) != nullptr)
            break;
    if (target == nullptr)
        for (PreviewInteraction *interaction : m_interactions)
            if (isAncestor(focus, interaction) && takesKeyboard(interaction)) {
                target = interaction;
                break;
            }
    QRectF rect;
    if (target == nullptr || !takesKeyboard(target) || !visibleRect(target, &rect))
        return nullptr;
    *point = rect.center();
    return target;
}

// The deepest item that takes input at the point, then up to the nearest one with an interaction.
PreviewInteraction *SurfaceContext::pick(QPointF point) const
{
    if (auto *quick = qobject_cast<QQuickWindow *>(m_window.data())) {
        QQuickItem *item = quick->contentItem();
        while (item != nullptr) {
            QPointF local = item->mapFromScene(point);
            QQuickItem *child = item->childAt(local.x(), local.y());
            if (child == nullptr)
                break;
            item = child;
        }
        for (; item != nullptr; item = item->parentItem())
            if (PreviewInteraction *interaction = interactionOf(item))
                return interaction;
        return nullptr;
    }
    QWidget *top = nullptr;
    for (PreviewInteraction *interaction : m_interactions)
        if (QWidget *widget = dataOf(interaction)->widget; widget != nullptr && widget->window()->windowHandle() == m_window)
            top = widget->window();
    if (top == nullptr)
        return nullptr;
    QWidget *widget = top->childAt(point.toPoint());
    for (widget = widget != nullptr ? widget : top; widget != nullptr; widget = widget->parentWidget())
        if (PreviewInteraction *interaction = interactionOf(widget))
            return interaction;
    return nullptr;
}

QPointF SurfaceContext::toTarget(PreviewInteraction *interaction, const preview_interaction_client_press *press) const
{
    QPointF window = QPointF(press->x, press->y) - surfaceOffset();
    const PreviewInteractionPrivate *d = dataOf(interaction);
    if (QQuickItem *item = d->item)
        return item->mapFromScene(window);
    if (QWidget *widget = d->widget)
        return widget->mapFrom(widget->window(), window);
    return window;
}

// The items' rectangles, depths and settings, and the focus, after each layout: the library
// sends what changed.
void SurfaceContext::update()
{
    checkSurface();
    if (m_handle == nullptr || m_window == nullptr)
        return;
    const QPointF offset = surfaceOffset();
    for (auto it = m_items.cbegin(); it != m_items.cend(); ++it) {
        PreviewInteraction *interaction = it.key();
        preview_interaction_client_item *item = it.value();
        QRectF rect;
        if (visibleRect(interaction, &rect)) {
            QRect shown = rect.translated(offset).toAlignedRect();
            preview_interaction_client_rect r = {shown.x(), shown.y(), shown.width(), shown.height()};
            preview_interaction_client_item_set_rect(item, &r);
        } else {
            preview_interaction_client_item_set_rect(item, nullptr);
        }
        const PreviewInteractionPrivate *d = dataOf(interaction);
        preview_interaction_client_item_set_depth(item, uint32_t(depthOf(interaction)));
        preview_interaction_client_item_set_sources(item, uint32_t(d->sources));
        preview_interaction_client_item_set_enabled(item, d->enabled);
        bool accelerator = d->behaviour == PreviewInteraction::Accelerator;
        preview_interaction_client_item_set_behaviour(item, preview_interaction_client_behaviour(d->behaviour),
            accelerator ? uint32_t(d->stages) : 0);
    }
    QPointF focus;
    PreviewInteraction *focused = focusTarget(&focus);
    focus += offset;
    preview_interaction_client_surface_set_focus(m_handle, focused != nullptr ? m_items.value(focused) : nullptr,
        focus.x(), focus.y());
    bool changed = false;
    preview_interaction_client_surface_layout_changed(m_handle, &changed);
    // What changed applies on the surface's next commit: make sure there is one.
    if (changed) {
        for (PreviewInteraction *interaction : std::as_const(m_interactions))
            if (QWidget *widget = dataOf(interaction)->widget) {
                widget->window()->update();
                break;
            }
        requestFrame();
        if (!m_commitFallback.isActive())
            m_commitFallback.start();
    }
}

int SurfaceContext::answer(PreviewInteraction *interaction, uint press, bool accept)
{
    preview_interaction_client_item *item = m_items.value(interaction);
    if (item == nullptr)
        return PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED;
    // A decline's phase is told by the library (phase_changed).
    return preview_interaction_client_item_answer(item, press, accept);
}

bool SurfaceContext::latestPress(PreviewInteraction *interaction, preview_interaction_client_press *press) const
{
    preview_interaction_client_item *item = dataOf(interaction)->handle;
    return item != nullptr && preview_interaction_client_item_get_press(item, press) == PREVIEW_INTERACTION_CLIENT_OK;
}

// Each press is cancelled on the wire (the compositor gives the contact back to core input)
// and its cancelled signal comes now (or right after the current callback).
void SurfaceContext::cancelPressesOf(PreviewInteraction *interaction)
{
    if (preview_interaction_client_item *item = m_items.value(interaction))
        preview_interaction_client_item_cancel_all(item);
}

bool SurfaceContext::playHaptic(PreviewInteraction *interaction, uint press, int effect)
{
    preview_interaction_client_item *item = m_items.value(interaction);
    return item != nullptr
        && preview_interaction_client_item_play_haptic(item, press, preview_interaction_client_haptic_effect(effect))
        == PREVIEW_INTERACTION_CLIENT_OK;
}

// The commit phase takes the contact away from core input: whatever grabbed the press lets go
// (a button under it never clicks), and a pen's release is swallowed.
void SurfaceContext::ungrab(PreviewInteraction *interaction)
{
    if (auto *quick = qobject_cast<QQuickWindow *>(m_window.data())) {
        if (QQuickItem *grabber = quick->mouseGrabberItem())
            grabber->ungrabMouse();
    } else if (QWidget *widget = dataOf(interaction)->widget) {
        // A release far outside the widget: a pressed button lets go without clicking.
        QMouseEvent release(QEvent::MouseButtonRelease, QPointF(-1e6, -1e6), QPointF(-1e6, -1e6), Qt::LeftButton,
            Qt::NoButton, Qt::NoModifier);
        QCoreApplication::sendEvent(widget, &release);
    }
}

// Whether the interaction outlived the slots of the signals a callback emitted (one may delete
// it). Guards nest: an inner one tells the outer ones.
class Alive
{
public:
    explicit Alive(PreviewInteraction *interaction)
        : m_data(dataOf(interaction)), m_outer(m_data->destroyed)
    {
        m_data->destroyed = &m_gone;
    }
    ~Alive()
    {
        if (!m_gone)
            m_data->destroyed = m_outer;
        else if (m_outer != nullptr)
            *m_outer = true;
    }
    Alive(const Alive &) = delete;
    Alive &operator=(const Alive &) = delete;
    explicit operator bool() const { return !m_gone; }

private:
    PreviewInteractionPrivate *m_data;
    bool *m_outer;
    bool m_gone = false;
};

// The library's word about the press (its phase, progress, stage): the interaction keeps it for
// its properties, and says which of them changed with the call. `alive` is the caller's guard
// of `interaction`.
static void take(PreviewInteraction *interaction, const preview_interaction_client_press *press,
    const Alive &alive)
{
    PreviewInteractionPrivate *d = dataOf(interaction);
    bool progressed = d->last.progress != press->progress || d->last.time_usec != press->time_usec;
    if (d->take(press))
        Q_EMIT interaction->locationChanged();
    if (alive && progressed)
        Q_EMIT interaction->progressChanged();
}

preview_interaction_client_item *SurfaceContext::onPick(void *data, preview_interaction_client_surface *,
    const preview_interaction_client_press *press)
{
    auto *self = static_cast<SurfaceContext *>(data);
    PreviewInteraction *interaction = self->pick(QPointF(press->x, press->y) - self->surfaceOffset());
    return interaction != nullptr ? self->m_items.value(interaction) : nullptr;
}

preview_interaction_client_answer SurfaceContext::onShouldBegin(void *data, preview_interaction_client_item *,
    const preview_interaction_client_press *press)
{
    auto *interaction = static_cast<PreviewInteraction *>(data);
    if (dataOf(interaction)->context == nullptr)
        return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
    Alive alive(interaction);
    take(interaction, press, alive);
    // A new press: its id, device and haptics.
    if (alive)
        Q_EMIT interaction->pressChanged();
    if (alive)
        Q_EMIT interaction->hapticsAvailableChanged();
    if (!alive)
        return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
    auto *request = PreviewRequestPrivate::create(
        interaction, press->id, dataOf(interaction)->currentLocation(), int(interaction->source()),
        int(interaction->force()));
    PreviewRequestPrivate *asking = PreviewRequestPrivate::get(request);
    QPointer<PreviewRequest> asked(request);
    Q_EMIT interaction->shouldBegin(request);
    if (asked == nullptr || !alive)
        return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
    if (asking->answered || asking->deferred)
        return PREVIEW_INTERACTION_CLIENT_ANSWER_LATER;
    asking->answered = true;
    request->deleteLater();
    return asking->accepted ? PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT : PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
}

void SurfaceContext::onPhaseChanged(void *data, preview_interaction_client_item *,
    const preview_interaction_client_press *press)
{
    auto *interaction = static_cast<PreviewInteraction *>(data);
    Alive alive(interaction);
    take(interaction, press, alive);
    if (alive)
        Q_EMIT interaction->phaseChanged();
}

void SurfaceContext::onPreview(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
    double progress, bool ended)
{
    auto *interaction = static_cast<PreviewInteraction *>(data);
    SurfaceContext *self = dataOf(interaction)->context;
    if (self == nullptr)
        return;
    if (ended)
        self->ungrab(interaction);
    Alive alive(interaction);
    take(interaction, press, alive);
    if (alive)
        Q_EMIT interaction->preview(progress, ended);
}

void SurfaceContext::onCommit(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
    double progress, bool ended)
{
    auto *interaction = static_cast<PreviewInteraction *>(data);
    Alive alive(interaction);
    take(interaction, press, alive);
    if (alive)
        Q_EMIT interaction->commit(progress, ended);
}

// An accelerator has no commit phase: the library tells its end as such, and its level falls
// back to none.
void SurfaceContext::onAcceleratorEnded(void *data, preview_interaction_client_item *,
    const preview_interaction_client_press *press)
{
    auto *interaction = static_cast<PreviewInteraction *>(data);
    Alive alive(interaction);
    take(interaction, press, alive);
    if (alive)
        Q_EMIT interaction->stageChanged(0);
}

void SurfaceContext::onCancelled(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
    preview_interaction_client_cancel_reason reason)
{
    auto *interaction = static_cast<PreviewInteraction *>(data);
    Alive alive(interaction);
    uint32_t stage = dataOf(interaction)->last.id == press->id ? dataOf(interaction)->last.stage : 0;
    take(interaction, press, alive);
    // An accelerator that had reached a level falls back to none.
    if (alive && stage != 0)
        Q_EMIT interaction->stageChanged(0);
    // The same numbers (rules/vocabulary.txt); a newer compositor's reasons are the system's.
    auto why = reason >= PREVIEW_INTERACTION_CLIENT_CANCEL_LIFTED && reason <= PREVIEW_INTERACTION_CLIENT_CANCEL_DISMISSED
        ? PreviewInteraction::CancelReason(reason)
        : PreviewInteraction::System;
    if (alive)
        Q_EMIT interaction->cancelled(why);
}

void SurfaceContext::onStage(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
    uint32_t stage)
{
    auto *interaction = static_cast<PreviewInteraction *>(data);
    Alive alive(interaction);
    take(interaction, press, alive);
    if (alive)
        Q_EMIT interaction->stageChanged(int(stage));
}

void SurfaceContext::onHaptics(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
    bool)
{
    auto *interaction = static_cast<PreviewInteraction *>(data);
    Alive alive(interaction);
    take(interaction, press, alive);
    if (alive)
        Q_EMIT interaction->hapticsAvailableChanged();
}

} // namespace PreviewInteractionInternal
