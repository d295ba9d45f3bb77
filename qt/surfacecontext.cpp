#include "surfacecontext_p.h"

#include "displayclient_p.h"
#include "previewinteraction.h"

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

namespace PreviewInteractionPrivate {

static const char contextProperty[] = "_preview_interaction_context";

static PreviewInteraction::Source sourceOf(uint32_t source)
{
    return source >= 1 && source <= 5 ? PreviewInteraction::Source(1 << (source - 1)) : PreviewInteraction::NoSource;
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
    }
    context->checkSurface();
    context->invalidate();
    return context;
}

SurfaceContext::SurfaceContext(QWindow *window)
    : QObject(window), m_window(window), m_client(DisplayClient::instance())
{
    if (m_client != nullptr)
        m_client->add(this);
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
    } else if (auto *app = qobject_cast<QApplication *>(QCoreApplication::instance())) {
        connect(app, &QApplication::focusChanged, this, &SurfaceContext::invalidate);
    }
    m_ackFallback.setSingleShot(true);
    m_ackFallback.setInterval(50);
    connect(&m_ackFallback, &QTimer::timeout, this, &SurfaceContext::acknowledge);
}

SurfaceContext::~SurfaceContext()
{
    detach();
    if (m_client != nullptr)
        m_client->remove(this);
    if (m_window != nullptr)
        m_window->removeEventFilter(this);
}

void SurfaceContext::leave(PreviewInteraction *interaction)
{
    // Its running presses are cancelled (the compositor gives the contacts back), their
    // cancelled signals made before this returns.
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
    m_penReleasesToSwallow = 0;
    // Qt commits on its own: the acknowledgements leave right before the frame that shows them.
    preview_interaction_client_surface_set_hold_acks(m_handle, true);
    for (PreviewInteraction *interaction : std::as_const(m_interactions))
        addItem(interaction);
    update();
    for (PreviewInteraction *interaction : std::as_const(m_interactions))
        interaction->changed();
}

void SurfaceContext::addItem(PreviewInteraction *interaction)
{
    if (m_handle == nullptr || m_items.contains(interaction))
        return;
    static const preview_interaction_client_item_callbacks callbacks = {
        sizeof callbacks, onShouldBegin, onPreview, onCommit, onCancelled, onStage, onHaptics,
    };
    preview_interaction_client_item *item = nullptr;
    int status = preview_interaction_client_item_add(m_handle, &callbacks, interaction, &item);
    if (status == PREVIEW_INTERACTION_CLIENT_OK)
        m_items.insert(interaction, item);
    else
        qCDebug(lcPreview) << "no item for" << interaction->target() << preview_interaction_client_status_string(status);
}

