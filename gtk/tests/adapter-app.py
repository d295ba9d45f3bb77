#!/usr/bin/python3
"""A GTK 4 window for the adapter's tests, on the typelib (so the introspection path is the one
tested). It prints one line per event on stdout, flushed, for the test driver to read:

  available True|False                      once the window is mapped
  should-begin WIDGET SOURCE FORCE X Y      location in the widget's coordinates
  preview WIDGET P [ended] X Y / commit WIDGET P [ended] X Y / cancelled WIDGET REASON
  clicked WIDGET                            a GtkButton's "clicked"
  gesture WIDGET pressed|released|cancel    a GtkGestureClick on the button
  button-gesture WIDGET cancel              GtkButton's own click gesture was cancelled
  drag WIDGET begin|end|cancel              a GtkGestureDrag on the button
  stage WIDGET N PHASE                      an accelerator's level (0 when its press ended)
  haptic WHEN SENT AVAILABLE                keyboard: play_haptic's answer while asking, at the
                                            first preview and once completed
  focused WIDGET                            the widget that has keyboard focus at the start
  settings SENSITIVITY BEGIN COMMIT COMPLETE LONG-PRESS-MS HAPTICS COMPLETION   Pi.Settings, at
                                            each change once the compositor sent them

usage: adapter-app.py SCENARIO (button, two, resize, destroy, late, unavailable)
  button:  one GtkButton fills the window (a light tap must click, a firm press must not)
  two:     two buttons side by side, each with an interaction; the press goes to one
  resize:  at the first preview the window's content changes size; the press continues
  destroy: at the first preview the pressed widget is destroyed
  late:    should-begin is answered 60 ms later from a GLib timeout
  unavailable: prints availability once mapped, then quits
  insensitive, hidden, disabled: after the tap the button becomes so
  scrolled: the button is scrolled out of sight for the tap, under the pen for the firm press
  clipped: the pen presses where the button would be if its scrolled window did not clip it
  keyboard: two buttons, the right one focused (a recorded keyboard holds the Menu key)
  keyboard-point: the right one focused, with the app's focus point 10,20; once its press
    completed the focus moves to the left one
  generic: the button's behaviour is generic (a canvas): no press may become an interaction
  accelerator: the button is an accelerator of 4 stages
  nested: a generic canvas fills the window; the button (deep click) lies inside it, 200 px in
  settings: prints the user's settings as they arrive and change
Exits after --exit-after N ended presses (completed or cancelled), or when the window closes.
"""
import gc
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Pi", "1")
from gi.repository import GLib, Gtk  # noqa: E402
from gi.repository import Pi  # noqa: E402


def say(*words):
    print(" ".join(str(w) for w in words), flush=True)


def nick(value):
    return value.value_nick


