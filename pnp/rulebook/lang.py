"""The two editions of a rulebook: Japanese (``ja``) and English (``en``).

A :class:`Lang` carries what generated text needs in one language: words
(counters, headings of generated tables), punctuation (``・`` or ``, ``,
``〜`` or ``–``) and the English names of the Japanese values that appear in
the card data (icons, suits, land kinds…). Those names are data, not code:
they live in ``rulebooks/<slug>.terms.toml`` beside the rules text, so
generic code never names a game's terms.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from pnp.errors import PnpError

#: Editions we export, in the order ``pnp build`` writes them.
LANGS: tuple[str, ...] = ("ja", "en")

_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")


def has_japanese(text: str) -> bool:
    """True if ``text`` holds kana, kanji or full-width forms."""
    return bool(_JAPANESE.search(text))


def check_lang(code: str) -> str:
    """``code`` normalised (``JA`` → ``ja``), or a one-line :class:`PnpError`."""
    key = str(code).strip().lower()
    if key not in LANGS:
        raise PnpError(f"unknown rulebook language {code!r}: expected one of {', '.join(LANGS)}")
    return key


@dataclass(frozen=True)
class Lang:
    """Words and punctuation of one edition, and the data's English terms."""

    code: str
    #: Japanese data value → English (used by the English edition only).
    terms: Mapping[str, str] = field(default_factory=dict)
    #: Where the terms came from (for error messages).
    terms_path: Path | None = None

    @property
    def ja(self) -> bool:
        """True for the Japanese edition."""
        return self.code == "ja"

    def t(self, ja: str, en: str) -> str:
        """``ja`` or ``en``, whichever this edition is written in."""
        return ja if self.ja else en

    # -- punctuation ---------------------------------------------------------

    @property
    def list_sep(self) -> str:
        """Between listed values: ``・`` or ``, ``."""
        return "・" if self.ja else ", "

    @property
    def range_sep(self) -> str:
        """Between the ends of a range: ``〜`` or ``–``."""
        return "〜" if self.ja else "–"

    def choice(self, items: list[str] | tuple[str, ...]) -> str:
        """Alternatives: ``3・4・5`` or ``3, 4 or 5``."""
        items = [str(i) for i in items]
        if self.ja or len(items) < 2:
            return self.list_sep.join(items)
        return ", ".join(items[:-1]) + " or " + items[-1]

    @property
    def colon(self) -> str:
        """A label's colon: ``：`` or ``: ``."""
        return "：" if self.ja else ": "

    # -- data values -----------------------------------------------------------

    def term(self, value: Any) -> str:
        """A data value as this edition prints it.

        Japanese prints the value as it is. English looks a Japanese value
        up in the terms table and fails (naming the file to edit) when it is
        missing, so no untranslated word reaches the English book.
        """
        text = value_text(value, self)
        if self.ja or not has_japanese(text):
            return text
        if text in self.terms:
            return self.terms[text]
        where = self.terms_path or "rulebooks/<slug>.terms.toml"
        raise PnpError(f"no English for the data value {text!r}: add it under [en] in {where}")

    def unit(self, kind: str, count: int) -> str:
        """``count`` copies of a component of ``kind``: ``13枚``, ``10個``, ``13 cards``."""
        if self.ja:
            return f"{count}{'個' if kind in ('token', 'die') else '枚'}"
        words = {"token": ("token", "tokens"), "die": ("die", "dice"),
                 "board": ("board", "boards")}
        one, many = words.get(kind, ("card", "cards"))
        return f"{count} {one if count == 1 else many}"

    def players(self, low: int, high: int) -> str:
        """``3〜4人`` / ``3–4 players`` (``1人`` / ``1 player``)."""
        if self.ja:
            return f"{low}人" if low == high else f"{low}〜{high}人"
        if low == high:
            return f"{low} player" + ("" if low == 1 else "s")
        return f"{low}–{high} players"


def value_text(value: Any, lang: Lang | None = None) -> str:
    """A cell value as text (booleans as あり/なし or yes/no)."""
    if isinstance(value, bool):
        if lang is not None and not lang.ja:
            return "yes" if value else "no"
        return "あり" if value else "なし"
    return str(value)


def terms_file(source: Path) -> Path:
    """The terms table beside a rules text: ``fortuna.md`` → ``fortuna.terms.toml``."""
    name = source.name.split(".")[0]
    return source.with_name(f"{name}.terms.toml")


def load_lang(code: str, source: Path | None) -> Lang:
    """The edition ``code`` with the terms table beside ``source`` (if there is one)."""
    code = check_lang(code)
    if code == "ja" or source is None:
        return Lang(code)
    path = terms_file(source)
    if not path.is_file():
        return Lang(code, {}, path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PnpError(f"cannot read the terms table: {exc}", path=path) from None
    table = raw.get(code, {})
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise PnpError(f"[{code}] must map each Japanese value to a string", path=path)
    return Lang(code, {str(k): v for k, v in table.items()}, path)
