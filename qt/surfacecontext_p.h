// One protocol object per QWindow's wl_surface (the protocol allows one per surface), shared by
// every item or widget of that window with a PreviewInteraction: its region is the union of
// their visible rectangles, its sources the union of theirs, the behaviours the items' own
// (innermost first, at most 32), its focus point the centre of the item with keyboard focus.
// Each press is routed to the item under it when it begins, then stays with it by press id.
#pragma once

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointF>
#include <QtCore/QPointer>
#include <QtCore/QRect>
#include <QtCore/QTimer>
#include <QtGui/QRegion>
#include <QtGui/QWindow>

#include <preview-interaction-client.h>

class PreviewInteraction;

namespace PreviewInteractionPrivate {

class DisplayClient;

class SurfaceContext : public QObject
{
    Q_OBJECT

public:
    // The window's context (made on first use), with `interaction` among its items.
    static SurfaceContext *join(QWindow *window, PreviewInteraction *interaction);
    void leave(PreviewInteraction *interaction);
    QWindow *window() const { return m_window; }

    // Something that shapes the region changed: sent on the window's next frame.
    void invalidate();
    bool isAvailable() const;
    int answer(uint press, bool accept);
    void cancelPressesOf(PreviewInteraction *interaction);
    bool playHaptic(uint press, int effect);

    // The library made callbacks (or its connection ended).
    void dispatched();
    // The application's context is going away: the protocol object goes with it.
    void clientGone();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Area
    {
        int behaviour;
        int stages;
        int depth;
        QRect rect;
        bool operator==(const Area &other) const
        {
            return behaviour == other.behaviour && stages == other.stages && rect == other.rect;
        }
    };

    explicit SurfaceContext(QWindow *window);
    ~SurfaceContext() override;

    void checkSurface();
    void attach(struct wl_surface *surface);
    void detach();
    void frame();
    void acknowledge();
    void update();
    void requestFrame();

    QPointF surfaceOffset() const;
    bool visibleRect(PreviewInteraction *interaction, QRectF *rect) const;
    bool takesKeyboard(PreviewInteraction *interaction) const;
    PreviewInteraction *interactionOf(QObject *target) const;
    PreviewInteraction *pick(QPointF windowPoint) const;
    PreviewInteraction *focusTarget(QPointF *windowPoint) const;
    QPointF toTarget(PreviewInteraction *interaction, const preview_interaction_client_press *press) const;
    void ungrab(PreviewInteraction *interaction);
    static void set(PreviewInteraction *interaction, QPointF location, qreal progress, int phase);

    preview_interaction_client_answer ask(PreviewInteraction *interaction, const preview_interaction_client_press *press);
    static preview_interaction_client_answer onShouldBegin(void *data, preview_interaction_client_interaction *,
        const preview_interaction_client_press *press);
    static void onPreview(void *data, preview_interaction_client_interaction *, const preview_interaction_client_press *press,
        double progress, bool ended);
    static void onCommit(void *data, preview_interaction_client_interaction *, const preview_interaction_client_press *press,
        double progress, bool ended);
    static void onCancelled(void *data, preview_interaction_client_interaction *,
        const preview_interaction_client_press *press, preview_interaction_client_cancel_reason reason);
    static void onStage(void *data, preview_interaction_client_interaction *, const preview_interaction_client_press *press,
        uint32_t stage);
    static void onHaptics(void *data, preview_interaction_client_interaction *,
        const preview_interaction_client_press *press, bool available);
    void enter() { m_inCallback++; }
    void exit();

    QPointer<QWindow> m_window;
    QPointer<DisplayClient> m_client;
    QList<PreviewInteraction *> m_interactions; // not owned: each leaves before it goes
    QHash<uint, PreviewInteraction *> m_presses;
    preview_interaction_client_interaction *m_handle = nullptr;
    struct wl_surface *m_surface = nullptr;
    // What was last sent (the library's initial state after attach).
    QRegion m_region;
    bool m_regionSent = false;
    uint32_t m_sources = PREVIEW_INTERACTION_CLIENT_SOURCES_ALL;
    QList<Area> m_areas;
    bool m_hasFocusPoint = false;
    QPointF m_focusPoint;
    int m_penReleasesToSwallow = 0;
    int m_inCallback = 0;
    bool m_orphaned = false;
    bool m_dirty = false;
    // Acknowledgements are held until Qt draws; a window that draws nothing gives them here.
    QTimer m_ackFallback;
};

} // namespace PreviewInteractionPrivate