class App:
    def __init__(self, scenario, exit_after):
        self.scenario = scenario
        self.exit_after = exit_after
        self.ended = 0
        self.interactions = {}
        self.window = Gtk.Window(title="adapter test")
        self.window.set_default_size(1280, 800)
        self.box = Gtk.Box(homogeneous=True)
        self.window.set_child(self.box)
        names = ["left", "right"] if scenario in ("two", "keyboard", "keyboard-point") else ["button"]
        if scenario == "scrolled":
            # The button starts scrolled out of sight, below a tall spacer; the tap (on the
            # spacer) scrolls it under the pen for the firm press.
            content = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
            spacer = Gtk.Label(label="spacer")
            spacer.set_size_request(-1, 2000)
            content.append(spacer)
            self.box = content
            self.scroller = Gtk.ScrolledWindow(vexpand=True)
            self.scroller.set_child(content)
            self.window.set_child(self.scroller)
            release = Gtk.GestureClick(propagation_phase=Gtk.PropagationPhase.CAPTURE)
            release.connect("released", self.scroll_to_button)
            self.window.add_controller(release)
        if scenario == "clipped":
            # A label above a scrolled window whose button is partly scrolled up out of the
            # viewport, behind the label: the pen presses on the label, over the hidden part.
            outer = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
            top = Gtk.Label(label="label")
            top.set_size_request(-1, 400)
            outer.append(top)
            self.box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
            self.scroller = Gtk.ScrolledWindow(vexpand=True)
            self.scroller.set_child(self.box)
            outer.append(self.scroller)
            self.window.set_child(outer)
        for name in names:
            button = self.add_button(name)
            if scenario in ("scrolled", "clipped"):
                button.set_size_request(-1, 800)
        if scenario == "clipped":
            spacer = Gtk.Label(label="spacer")
            spacer.set_size_request(-1, 2000)
            self.box.append(spacer)
            self.scroller.get_vadjustment().connect(
                "changed", lambda adjustment: adjustment.get_upper() - adjustment.get_page_size() >= 600
                and adjustment.get_value() == 0 and GLib.idle_add(lambda: adjustment.set_value(600)))
            press = Gtk.GestureClick(propagation_phase=Gtk.PropagationPhase.CAPTURE)
            press.connect("pressed", self.where_pressed)
            self.window.add_controller(press)
        if scenario in ("keyboard", "keyboard-point"):
            # Focused before the window shows: its first commit carries the focus point.
            self.window.set_focus(self.interactions["right"].get_widget())
            if scenario == "keyboard-point":
                self.interactions["right"].set_focus_point(10, 20)
        if scenario == "generic":
            self.interactions["button"].props.behaviour = Pi.Behaviour.GENERIC
        if scenario == "nested":
            # The canvas's interaction is generic; the button's area must lie on top of it.
            canvas = Pi.PreviewInteraction.new(self.box)
            canvas.props.behaviour = Pi.Behaviour.GENERIC
            for margin in ("start", "end", "top", "bottom"):
                getattr(self.interactions["button"].get_widget(), f"set_margin_{margin}")(200)
        if scenario == "accelerator":
            self.interactions["button"].props.behaviour = Pi.Behaviour.ACCELERATOR
            self.interactions["button"].props.stages = 4
        if scenario == "settings":
            self.settings = Pi.Settings.get_default()
            self.settings.connect("notify", lambda *a: self.print_settings_soon())
        self.window.connect("map", self.mapped)
        self.window.connect("close-request", lambda w: self.quit())
        self.window.present()
        self.loop = GLib.MainLoop()

    def add_button(self, name):
        button = Gtk.Button(label=name, hexpand=True, vexpand=True)
        button.set_name(name)
        button.connect("clicked", lambda b: say("clicked", name))
        click = Gtk.GestureClick()
        click.connect("pressed", lambda *a: say("gesture", name, "pressed"))
        click.connect("released", lambda *a: say("gesture", name, "released"))
        click.connect("cancel", lambda *a: say("gesture", name, "cancel"))
        button.add_controller(click)
        drag = Gtk.GestureDrag()
        drag.connect("drag-begin", lambda *a: say("drag", name, "begin"))
        drag.connect("drag-end", lambda *a: say("drag", name, "end"))
        drag.connect("cancel", lambda *a: say("drag", name, "cancel"))
        button.add_controller(drag)
        # GtkButton's own click gesture: it must see a firm press cancelled, never released.
        controllers = button.observe_controllers()
        for i in range(controllers.get_n_items()):
            controller = controllers.get_item(i)
            if isinstance(controller, Gtk.GestureClick) and controller is not click:
                controller.connect("cancel", lambda *a: say("button-gesture", name, "cancel"))
        self.box.append(button)
        # The widget keeps the interaction: the app need not hold it.
        interaction = Pi.PreviewInteraction.new(button)
        interaction.connect("should-begin", self.should_begin, name)
        interaction.connect("preview", self.progress, name, "preview")
        interaction.connect("commit", self.progress, name, "commit")
        interaction.connect("cancelled", self.cancelled, name)
        interaction.connect("stage-changed", self.staged, name)
        self.interactions[name] = interaction
        return button

    def staged(self, interaction, stage, name):
        say("stage", name, stage, nick(interaction.props.phase))
        if stage == 0 and interaction.props.phase == Pi.Phase.COMPLETED:
            self.end()

    def print_settings_soon(self):
        # One line per change: the properties of one settings group are notified together.
        if not getattr(self, "settings_pending", False):
            self.settings_pending = True
            GLib.idle_add(self.print_settings)

    def print_settings(self):
        self.settings_pending = False
        s = self.settings
        if s.props.available:
            say("settings", nick(s.props.sensitivity), f"{s.props.begin_threshold:.3f}",
                f"{s.props.commit_threshold:.3f}", f"{s.props.complete_threshold:.3f}", s.props.long_press_duration,
                nick(s.props.haptics), nick(s.props.completion))
        return GLib.SOURCE_REMOVE

    def where_pressed(self, gesture, n, x, y):
        button = self.interactions["button"].get_widget()
        ok, bounds = button.compute_bounds(self.window)
        ok, viewport = self.scroller.compute_bounds(self.window)
        say("pressed-at", f"{y:.0f}", "button", f"{bounds.origin.y:.0f}", f"{bounds.size.height:.0f}",
            "viewport", f"{viewport.origin.y:.0f}", "scroll", f"{self.scroller.get_vadjustment().get_value():.0f}",
            f"{self.scroller.get_vadjustment().get_upper():.0f}", f"{self.scroller.get_vadjustment().get_page_size():.0f}")

    def scroll_to_button(self, *args):
        if getattr(self, "scrolled", False):
            return
        self.scrolled = True
        self.scroller.get_vadjustment().set_value(1800)
        say("scrolled")

    def mapped(self, window):
        # Availability is known once the window's surface exists.
        def report():
            say("available", next(iter(self.interactions.values())).props.available)
            if self.scenario == "unavailable":
                self.quit()
            if self.scenario in ("keyboard", "keyboard-point"):
                say("focused", self.window.get_focus().get_name())
            if self.scenario == "settings":
                self.print_settings()

        GLib.idle_add(report)

    def where(self, interaction):
        known, x, y = interaction.get_location()
        return f"{x:.1f} {y:.1f}" if known else "- -"

    def should_begin(self, interaction, name):
        widget = interaction.get_widget()
        say("should-begin", name, nick(interaction.props.source), nick(interaction.props.force), self.where(interaction),
            widget.get_width(), widget.get_height())
        if self.scenario == "late":
            press = interaction.defer_answer()

            def answer():
                interaction.answer(press, True)
                say("answered", name, press)
                return GLib.SOURCE_REMOVE

            GLib.timeout_add(60, answer)
            return False  # ignored: the answer was deferred
        if self.scenario == "keyboard":
            self.haptic(interaction, "asking")
        return True

    def haptic(self, interaction, when):
        sent = interaction.play_haptic(Pi.HapticEffect.TICK)
        say("haptic", when, sent, interaction.props.haptics_available)

    def progress(self, interaction, progress, ended, name, phase):
        say(phase, name, f"{progress:.3f}", "ended" if ended else "-", self.where(interaction))
        if self.scenario == "keyboard" and (phase, ended) in (("preview", False), ("commit", True)):
            if not (phase == "preview" and getattr(self, "played", False)):
                self.played = True
                self.haptic(interaction, "completed" if ended else "preview")
        if phase == "commit" and not ended and self.scenario == "hostile-cancelled-commit" \
                and not getattr(self, "cancelled_once", False):
            # The app cancels in the commit phase; the hostile compositor goes on with the commit.
            self.cancelled_once = True
            interaction.cancel()
        if phase == "preview" and not ended and self.scenario == "resize" and not getattr(self, "resized", False):
            # The window's layout changes under the press: the region follows, the press stays.
            self.resized = True
            self.box.set_margin_start(200)
            self.box.set_margin_top(100)
        if phase == "preview" and not ended and self.scenario == "destroy" and name in self.interactions:
            widget = interaction.get_widget()
            del self.interactions[name]
            self.box.remove(widget)
            say("destroyed", name)
            del widget

            def gone():
                # GTK may keep the removed widget alive while its input sequence lasts; it
                # has left the window, so its interaction has too.
                gc.collect()
                say("after-destroy", "available" if interaction.props.available else "gone")
                return GLib.SOURCE_REMOVE

            GLib.idle_add(gone)
        if phase == "commit" and ended:
            if self.scenario == "keyboard-point":
                # The focus moves (GtkWindow's focus-widget): the window's focus point follows.
                self.interactions["left"].get_widget().grab_focus()
                say("focused", self.window.get_focus().get_name())
            self.end()

    def cancelled(self, interaction, reason, name):
        say("cancelled", name, nick(reason))
        if self.scenario in ("insensitive", "hidden", "disabled"):
            # After the tap: the widget can no longer be pressed; the window's region follows.
            widget = interaction.get_widget()
            if self.scenario == "insensitive":
                widget.set_sensitive(False)
            elif self.scenario == "hidden":
                widget.set_visible(False)
            else:
                interaction.props.enabled = False
            say("changed", name, self.scenario)
        self.end()

    def end(self):
        self.ended += 1
        if self.exit_after and self.ended >= self.exit_after:
            # Let the core events of this frame (a click after a lifted press) arrive first.
            GLib.timeout_add(300, self.quit)

    def quit(self):
        self.loop.quit()
        return GLib.SOURCE_REMOVE


def main():
    scenario = sys.argv[1] if len(sys.argv) > 1 else "button"
    exit_after = int(sys.argv[sys.argv.index("--exit-after") + 1]) if "--exit-after" in sys.argv else 0
    app = App(scenario, exit_after)
    app.loop.run()


if __name__ == "__main__":
    main()
