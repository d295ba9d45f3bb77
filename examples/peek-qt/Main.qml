// The photo grid: a firm press on a photo lifts it while the rest blurs and dims (preview),
// then shows its peek card with quick actions (commit), and opens its page (completion).
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Qt5Compat.GraphicalEffects
import PreviewInteraction

ApplicationWindow {
    id: window
    width: 1280
    height: 800
    // A compositor's configure of any size is taken by Qt 6.4, whose renderer then crashes in
    // Mesa's EGL (docs/qt.md): the photo grid has no use for more than this.
    maximumWidth: 4096
    maximumHeight: 4096
    visible: true
    title: page.item ? page.item.title : qsTr("Photos")

    property var photos: photoLibrary
    property var pressed: null       // the photo being peeked
    property Item pressedTile: null
    property real lift: 0            // the preview's progress
    property real peek: 0            // the card's showing, 0…1
    property string highlighted: ""  // the quick action under the press
    // Qt5Compat's blur and shadow build their shaders for the screen's scale, without end at an
    // absurd one (a compositor's output scale of 2147483647): as peek-client, 4 at most.
    readonly property bool effects: Screen.devicePixelRatio <= 4

    function say(line) { log.say(line) }

    function finish() {
        pressed = null
        pressedTile = null
        lift = 0
        peek = 0
        card.highlight("")
    }

    function open(item) {
        say("open " + item.title)
        page.show(item)
    }

    function showGrid() {
        if (!page.item)
            return
        say("back")
        page.item = null
        grid.forceActiveFocus()
    }

    function perform(action, item) {
        say("action " + action + " " + item.title)
        if (action === "delete")
            photos = photos.filter(photo => photo.id !== item.id)
    }

    header: ToolBar {
        RowLayout {
            anchors.fill: parent
            ToolButton {
                text: "\u2039"
                visible: page.item !== null
                onClicked: window.showGrid()
                ToolTip.text: qsTr("Back")
            }
            Label {
                text: window.title
                font.bold: true
                elide: Label.ElideRight
                horizontalAlignment: Qt.AlignHCenter
                Layout.fillWidth: true
            }
            ToolButton {
                id: markupButton
                text: qsTr("Markup")
                checkable: true
                checked: startWithMarkup
                visible: page.item !== null
                onToggled: window.say("markup " + (checked ? "on" : "off"))
            }
        }
    }

    Shortcut {
        sequence: "Escape"
        onActivated: window.showGrid()
    }

    Item {
        id: content
        anchors.fill: parent

        Item {
            id: gridPage
            anchors.fill: parent
            visible: page.item === null

            GridView {
                id: grid
                anchors.fill: parent
                anchors.margins: 18
                cellWidth: 204
                cellHeight: 196
                model: window.photos
                focus: true
                keyNavigationEnabled: true
                highlightFollowsCurrentItem: false
                clip: true
                delegate: Item {
                    id: tile
                    required property var modelData
                    required property int index
                    readonly property bool lifted: window.pressed !== null && window.pressed.id === modelData.id
                    width: grid.cellWidth
                    height: grid.cellHeight
                    activeFocusOnTab: true
                    onActiveFocusChanged: if (activeFocus) window.say("focus " + modelData.title)
                    Keys.onReturnPressed: window.open(modelData)
                    // The whole tile (photo and caption) peeks, as a Plasma grid item would.
                    PreviewInteraction.onShouldBegin: request => {
                        let ok = window.pressed === null && page.item === null
                        window.say("should-begin " + tile.modelData.title + " " + sourceName(request.source) + " "
                                   + Math.round(request.location.x) + "," + Math.round(request.location.y) + " "
                                   + (ok ? "accept" : "decline"))
                        request.accepted = ok
                        if (ok) {
                            window.pressed = tile.modelData
                            window.pressedTile = photo
                        }
                    }
                    PreviewInteraction.onPreview: (progress, ended) => {
                        window.say("preview " + progress.toFixed(2) + (ended ? " ended" : ""))
                        window.lift = progress
                        if (ended) {
                            card.item = tile.modelData
                            window.peek = 0.3
                        }
                    }
                    PreviewInteraction.onCommit: (progress, ended) => {
                        window.say("commit " + progress.toFixed(2) + (ended ? " ended" : ""))
                        let at = tile.mapToItem(card, tile.PreviewInteraction.location)
                        let action = card.actionAt(at)
                        if (!ended) {
                            window.peek = Math.min(1, 0.3 + progress * 1.4)
                            if (action !== "" && action !== card.highlighted) {
                                // A tick under the finger as the selection moves (a haptic pad).
                                let sent = tile.PreviewInteraction.playHaptic(PreviewInteraction.Tick)
                                window.say("haptic tick " + action + (sent ? " sent" : " not-sent"))
                            }
                            card.highlight(action)
                            return
                        }
                        let item = tile.modelData
                        window.finish()
                        if (action !== "")
                            window.perform(action, item)
                        else
                            window.open(item)
                    }
                    PreviewInteraction.onCancelled: reason => {
                        window.say("cancelled " + reasonName(reason))
                        window.finish()
                    }

                    Rectangle {
                        anchors.fill: parent
                        anchors.margins: 2
                        radius: 10
                        color: tile.activeFocus ? Qt.alpha(palette.highlight, 0.18) : "transparent"
                    }
                    Column {
                        x: 12
                        y: 6
                        spacing: 4
                        Image {
                            id: photo
                            width: 180
                            height: 135
                            source: "image://photos/" + tile.modelData.artwork
                            sourceSize: Qt.size(180, 135)
                            opacity: tile.lifted ? 0 : 1  // the lifted copy above draws it
                        }
                        Label {
                            width: 180
                            text: tile.modelData.title
                            font.bold: true
                            elide: Label.ElideRight
                        }
                        Label {
                            width: 180
                            text: tile.modelData.place
                            opacity: 0.7
                            elide: Label.ElideRight
                        }
                    }
                    // A click selects, a double click opens (a firm press peeks and pops).
                    TapHandler {
                        onTapped: {
                            grid.currentIndex = tile.index
                            tile.forceActiveFocus()
                        }
                        onDoubleTapped: window.open(tile.modelData)
                    }
                }
                Component.onCompleted: if (opening === 0 && count > 0) currentIndex = 0
            }
        }

        // The preview: the rest of the grid blurs and dims, the pressed photo lifts above it.
        FastBlur {
            anchors.fill: gridPage
            source: gridPage
            radius: 48 * window.lift
            visible: window.lift > 0 && gridPage.visible && window.effects
        }
        Rectangle {
            anchors.fill: parent
            color: "black"
            opacity: 0.35 * window.lift
            visible: window.lift > 0
        }
        Image {
            id: lifted
            visible: window.pressedTile !== null && gridPage.visible
            property point at: window.pressedTile ? window.pressedTile.mapToItem(content, 0, 0) : Qt.point(0, 0)
            x: at.x
            y: at.y
            width: 180
            height: 135
            scale: 1 + 0.08 * window.lift
            source: window.pressed ? "image://photos/" + window.pressed.artwork : ""
            sourceSize: Qt.size(180, 135)
            layer.enabled: visible && window.effects
            layer.effect: DropShadow {
                radius: 16 * window.lift
                samples: 25
                verticalOffset: 4 * window.lift
                color: "#60000000"
            }
        }

        PeekCard {
            id: card
            anchors.centerIn: parent
            opacity: window.peek
            scale: 0.8 + 0.2 * Math.min(1, Math.max(0, (window.peek - 0.3) / 0.7) * 2)
            visible: window.peek > 0
        }

        PhotoPage {
            id: page
            anchors.fill: parent
            visible: item !== null
            markup: markupButton.checked
            onLog: line => window.say(line)
        }
    }

    function sourceName(source) {
        switch (source) {
        case PreviewInteraction.Pen: return "pen"
        case PreviewInteraction.Touchpad: return "touchpad"
        case PreviewInteraction.Touchscreen: return "touchscreen"
        case PreviewInteraction.Pointer: return "pointer"
        case PreviewInteraction.Keyboard: return "keyboard"
        }
        return "unknown"
    }

    function reasonName(reason) {
        return ["", "lifted", "client-cancelled", "declined", "timeout", "device-removed", "surface-gone",
                "desynchronised", "moved", "system", "dismissed"][reason] || "system"
    }

    Component.onCompleted: {
        if (opening > 0 && photos.length > 0) {
            page.show(photos[Math.min(opening, photos.length) - 1])
            window.say("open " + page.item.title)
        } else {
            grid.forceActiveFocus()
        }
    }
    onFrameSwapped: {
        if (!reported) {
            reported = true
            let probe = page.item ? page.frame : grid.itemAtIndex(0)
            window.say("available " + (probe && probe.PreviewInteraction.available ? "True" : "False"))
        }
        if (paints)
            window.say("painted")
    }
    property bool reported: false
    property bool paints: false
}
