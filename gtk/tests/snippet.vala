// docs/gtk.md's Vala example, built by meson: a button that peeks and pops.
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
        window.present ();
    });
    return app.run (args);
}
