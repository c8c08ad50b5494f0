"""Run under Debian's python3 (UNO): a .docx saved as .odt by LibreOffice, its fields refreshed first.

Usage: python3 uno_convert.py PROFILE_DIR IN.docx OUT.odt

``soffice --convert-to odt`` stores each reference field with the result LibreOffice computed
while importing, and a REF field met before the bookmark it names (a forward reference) then
reads "Error: Reference source not found". Refreshing the fields after the whole file is loaded
computes every result from its bookmark, as Word's cached results had it.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid

import uno  # Debian's python3-uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException


def _prop(name: str, value) -> PropertyValue:
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def main(argv: list[str]) -> int:
    profile, src, dst = argv[1:4]
    pipe = "ledger_convert_" + uuid.uuid4().hex[:10]
    proc = subprocess.Popen(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--invisible",
                             "--nologo", "--norestore", "--nodefault", "--nolockcheck",
                             f"--accept=pipe,name={pipe};urp;StarOffice.ComponentContext"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
        deadline = time.time() + 90
        while True:
            try:
                ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
                break
            except NoConnectException:
                if time.time() > deadline or proc.poll() is not None:
                    raise RuntimeError("soffice did not start") from None
                time.sleep(0.3)
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(os.path.abspath(src)), "_blank", 0,
                                           (_prop("Hidden", True),))
        doc.getTextFields().refresh()
        doc.storeToURL(uno.systemPathToFileUrl(os.path.abspath(dst)), (_prop("FilterName", "writer8"),))
        doc.close(True)
        desktop.terminate()
    finally:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
