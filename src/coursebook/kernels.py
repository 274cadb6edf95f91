"""Free the memory of the notebooks you have closed: ``shut_down_closed()`` (a cell of the index).

Each open chapter keeps a kernel of about 320 MB, and closing its tab in
JupyterLab leaves the kernel running. A notebook whose tab is closed has a
kernel that no browser is connected to; this finds those, in the lab this
kernel belongs to only, and shuts them down (through the server's REST API,
``DELETE /api/sessions/<id>``, the same as "Shut Down" in the lab's Running
panel). A kernel still working (busy) is left alone, and so is this one.

Outside a lab (a notebook run by nbclient, a console) it says so and does
nothing.
"""

from __future__ import annotations

import json
import os
import re
import urllib.request

from coursebook.language import _

__all__ = ["shut_down_closed", "shut_down_button", "own_kernel_id"]


def own_kernel_id() -> str | None:
    """The id of the kernel this code runs in (from its connection file's name), or None."""
    try:
        from ipykernel import get_connection_file

        found = re.search(r"kernel-(.+)\.json$", os.path.basename(get_connection_file()))
    except Exception:  # not in a kernel
        return None
    return found.group(1) if found else None


def _call(server: dict, path: str, method: str = "GET"):
    url = server["url"].rstrip("/") + "/api/" + path
    request = urllib.request.Request(url, method=method,
                                     headers={"Authorization": "token " + server.get("token", "")})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
    return json.loads(body) if body else None


def _own_server(kernel_id: str) -> dict | None:
    """The running Jupyter server that started the kernel ``kernel_id``."""
    from jupyter_server.serverapp import list_running_servers

    for server in list_running_servers():
        try:
            if any(k["id"] == kernel_id for k in _call(server, "kernels")):
                return server
        except Exception:  # a stale runtime file, a server that refuses: not ours
            continue
    return None


def shut_down_closed(server: dict | None = None, keep: str | None = None) -> list[str]:
    """Shut down the kernel of every notebook no browser tab shows, in this kernel's lab; print and
    return their paths. ``server`` ({"url", "token"}) and ``keep`` (a kernel id) default to this
    kernel's lab and this kernel."""
    keep = keep or own_kernel_id()
    if server is None:
        server = _own_server(keep) if keep else None
        if server is None:
            print(_("Not in a running lab: nothing to shut down."))
            return []
    closed, busy = [], []
    for session in _call(server, "sessions"):
        kernel = session.get("kernel") or {}
        if kernel.get("id") == keep or kernel.get("connections", 0) > 0:
            continue
        if kernel.get("execution_state") == "busy":
            busy.append(session["path"])
            continue
        _call(server, "sessions/" + session["id"], "DELETE")
        closed.append(session["path"])
    freed = (_("Shut down the kernels of {count} closed notebook(s):").format(count=len(closed)) + " "
             + ", ".join(closed)) if closed else _("No closed notebook had a kernel running.")
    print(freed + (" " + _("Left running (busy): {paths}.").format(paths=", ".join(busy)) if busy else ""))
    return closed


def shut_down_button():
    """A button that runs :func:`shut_down_closed` when clicked (nothing happens until then)."""
    import ipywidgets as widgets

    class ShutDownButton(widgets.VBox):
        def __repr__(self):
            return _("A button: shut down the kernels of the notebooks you have closed "
                     "(or run coursebook.kernels.shut_down_closed()).")

    button = widgets.Button(description=_("Shut down closed notebooks' kernels"),
                            layout=widgets.Layout(width="auto"))
    said = widgets.Output()

    def on_click(button_clicked):
        said.clear_output()
        with said:
            shut_down_closed()

    button.on_click(on_click)
    return ShutDownButton([button, said])
