#!/usr/bin/python3
"""A Qt 6 window whose QTextEdit is filled with one word in a large font (a recorded press
anywhere on it lands on the word), for Look Up's tests (QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1).
Prints every mouse press it gets as "press X Y"."""

import sys

from PyQt6.QtCore import Qt
from PyQt6.QtGui import QFont
from PyQt6.QtWidgets import QApplication, QTextEdit


class Edit(QTextEdit):
    def mousePressEvent(self, event):
        print("press %d %d" % (event.position().x(), event.position().y()), flush=True)
        super().mousePressEvent(event)


app = QApplication(sys.argv)
word = sys.argv[sys.argv.index("--fill") + 1] if "--fill" in sys.argv else "curiosities"
edit = Edit()
edit.setReadOnly(True)
# A held pen opens the context menu (another toplevel here): not what the press is about.
edit.setContextMenuPolicy(Qt.ContextMenuPolicy.NoContextMenu)
edit.setFont(QFont("Sans", 40))
edit.setPlainText(" ".join([word] * 300))
edit.setWindowTitle("lookup qt6")
edit.resize(800, 600)
edit.show()
sys.exit(app.exec())
