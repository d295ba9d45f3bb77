// The data of the public classes (their d-pointers), which the adapter's own parts reach through
// PreviewInteractionPrivate::get; apps never see it.
#pragma once

#include "previewinteraction.h"

#include <QtCore/QPointer>

#include <preview-interaction-client.h>

namespace PreviewInteractionInternal {
class SurfaceContext;
}

class PreviewRequestPrivate
{
public:
    static PreviewRequest *create(PreviewInteraction *interaction, uint press, QPointF location, int source, int force);
    static PreviewRequestPrivate *get(PreviewRequest *request) { return request->d.get(); }

    QPointer<PreviewInteraction> interaction;
    uint press = 0;
    QPointF location;
    int source = 0;
    int force = 0;
    bool accepted = true;
    bool deferred = false;
    bool answered = false;
};

class PreviewInteractionPrivate
{
public:
    explicit PreviewInteractionPrivate(PreviewInteraction *q) : q(q) {}
    static PreviewInteractionPrivate *get(PreviewInteraction *interaction) { return interaction->d.get(); }
    static const PreviewInteractionPrivate *get(const PreviewInteraction *interaction) { return interaction->d.get(); }

    QObject *target() const;
    void rejoin();
    void leave();
    // Something that shapes the window's region changed; also tells `available`.
    void changed();

    // The latest press: the library's own while the item is in its window, else the last one it
    // reported (the library is the one owner of a press's phase, progress and stage).
    preview_interaction_client_press latest() const;
    // The library's word about the press with a call: kept for when the item has left. Says
    // whether the press moved on the surface.
    bool take(const preview_interaction_client_press *press);
    // The press's location in the item's coordinates, mapped when asked: a call maps nothing.
    QPointF currentLocation() const;

    PreviewInteraction *const q;
    QPointer<QQuickItem> item;
    QPointer<QWidget> widget;
    // Weak: a window destroyed before its items takes its context with it.
    QPointer<PreviewInteractionInternal::SurfaceContext> context;
    // The app's settings of the item.
    bool enabled = true;
    PreviewInteraction::Sources sources = PreviewInteraction::AllSources;
    PreviewInteraction::Behaviour behaviour = PreviewInteraction::DeepClick;
    int stages = 3;
    bool available = false;
    preview_interaction_client_press last = {};
    // The library's item for this one in its window's surface (nullptr while it has none).
    preview_interaction_client_item *handle = nullptr;
    // While callbacks run: set when the interaction is destroyed by a slot (Alive, in
    // surfacecontext.cpp; a guard on the stack, where a QPointer would take a shared count).
    bool *destroyed = nullptr;
    // Where the press was in the item's coordinates, once mapped (kept once the item left or
    // the press was cancelled); `locationPending`: the press moved since.
    mutable QPointF location;
    mutable bool locationPending = false;
};
