// One client library context per application: on the Wayland platform's wl_display (from Qt's
// platform native interface), dispatched from Qt's event loop (a QSocketNotifier on the
// library's descriptor). Elsewhere (xcb, offscreen) it has no context and every item is
// unavailable.
#pragma once

#include <QtCore/QObject>

#include <preview-interaction-client.h>

class QSocketNotifier;

namespace PreviewInteractionInternal {

// It knows nothing of windows: each window's context listens to its signals.
class DisplayClient : public QObject
{
    Q_OBJECT

public:
    // The application's; nullptr before a QGuiApplication exists or after it is gone.
    static DisplayClient *instance();

    // nullptr outside Wayland, or when the library could not start.
    preview_interaction_client *handle() const { return m_handle; }
    bool isAvailable() const { return m_available; }
    bool settings(preview_interaction_client_settings *out) const;

    // Runs the library's waiting callbacks now (before Qt acts on an event they concern).
    void dispatch();

Q_SIGNALS:
    void availableChanged();
    void settingsChanged();
    // The library made its callbacks (or its connection ended).
    void dispatched();
    // The application's context is going away: the protocol objects go with it.
    void goingAway();

private:
    DisplayClient();
    ~DisplayClient() override;
    static void shutDown();
    static void onAvailability(void *data, preview_interaction_client *, bool available);
    static void onSettings(void *data, preview_interaction_client *, const preview_interaction_client_settings *);
    static void onLog(void *data, preview_interaction_client_log_level level, const char *message);

    preview_interaction_client *m_handle = nullptr;
    QSocketNotifier *m_notifier = nullptr;
    bool m_available = false;
    bool m_disconnected = false;
};

} // namespace PreviewInteractionInternal
