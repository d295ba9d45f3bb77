// The user's preview settings as the compositor tells them (protocol version 2), so an app's own
// recogniser (on raw tablet pressure, say) agrees with the compositor. They are the user's:
// nothing here changes them. A QML singleton (`PreviewSettings.sensitivity`) and, from C++,
// PreviewSettings::instance().
#pragma once

#include <QtCore/QObject>
#include <QtQml/qqmlregistration.h>

#include <memory>

#include "previewinteractionglobal.h"

class QQmlEngine;
class QJSEngine;
class PreviewSettingsPrivate;

class PREVIEWINTERACTIONQT_EXPORT PreviewSettings : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    Q_PROPERTY(bool available READ isAvailable NOTIFY changed)
    Q_PROPERTY(Sensitivity sensitivity READ sensitivity NOTIFY changed)
    Q_PROPERTY(qreal beginThreshold READ beginThreshold NOTIFY changed)
    Q_PROPERTY(qreal commitThreshold READ commitThreshold NOTIFY changed)
    Q_PROPERTY(qreal completeThreshold READ completeThreshold NOTIFY changed)
    Q_PROPERTY(int longPressDuration READ longPressDuration NOTIFY changed)
    Q_PROPERTY(Haptics haptics READ haptics NOTIFY changed)
    Q_PROPERTY(Completion completion READ completion NOTIFY changed)

public:
    enum Sensitivity { UnknownSensitivity = 0, Light = 1, Medium = 2, Firm = 3, Custom = 4 };
    Q_ENUM(Sensitivity)
    enum Haptics { HapticsOff = 0, HapticsLight = 1, HapticsMedium = 2, HapticsStrong = 3 };
    Q_ENUM(Haptics)
    enum Completion { OnForce = 1, OnRelease = 2 };
    Q_ENUM(Completion)

    ~PreviewSettings() override;

    static PreviewSettings *instance();
    static PreviewSettings *create(QQmlEngine *, QJSEngine *);

    // False until a compositor of protocol version 2 told them (the values are defaults then).
    bool isAvailable() const;
    Sensitivity sensitivity() const;
    qreal beginThreshold() const;
    qreal commitThreshold() const;
    qreal completeThreshold() const;
    // Milliseconds a press without force (or the preview key) is held before shouldBegin.
    int longPressDuration() const;
    Haptics haptics() const;
    Completion completion() const;

Q_SIGNALS:
    // Any value changed (the compositor sends them together).
    void changed();

private:
    explicit PreviewSettings(QObject *parent = nullptr);
    void refresh();
    // Qt's convention: the data lives behind one pointer (the library's ABI; docs/abi.md).
    std::unique_ptr<PreviewSettingsPrivate> const d;
};
