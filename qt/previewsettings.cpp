#include "previewsettings.h"

#include "displayclient_p.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QPointer>
#include <QtQml/QJSEngine>

using PreviewInteractionInternal::DisplayClient;

// The values the compositor last told, to say `changed` only when one did.
class PreviewSettingsPrivate
{
public:
    bool available = false;
    preview_interaction_client_settings values = {};
};

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
    : QObject(parent), d(std::make_unique<PreviewSettingsPrivate>())
{
    d->values.completion = PREVIEW_INTERACTION_CLIENT_COMPLETION_ON_FORCE;
    if (DisplayClient *client = DisplayClient::instance()) {
        connect(client, &DisplayClient::settingsChanged, this, &PreviewSettings::refresh);
        connect(client, &DisplayClient::availableChanged, this, &PreviewSettings::refresh);
    }
    refresh();
}

PreviewSettings::~PreviewSettings() = default;

bool PreviewSettings::isAvailable() const { return d->available; }
PreviewSettings::Sensitivity PreviewSettings::sensitivity() const { return Sensitivity(d->values.sensitivity); }
qreal PreviewSettings::beginThreshold() const { return d->values.begin_threshold; }
qreal PreviewSettings::commitThreshold() const { return d->values.commit_threshold; }
qreal PreviewSettings::completeThreshold() const { return d->values.complete_threshold; }
int PreviewSettings::longPressDuration() const { return int(d->values.long_press_ms); }
PreviewSettings::Haptics PreviewSettings::haptics() const { return Haptics(d->values.haptics); }
PreviewSettings::Completion PreviewSettings::completion() const { return Completion(d->values.completion); }

void PreviewSettings::refresh()
{
    preview_interaction_client_settings values = {};
    values.size = sizeof values;
    DisplayClient *client = DisplayClient::instance();
    bool available = client != nullptr && client->settings(&values);
    if (!available) {
        values = {};
        values.completion = PREVIEW_INTERACTION_CLIENT_COMPLETION_ON_FORCE;
    }
    const preview_interaction_client_settings &old = d->values;
    bool same = available == d->available && values.sensitivity == old.sensitivity
        && values.begin_threshold == old.begin_threshold && values.commit_threshold == old.commit_threshold
        && values.complete_threshold == old.complete_threshold && values.long_press_ms == old.long_press_ms
        && values.haptics == old.haptics && values.completion == old.completion;
    if (same)
        return;
    d->available = available;
    d->values = values;
    Q_EMIT changed();
}
