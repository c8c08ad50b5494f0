"""The UNO toolkit pieces the LEDGER panel is built from: a non-modal dialog with pages, buttons,
list boxes, tree controls and a progress bar; work off the main thread with its results handed
back to it (``com.sun.star.awt.AsyncCallback``); and a picture of the window drawn by
LibreOffice itself (the toolkit draws each control into an off-screen device), which the tests
keep as screenshots.
"""
from __future__ import annotations

import threading

import unohelper
from com.sun.star.awt import XActionListener, XCallback, XItemListener, XMouseListener, XTopWindowListener
from com.sun.star.view import XSelectionChangeListener

__all__ = ["Dialog", "MainThread", "capture"]


class _Call(unohelper.Base, XCallback):
    def __init__(self, fn):
        self.fn = fn

    def notify(self, _data):
        self.fn()


class MainThread:
    """Runs callables on LibreOffice's main thread (where the document and the window are changed)."""

    def __init__(self, ctx):
        self.async_cb = ctx.ServiceManager.createInstanceWithContext("com.sun.star.awt.AsyncCallback", ctx)

    def post(self, fn) -> None:
        self.async_cb.addCallback(_Call(fn), None)

    def call(self, fn, timeout: float = 600.0):
        """Runs ``fn`` on the main thread and waits for its result (from another thread only)."""
        done = threading.Event()
        box = {}

        def run():
            try:
                box["value"] = fn()
            except Exception as exc:  # handed back to the caller
                box["error"] = exc
            finally:
                done.set()

        self.post(run)
        if not done.wait(timeout):
            raise TimeoutError("LibreOffice's main thread did not run the call in time")
        if "error" in box:
            raise box["error"]
        return box.get("value")


class _Listener(unohelper.Base, XActionListener, XItemListener, XSelectionChangeListener, XMouseListener,
                XTopWindowListener):
    """One listener for every control event: each goes to a callable."""

    def __init__(self, fn):
        self.fn = fn

    def actionPerformed(self, _ev):
        self.fn()

    def itemStateChanged(self, _ev):
        self.fn()

    def selectionChanged(self, _ev):
        self.fn()

    def mousePressed(self, ev):
        if ev.ClickCount == 2:
            self.fn()

    def mouseReleased(self, _ev):
        pass

    def mouseEntered(self, _ev):
        pass

    def mouseExited(self, _ev):
        pass

    def windowClosing(self, _ev):
        self.fn()

    def windowOpened(self, _ev):
        pass

    def windowClosed(self, _ev):
        pass

    def windowMinimized(self, _ev):
        pass

    def windowNormalized(self, _ev):
        pass

    def windowActivated(self, _ev):
        pass

    def windowDeactivated(self, _ev):
        pass

    def disposing(self, _ev):
        pass


