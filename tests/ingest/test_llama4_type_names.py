"""llama.cpp prints Llama 4's model type as `17Bx16E (Scout)` and `17Bx128E (Maverick)`
(`llm_type_name`): the first number is the active parameters (Meta's "17B-16E": 17B activated,
16 experts), so the sourced table's rows match those strings; a total that is not the table's
(another file of the label) keeps the active count unknown, and Mixtral's `8x7B` (experts x size)
is not read as 7B active."""

from benchbook import hardware


def test_scout_type_string_gets_the_tables_active_count():
    size = hardware.model_size("llama4 17Bx16E (Scout) Q3_K - Medium", printed_params=107.77)
    assert size is not None and size.moe
    assert size.active_b == 17.0
    assert size.total_b == 107.77


def test_maverick_type_string_with_its_own_total():
    size = hardware.model_size("llama4 17Bx128E (Maverick) Q4_K - Medium", printed_params=400.71)
    assert size is not None and size.active_b == 17.0


def test_a_total_far_from_the_tables_keeps_active_unknown():
    size = hardware.model_size("llama4 17Bx128E (Maverick) Q4_K - Medium", printed_params=107.77)
    assert size is not None and size.moe and size.active_b is None


def test_experts_times_size_is_not_an_active_count():
    size = hardware.model_size("some 8x7B Q4_0", printed_params=46.7)
    assert size is not None and size.moe and size.active_b != 7.0
