// docs/gtk.md's Vala example, built by meson: a button that peeks and pops (and version 2's API).
int main (string[] args) {
    var app = new Gtk.Application ("org.example.PeekVala", ApplicationFlags.FLAGS_NONE);
    app.activate.connect (() => {
        var window = new Gtk.ApplicationWindow (app);
        var button = new Gtk.Button.with_label ("Press harder");
        window.child = button;
        var interaction = new Pi.PreviewInteraction (button);
        interaction.preview.connect ((progress, ended) => button.opacity = 1.0 - 0.4 * progress);
        interaction.commit.connect ((progress, ended) => { if (ended) print ("opened\n"); });
        interaction.cancelled.connect ((reason) => button.opacity = 1.0);
        // Protocol version 2: a second button whose level follows the force, and the settings.
        var zoom = new Pi.PreviewInteraction (new Gtk.Button.with_label ("Zoom"));
        zoom.behaviour = Pi.Behaviour.ACCELERATOR;
        zoom.stages = 4;
        zoom.stage_changed.connect ((stage) => { if (stage > 0) zoom.play_haptic (Pi.HapticEffect.SNAP); });
        Pi.Settings.get_default ().notify["long-press-duration"].connect (() => print ("settings changed\n"));
        window.present ();
    });
    return app.run (args);
}
