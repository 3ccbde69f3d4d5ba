"""Tool schemas exported from the one registry (``Game.tools()``) in every format that matters.

- :func:`to_json_schema` - plain JSON Schema per tool (``name``, ``description``, ``parameters``),
  in the form a generic client fills (:func:`form_schema`)
- :func:`to_openai` - OpenAI Chat Completions function tools, strict mode
- :func:`to_openai_responses` - OpenAI Responses API function tools (flat), strict mode
- :func:`to_anthropic` - Anthropic Messages tools (``input_schema``)
- :func:`to_mcp` - MCP ``tools/list`` entries (``inputSchema``, the wire's camelCase), in the
  form a generic client fills (:func:`form_schema`)

Strict mode (OpenAI) needs every property required, optional ones nullable
(``anyOf [..., {"type": "null"}]``), ``additionalProperties: false`` on every
object and no ``default``; a ``null`` argument then means "use the default", which
:func:`gm.core.tools.parse_args` honours.

Generic clients (the MCP Inspector, form-building UIs) read each property's ``type`` to pick an
input widget; a property with no top-level ``type`` (pydantic's ``anyOf [T, null]`` for an optional
argument) becomes a text box and its value arrives as a string.  So the MCP and plain JSON Schema
exports declare an optional argument by its own type and leave it out of ``required``, and inline
local ``$ref`` s (:func:`form_schema`).  No SDK is imported here.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from gm.core.tools import ToolSpec

FORMATS = ("openai", "openai-responses", "anthropic", "mcp", "json")


def _strip_titles(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip_titles(v) for k, v in node.items() if k != "title" or not isinstance(v, str)}
    if isinstance(node, list):
        return [_strip_titles(v) for v in node]
    return node


def json_schema(spec: ToolSpec) -> dict[str, Any]:
    """The argument model's JSON Schema (titles dropped; objects closed)."""
    schema: dict[str, Any] = _strip_titles(spec.args.model_json_schema())
    schema.pop("description", None)  # the model docstring; the tool carries the description
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})
    schema["additionalProperties"] = False
    return schema


def _nullable(schema: dict[str, Any]) -> bool:
    if schema.get("type") == "null" or (isinstance(schema.get("type"), list) and "null" in schema["type"]):
        return True
    return any(isinstance(s, dict) and _nullable(s) for s in schema.get("anyOf", ()))


def form_schema(spec: ToolSpec) -> dict[str, Any]:
    """JSON Schema in the form a generic client can fill (MCP ``inputSchema``, ``gm tools --format
    json``): every property has its own top-level ``type``.  An optional argument (not required)
    declared ``anyOf [T, null]`` becomes ``T`` itself (the argument is simply left out; gm still
    takes ``null`` as "the default"), a required nullable one ``type: [T, "null"]``; local ``$ref`` s
    are inlined, so no ``$defs`` remain.  What the argument check accepts is unchanged."""
    root = json_schema(spec)
    out = _form(root, root, 0)
    out.pop("$defs", None)
    out.pop("definitions", None)
    return out


def _deref(node: dict[str, Any], root: dict[str, Any], depth: int) -> dict[str, Any]:
    ref = node.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/") or depth > 20:
        return node
    target: Any = root
    for part in ref.removeprefix("#/").split("/"):
        target = target[part]
    rest = {k: v for k, v in node.items() if k != "$ref"}
    return _deref({**copy.deepcopy(target), **rest}, root, depth + 1)


def _non_null(schema: dict[str, Any]) -> dict[str, Any] | None:
    """``T`` of ``anyOf [T, null]`` (``None`` for any other shape)."""
    alts = schema.get("anyOf")
    if not isinstance(alts, list) or len(alts) != 2:
        return None
    rest = [a for a in alts if not (isinstance(a, dict) and a.get("type") == "null")]
    return rest[0] if len(rest) == 1 and isinstance(rest[0], dict) else None


def _form(node: dict[str, Any], root: dict[str, Any], depth: int) -> dict[str, Any]:
    node = _deref(dict(node), root, depth)
    props = node.get("properties")
    if isinstance(props, dict):
        required = set(node.get("required", ()))
        new_props = {}
        for name, sub in props.items():
            sub = _deref(dict(sub), root, depth + 1)
            inner = _non_null(sub)
            if inner is not None:
                extra = {k: v for k, v in sub.items() if k != "anyOf" and not (k == "default" and v is None)}
                sub = {**_deref(dict(inner), root, depth + 1), **extra}
                if name in required and isinstance(sub.get("type"), str):
                    sub["type"] = [sub["type"], "null"]
            new_props[name] = _form(sub, root, depth + 1)
        node["properties"] = new_props
    if isinstance(node.get("items"), dict):
        node["items"] = _form(node["items"], root, depth + 1)
    for key in ("anyOf", "allOf", "oneOf"):
        if isinstance(node.get(key), list):
            node[key] = [_form(s, root, depth + 1) if isinstance(s, dict) else s for s in node[key]]
    return node