void SurfaceContext::detach()
{
    m_ackFallback.stop();
    if (m_handle != nullptr) {
        // Each running press's item gets cancelled (SurfaceGone) before this returns.
        preview_interaction_client_surface *handle = m_handle;
        m_handle = nullptr;
        preview_interaction_client_surface_detach(handle);
        m_items.clear();
        for (PreviewInteraction *interaction : std::as_const(m_interactions))
            interaction->changed();
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
    if (watched != m_window)
        return false;
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
        if (qobject_cast<QQuickWindow *>(m_window) == nullptr)
            frame();
        break;
    case QEvent::TabletRelease: {
        // The compositor sends preview_ended (or cancelled) before the core events it concerns,
        // but on another queue: catch up with it before Qt acts on the release.
        uint32_t running = 0;
        if (m_penReleasesToSwallow == 0 && m_handle != nullptr
            && preview_interaction_client_surface_running_count(m_handle, &running) == PREVIEW_INTERACTION_CLIENT_OK
            && running > 0 && m_client != nullptr)
            m_client->dispatch();
        if (m_penReleasesToSwallow == 0)
            break;
        // The commit phase took the pen away from core input: its tip's release is no click.
        m_penReleasesToSwallow--;
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
}

void SurfaceContext::requestFrame()
{
    if (m_window == nullptr)
        return;
    if (auto *quick = qobject_cast<QQuickWindow *>(m_window))
        quick->update();
    else
        m_window->requestUpdate();
}

void SurfaceContext::dispatched()
{
    if (m_handle == nullptr)
        return;
    // Give Qt a frame soon: its commit carries the acknowledgement of what was dispatched.
    requestFrame();
    if (qobject_cast<QQuickWindow *>(m_window) != nullptr) {
        m_ackFallback.start();
        return;
    }
    // Widgets repaint what the app's slots invalidated in the update request those slots
    // posted: once the posted events ahead of this have been handled, the acknowledgement goes
    // (a widget window that draws nothing new asks for no frame of the compositor).
    QMetaObject::invokeMethod(this, &SurfaceContext::acknowledge, Qt::QueuedConnection);
}

// Every frame of a widget window: the items after layout, then the acknowledgements of the
// callbacks the frame shows.
void SurfaceContext::frame()
{
    update();
    acknowledge();
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
        if (target != nullptr && interaction->target() == target)
            return interaction;
    return nullptr;
}

// The part of the item its ancestors let show, in window coordinates, while presses can begin.
bool SurfaceContext::visibleRect(PreviewInteraction *interaction, QRectF *rect) const
{
    if (!interaction->m_enabled || interaction->m_sources == PreviewInteraction::NoSource || m_window == nullptr)
        return false;
    QRectF bounds;
    if (QQuickItem *item = interaction->m_item) {
        if (item->window() != m_window || !item->isVisible() || !item->isEnabled())
            return false;
        bounds = item->mapRectToScene(item->boundingRect());
        for (QQuickItem *ancestor = item->parentItem(); ancestor != nullptr; ancestor = ancestor->parentItem())
            if (ancestor->clip())
                bounds &= ancestor->mapRectToScene(ancestor->boundingRect());
    } else if (QWidget *widget = interaction->m_widget) {
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
    return (interaction->m_sources & PreviewInteraction::Keyboard) && interaction->m_behaviour != PreviewInteraction::Generic
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
        if (interaction->m_widget != nullptr && interaction->m_widget->window()->windowHandle() == m_window)
            top = interaction->m_widget->window();
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
    if (QQuickItem *item = interaction->m_item)
        return item->mapFromScene(window);
    if (QWidget *widget = interaction->m_widget)
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
        preview_interaction_client_item_set_depth(item, uint32_t(depthOf(interaction)));
        preview_interaction_client_item_set_sources(item, uint32_t(interaction->m_sources));
        preview_interaction_client_item_set_enabled(item, interaction->m_enabled);
        bool accelerator = interaction->m_behaviour == PreviewInteraction::Accelerator;
        preview_interaction_client_item_set_behaviour(item, preview_interaction_client_behaviour(interaction->m_behaviour),
            accelerator ? uint32_t(interaction->m_stages) : 0);
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
            if (interaction->m_widget != nullptr) {
                interaction->m_widget->window()->update();
                break;
            }
        requestFrame();
    }
}

int SurfaceContext::answer(PreviewInteraction *interaction, uint press, bool accept)
{
    preview_interaction_client_item *item = m_items.value(interaction);
    if (item == nullptr)
        return PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED;
    int status = preview_interaction_client_item_answer(item, press, accept);
    preview_interaction_client_press latest = {};
    if (preview_interaction_client_item_get_press(item, &latest) == PREVIEW_INTERACTION_CLIENT_OK && latest.id == press)
        report(interaction, &latest);
    return status;
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
    } else if (QWidget *widget = interaction->m_widget) {
        // A release far outside the widget: a pressed button lets go without clicking.
        QMouseEvent release(QEvent::MouseButtonRelease, QPointF(-1e6, -1e6), QPointF(-1e6, -1e6), Qt::LeftButton,
            Qt::NoButton, Qt::NoModifier);
        QCoreApplication::sendEvent(widget, &release);
    }
}

// The press as the library's core reports it: its phase, progress and location.
void SurfaceContext::report(PreviewInteraction *interaction, const preview_interaction_client_press *press)
{
    QPointer<PreviewInteraction> alive(interaction);
    auto phase = PreviewInteraction::Phase(press->phase <= PREVIEW_INTERACTION_CLIENT_PHASE_STAGE ? press->phase : 0);
    if (press->phase == PREVIEW_INTERACTION_CLIENT_PHASE_CANCELLED && press->cancel_reason == PREVIEW_INTERACTION_CLIENT_CANCEL_DECLINED)
        phase = PreviewInteraction::Refused;
    // A cancelled press's item may be going away: its last location stays.
    if (press->phase != PREVIEW_INTERACTION_CLIENT_PHASE_CANCELLED) {
        QPointF location = toTarget(interaction, press);
        if (interaction->m_location != location) {
            interaction->m_location = location;
            Q_EMIT interaction->locationChanged();
        }
    }
    interaction->m_timestamp = press->time_usec;
    qreal progress = press->progress;
    if (alive != nullptr && interaction->m_progress != progress) {
        interaction->m_progress = progress;
        Q_EMIT interaction->progressChanged();
    }
    if (alive != nullptr && interaction->m_phase != phase) {
        interaction->m_phase = phase;
        Q_EMIT interaction->phaseChanged();
    }
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
    SurfaceContext *self = interaction->m_context;
    if (self == nullptr)
        return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
    interaction->m_press = press->id;
    interaction->m_source = sourceOf(press->source);
    interaction->m_force = PreviewInteraction::Force(press->force <= 2 ? press->force : 0);
    interaction->m_hapticsAvailable = press->haptics_available;
    interaction->m_stage = 0;
    QPointer<PreviewInteraction> alive(interaction);
    Q_EMIT interaction->pressChanged();
    if (alive != nullptr)
        Q_EMIT interaction->hapticsAvailableChanged();
    if (alive != nullptr)
        self->report(interaction, press);
    if (alive == nullptr)
        return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
    auto *request = new PreviewRequest(interaction, press->id, interaction->m_location, int(interaction->m_source),
        int(interaction->m_force));
    QPointer<PreviewRequest> asked(request);
    Q_EMIT interaction->shouldBegin(request);
    if (asked == nullptr || alive == nullptr)
        return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
    if (request->m_answered || request->m_deferred)
        return PREVIEW_INTERACTION_CLIENT_ANSWER_LATER;
    request->m_answered = true;
    request->deleteLater();
    return request->m_accepted ? PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT : PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
}

void SurfaceContext::onPreview(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
    double progress, bool ended)
{
    auto *interaction = static_cast<PreviewInteraction *>(data);
    SurfaceContext *self = interaction->m_context;
    if (self == nullptr)
        return;
    if (ended) {
        if (press->source == PREVIEW_INTERACTION_CLIENT_SOURCE_PEN)
            self->m_penReleasesToSwallow++;
        self->ungrab(interaction);
    }
    QPointer<PreviewInteraction> alive(interaction);
    self->report(interaction, press);
    if (alive != nullptr)
        Q_EMIT interaction->preview(progress, ended);
}

void SurfaceContext::onCommit(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
    double progress, bool ended)
{
    auto *interaction = static_cast<PreviewInteraction *>(data);
    SurfaceContext *self = interaction->m_context;
    if (self == nullptr)
        return;
    QPointer<PreviewInteraction> alive(interaction);
    self->report(interaction, press);
    if (alive == nullptr)
        return;
    if (press->behaviour != PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_ACCELERATOR) {
        Q_EMIT interaction->commit(progress, ended);
    } else if (ended && interaction->m_stage != 0) {
        // An accelerator has no commit phase: its press ended (the contact lifted), and its
        // level falls back to none.
        interaction->m_stage = 0;
        Q_EMIT interaction->stageChanged(0);
    }
}

void SurfaceContext::onCancelled(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
    preview_interaction_client_cancel_reason reason)
{
    auto *interaction = static_cast<PreviewInteraction *>(data);
    SurfaceContext *self = interaction->m_context;
    QPointer<PreviewInteraction> alive(interaction);
    if (self != nullptr)
        self->report(interaction, press);
    // A newer compositor's reasons count as the system's.
    auto why = reason >= 1 && reason <= PREVIEW_INTERACTION_CLIENT_CANCEL_DISMISSED ? PreviewInteraction::CancelReason(reason)
                                                                                     : PreviewInteraction::System;
    if (alive != nullptr)
        Q_EMIT interaction->cancelled(why);
}

void SurfaceContext::onStage(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
    uint32_t stage)
{
    auto *interaction = static_cast<PreviewInteraction *>(data);
    SurfaceContext *self = interaction->m_context;
    if (self == nullptr)
        return;
    QPointer<PreviewInteraction> alive(interaction);
    self->report(interaction, press);
    if (alive != nullptr && interaction->m_stage != int(stage)) {
        interaction->m_stage = int(stage);
        Q_EMIT interaction->stageChanged(int(stage));
    }
}

void SurfaceContext::onHaptics(void *data, preview_interaction_client_item *, const preview_interaction_client_press *,
    bool available)
{
    auto *interaction = static_cast<PreviewInteraction *>(data);
    if (interaction->m_hapticsAvailable != available) {
        interaction->m_hapticsAvailable = available;
        Q_EMIT interaction->hapticsAvailableChanged();
    }
}

} // namespace PreviewInteractionPrivate
