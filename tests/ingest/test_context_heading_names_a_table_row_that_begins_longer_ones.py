"""A heading's model-table name without a size that begins longer rows' names (DeepSeek-R1 beside its
`DeepSeek-R1-Distill-...` rows) is that one model where the heading goes on with none of their next words; an
identifier of code (`deepseek_v2`, SGLang's model file) names none."""

from benchbook.ingest import context


def _models(text: str) -> list:
    return [f.value for f in context.read(text.splitlines()).get("model")]


def test_a_heading_naming_deepseek_r1_with_its_quantization_names_the_r1():
    # real: sgl-project/sglang#10027's and #8118's titles
    assert _models("# [Perf] Optimize DeepSeek-R1 w4afp8 glue kernels\n") == ["DeepSeek-R1"]
    assert _models("# [feat] Support tp mode for DeepSeek-R1-W4AFP8\n") == ["DeepSeek-R1"]
    assert _models("# [Bug]: Unable to load deepseek r1 on 8 x AMD MI300X\n") == ["deepseek r1"]


def test_a_heading_going_on_with_a_longer_rows_word_or_writing_an_identifier_names_no_r1():
    # the other way: `DeepSeek-R1 Distill` goes on into the distills' names; `deepseek_v2` is code
    assert _models("# DeepSeek-R1 Distill on one GPU\n") == []
    assert _models("# [feature] implement dcp for deepseek_v2\n") == []
    # a name that begins no other row needs nothing after it (unchanged)
    assert _models("# GLM-4.5-Air fp8 on MI300X\n") == ["GLM-4.5-Air"]


def test_sglangs_w4afp8_after_the_name_is_the_weights_precision():
    c = context.read("# [feat] Support tp mode for DeepSeek-R1-W4AFP8\n".splitlines())
    assert c.values("precision") == ["W4AFP8"]
    # the other way: a name with no scheme after it states none
    assert context.read("# [Perf] Optimize DeepSeek-R1 glue kernels\n".splitlines()).values("precision") == []