#: keywords OpenAI strict mode rejects (ranges and patterns it supports)
OPENAI_UNSUPPORTED = frozenset({"minLength", "maxLength"})
#: keywords Anthropic strict tool use rejects
ANTHROPIC_UNSUPPORTED = frozenset({"minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})


def strict_schema(spec: ToolSpec, *, unsupported: frozenset[str] = OPENAI_UNSUPPORTED) -> dict[str, Any]:
    """JSON Schema in strict form (keywords in ``unsupported`` are dropped; the
    argument check still enforces them)."""
    root = json_schema(spec)
    return _strict(copy.deepcopy(root), root, unsupported)


def _strict(node: dict[str, Any], root: dict[str, Any], unsupported: frozenset[str]) -> dict[str, Any]:
    for key in ("$defs", "definitions"):
        defs = node.get(key)
        if isinstance(defs, dict):
            for name, sub in defs.items():
                defs[name] = _strict(sub, root, unsupported)
    if "$ref" in node and len(node) > 1:
        ref = node.pop("$ref")
        target: Any = root
        for part in ref.removeprefix("#/").split("/"):
            target = target[part]
        node = {**copy.deepcopy(target), **node}
    node.pop("default", None)
    for key in unsupported & node.keys():
        del node[key]
    props = node.get("properties")
    if node.get("type") == "object" or isinstance(props, dict):
        node["additionalProperties"] = False
    if isinstance(props, dict):
        required = set(node.get("required", ()))
        new_props = {}
        for name, sub in props.items():
            sub = _strict(sub, root, unsupported)
            if name not in required and not _nullable(sub):
                desc = sub.pop("description", None)
                sub = {"anyOf": [sub, {"type": "null"}]}
                if desc:
                    sub["description"] = desc
            new_props[name] = sub
        node["properties"] = new_props
        node["required"] = list(new_props)
    if isinstance(node.get("items"), dict):
        node["items"] = _strict(node["items"], root, unsupported)
    for key in ("anyOf", "allOf"):
        if isinstance(node.get(key), list):
            node[key] = [_strict(s, root, unsupported) for s in node[key]]
    return node


def to_json_schema(tools: Iterable[ToolSpec]) -> list[dict[str, Any]]:
    """Plain JSON Schema: ``[{"name", "description", "kind", "parameters"}]``."""
    return [{"name": t.name, "description": t.description, "kind": t.kind, "parameters": form_schema(t)} for t in tools]


def to_openai(tools: Iterable[ToolSpec], *, strict: bool = True) -> list[dict[str, Any]]:
    """OpenAI Chat Completions ``tools=`` entries (as ``openai.pydantic_function_tool`` makes them)."""
    out = []
    for t in tools:
        fn: dict[str, Any] = {"name": t.name, "description": t.description}
        fn["parameters"] = strict_schema(t) if strict else json_schema(t)
        fn["strict"] = strict
        out.append({"type": "function", "function": fn})
    return out


def to_openai_responses(tools: Iterable[ToolSpec], *, strict: bool = True) -> list[dict[str, Any]]:
    """OpenAI Responses API ``tools=`` entries: flat ``{"type": "function", "name", ...}``."""
    return [{"type": "function", **entry["function"]} for entry in to_openai(tools, strict=strict)]


def to_anthropic(tools: Iterable[ToolSpec], *, strict: bool = False) -> list[dict[str, Any]]:
    """Anthropic Messages ``tools=`` entries: ``{"name", "description", "input_schema"}``.

    ``strict=True`` sends the strict-form schema with ``"strict": true`` (strict tool use).
    """
    out = []
    for t in tools:
        entry: dict[str, Any] = {"name": t.name, "description": t.description}
        entry["input_schema"] = strict_schema(t, unsupported=ANTHROPIC_UNSUPPORTED) if strict else json_schema(t)
        if strict:
            entry["strict"] = True
        out.append(entry)
    return out


def to_mcp(tools: Iterable[ToolSpec]) -> list[dict[str, Any]]:
    """MCP ``tools/list`` entries as on the wire: ``{"name", "description", "inputSchema"}``."""
    return [{"name": t.name, "description": t.description, "inputSchema": form_schema(t)} for t in tools]


EXPORTERS: dict[str, Callable[[Iterable[ToolSpec]], list[dict[str, Any]]]] = {
    "openai": to_openai,
    "openai-responses": to_openai_responses,
    "anthropic": to_anthropic,
    "mcp": to_mcp,
    "json": to_json_schema,
}


def export(tools: Iterable[ToolSpec], fmt: str) -> list[dict[str, Any]]:
    """Tools in format ``fmt`` (one of :data:`FORMATS`); ``ValueError`` otherwise."""
    try:
        exporter = EXPORTERS[fmt]
    except KeyError:
        raise ValueError(f"unknown schema format {fmt!r}; formats: {', '.join(FORMATS)}") from None
    return exporter(tools)
