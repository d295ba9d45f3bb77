#include "displayclient_p.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QEvent>
#include <QtCore/QLoggingCategory>
#include <QtCore/QSocketNotifier>
#include <QtGui/QGuiApplication>
#include <qpa/qplatformnativeinterface.h>

Q_LOGGING_CATEGORY(lcPreview, "preview.interaction", QtWarningMsg)

namespace PreviewInteractionInternal {

// The library's descriptor turned readable: its dispatch runs straight from the event, not
// through QSocketNotifier's two activated signals (and the guard it takes between them).
class DispatchNotifier : public QSocketNotifier
{
public:
    DispatchNotifier(int fd, DisplayClient *client)
        : QSocketNotifier(fd, QSocketNotifier::Read, client), m_client(client)
    {
    }

protected:
    bool event(QEvent *event) override
    {
        if (event->type() != QEvent::SockAct)
            return QSocketNotifier::event(event);
        m_client->dispatch();
        return true;
    }

private:
    DisplayClient *const m_client;
};

static DisplayClient *theClient = nullptr;
static bool shutDownDone = false;

DisplayClient *DisplayClient::instance()
{
    if (theClient == nullptr && !shutDownDone && qobject_cast<QGuiApplication *>(QCoreApplication::instance())) {
        theClient = new DisplayClient();
        // Post routines run in ~QGuiApplication before the platform closes the connection:
        // the library's context must go first.
        qAddPostRoutine(shutDown);
    }
    return theClient;
}

void DisplayClient::shutDown()
{
    shutDownDone = true;
    delete theClient;
    theClient = nullptr;
}

DisplayClient::DisplayClient()
{
    if (!QGuiApplication::platformName().startsWith(QLatin1String("wayland"))) {
        qCDebug(lcPreview) << "not on Wayland (" << QGuiApplication::platformName() << "): unavailable";
        return;
    }
    QPlatformNativeInterface *native = QGuiApplication::platformNativeInterface();
    auto *display = native != nullptr
        ? static_cast<wl_display *>(native->nativeResourceForIntegration(QByteArrayLiteral("wl_display")))
        : nullptr;
    if (display == nullptr) {
        qCDebug(lcPreview) << "no wl_display from the platform: unavailable";
        return;
    }
    preview_interaction_client_callbacks callbacks = {};
    callbacks.size = sizeof callbacks;
    callbacks.availability_changed = onAvailability;
    callbacks.log = onLog;
    callbacks.settings_changed = onSettings;
    // On the default queue, which Qt's GUI thread dispatches (QWaylandDisplay::flushRequests):
    // the library's events are read and handled with Qt's own, no thread of its own reads.
    int status = preview_interaction_client_create_on_queue(display, nullptr, &callbacks, this, &m_handle);
    if (status != PREVIEW_INTERACTION_CLIENT_OK) {
        qCWarning(lcPreview) << "the client library did not start:" << preview_interaction_client_status_string(status);
        m_handle = nullptr;
        return;
    }
    preview_interaction_client_is_available(m_handle, &m_available);
    qCDebug(lcPreview) << "client library" << preview_interaction_client_version_string() << "available" << m_available;
    int fd = -1;
    preview_interaction_client_get_fd(m_handle, &fd);
    m_notifier = new DispatchNotifier(fd, this);
}

DisplayClient::~DisplayClient()
{
    // Windows that outlive the application object lose their protocol objects here.
    Q_EMIT goingAway();
    delete m_notifier;
    if (m_handle != nullptr)
        preview_interaction_client_destroy(m_handle);
}

void DisplayClient::dispatch()
{
    if (m_handle == nullptr || m_disconnected)
        return;
    if (preview_interaction_client_dispatch(m_handle) == PREVIEW_INTERACTION_CLIENT_ERROR_DISCONNECTED) {
        // The compositor is gone: the running presses' cancels were delivered; nothing more comes.
        m_disconnected = true;
        m_notifier->setEnabled(false);
        if (m_available) {
            m_available = false;
            Q_EMIT availableChanged();
        }
    }
    Q_EMIT dispatched();
}

bool DisplayClient::settings(preview_interaction_client_settings *out) const
{
    out->size = sizeof *out;
    return m_handle != nullptr && preview_interaction_client_get_settings(m_handle, out) == PREVIEW_INTERACTION_CLIENT_OK;
}

void DisplayClient::onAvailability(void *data, preview_interaction_client *, bool available)
{
    auto *self = static_cast<DisplayClient *>(data);
    self->m_available = available;
    Q_EMIT self->availableChanged();
}

void DisplayClient::onSettings(void *data, preview_interaction_client *, const preview_interaction_client_settings *)
{
    Q_EMIT static_cast<DisplayClient *>(data)->settingsChanged();
}

// Called on the GUI thread (the context's), where its events are dispatched.
void DisplayClient::onLog(void *, preview_interaction_client_log_level level, const char *message)
{
    switch (level) {
    case PREVIEW_INTERACTION_CLIENT_LOG_DEBUG:
    case PREVIEW_INTERACTION_CLIENT_LOG_INFO:
        qCDebug(lcPreview, "%s", message);
        break;
    case PREVIEW_INTERACTION_CLIENT_LOG_WARNING:
    case PREVIEW_INTERACTION_CLIENT_LOG_ERROR:
        qCWarning(lcPreview, "%s", message);
        break;
    }
}

} // namespace PreviewInteractionInternal
