"""The board app's HTML (``ui://gm/board``): one document with everything inline, no network, the page's
own board module in it, and the small bundler that inlines it refusing what it cannot take."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from js_tools import NODE, js_tools

from gm.mcp_server import app
from gm.mcp_server.app import BundleError, bundle


def script_of(html: str) -> str:
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, flags=re.S)
    assert len(scripts) == 1 and scripts[0][0] == ' type="module"', [s[0] for s in scripts]
    return scripts[0][1]


def test_one_document_with_everything_inline() -> None:
    html = app.html()
    assert html.startswith("<!doctype html>") and html == app.html()
    assert not re.search(r"<(link|img|iframe|object|embed)\b", html) and not re.search(r"\b(src|href)\s*=", html)
    script = script_of(html)
    for reaching in ("fetch(", "XMLHttpRequest", "WebSocket", "EventSource", "import(", "sendBeacon", "http://", "https://"):
        hits = [line for line in script.splitlines() if reaching in line and "http://www.w3.org/2000/svg" not in line]
        assert not hits, (reaching, hits[:3])
    static = Path(app.__file__).resolve().parents[1] / "web" / "static"
    for module in ("board.js", *(["builder.js"] if (static / "builder.js").is_file() else [])):
        for line in (static / module).read_text(encoding="utf-8").splitlines():  # the page's modules, as they are
            if not line.startswith(("import ", "export {")):
                assert line.removeprefix("export ") in script, (module, line)
    builder = "__gm_web_static_builder_js" if (static / "builder.js").is_file() else "null"
    assert f"const GM_BUILDER = {builder};" in script
    assert "const GM = " in script and '"viewTool": "app_view"' in script
    style = re.findall(r"<style>(.*?)</style>", html, flags=re.S)
    assert len(style) == 1 and "--color-background-primary" in style[0]
    if (static / "board.css").is_file():
        assert (static / "board.css").read_text(encoding="utf-8") in style[0]
    else:  # the page's board rules only, never its layout
        rules = [line for line in (static / "style.css").read_text(encoding="utf-8").splitlines() if line.startswith("svg.board")]
        assert rules and all(line in style[0] for line in rules)
        assert "#chat" not in style[0] and "header {" not in style[0]


def test_the_script_is_valid_javascript(tmp_path: Path) -> None:
    js_tools()
    path = tmp_path / "view.mjs"
    path.write_text(script_of(app.html()), encoding="utf-8")
    p = subprocess.run([str(NODE), "--check", str(path)], capture_output=True, text=True, timeout=60, check=False)
    assert p.returncode == 0, p.stderr


def modules(files: dict[str, str]) -> str:
    return bundle("a/main.js", read=lambda path: files[path])


def test_the_bundler_inlines_named_imports_and_exports() -> None:
    out = modules({
        "a/main.js": 'import { one, two as deux } from "../b/lib.js";\nimport * as lib from "../b/lib.js";\nexport const three = one() + deux + lib.two;\n',
        "b/lib.js": 'export function one() { return 1; }\nconst hidden = 2;\nexport { hidden as two };\nexport class Thing {}\n',
    })
    assert out.index("// b/lib.js") < out.index("// a/main.js") and out.count("// b/lib.js") == 1
    assert "const { one, two: deux } = __gm_b_lib_js;" in out and "const lib = __gm_b_lib_js;" in out
    assert "return { one, two: hidden, Thing };" in out and "return { three };" in out
    assert "export" not in out.replace("// ", "").replace("__gm_", "")  # every export is gone
    assert "function one()" in out and "class Thing {}" in out


@pytest.mark.parametrize("source", [
    'export default function f() {}\n',
    'import thing from "./x.js";\n',
    'import * as all from "./x.js"; export const y = 1;\n',
    'const m = await import("./x.js");\n',
    'export * from "./x.js";\n',
])
def test_the_bundler_refuses_what_it_cannot_take(source: str) -> None:
    with pytest.raises(BundleError):
        modules({"a/main.js": source, "a/x.js": "export const x = 1;\n", "a/y.js": "export const y = 1;\n"})


def test_the_bundler_refuses_a_cycle() -> None:
    with pytest.raises(BundleError, match="cycle"):
        modules({"a/main.js": 'import { b } from "./b.js";\n', "a/b.js": 'import { m } from "./main.js";\nexport const b = 1;\n'})
