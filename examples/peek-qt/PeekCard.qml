// The peek card: the photo large, its caption, and the quick actions under it.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

Column {
    id: card
    property var item: null
    property string highlighted: ""
    spacing: 14

    // The quick action at a point of the card (its coordinates), or "".
    function actionAt(point) {
        for (let i = 0; i < actions.count; i++) {
            let row = actions.itemAt(i)
            let local = row.mapFromItem(card, point.x, point.y)
            if (row.contains(local))
                return row.name
        }
        return ""
    }

    function highlight(name) { highlighted = name }

    Pane {
        padding: 0
        background: Rectangle { radius: 18; color: palette.base; border.color: Qt.alpha("black", 0.08) }
        Column {
            Image {
                width: 520
                height: 390
                source: card.item ? "image://photos/" + card.item.artwork : ""
                sourceSize: Qt.size(520, 390)
            }
            Column {
                padding: 14
                Label { text: card.item ? card.item.title : ""; font.pixelSize: 20; font.bold: true }
                Label { text: card.item ? card.item.place + " · " + card.item.date : ""; opacity: 0.7 }
            }
        }
    }
    Pane {
        anchors.horizontalCenter: parent.horizontalCenter
        width: 320
        padding: 4
        background: Rectangle { radius: 14; color: palette.base; border.color: Qt.alpha("black", 0.08) }
        Column {
            width: parent.width
            Repeater {
                id: actions
                model: [["share", qsTr("Share…")], ["love", qsTr("Love")], ["nope", qsTr("Nope")],
                        ["copy", qsTr("Copy")], ["delete", qsTr("Delete")]]
                delegate: Rectangle {
                    required property var modelData
                    readonly property string name: modelData[0]
                    width: parent.width
                    height: 44
                    radius: 8
                    color: card.highlighted === name ? Qt.alpha(palette.highlight, 0.22) : "transparent"
                    Label {
                        anchors.verticalCenter: parent.verticalCenter
                        x: 18
                        text: modelData[1]
                        font.pixelSize: 15
                        color: parent.name === "delete" ? "#da4453" : palette.text
                    }
                }
            }
        }
    }
}
