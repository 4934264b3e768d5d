"""Every sentence as a native writes it: one voice, no English left, counts agree.

Three checks on every msgstr of the nl, de, fr and es catalogs:
- the form of address is the language's chosen voice (GLOSSARY.md §12: nl
  *je*, de *du*, fr *vous*, es *usted*); a form of the other voice fails;
- no English word is left in a translation: the words of the English msgids,
  minus those a language writes the same and the loanwords GLOSSARY.md §14
  allows;
- a msgid that counts a noun ("%(num)d tables") is an ngettext entry, so each
  language chooses its own plural form.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

import pytest
from babel.messages.catalog import Catalog, Message

from scorekeeper import catalogs
from scorekeeper.i18n import TRANSLATIONS

TRANSLATED = ["nl", "de", "fr", "es"]

PLACEHOLDER = catalogs.PLACEHOLDER


def forms(message: Message) -> list[str]:
    """Return a message's translated forms, each placeholder a number ("9")."""
    strings = message.string if isinstance(message.string, tuple) else (
        message.string,)
    return [PLACEHOLDER.sub("9", form) for form in strings if form]


def sentences(catalog: Catalog) -> Iterator[tuple[str, str]]:
    """Yield (msgid, translated form) for every translated entry."""
    for message in catalog:
        if message.id:
            for form in forms(message):
                yield catalogs._name(message), form


# --- one voice ---

SPANISH_TU_IMPERATIVES = (
    "abre", "añade", "borra", "cambia", "comprueba", "confirma", "deja", "elige",
    "envia", "escanea", "escribe", "espera", "haz", "intenta", "introduce",
    "mira", "pon", "prueba", "pulsa", "quita", "recarga", "revisa", "sujeta",
    "toca", "usa", "vuelve",
)
"""Imperatives of the verbs the app asks for, in their tú form, unaccented (the
usted forms are abra, añada, …). Alone they are also the third person ("Abre
la aplicación", "usa la más cercana"), so a bare one counts only as the
second of two orders ("revísala y confirma"); with a pronoun attached
("revísala", usted "revísela") it is always tú."""

CLITICS = ("la", "las", "lo", "los", "le", "les", "me", "nos")

OTHER_VOICE: dict[str, list[re.Pattern[str]]] = {
    # Dutch *u*/*uw*; "%(h)d u" is an hour, a lone "U" a colour letter.
    "nl": [re.compile(r"(?<!\d )(?<!\w)[Uu]w?(?!\w)(?!$)")],
    # German *Sie/Ihnen/Ihr…* capitalised inside a sentence (at its start,
    # "Sie" may be "they"); *ihr/euch/euer* (the plural you) anywhere.
    "de": [
        re.compile(r"(?<=[\w,] )(Sie|Ihnen|Ihre?[mnrs]?)\b"),
        re.compile(r"\b(ihr|euch|euer|eure[mnrs]?)\b"),
    ],
    # French *tu/toi/ton/ta/tes*.
    "fr": [re.compile(r"(?<!\w)([Tt]u|[Tt]oi|[Tt]on|[Tt]a|[Tt]es)(?!\w)")],
    # Spanish *tú* pronouns, a tú imperative with a pronoun attached, and a
    # bare one after "y".
    "es": [
        re.compile(r"(?<!\w)([Tt]ú|[Tt]us?|[Tt]e|[Tt]i|contigo)(?!\w)"),
        re.compile(
            r"(?<!\w)(?:" + "|".join(SPANISH_TU_IMPERATIVES) + r")(?:"
            + "|".join(CLITICS) + r")(?!\w)", re.I,
        ),
        re.compile(r"\by (" + "|".join(SPANISH_TU_IMPERATIVES) + r")(?!\w)"),
    ],
}
"""Per language, what the voice it did not choose looks like (Spanish is
matched without its accents)."""


def _unaccented(text: str) -> str:
    return "".join(
        ch for ch in unicodedata.normalize("NFD", text)
        if not unicodedata.combining(ch) or ch == "\u0303"  # keep ñ
    )


def other_voice(lang: str, sentence: str) -> list[str]:
    """Return the forms of address in a sentence that are not lang's voice."""
    if lang == "es":
        sentence = unicodedata.normalize("NFC", _unaccented(sentence))
    return [m.group() for p in OTHER_VOICE[lang] for m in p.finditer(sentence)]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_sentence_speaks_to_the_player_in_one_voice(lang: str) -> None:
    faults = [
        f"{found} in {sentence!r} ({msgid!r})"
        for msgid, sentence in sentences(catalogs.read(lang))
        if (found := other_voice(lang, sentence))
    ]
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize(("lang", "sentence"), [
    ("de", "Geben Sie dem Abend einen Namen."),
    ("de", "Scannen Sie diesen Code mit einem Handy."),
    ("de", "Spielt ihr gemütlich, lasst es so."),
    ("nl", "De datum schrijft u als jaar-maand-dag."),
    ("nl", "U hebt de beheerderspincode ingevoerd."),
    ("nl", "Kies uw kleur."),
    ("es", "Una ficha leída de la foto: revísala y confirma."),
    ("es", "Elígela y confirma."),
    ("es", "Si tú quieres, te lo explico."),
    ("fr", "Tu peux jouer."),
])
def test_the_voice_check_catches_the_other_voice(lang: str, sentence: str) -> None:
    assert other_voice(lang, sentence)


