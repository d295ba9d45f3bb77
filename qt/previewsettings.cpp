#include "previewsettings.h"

#include "displayclient_p.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QPointer>
#include <QtQml/QJSEngine>

using PreviewInteractionPrivate::DisplayClient;

PreviewSettings *PreviewSettings::instance()
{
    static QPointer<PreviewSettings> settings;
    if (settings == nullptr && QCoreApplication::instance() != nullptr)
        settings = new PreviewSettings(QCoreApplication::instance());
    return settings;
}

PreviewSettings *PreviewSettings::create(QQmlEngine *, QJSEngine *)
{
    PreviewSettings *settings = instance();
    QJSEngine::setObjectOwnership(settings, QJSEngine::CppOwnership);
    return settings;
}

PreviewSettings::PreviewSettings(QObject *parent)
    : QObject(parent)
{
    if (DisplayClient *client = DisplayClient::instance()) {
        connect(client, &DisplayClient::settingsChanged, this, &PreviewSettings::refresh);
        connect(client, &DisplayClient::availableChanged, this, &PreviewSettings::refresh);
    }
    refresh();
}

void PreviewSettings::refresh()
{
    preview_interaction_client_settings values = {};
    DisplayClient *client = DisplayClient::instance();
    bool available = client != nullptr && client->settings(&values);
    if (!available) {
        values = {};
        values.completion = PREVIEW_INTERACTION_CLIENT_COMPLETION_ON_FORCE;
    }
    bool same = available == m_available && Sensitivity(values.sensitivity) == m_sensitivity
        && values.begin_threshold == m_begin && values.commit_threshold == m_commit
        && values.complete_threshold == m_complete && int(values.long_press_ms) == m_longPress
        && Haptics(values.haptics) == m_haptics && Completion(values.completion) == m_completion;
    if (same)
        return;
    m_available = available;
    m_sensitivity = Sensitivity(values.sensitivity);
    m_begin = values.begin_threshold;
    m_commit = values.commit_threshold;
    m_complete = values.complete_threshold;
    m_longPress = int(values.long_press_ms);
    m_haptics = Haptics(values.haptics);
    m_completion = Completion(values.completion);
    Q_EMIT changed();
}
