"""Each topic chapter's logic, one module per chapter, so that it is tested without a notebook.

A topic module `benchbook.topics.<chapter>` offers:

- `analyse(p) -> Result`: `p` is what `chapter.setup` returned (checked parameters, resolved paths);
  the Result (a dataclass of the module's own) holds the tidy tables and numbers, and its claims
  (`wording.ledger(...)`);
- `page(result) -> Page`: every text, figure and table the chapter shows, drawn from the Result.

The notebook is then calls (its prose refers to the glued names):

    p = setup("<chapter>", globals())
    result = <chapter>.analyse(p)
    <chapter>.page(result).glue()

and a later cell may `page.show("<table>")` where the prose places a table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchbook import config
from benchbook.claims import Ledger


@dataclass
class Page:
    """What a chapter glues, by name: `texts` as plain text, `markdown` as Markdown (a value holding
    a code span or a link), `figures` through the book's `glue_figure`, and `tables` as callables
    that display one table where a cell asks for it (a figure None is not drawn: its name is glued
    empty, and its caption says why). The ledger's claims, bottom line and exercises are glued with
    them."""

    ledger: Ledger
    texts: dict[str, str] = field(default_factory=dict)
    markdown: dict[str, str] = field(default_factory=dict)
    figures: dict[str, object] = field(default_factory=dict)
    tables: dict[str, Callable[[], None]] = field(default_factory=dict)
    #: withheld claims go in the page's folded list (`presentation.placement`), so their own glue is empty
    fold_withheld: bool = False
    #: the bottom line's claim ids, where the chapter picks them from its result (else its declaration's `Box.leads`)
    box: list[str] | None = None

    def glue(self) -> None:
        from benchbook.presentation import bottom_line, exercises, outputs, wording
        from benchbook.presentation.placement import undecided
        from benchbook.presentation.plotting import glue_figure

        # a claim the box states is not stated again where the prose glues it: there it says what the box leaves
        boxed = {c["id"] for c in bottom_line.pick(self.ledger, self.box)}
        left = bottom_line.rest(self.ledger, self.box)
        said = {i: left.get(i, "") for i in boxed}
        if self.fold_withheld:  # a claim the input cannot decide is said in the folded list, not where it
            # would stand; one withheld as a finding ("no instance found": none of the file's rows shows it)
            # is what the file shows, and stays in place, as `placement.in_place` keeps it
            for c in self.ledger.claims:
                text = said.get(c.id, c.text) if c.applicable and not undecided(c) else ""
                outputs.glue(f"claim_{c.id}", text, markdown=True)
        else:
            wording.glue_claims(self.ledger, said)
        bottom_line.glue_box(self.ledger, self.box)
        exercises.glue_exercises(self.ledger)
        for name, text in self.texts.items():
            outputs.glue(name, text)
        for name, text in self.markdown.items():
            outputs.glue(name, text, markdown=True)
        for name, fig in self.figures.items():  # a figure with no data is not drawn: its caption says why
            if fig is None:  # an empty Markdown would print its repr; a comment prints nothing
                outputs.glue(name, "<!-- not drawn -->", markdown=True)
            else:
                glue_figure(name, fig)

    def show(self, name: str) -> None:
        """Display table `name` where the cell asks for it: a callable that returns its table (a
        Styler) has it displayed here; one that displays its own returns None. Returning the Styler
        from a cell whose last line is `pg.show(...)` displayed nothing: the attention and
        quantization chapters lost every such table."""
        from benchbook.presentation import outputs

        table = self.tables[name]()
        if isinstance(table, (list, tuple)):  # e.g. what `display` returned for each: it would print [None, None]
            raise TypeError(f"table {name!r}: its callable displays its tables itself or returns one, not a list")
        if table is not None:
            outputs.display(table)

    def publish(self) -> None:
        """Emit the ledger as a cell output (`wording.publish`), for the build and `benchbook run`."""
        from benchbook.presentation import wording

        wording.publish(self.ledger)


def write_table(table, where: str) -> None:
    """Write a chapter's full table as CSV where its `csv_out` parameter says (relative to the
    project; "" for nowhere), for a reader who wants every row the page summarises."""
    if where:
        config.atomic_write(
            Path(where) if Path(where).is_absolute() else config.PROJ_ROOT / where, table.to_csv(index=False)
        )


def written(chapter: str, where: str) -> str:
    """The chapter's sentence saying where `write_table` put the full table: the path as the reader
    gave it (a file name only, where it was absolute, so no machine path reaches a page), or nothing."""
    from benchbook.presentation import wording

    if not where:
        return ""
    return wording.sentence(chapter, "written", path=Path(where).name if Path(where).is_absolute() else where)
