"""The extension's one UNO component: it runs a toolbar or menu entry in the installed addin.

LibreOffice loads this file with its own Python (Debian/Ubuntu: the system python3 through
python3-uno; Windows and macOS: the Python bundled with LibreOffice). The entries' URLs
are ``org.usgo.aga.mcmahon:<control id>``; each runs ``addin.calc.entry.dispatch`` on the
document of the window it was clicked in. A script may pass the arguments ``params`` (a
JSON object: nothing is asked) and ``yes`` (warnings accepted), as the tests do. The
``addin`` package is found on that Python's own path, else in the folders listed in
``addin_path.txt`` beside this file (written by ``python -m addin build-calc``), else in
``AGA_MCMAHON_PYTHONPATH``.
"""

import json
import os
import sys
import traceback

import uno
import unohelper
from com.sun.star.frame import XDispatch, XDispatchProvider
from com.sun.star.lang import XInitialization, XServiceInfo

IMPLEMENTATION = "org.usgo.aga.McMahonHandler"
PROTOCOL = "org.usgo.aga.mcmahon:"


def _add_paths():
    here = os.path.dirname(os.path.abspath(__file__))
    listed = os.path.join(here, "addin_path.txt")
    folders = os.environ.get("AGA_MCMAHON_PYTHONPATH", "").split(os.pathsep)
    if os.path.isfile(listed):
        with open(listed, encoding="utf-8") as f:
            folders += [line.strip() for line in f]
    for folder in folders:
        if folder and os.path.isdir(folder) and folder not in sys.path:
            sys.path.append(folder)


class Handler(unohelper.Base, XDispatchProvider, XDispatch, XInitialization, XServiceInfo):
    def __init__(self, ctx, *args):
        self.ctx = ctx
        self.frame = None

    # XInitialization: the frame the entry was clicked in
    def initialize(self, args):
        if args:
            self.frame = args[0]

    # XDispatchProvider
    def queryDispatch(self, url, target, flags):
        return self if url.Protocol == PROTOCOL else None

    def queryDispatches(self, requests):
        return tuple(self.queryDispatch(r.FeatureURL, r.FrameName, r.SearchFlags) for r in requests)

    # XDispatch
    def dispatch(self, url, args):
        doc = self.frame.getController().getModel() if self.frame else None
        try:
            _add_paths()
            from addin.calc.entry import dispatch
        except Exception:
            python = sys.executable or sys.version
            self._tell(
                f"LibreOffice's Python ({python}) cannot import the addin package:\n\n"
                f"{traceback.format_exc(limit=1)}\n"
                "Install it with that Python, or run: python -m addin install-calc"
            )
            return
        given = {arg.Name: arg.Value for arg in args}
        params = json.loads(given["params"]) if "params" in given else None
        dispatch(url.Path, doc, self.ctx, params, yes=bool(given.get("yes")))

    def addStatusListener(self, listener, url):
        pass

    def removeStatusListener(self, listener, url):
        pass

    def _tell(self, message):
        toolkit = self.ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.awt.Toolkit", self.ctx
        )
        window = self.frame.getContainerWindow() if self.frame else None
        kind = uno.Enum("com.sun.star.awt.MessageBoxType", "ERRORBOX")
        toolkit.createMessageBox(window, kind, 1, "AGA Swiss McMahon", message).execute()

    # XServiceInfo
    def getImplementationName(self):
        return IMPLEMENTATION

    def supportsService(self, name):
        return name == "com.sun.star.frame.ProtocolHandler"

    def getSupportedServiceNames(self):
        return ("com.sun.star.frame.ProtocolHandler",)


g_ImplementationHelper = unohelper.ImplementationHelper()
g_ImplementationHelper.addImplementation(
    Handler, IMPLEMENTATION, ("com.sun.star.frame.ProtocolHandler",)
)
