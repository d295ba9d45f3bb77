#ifndef CWAYLANDWLCS_H
#define CWAYLANDWLCS_H

/* The WLCS integration (wlcs_server_integration) is defined in cwaylandwlcs.c; its entry
 * points call the Swift module PreviewCompositorWLCS through handles, never pointers. */

#endif
