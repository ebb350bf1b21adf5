"""Ollama's `--verbose` block is tied to the `ollama run MODEL` command above it. A terminal shows Ctrl-C as
`^C`, and it discards what was typed before it on that line: on a line a user cancelled and retyped
(`ollama run qwen3:4b-instructollama run ... --verbose^C   ollama run qwen3:4b-instruct ... --verbose`), only
the command after the last `^C` ran, so it names the model. A line that ends at its `^C` ran nothing and leaves
the model of the command before it; a line with no `^C` is read as before."""

from benchbook.ingest import ollama_verbose

STATS = (
    "total duration:       18.293521648s\n"
    "load duration:        97.885315ms\n"
    "prompt eval count:    21 token(s)\n"
    "prompt eval duration: 1.346030951s\n"
    "prompt eval rate:     15.60 tokens/s\n"
    "eval count:           160 token(s)\n"
    "eval duration:        16.774703785s\n"
    "eval rate:            9.54 tokens/s\n"
)


def _models(text: str) -> list:
    return [b["model"] for b in ollama_verbose.blocks(text)]


def test_the_command_after_the_last_ctrl_c_names_the_model():
    line = (
        'sona@host:~$ ollama run qwen3:4b-instructollama run qwen3:4b-instruct "Q?" --verbose^C      '
        'ollama run qwen3:4b-instruct "Q?" --verbose\n'
    )
    assert _models(line + "The answer.\n\n" + STATS) == ["qwen3:4b-instruct"]


def test_a_line_cancelled_at_its_end_leaves_the_earlier_command():
    text = "$ ollama run llama3.2:3b --verbose\n$ ollama run mistral --verbose^C\n" + STATS
    assert _models(text) == ["llama3.2:3b"]


def test_a_line_with_no_ctrl_c_names_its_first_command_as_before():
    assert _models('$ ollama run --verbose gemma3:4b "Q?"\n' + STATS) == ["gemma3:4b"]
