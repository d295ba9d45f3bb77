#include "previewinteraction.h"

#include "displayclient_p.h"
#include "surfacecontext_p.h"

#include <QtCore/QEvent>
#include <QtQml/QJSEngine>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>
#include <QtWidgets/QWidget>

using PreviewInteractionPrivate::DisplayClient;
using PreviewInteractionPrivate::SurfaceContext;

PreviewRequest::PreviewRequest(PreviewInteraction *interaction, uint press, QPointF location, int source, int force)
    : QObject(interaction), m_interaction(interaction), m_press(press), m_location(location), m_source(source),
      m_force(force)
{
    QJSEngine::setObjectOwnership(this, QJSEngine::CppOwnership);
}

void PreviewRequest::setAccepted(bool accepted)
{
    if (m_accepted == accepted)
        return;
    m_accepted = accepted;
    Q_EMIT acceptedChanged();
}

void PreviewRequest::defer()
{
    m_deferred = true;
}

bool PreviewRequest::answer(bool accept)
{
    if (m_answered)
        return false;
    m_answered = true;
    setAccepted(accept);
    bool sent = m_interaction != nullptr && m_interaction->m_context != nullptr
        && m_interaction->m_context->answer(m_interaction, m_press, accept) == PREVIEW_INTERACTION_CLIENT_OK;
    if (m_deferred)
        deleteLater();
    return sent;
}

PreviewInteraction::PreviewInteraction(QObject *target)
    : QObject(target)
{
    if (auto *item = qobject_cast<QQuickItem *>(target)) {
        m_item = item;
        connect(item, &QQuickItem::windowChanged, this, &PreviewInteraction::rejoin);
        // Geometry, visibility and enabled changes reach the window's region on its next frame.
        for (auto signal : {&QQuickItem::visibleChanged, &QQuickItem::enabledChanged, &QQuickItem::xChanged,
                 &QQuickItem::yChanged, &QQuickItem::widthChanged, &QQuickItem::heightChanged})
            connect(item, signal, this, &PreviewInteraction::changed);
    } else if (auto *widget = qobject_cast<QWidget *>(target)) {
        m_widget = widget;
        widget->installEventFilter(this);
    }
    if (DisplayClient *client = DisplayClient::instance())
        connect(client, &DisplayClient::availableChanged, this, &PreviewInteraction::changed);
    rejoin();
}

PreviewInteraction::~PreviewInteraction()
{
    // The item is being destroyed: its running presses are cancelled on the wire, silently.
    blockSignals(true);
    leave();
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
    return m_item;
}

QWidget *PreviewInteraction::widget() const
{
    return m_widget;
}

QObject *PreviewInteraction::target() const
{
    if (m_item != nullptr)
        return m_item;
    return m_widget;
}

bool PreviewInteraction::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_widget) {
        switch (event->type()) {
        case QEvent::Show:
        case QEvent::ParentChange:
        case QEvent::WinIdChange:
            rejoin();
            break;
        case QEvent::Hide:
        case QEvent::Move:
        case QEvent::Resize:
        case QEvent::EnabledChange:
            changed();
            break;
        default:
            break;
        }
    }
    return false;
}

// The window the item shows in (a QWindow per Qt Quick window or top-level widget).
void PreviewInteraction::rejoin()
{
    QWindow *window = nullptr;
    if (m_item != nullptr)
        window = m_item->window();
    else if (m_widget != nullptr)
        window = m_widget->window()->windowHandle();
    if (m_context != nullptr && m_context->window() == window)
        return;
    leave();
    if (window != nullptr)
        m_context = SurfaceContext::join(window, this);
    changed();
}

void PreviewInteraction::leave()
{
    if (SurfaceContext *context = m_context) {
        m_context = nullptr;
        context->leave(this);
    }
}

void PreviewInteraction::changed()
{
    bool available = isAvailable();
    if (available != m_available) {
        m_available = available;
        Q_EMIT availableChanged();
    }
    if (m_context != nullptr)
        m_context->invalidate();
}

bool PreviewInteraction::isAvailable() const
{
    return m_context != nullptr && m_context->isAvailable();
}

void PreviewInteraction::setEnabled(bool enabled)
{
    if (m_enabled == enabled)
        return;
    m_enabled = enabled;
    Q_EMIT enabledChanged();
    changed();
}

void PreviewInteraction::setSources(Sources sources)
{
    sources &= AllSources;
    if (m_sources == sources)
        return;
    m_sources = sources;
    Q_EMIT sourcesChanged();
    changed();
}

void PreviewInteraction::setBehaviour(Behaviour behaviour)
{
    if (behaviour < DeepClick || behaviour > Accelerator || m_behaviour == behaviour)
        return;
    m_behaviour = behaviour;
    Q_EMIT behaviourChanged();
    changed();
}

void PreviewInteraction::setStages(int stages)
{
    stages = qBound(2, stages, 5);
    if (m_stages == stages)
        return;
    m_stages = stages;
    Q_EMIT stagesChanged();
    changed();
}

bool PreviewInteraction::playHaptic(HapticEffect effect)
{
    return m_context != nullptr && m_press != 0 && (m_phase == Previewing || m_phase == Committing || m_phase == Accelerating)
        && m_context->playHaptic(this, m_press, int(effect));
}

void PreviewInteraction::cancel()
{
    if (m_context != nullptr)
        m_context->cancelPressesOf(this);
}
