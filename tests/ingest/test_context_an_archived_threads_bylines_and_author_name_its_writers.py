"""ik_llama.cpp's archived issue threads (`github-data/issues/*.md`) mark each post with a byline of their own,
`👤 **name** commented the **2025-06-11** at **21:47:02**:<br>` (`commented on ...` in some, a discussion's reply
`> 👤 **name** replied the ...`), and name the description's writer in the table above it (`| **Author** |
`name` |`). Each is a post's writer (`context.BYLINE`): another commenter's `bounce between 2 GPUs` (his own rig)
counts no device of the reporter's run, while the reporter's own later post about the same runs still counts."""

from __future__ import annotations

from benchbook.ingest import context

HEAD = ["### 📝 [#521](x) - TG tanks with -ot", "", "| **Author** | `reporter` |", "| :--- | :--- |", ""]
RUN = ["```", "ggml_cuda_init: found 7 CUDA devices:", "```", ""]
ROWS = ["|  2048 |    512 |      0 |   10.990 |   186.35 |   58.726 |     8.72 |", ""]


def _counts(lines: list[str], rows: list[int]) -> list:
    c = context.read(lines)
    return [f.value for f in context.of_posts(c, c.get("device_count"), rows)]


def test_another_commenters_rig_counts_no_device_of_the_run():
    lines = [
        *HEAD,
        *RUN,  # found 7 at line 7
        "👤 **other** commented the **2025-06-12** at **11:17:06**:<br>",
        "",
        "GPU usage gets high when you cause it to bounce between 2 GPUs and produce a bottleneck.",
        "",
        "👤 **reporter** commented the **2025-06-12** at **12:00:44**:<br>",
        "",
        *ROWS,  # line 16
    ]
    assert 2 in {int(v) for v in context.read(lines).values("device_count")}  # read, but the other writer's
    assert [int(v) for v in _counts(lines, [16])] == [7]


def test_with_no_archived_byline_a_count_stays_a_fact_of_the_text():
    lines = [*HEAD, *RUN, "GPU usage gets high when you cause it to bounce between 2 GPUs.", "", *ROWS]
    assert sorted(int(v) for v in _counts(lines, [12])) == [2, 7]


def test_the_archives_byline_forms_name_their_writer():
    for byline, who in (
        ("👤 **ikawrakow** commented the **2025-06-11** at **21:47:02**:<br>", "ikawrakow"),
        ("👤 **magikRUKKOLA** commented on **2025-07-01** at **10:00:00**", "magikRUKKOLA"),
        ("> 👤 **mcm007** replied the **2025-07-02** at **09:00:00**:<br>", "mcm007"),
    ):
        c = context.read(["intro", byline, "text"])
        assert [w for _, _, w in c.posts][-1] == who


def test_the_author_row_names_the_descriptions_writer_and_a_plain_copy_leaves_it_unnamed():
    named = context.read([*HEAD, "text", "👤 **other** commented the **2025-06-12** at **11:17:06**:<br>", "x"])
    assert named.posts[0][2] == "reporter"
    plain = context.read(["text", "👤 **other** commented the **2025-06-12** at **11:17:06**:<br>", "x"])
    assert plain.posts[0][2] == ""
