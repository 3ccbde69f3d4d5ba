"""Export a game for any chatbot: quick start, rules, glossary, session template, bundle.

Game-agnostic: the documents are jinja2 markdown templates in the ``templates/`` folder of
the game's package, rendered with the ruleset, the game's ``rules_index`` and the game's
own :meth:`Game.export_context` (worked examples computed by the engine).
"""

from gm.export.render import (
    BUNDLE_FILES,
    DOCS,
    ExportError,
    render_all,
    render_doc,
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
    "slug",
    "template_dir",
    "write_bundle",
]
