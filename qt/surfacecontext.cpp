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

// The protocol's limit on one list of behaviours.
static constexpr int maxAreas = 32;
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
    if (!context->m_interactions.contains(interaction))
        context->m_interactions.append(interaction);
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
        // After Qt Quick's polish (layouts final): the region, before the frame it draws.
        connect(quick, &QQuickWindow::afterAnimating, this, &SurfaceContext::update);
        // Once the frame's state is synchronised to the scene graph, the acknowledgements of what
        // it shows. The threaded render loop synchronises on its render thread, once the frame
        // before has been committed: the acknowledgement then follows on this thread (the
        // library's), as the render thread draws and commits the frame (a screenshot of a moment
        // shows it, or a later frame). The basic loop synchronises here, right before its commit.
        connect(quick, &QQuickWindow::afterSynchronizing, this, [this] {
            if (QThread::currentThread() == thread())
                acknowledge();
            else
                QMetaObject::invokeMethod(this, &SurfaceContext::acknowledge, Qt::QueuedConnection);
        }, Qt::DirectConnection);
        connect(quick, &QQuickWindow::activeFocusItemChanged, this, &SurfaceContext::invalidate);
    } else if (auto *app = qobject_cast<QApplication *>(QCoreApplication::instance())) {
        connect(app, &QApplication::focusChanged, this, &SurfaceContext::invalidate);
    }
    m_ackFallback.setSingleShot(true);
    m_ackFallback.setInterval(50);
    connect(&m_ackFallback, &QTimer::timeout, this, [this] {
        if (m_handle != nullptr)
            preview_interaction_client_interaction_will_commit(m_handle, nullptr);
    });
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
    cancelPressesOf(interaction);
    // From inside one of this window's callbacks the library delivers those cancels after it
    // returns, when the interaction may be gone: tell it now, and forget the route.
    for (auto it = m_presses.begin(); it != m_presses.end();) {
        if (it.value() != interaction) {
            ++it;
            continue;
        }
        it = m_presses.erase(it);
        if (interaction->m_phase != PreviewInteraction::Completed && interaction->m_phase != PreviewInteraction::Cancelled) {
            interaction->m_phase = PreviewInteraction::Cancelled;
            Q_EMIT interaction->phaseChanged();
            Q_EMIT interaction->cancelled(PreviewInteraction::ClientCancelled);
        }
    }
    m_interactions.removeAll(interaction);
    if (!m_interactions.isEmpty()) {
        invalidate();
        return;
    }
    // The last item left: the window has no protocol object any more.
    if (m_window != nullptr)
        m_window->setProperty(contextProperty, QVariant());
    detach();
    if (m_inCallback > 0)
        m_orphaned = true;
    else
        deleteLater();
}

void SurfaceContext::exit()
{
    if (--m_inCallback == 0 && m_orphaned)
        deleteLater();
}

// Qt's Wayland platform makes a new wl_surface each time the window is shown.
void SurfaceContext::checkSurface()
{
    if (m_window == nullptr || m_client == nullptr || m_client->handle() == nullptr || m_orphaned)
        return;
    QPlatformNativeInterface *native = QGuiApplication::platformNativeInterface();
    auto *surface = m_window->handle() != nullptr && native != nullptr
        ? static_cast<struct wl_surface *>(native->nativeResourceForWindow(QByteArrayLiteral("surface"), m_window))
        : nullptr;
    if (surface == m_surface)
        return;
    detach();
    if (surface != nullptr)
        attach(surface);
}

void SurfaceContext::attach(struct wl_surface *surface)
{
    static const preview_interaction_client_interaction_callbacks callbacks = {
        sizeof callbacks, onShouldBegin, onPreview, onCommit, onCancelled, onStage, onHaptics,
    };
    int status = preview_interaction_client_interaction_attach(m_client->handle(), surface, &callbacks, this, &m_handle);
    if (status != PREVIEW_INTERACTION_CLIENT_OK) {
        qCDebug(lcPreview) << "no preview interaction on" << m_window << preview_interaction_client_status_string(status);
        m_handle = nullptr;
        return;
    }
    m_surface = surface;
    m_regionSent = false;
    m_sources = PREVIEW_INTERACTION_CLIENT_SOURCES_ALL;
    m_areas.clear();
    m_hasFocusPoint = false;
    m_penReleasesToSwallow = 0;
    // Qt commits on its own: the acknowledgements leave right before the frame that shows them.
    preview_interaction_client_interaction_set_hold_acks(m_handle, true);
    update();
    for (PreviewInteraction *interaction : std::as_const(m_interactions))
        interaction->changed();
}

