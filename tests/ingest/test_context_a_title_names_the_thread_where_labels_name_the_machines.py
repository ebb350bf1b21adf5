"""A copied thread's title names what the thread is about (`llama2 and GPU execution on Nvidia Jetson`); where
the rows read sit in a block under a label of its own (`HP:`) and the file's labels name machines (`Jetston
Orin Nano 8GB:` over another block), the nearest label, not the title, says whose the rows are, so the title's
machine is no fact of theirs (ollama issue 1289). A title naming the only device of a file whose blocks no
label names a machine keeps it."""

from __future__ import annotations

from benchbook.ingest import context

TIMINGS = "llama_print_timings:        eval time =   37202.16 ms /   127 runs   (  292.93 ms per token,     3.41 tokens per second)"


def _machines(lines: list[str], read: list[int]) -> list[tuple[str, str, int]]:
    ctx = context.read(lines)
    return [
        (f.name, str(f.value), f.line)
        for f in context.of_posts(ctx, ctx.facts, read)
        if f.name in ("device", "machine")
    ]


def test_the_titles_machine_is_not_the_rows_where_labels_name_the_machines():
    lines = [
        "# llama2 and GPU execution on Nvidia Jetson",
        "",
        "HP:",
        "```",
        TIMINGS,
        "```",
        "",
        "Jetston Orin Nano 8GB:",
        "```",
        " Once upon a time",
    ]
    assert ("machine", "Jetson", 1) in _machines(lines, [])  # no rows: the file's facts all kept
    assert [m for m in _machines(lines, [5]) if m[2] == 1] == []


def test_a_title_naming_the_only_device_of_a_file_with_no_other_label_keeps_it():
    plain = ["# llama2 on Nvidia Jetson Orin Nano", "", "```", TIMINGS, "```"]
    assert ("machine", "Jetson Orin Nano", 1) in _machines(plain, [4])
    # a label over the block that names no machine (`Output:`) leaves the title's machine the rows'
    labelled = ["# llama2 on Nvidia Jetson Orin Nano", "", "Output:", "```", TIMINGS, "```"]
    assert ("machine", "Jetson Orin Nano", 1) in _machines(labelled, [5])
