// One client library surface per QWindow's wl_surface (the protocol allows one object per
// surface), with an item per Qt Quick item or widget that has a PreviewInteraction. The library
// makes the region, sources, behaviours and focus point from the items and routes each press;
// this keeps Qt's side: the items' rectangles after each layout, Qt's own hit-testing, the
// keyboard focus, the surface Qt makes anew on each show, the acknowledgements held for Qt's
// own commits, and core input once the commit phase took the contact away.
#pragma once

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointF>
#include <QtCore/QPointer>
#include <QtCore/QRectF>
#include <QtCore/QTimer>
#include <QtGui/QWindow>

#include <preview-interaction-client.h>

class PreviewInteraction;

namespace PreviewInteractionInternal {

class DisplayClient;

class SurfaceContext : public QObject
{
    Q_OBJECT

public:
    // The window's context (made on first use), with `interaction` among its items.
    static SurfaceContext *join(QWindow *window, PreviewInteraction *interaction);
    void leave(PreviewInteraction *interaction);
    QWindow *window() const { return m_window; }

    // Something that shapes the region changed: sent with the window's next frame.
    void invalidate();
    bool isAvailable() const;
    int answer(PreviewInteraction *interaction, uint press, bool accept);
    void cancelPressesOf(PreviewInteraction *interaction);
    bool playHaptic(PreviewInteraction *interaction, uint press, int effect);
    // The item's latest press as the library knows it now.
    bool latestPress(PreviewInteraction *interaction, preview_interaction_client_press *press) const;
    // A press's surface position in the item's coordinates.
    QPointF toTarget(PreviewInteraction *interaction, const preview_interaction_client_press *press) const;

    // The library made callbacks (or its connection ended).
    void dispatched();
    // The application's context is going away: the protocol object goes with it.
    void clientGone();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit SurfaceContext(QWindow *window);
    ~SurfaceContext() override;

    void checkSurface();
    void attach(struct wl_surface *surface);
    void detach();
    void addItem(PreviewInteraction *interaction);
    void frame();
    void acknowledge();
    void commitItself();
    void update();
    void requestFrame();

    QPointF surfaceOffset() const;
    bool visibleRect(PreviewInteraction *interaction, QRectF *rect) const;
    bool takesKeyboard(PreviewInteraction *interaction) const;
    PreviewInteraction *interactionOf(QObject *target) const;
    PreviewInteraction *pick(QPointF windowPoint) const;
    PreviewInteraction *focusTarget(QPointF *windowPoint) const;
    void ungrab(PreviewInteraction *interaction);

    static preview_interaction_client_item *onPick(void *data, preview_interaction_client_surface *,
        const preview_interaction_client_press *press);
    static preview_interaction_client_answer onShouldBegin(void *data, preview_interaction_client_item *,
        const preview_interaction_client_press *press);
    static void onPreview(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
        double progress, bool ended);
    static void onCommit(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
        double progress, bool ended);
    static void onCancelled(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
        preview_interaction_client_cancel_reason reason);
    static void onStage(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
        uint32_t stage);
    static void onHaptics(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press,
        bool available);
    static void onPhaseChanged(void *data, preview_interaction_client_item *, const preview_interaction_client_press *press);
    static void onAcceleratorEnded(void *data, preview_interaction_client_item *,
        const preview_interaction_client_press *press);

    QPointer<QWindow> m_window;
    // A Qt Quick window (it draws on its own signals), else a widget window.
    const bool m_quick;
    QPointer<DisplayClient> m_client;
    QList<PreviewInteraction *> m_interactions; // not owned: each leaves before it goes
    QHash<PreviewInteraction *, preview_interaction_client_item *> m_items;
    preview_interaction_client_surface *m_handle = nullptr;
    struct wl_surface *m_surface = nullptr;
    // Acknowledgements are held until Qt draws; a window that draws nothing gives them here.
    QTimer m_ackFallback;
    // The state the items declared applies on the surface's next commit: one Qt never makes
    // (a window it cannot draw) is made here.
    QTimer m_commitFallback;
};

} // namespace PreviewInteractionInternal