class Dialog:
    """A non-modal dialog whose controls are added by name; ``step`` makes a control part of one
    page (0: every page), as the dialog model's ``Step`` shows one page at a time."""

    def __init__(self, ctx, title: str, width: int, height: int):
        self.ctx = ctx
        self.smgr = ctx.ServiceManager
        self.model = self.smgr.createInstanceWithContext("com.sun.star.awt.UnoControlDialogModel", ctx)
        self.model.Width, self.model.Height, self.model.Title = width, height, title
        self.model.Closeable = True
        self.model.Moveable = True
        self.control = None
        self.trees = {}
        self._listeners = []  # kept alive as long as the dialog

    def add(self, kind: str, name: str, x: int, y: int, w: int, h: int, step: int = 0, **props):
        m = self.model.createInstance(f"com.sun.star.awt.{kind}")
        m.PositionX, m.PositionY, m.Width, m.Height = x, y, w, h
        m.Step = step
        for k, v in props.items():
            setattr(m, k, v)
        self.model.insertByName(name, m)
        if kind == "tree.TreeControlModel":
            data = self.smgr.createInstanceWithContext("com.sun.star.awt.tree.MutableTreeDataModel", self.ctx)
            data.setRoot(data.createNode("", True))
            m.DataModel = data
            m.RootDisplayed = True
            m.ShowsRootHandles = True
            m.SelectionType = 1  # SINGLE
            self.trees[name] = data
        return m

    def create(self, parent_peer=None):
        self.control = self.smgr.createInstanceWithContext("com.sun.star.awt.UnoControlDialog", self.ctx)
        self.control.setModel(self.model)
        toolkit = self.smgr.createInstanceWithContext("com.sun.star.awt.Toolkit", self.ctx)
        self.control.createPeer(toolkit, parent_peer)
        return self.control

    def get(self, name):
        return self.control.getControl(name)

    def on(self, name: str, event: str, fn) -> None:
        """``event``: action (a button), item (a list box or check box), select (a tree), double (a tree)."""
        listener = _Listener(fn)
        self._listeners.append(listener)
        ctl = self.get(name)
        if event == "action":
            ctl.addActionListener(listener)
        elif event == "item":
            ctl.addItemListener(listener)
        elif event == "select":
            ctl.addSelectionChangeListener(listener)
        elif event == "double":
            ctl.addMouseListener(listener)
        else:
            raise ValueError(event)

    def on_close(self, fn) -> None:
        listener = _Listener(fn)
        self._listeners.append(listener)
        self.control.addTopWindowListener(listener)

    # trees -------------------------------------------------------------------------------

    def fill_tree(self, name: str, rows, title: str = "") -> list:
        """Replaces a tree's nodes with ``rows``: ``[(depth, text, key)]`` in order, under a root
        that reads ``title``; returns the nodes in the same order (each keeps ``key`` as its data
        value)."""
        # a new data model, built whole before the control is given it: the control redraws a model
        # it is given, but neither a changed title of the root it shows ("15 of 15 findings" stayed
        # over a filtered list) nor a new root (drawn below the old one); and one replacement is
        # one redraw, not one per row removed and added
        data = self.smgr.createInstanceWithContext("com.sun.star.awt.tree.MutableTreeDataModel", self.ctx)
        root = data.createNode(title, True)
        stack, nodes = [root], []
        for depth, text, key in rows:
            node = data.createNode(text, False)
            node.DataValue = key
            del stack[depth + 1:]
            stack[-1].appendChild(node)
            stack.append(node)
            nodes.append(node)
        data.setRoot(root)
        self.model.getByName(name).DataModel = data
        self.trees[name] = data
        try:
            self.get(name).expandNode(root)
        except Exception:
            pass
        return nodes

    def expand(self, name: str, nodes) -> None:
        tree = self.get(name)
        for n in nodes:
            if n.getChildCount():
                try:
                    tree.expandNode(n)
                except Exception:
                    pass

    def tree_rows(self, name: str) -> list:
        """``[(depth, text, key)]`` of a tree as it stands (what a reader sees, for the tests)."""
        out = []

        def walk(node, depth):
            for i in range(node.getChildCount()):
                child = node.getChildAt(i)
                out.append((depth, child.getDisplayValue(), child.DataValue))
                walk(child, depth + 1)

        walk(self.trees[name].getRoot(), 0)
        return out

    def tree_title(self, name: str) -> str:
        return self.trees[name].getRoot().getDisplayValue()

    def selected_key(self, name: str):
        sel = self.get(name).getSelection()
        return sel.DataValue if sel is not None else None

    def select_key(self, name: str, key) -> bool:
        """Selects the node whose data value is ``key`` (as a click does: the listeners run)."""
        found = []

        def walk(node):
            for i in range(node.getChildCount()):
                child = node.getChildAt(i)
                if child.DataValue == key:
                    found.append(child)
                    return
                walk(child)

        walk(self.trees[name].getRoot())
        if not found:
            return False
        tree = self.get(name)
        try:
            tree.makeNodeVisible(found[0])
        except Exception:
            pass
        tree.select(found[0])
        return True


def capture(dialog: Dialog, path: str) -> tuple:
    """Draws the dialog and its controls as LibreOffice shows them into a bitmap and writes it as
    a BMP file; returns its size in pixels."""
    ctl = dialog.control
    peer = ctl.getPeer()
    size = ctl.getPosSize()
    try:
        out = peer.getOutputSize()
        dx = max(0, (size.Width - out.Width) // 2)
        dy = max(0, size.Height - out.Height - dx)
    except Exception:
        dx, dy = 0, 0
    toolkit = dialog.smgr.createInstanceWithContext("com.sun.star.awt.Toolkit", dialog.ctx)
    dialog.last_capture = {"size": (size.Width, size.Height), "offset": (dx, dy)}
    device = toolkit.createScreenCompatibleDevice(size.Width, size.Height)
    graphics = device.createGraphics()
    ctl.setGraphics(graphics)
    ctl.draw(0, 0)
    for child in ctl.getControls():
        try:
            if not child.getPeer().isVisible():
                continue  # another page's control
        except Exception:
            pass
        pos = child.getPosSize()
        if pos.Width <= 0 or pos.Height <= 0:
            continue
        child.setGraphics(graphics)
        child.draw(pos.X + dx, pos.Y + dy)
    bitmap = device.createBitmap(0, 0, size.Width, size.Height)
    dib = bitmap.getDIB()
    data = bytes(dib.value) if hasattr(dib, "value") else bytes(dib)
    with open(path, "wb") as fh:
        fh.write(data)
    return size.Width, size.Height
