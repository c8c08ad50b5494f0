"""The Word add-in manifest: generated for a public URL, valid against the Office XML Schemas
(copied into tests/clients/schemas/), served by the backend; broken manifests are rejected."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree
from PIL import Image

from .helpers import ROOT

sys.path.insert(0, str(ROOT / "manifest"))
from build_manifest import DEFAULT_URL, render_manifest  # noqa: E402
from build_oxt import REQUIRED, build_oxt  # noqa: E402

SCHEMAS = Path(__file__).with_name("schemas")
NS = {"o": "http://schemas.microsoft.com/office/appforoffice/1.1",
      "ov": "http://schemas.microsoft.com/office/taskpaneappversionoverrides",
      "bt": "http://schemas.microsoft.com/office/officeappbasictypes/1.0",
      "xsi": "http://www.w3.org/2001/XMLSchema-instance"}


@pytest.fixture(scope="module")
def schema():
    return etree.XMLSchema(etree.parse(str(SCHEMAS / "OfficeAppManifestV1_1.xsd")))


def _doc(text: str):
    return etree.fromstring(text.encode("utf-8"))


def test_manifest_validates_for_the_default_and_a_deployment_url(schema):
    for url in (DEFAULT_URL, "https://ledger.example.org/"):
        root = _doc(render_manifest(url))
        schema.assertValid(root)
        base = url.rstrip("/")
        assert root.find("o:DefaultSettings/o:SourceLocation", NS).get("DefaultValue") == f"{base}/taskpane/"
        assert root.findtext("o:AppDomains/o:AppDomain", namespaces=NS) == base
        urls = [e.get("DefaultValue") for e in root.iter() if e.get("DefaultValue", "").startswith("http")]
        assert urls and all(u.startswith(base + "/") for u in urls), urls


def test_manifest_declares_word_read_write_wordapi_14_and_a_home_tab_button(schema):
    root = _doc(render_manifest(DEFAULT_URL))
    assert root.get(f"{{{NS['xsi']}}}type") == "TaskPaneApp"
    assert [h.get("Name") for h in root.findall("o:Hosts/o:Host", NS)] == ["Document"]
    assert root.findtext("o:Permissions", namespaces=NS) == "ReadWriteDocument"
    sets = root.findall("o:Requirements/o:Sets/o:Set", NS)
    assert [(s.get("Name"), s.get("MinVersion")) for s in sets] == [("WordApi", "1.4")]
    tab = root.find(".//ov:ExtensionPoint[@xsi:type='PrimaryCommandSurface']/ov:OfficeTab", NS)
    assert tab.get("id") == "TabHome"
    button = tab.find("ov:Group/ov:Control", NS)
    assert button.get(f"{{{NS['xsi']}}}type") == "Button"
    action = button.find("ov:Action", NS)
    assert action.get(f"{{{NS['xsi']}}}type") == "ShowTaskpane"
    resid = action.find("ov:SourceLocation", NS).get("resid")
    url = root.find(f".//bt:Url[@id='{resid}']", NS).get("DefaultValue")
    assert url == f"{DEFAULT_URL}/taskpane/"


def test_icons_are_real_pngs_of_the_sizes_named(schema):
    root = _doc(render_manifest(DEFAULT_URL))
    named = {e.get("DefaultValue") for e in root.iter() if str(e.get("DefaultValue", "")).endswith(".png")}
    assert {u.rsplit("/", 1)[1] for u in named} == {"icon-16.png", "icon-32.png", "icon-64.png", "icon-80.png"}
    for size in (16, 32, 64, 80):
        with Image.open(ROOT / "static" / "assets" / f"icon-{size}.png") as im:
            assert im.format == "PNG" and im.size == (size, size)


@pytest.mark.parametrize("breakage", ["permissions", "provider", "host-order"])
def test_an_invalid_manifest_is_rejected(schema, breakage):
    text = render_manifest(DEFAULT_URL)
    if breakage == "permissions":
        text = text.replace("<Permissions>ReadWriteDocument</Permissions>", "<Permissions>ReadEverything</Permissions>")
    elif breakage == "provider":
        text = text.replace("<ProviderName>LEDGER</ProviderName>", "")
    else:  # Hosts must come before DefaultSettings
        hosts = '  <Hosts>\n    <Host Name="Document"/>\n  </Hosts>\n'
        text = text.replace(hosts, "").replace("  <Permissions>", hosts + "  <Permissions>")
    assert not schema.validate(_doc(text))


def test_build_script_refuses_a_non_https_url(tmp_path):
    out = tmp_path / "m.xml"
    bad = subprocess.run([sys.executable, str(ROOT / "manifest" / "build_manifest.py"), "--url", "http://example.org",
                          "--out", str(out)], capture_output=True, text=True)
    assert bad.returncode == 2 and "must be an https:// URL" in bad.stderr and not out.exists()
    good = subprocess.run([sys.executable, str(ROOT / "manifest" / "build_manifest.py"), "--out", str(out)],
                          capture_output=True, text=True, env={"LEDGER_PUBLIC_URL": "https://word.example.net:8443",
                                                               "PATH": "/usr/bin:/bin"})
    assert good.returncode == 0, good.stderr
    assert 'SourceLocation DefaultValue="https://word.example.net:8443/taskpane/"' in out.read_text()


def test_backend_serves_the_pane_the_manifest_and_the_extension(tmp_path, schema):
    from addin_backend.api import create_app

    static = tmp_path / "static"
    shutil.copytree(ROOT / "static", static, ignore=shutil.ignore_patterns("ledger.oxt"))
    names = build_oxt(static / "ledger.oxt")
    assert set(REQUIRED) <= set(names) and names[0] == "META-INF/manifest.xml"
    manifest = tmp_path / "manifest.xml"
    manifest.write_text(render_manifest(DEFAULT_URL))
    client = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "STATIC_DIR": str(static),
                         "MANIFEST_PATH": str(manifest)}).test_client()
    with client.get("/taskpane/") as pane:
        assert pane.status_code == 200
        html = pane.get_data(as_text=True)
    assert '<script src="https://appsforoffice.microsoft.com/lib/1/hosted/office.js"></script>' in html
    assert 'src="../static/js/main.js"' in html
    with client.get("/static/js/main.js") as js:
        assert js.status_code == 200 and "TaskPane" in js.get_data(as_text=True)
    with client.get("/manifest.xml") as served:
        assert served.status_code == 200
        schema.assertValid(etree.fromstring(served.data))
    with client.get("/static/ledger.oxt") as oxt:
        assert oxt.status_code == 200 and oxt.data == (static / "ledger.oxt").read_bytes()