@pytest.mark.parametrize(("lang", "sentence"), [
    ("de", "Sie liegen schon auf dem Spielfeld."),  # "they", at the start
    ("de", "Gib dem Abend einen Namen."),
    ("nl", "9 u 9 min"),  # "%(h)d u %(m)02d min": an hour
    ("nl", "U"),  # the colour letter of bruin
    ("nl", "Je hebt de beheerderspincode ingevoerd."),
    ("es", "Una ficha leída de la foto: revísela y confirme."),
    ("es", "Le toca a Ana."),
    ("es", "La mesa confirma la jugada."),
    ("es", "Hágala más de cerca; ábrala desde el historial."),
    ("es", "Abre la aplicación BG Stats."),  # what a button does
    ("es", "No tiene voz en francés: usa la más cercana."),
    ("fr", "Vous pouvez jouer la table."),
])
def test_the_voice_check_leaves_the_chosen_voice_alone(
    lang: str, sentence: str
) -> None:
    assert other_voice(lang, sentence) == []


# --- no English left ---

GLOSSARY = (TRANSLATIONS / "GLOSSARY.md").read_text(encoding="utf-8")
WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
SHARED_ROW = re.compile(r"^\| (all|nl|de|fr|es) \| ([^|]+) \|$", re.M)


def shared_words() -> dict[str, set[str]]:
    """Per language, the words GLOSSARY.md §14 lets it share with English."""
    section = GLOSSARY[GLOSSARY.index("## 14."):]
    found: dict[str, set[str]] = {}
    for lang, words in SHARED_ROW.findall(section):
        found.setdefault(lang, set()).update(
            w.lower() for w in re.findall(r"`([^`]+)`", words))
    return found


def english_words() -> set[str]:
    """Every word of three letters or more in the English msgids, lower case."""
    found: set[str] = set()
    for message in catalogs.read("en"):
        for msgid in (message.id if isinstance(message.id, tuple) else
                      (message.id,)):
            found.update(w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", msgid))
                         if len(w) >= 3)
    return found


ENGLISH = english_words()
SHARED = shared_words()


QUOTED = re.compile(
    r"'[^']*'|\"[^\"]*\"|“[^”]*”|«[^»]*»|\{[^}]*\}|--\w+|\S*_\S*"
    r"|\S*(?:://|\w[/.=]\w)\S*"
)
"""What a sentence quotes as the program spells it (a key, a value, a field, a
file's format, a command's option, an address): never translated."""


def english_left(lang: str, sentence: str, msgid: str = "") -> list[str]:
    """Return the English words of a translated sentence that lang does not share
    (acronyms such as PDF, quoted names, and the JSON fields that an API
    message, lower case like its msgid, names as the msgid does, left aside)."""
    fields = set(WORD.findall(msgid)) if msgid[:1].islower() else set()
    return [
        w for w in WORD.findall(QUOTED.sub(" ", sentence))
        if w.lower() in ENGLISH and not w.isupper() and w not in fields
        and w.lower() not in SHARED.get(lang, set()) | SHARED["all"]
    ]


def entries(lang: str) -> Iterator[tuple[str, str]]:
    """Yield (msgid, translated form) with the msgid as its English sentence."""
    for message in catalogs.read(lang):
        if message.id:
            msgid = catalogs._first(message.id)
            for form in forms(message):
                yield msgid, form


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_english_word_is_left_in_a_translation(lang: str) -> None:
    faults = [
        f"{found} in {sentence!r} ({msgid!r})"
        for msgid, sentence in entries(lang)
        if (found := english_left(lang, sentence, msgid))
    ]
    assert not faults, "\n".join(faults)


def test_the_english_check_catches_a_word_left_untranslated() -> None:
    assert english_left(
        "es", "el ordenador donde funciona el scorekeeper") == ["scorekeeper"]
    assert english_left("de", "Das Spiel ist finished.") == ["finished"]
    assert english_left("es", "el ordenador donde funciona el marcador") == []


# --- counted nouns have plural forms ---

COUNTED = re.compile(
    r"(?<!at most )(?<!at least )(?<!to )"
    r"%\(\w+\)d (?:new |more |wrong )?"
    r"(tiles?|cubes?|moves?|games?|players?|tables?|seconds?|points?|copies"
    r"|colours?|rounds?|turns?)\b",
    re.I,
)
"""A count and the noun it counts. A limit ("at most %(max)d players") is a
constant of the set or the server, never one, so it may stay a plain msgid; so
may a measure ("%(height)d pixels", "%(n)d s")."""


def counts_a_noun(msgid: str) -> bool:
    """Return whether a msgid puts a number before the noun it counts."""
    return COUNTED.search(msgid) is not None


def test_every_counted_noun_is_an_ngettext_entry() -> None:
    faults = [
        catalogs._name(m) for m in catalogs.extract()
        if m.id and isinstance(m.id, str) and counts_a_noun(m.id)
    ]
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize(("msgid", "counted"), [
    ("%(num)d tables started.", True),
    ("Too many wrong game PINs: wait %(n)d seconds, then try again.", True),
    ("The photo shows %(count)d new tiles, more than one move can place.", True),
    ("At most %(num)d players at once.", False),
    ("Move %(n)d corrected; later moves were rescored.", False),
    ("%(h)d h %(m)02d min", False),
])
def test_the_plural_check_knows_a_count_from_a_number(
    msgid: str, counted: bool
) -> None:
    assert counts_a_noun(msgid) is counted
