"""Export a game for any chatbot: quick start, rules, glossary, session template, bundle.

Game-agnostic: the documents are jinja2 markdown templates in
``rules_md/templates/<game>/`` rendered with the ruleset, the game's ``rules_index`` and
the game's own :meth:`Game.export_context` (worked examples computed by the engine).
"""

from gm.export.render import (
    BUNDLE_FILES,
    DOCS,
    ExportError,
    render_all,
    render_doc,
    rules_md_dir,
    rules_md_path,
    slug,
    template_dir,
    write_bundle,
)

__all__ = [
    "BUNDLE_FILES",
    "DOCS",
    "ExportError",
    "render_all",
    "render_doc",
    "rules_md_dir",
    "rules_md_path",
    "slug",
    "template_dir",
    "write_bundle",
]
