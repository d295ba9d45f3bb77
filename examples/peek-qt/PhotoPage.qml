// A photo's page: the photo with its loupe (an accelerator: pressing harder magnifies more, in
// four levels) and a Markup layer over it that draws with the pen's pressure (generic: a press
// there never zooms or peeks).
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Qt5Compat.GraphicalEffects
import PreviewInteraction

Item {
    id: page
    property var item: null
    property bool markup: false
    property alias frame: frame
    readonly property var zoom: [1.0, 1.5, 2.0, 3.0, 4.0]
    property int stage: 0
    property point loupeAt: Qt.point(0, 0)
    property var strokes: ({})   // photo id → [[{x, y, pressure}…]…]
    signal log(string line)

    function show(photo) {
        item = photo
        stage = 0
        frame.forceActiveFocus()
        sketch.requestPaint()
    }

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: 24
        spacing: 12

        Item {
            id: frame
            Layout.fillWidth: true
            Layout.fillHeight: true
            focus: true
            activeFocusOnTab: true

            Image {
                id: photo
                anchors.fill: parent
                source: page.item ? "image://photos/" + page.item.artwork : ""
                sourceSize: Qt.size(width, height)
            }
            // The loupe: the photo magnified in a circle around the press.
            Item {
                id: loupe
                readonly property real radius: 110
                visible: page.stage > 0
                x: page.loupeAt.x - radius
                y: page.loupeAt.y - radius
                width: 2 * radius
                height: 2 * radius
                Item {
                    id: magnified
                    anchors.fill: parent
                    visible: false
                    clip: true
                    Image {
                        source: photo.source
                        sourceSize: photo.sourceSize
                        width: photo.width
                        height: photo.height
                        transform: Scale {
                            origin.x: page.loupeAt.x
                            origin.y: page.loupeAt.y
                            xScale: page.zoom[page.stage]
                            yScale: page.zoom[page.stage]
                        }
                        x: -loupe.x
                        y: -loupe.y
                    }
                }
                Rectangle { id: mask; anchors.fill: parent; radius: loupe.radius; visible: false }
                OpacityMask { anchors.fill: parent; source: magnified; maskSource: mask }
                Rectangle {
                    anchors.fill: parent
                    radius: loupe.radius
                    color: "transparent"
                    border.color: Qt.rgba(1, 1, 1, 0.9)
                    border.width: 5
                }
            }

            PreviewInteraction.behaviour: PreviewInteraction.Accelerator
            PreviewInteraction.stages: page.zoom.length - 1
            PreviewInteraction.onShouldBegin: request => {
                page.log("loupe should-begin " + ["", "pen", "touchpad", "", "touchscreen", "", "", "", "pointer"][request.source]
                         + " " + Math.round(request.location.x) + "," + Math.round(request.location.y))
                request.accepted = page.item !== null
            }
            PreviewInteraction.onStageChanged: stage => {
                page.loupeAt = frame.PreviewInteraction.location
                if (stage > 0) {
                    frame.PreviewInteraction.playHaptic(PreviewInteraction.Snap)  // a detent at each level
                    page.log("stage " + stage + " " + page.zoom[stage] + "x")
                } else {
                    page.log("loupe completed")
                }
                page.stage = stage
            }
            PreviewInteraction.onCancelled: reason => { page.log("loupe cancelled " + reason); page.stage = 0 }

            Canvas {
                id: sketch
                anchors.fill: parent
                visible: page.markup
                PreviewInteraction.behaviour: PreviewInteraction.Generic
                onPaint: {
                    let ctx = getContext("2d")
                    ctx.reset()
                    ctx.strokeStyle = Qt.rgba(0.95, 0.2, 0.35, 0.9)
                    ctx.lineCap = "round"
                    for (let stroke of (page.item ? page.strokes[page.item.id] || [] : [])) {
                        for (let i = 1; i < stroke.length; i++) {
                            ctx.lineWidth = 2 + 14 * (stroke[i - 1].pressure + stroke[i].pressure) / 2
                            ctx.beginPath()
                            ctx.moveTo(stroke[i - 1].x, stroke[i - 1].y)
                            ctx.lineTo(stroke[i].x, stroke[i].y)
                            ctx.stroke()
                        }
                    }
                }
                // The pen's pressure from Qt's own tablet events (a mouse or finger draws at 0.5).
                PointHandler {
                    id: pen
                    property var stroke: null
                    onActiveChanged: {
                        if (active) {
                            stroke = []
                            let all = page.strokes[page.item.id] || []
                            all.push(stroke)
                            page.strokes[page.item.id] = all
                        } else if (stroke) {
                            page.log("stroke " + stroke.length + " " + Math.max(...stroke.map(p => p.pressure)).toFixed(2))
                            stroke = null
                        }
                    }
                    onPointChanged: {
                        if (!active || !stroke)
                            return
                        let pressure = point.device.type === PointerDevice.Stylus ? point.pressure : 0.5
                        stroke.push({x: point.position.x, y: point.position.y, pressure: pressure})
                        sketch.requestPaint()
                    }
                }
            }
        }

        RowLayout {
            spacing: 12
            ColumnLayout {
                Layout.fillWidth: true
                Label { text: page.item ? page.item.title : ""; font.pixelSize: 20; font.bold: true }
                Label { text: page.item ? page.item.place + " · " + page.item.date : ""; opacity: 0.7 }
            }
            Label {
                text: page.markup ? qsTr("Markup: draw with the pen")
                    : page.stage > 0 ? qsTr("Loupe %1×").arg(page.zoom[page.stage]) : qsTr("Press the photo to look closer")
                opacity: 0.7
            }
            Row {
                visible: !page.markup
                spacing: 4
                Repeater {
                    model: page.zoom.length - 1
                    Rectangle {
                        required property int index
                        width: 36
                        height: 8
                        radius: 4
                        color: index < page.stage ? palette.highlight : Qt.alpha(palette.text, 0.2)
                    }
                }
            }
        }
    }
}
