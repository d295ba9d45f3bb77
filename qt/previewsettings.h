// The user's preview settings as the compositor tells them (protocol version 2), so an app's own
// recogniser (on raw tablet pressure, say) agrees with the compositor. They are the user's:
// nothing here changes them. A QML singleton (`PreviewSettings.sensitivity`) and, from C++,
// PreviewSettings::instance().
#pragma once

#include <QtCore/QObject>
#include <QtQml/qqmlregistration.h>

#include "previewinteractionglobal.h"

class QQmlEngine;
class QJSEngine;

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

    static PreviewSettings *instance();
    static PreviewSettings *create(QQmlEngine *, QJSEngine *);

    // False until a compositor of protocol version 2 told them (the values are defaults then).
    bool isAvailable() const { return m_available; }
    Sensitivity sensitivity() const { return m_sensitivity; }
    qreal beginThreshold() const { return m_begin; }
    qreal commitThreshold() const { return m_commit; }
    qreal completeThreshold() const { return m_complete; }
    // Milliseconds a press without force (or the preview key) is held before shouldBegin.
    int longPressDuration() const { return m_longPress; }
    Haptics haptics() const { return m_haptics; }
    Completion completion() const { return m_completion; }

Q_SIGNALS:
    // Any value changed (the compositor sends them together).
    void changed();

private:
    explicit PreviewSettings(QObject *parent = nullptr);
    void refresh();
    bool m_available = false;
    Sensitivity m_sensitivity = UnknownSensitivity;
    qreal m_begin = 0, m_commit = 0, m_complete = 0;
    int m_longPress = 0;
    Haptics m_haptics = HapticsOff;
    Completion m_completion = OnForce;
};