void SurfaceContext::detach()
{
    m_ackFallback.stop();
    // Running presses end without callbacks: tell their items, as the surface goes.
    while (!m_presses.isEmpty()) {
        auto it = m_presses.begin();
        PreviewInteraction *interaction = it.value();
        m_presses.erase(it);
        interaction->m_phase = PreviewInteraction::Cancelled;
        Q_EMIT interaction->phaseChanged();
        Q_EMIT interaction->cancelled(PreviewInteraction::SurfaceGone);
    }
    if (m_handle != nullptr) {
        preview_interaction_client_interaction_detach(m_handle);
        m_handle = nullptr;
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
        detach();
        break;
    case QEvent::UpdateRequest:
        // Widgets paint and commit in this event; Qt Quick windows use afterAnimating.
        if (qobject_cast<QQuickWindow *>(m_window) == nullptr)
            frame();
        break;
    case QEvent::TabletRelease: {
        // The compositor sends preview_ended (or cancelled) before the core events it concerns,
        // but on another queue: catch up with it before Qt acts on the release.
        bool inFlight = std::any_of(m_presses.cbegin(), m_presses.cend(), [](PreviewInteraction *interaction) {
            return interaction->m_phase == PreviewInteraction::Asking || interaction->m_phase == PreviewInteraction::Previewing;
        });
        if (m_penReleasesToSwallow == 0 && inFlight && m_client != nullptr)
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
    m_dirty = true;
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
    checkSurface();
    if (m_handle == nullptr)
        return;
    // Give Qt a frame soon: its commit carries the acknowledgement of what was dispatched.
    requestFrame();
    m_ackFallback.start();
}

// Every frame of a widget window: the region after layout, then the acknowledgements of the
// callbacks it shows.
void SurfaceContext::frame()
{
    update();
    acknowledge();
}

void SurfaceContext::acknowledge()
{
    if (m_handle == nullptr)
        return;
    uint32_t serial = 0;
    preview_interaction_client_interaction_will_commit(m_handle, &serial);
    m_ackFallback.stop();
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

// Sends what changed since the last frame: region, sources, behaviours, focus point.
void SurfaceContext::update()
{
    checkSurface();
    m_dirty = false;
    if (m_handle == nullptr || m_window == nullptr)
        return;
    const QPointF offset = surfaceOffset();
    auto toSurface = [offset](const QRectF &rect) { return rect.translated(offset).toAlignedRect(); };
    QRegion region;
    uint32_t sources = 0;
    QList<Area> areas;
    QList<PreviewInteraction *> others; // the few with a behaviour other than the default
    for (PreviewInteraction *interaction : std::as_const(m_interactions))
        if (interaction->m_behaviour != PreviewInteraction::DeepClick)
            others.append(interaction);
    for (PreviewInteraction *interaction : std::as_const(m_interactions)) {
        QRectF rect;
        if (!visibleRect(interaction, &rect))
            continue;
        QRect surfaceRect = toSurface(rect);
        region += surfaceRect;
        sources |= uint32_t(interaction->m_sources);
        bool inside = std::any_of(others.cbegin(), others.cend(), [&](PreviewInteraction *other) {
            return other != interaction && other->target() != nullptr && isAncestor(other->target(), interaction);
        });
        if (interaction->m_behaviour != PreviewInteraction::DeepClick || inside)
            areas.append({int(interaction->m_behaviour),
                interaction->m_behaviour == PreviewInteraction::Accelerator ? interaction->m_stages : 0,
                depthOf(interaction), surfaceRect});
    }
    // Inner areas lie on top: the protocol's last matching area decides.
    std::stable_sort(areas.begin(), areas.end(), [](const Area &a, const Area &b) { return a.depth < b.depth; });
    if (areas.size() > maxAreas) {
        qCDebug(lcPreview) << areas.size() << "items with a pressure behaviour in one window: the innermost" << maxAreas
                           << "are kept";
        areas.remove(0, areas.size() - maxAreas);
    }
    QPointF focus;
    bool hasFocus = focusTarget(&focus) != nullptr;
    focus += offset;

    bool changed = false;
    if (!m_regionSent || region != m_region) {
        QList<preview_interaction_client_rect> rects;
        for (const QRect &rect : region)
            rects.append({rect.x(), rect.y(), rect.width(), rect.height()});
        // Non-NULL with no rectangle is "nowhere", unlike NULL ("the whole surface").
        static preview_interaction_client_rect nowhere;
        preview_interaction_client_interaction_set_region(m_handle, rects.isEmpty() ? &nowhere : rects.constData(),
            uint32_t(rects.size()));
        m_region = region;
        m_regionSent = true;
        changed = true;
    }
    if (sources != m_sources) {
        preview_interaction_client_interaction_set_sources(m_handle, sources);
        m_sources = sources;
        changed = true;
    }
    if (areas != m_areas) {
        QList<preview_interaction_client_rect> rects;
        QList<preview_interaction_client_behaviour_area> list;
        rects.reserve(areas.size());
        for (const Area &area : std::as_const(areas))
            rects.append({area.rect.x(), area.rect.y(), area.rect.width(), area.rect.height()});
        for (qsizetype i = 0; i < areas.size(); i++)
            list.append({preview_interaction_client_behaviour(areas[i].behaviour), uint32_t(areas[i].stages),
                &rects[i], 1});
        int status = preview_interaction_client_interaction_set_behaviours(m_handle, list.constData(), uint32_t(list.size()));
        if (status != PREVIEW_INTERACTION_CLIENT_OK)
            qCDebug(lcPreview) << "behaviours not set:" << preview_interaction_client_status_string(status);
        m_areas = areas;
        changed = true;
    }
    if (hasFocus != m_hasFocusPoint || (hasFocus && focus != m_focusPoint)) {
        qCDebug(lcPreview) << "focus point" << (hasFocus ? focus : QPointF(-1, -1));
        int status = hasFocus ? preview_interaction_client_interaction_set_focus_point(m_handle, focus.x(), focus.y())
                              : preview_interaction_client_interaction_unset_focus_point(m_handle);
        if (status != PREVIEW_INTERACTION_CLIENT_OK)
            qCDebug(lcPreview) << "focus point not set:" << preview_interaction_client_status_string(status);
        m_hasFocusPoint = hasFocus;
        m_focusPoint = focus;
        changed = true;
    }
    // They apply on the surface's next commit: make sure there is one.
    if (changed) {
        if (QWidget *top = [this]() -> QWidget * {
                for (PreviewInteraction *interaction : std::as_const(m_interactions))
                    if (interaction->m_widget != nullptr)
                        return interaction->m_widget->window();
                return nullptr;
            }())
            top->update();
        requestFrame();
    }
}

int SurfaceContext::answer(uint press, bool accept)
{
    if (m_handle == nullptr)
        return PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED;
    int status = preview_interaction_client_interaction_answer(m_handle, press, accept);
    if (status == PREVIEW_INTERACTION_CLIENT_OK && !accept)
        m_presses.remove(press);
    return status;
}

// Each press is cancelled on the wire (the compositor gives the contact back to core input)
// and its cancelled signal comes now (or right after the current callback).
void SurfaceContext::cancelPressesOf(PreviewInteraction *interaction)
{
    const QList<uint> ids = m_presses.keys(interaction);
    for (uint id : ids)
        if (m_handle == nullptr || preview_interaction_client_interaction_cancel(m_handle, id) != PREVIEW_INTERACTION_CLIENT_OK)
            m_presses.remove(id);
}

bool SurfaceContext::playHaptic(uint press, int effect)
{
    return m_handle != nullptr && m_presses.contains(press)
        && preview_interaction_client_interaction_play_haptic(m_handle, press,
               preview_interaction_client_haptic_effect(effect)) == PREVIEW_INTERACTION_CLIENT_OK;
}

// The commit phase takes the contact away from core input: whatever grabbed the press lets go
// (a button under it never clicks), and a pen's release is swallowed.
void SurfaceContext::ungrab(PreviewInteraction *interaction)
{
    if (auto *quick = qobject_cast<QQuickWindow *>(m_window.data())) {
        if (QQuickItem *grabber = quick->mouseGrabberItem())
            grabber->ungrabMouse();
    } else if (QWidget *widget = interaction->m_widget) {
        // A release outside the widget: a pressed button lets go without clicking.
        QMouseEvent release(QEvent::MouseButtonRelease, QPointF(-1e6, -1e6), QPointF(-1e6, -1e6), Qt::LeftButton,
            Qt::NoButton, Qt::NoModifier);
        QCoreApplication::sendEvent(widget, &release);
    }
}

preview_interaction_client_answer SurfaceContext::ask(PreviewInteraction *interaction,
    const preview_interaction_client_press *press)
{
    if (!(interaction->m_sources & sourceOf(press->source)))
        return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
    // An item gets only presses of its own behaviour: a generic one none at all, an
    // accelerator no peek. A compositor of version 1 makes every press a deep click.
    if (int(press->behaviour) != int(interaction->m_behaviour)) {
        qCDebug(lcPreview) << "press" << press->id << "declined: behaviour" << press->behaviour << "on an item whose behaviour is"
                           << interaction->m_behaviour;
        return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
    }
    m_presses.insert(press->id, interaction);
    interaction->m_press = press->id;
    interaction->m_source = sourceOf(press->source);
    interaction->m_force = PreviewInteraction::Force(press->force <= 2 ? press->force : 0);
    interaction->m_hapticsAvailable = press->haptics_available;
    interaction->m_location = toTarget(interaction, press);
    interaction->m_progress = 0;
    interaction->m_stage = 0;
    interaction->m_phase = PreviewInteraction::Asking;
    Q_EMIT interaction->pressChanged();
    Q_EMIT interaction->locationChanged();
    Q_EMIT interaction->progressChanged();
    Q_EMIT interaction->hapticsAvailableChanged();
    Q_EMIT interaction->phaseChanged();
    QPointer<PreviewInteraction> alive(interaction);
    auto *request = new PreviewRequest(interaction, press->id, interaction->m_location, int(interaction->m_source),
        int(interaction->m_force));
    Q_EMIT interaction->shouldBegin(request);
    preview_interaction_client_answer answer;
    if (request->m_answered || request->m_deferred) {
        answer = PREVIEW_INTERACTION_CLIENT_ANSWER_LATER;
    } else {
        request->m_answered = true;
        answer = request->m_accepted ? PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT : PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
    }
    if (!request->m_deferred)
        request->deleteLater();
    if (alive == nullptr || (answer == PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE)) {
        m_presses.remove(press->id);
        if (alive != nullptr) {
            interaction->m_phase = PreviewInteraction::Idle;
            Q_EMIT interaction->phaseChanged();
        }
        return PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
    }
    return answer;
}

preview_interaction_client_answer SurfaceContext::onShouldBegin(void *data, preview_interaction_client_interaction *,
    const preview_interaction_client_press *press)
{
    auto *self = static_cast<SurfaceContext *>(data);
    self->enter();
    qCDebug(lcPreview) << "press" << press->id << "begins at" << press->x << press->y << "source" << press->source;
    preview_interaction_client_answer answer = PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE;
    PreviewInteraction *target = nullptr;
    // A keyboard press begins at the focus point the window gave: it belongs to the item with
    // the focus now.
    if (press->source == PREVIEW_INTERACTION_CLIENT_SOURCE_KEYBOARD) {
        QPointF point;
        target = self->focusTarget(&point);
    } else {
        target = self->pick(QPointF(press->x, press->y) - self->surfaceOffset());
    }
    if (target != nullptr)
        answer = self->ask(target, press);
    self->exit();
    return answer;
}

#define ROUTED(self, press)                                                                                              \
    PreviewInteraction *interaction = self->m_presses.value(press->id);                                                  \
    if (interaction == nullptr) {                                                                                        \
        self->exit();                                                                                                    \
        return;                                                                                                          \
    }

void SurfaceContext::onPreview(void *data, preview_interaction_client_interaction *, const preview_interaction_client_press *press,
    double progress, bool ended)
{
    auto *self = static_cast<SurfaceContext *>(data);
    self->enter();
    ROUTED(self, press)
    if (ended) {
        if (press->source == PREVIEW_INTERACTION_CLIENT_SOURCE_PEN)
            self->m_penReleasesToSwallow++;
        self->ungrab(interaction);
    }
    QPointer<PreviewInteraction> alive(interaction);
    set(interaction, self->toTarget(interaction, press), progress, PreviewInteraction::Phase(press->phase));
    if (alive != nullptr)
        Q_EMIT interaction->preview(progress, ended);
    self->exit();
}

void SurfaceContext::onCommit(void *data, preview_interaction_client_interaction *, const preview_interaction_client_press *press,
    double progress, bool ended)
{
    auto *self = static_cast<SurfaceContext *>(data);
    self->enter();
    ROUTED(self, press)
    if (ended)
        self->m_presses.remove(press->id);
    QPointer<PreviewInteraction> alive(interaction);
    set(interaction, self->toTarget(interaction, press), progress, PreviewInteraction::Phase(press->phase));
    // An accelerator has no commit phase: its press ends with this when the contact lifts.
    if (alive != nullptr && press->behaviour != PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_ACCELERATOR) {
        Q_EMIT interaction->commit(progress, ended);
    } else if (alive != nullptr && ended && interaction->m_stage != 0) {
        // An accelerator's press ended (the contact lifted): its level falls back to none.
        interaction->m_stage = 0;
        Q_EMIT interaction->stageChanged(0);
    }
    self->exit();
}

void SurfaceContext::onCancelled(void *data, preview_interaction_client_interaction *,
    const preview_interaction_client_press *press, preview_interaction_client_cancel_reason reason)
{
    auto *self = static_cast<SurfaceContext *>(data);
    self->enter();
    ROUTED(self, press)
    self->m_presses.remove(press->id);
    QPointer<PreviewInteraction> alive(interaction);
    set(interaction, self->toTarget(interaction, press), 0, PreviewInteraction::Cancelled);
    // A newer compositor's reasons count as the system's.
    auto why = reason >= 1 && reason <= PREVIEW_INTERACTION_CLIENT_CANCEL_DISMISSED ? PreviewInteraction::CancelReason(reason)
                                                                                     : PreviewInteraction::System;
    if (alive != nullptr)
        Q_EMIT interaction->cancelled(why);
    self->exit();
}

void SurfaceContext::onStage(void *data, preview_interaction_client_interaction *, const preview_interaction_client_press *press,
    uint32_t stage)
{
    auto *self = static_cast<SurfaceContext *>(data);
    self->enter();
    ROUTED(self, press)
    QPointer<PreviewInteraction> alive(interaction);
    set(interaction, self->toTarget(interaction, press), interaction->m_progress, PreviewInteraction::Accelerating);
    if (alive != nullptr && interaction->m_stage != int(stage)) {
        interaction->m_stage = int(stage);
        Q_EMIT interaction->stageChanged(int(stage));
    }
    self->exit();
}

void SurfaceContext::onHaptics(void *data, preview_interaction_client_interaction *,
    const preview_interaction_client_press *press, bool available)
{
    auto *self = static_cast<SurfaceContext *>(data);
    self->enter();
    ROUTED(self, press)
    if (interaction->m_hapticsAvailable != available) {
        interaction->m_hapticsAvailable = available;
        Q_EMIT interaction->hapticsAvailableChanged();
    }
    self->exit();
}

// Location, progress and phase as the client core reports them.
void SurfaceContext::set(PreviewInteraction *interaction, QPointF location, qreal progress, int value)
{
    auto phase = PreviewInteraction::Phase(value);
    QPointer<PreviewInteraction> alive(interaction);
    if (interaction->m_location != location) {
        interaction->m_location = location;
        Q_EMIT interaction->locationChanged();
    }
    if (alive != nullptr && interaction->m_progress != progress) {
        interaction->m_progress = progress;
        Q_EMIT interaction->progressChanged();
    }
    if (alive != nullptr && interaction->m_phase != phase) {
        interaction->m_phase = phase;
        Q_EMIT interaction->phaseChanged();
    }
}

} // namespace PreviewInteractionPrivate
