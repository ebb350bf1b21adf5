"""neofetch, fastfetch and screenfetch print the system's facts as `Key: value` pairs to the right of an
ASCII logo: the CPU and GPU lines name the machine's processor and graphics as a bare `CPU: ...` line does.
A line whose words merely end in a colon names nothing, and a known key at the line's start keeps its
own reading."""

from benchbook.ingest import context


def _facts(*lines: str) -> set:
    return {(f.name, f.value) for f in context.read(["text", *lines]).facts if f.name in ("cpu", "device")}


def test_the_cpu_and_gpu_beside_a_logo_are_read():
    assert _facts(
        "    kMMMMMMMMMMMMMMMMMMMMMMd     CPU: Apple M1 Max",
        "     ;KMMMMMMMWXXWMMMMMMMk.      GPU: Apple M1 Max",
    ) >= {("cpu", "Apple M1 Max"), ("device", "Apple M1 Max")}
    assert ("device", "Radeon RX 7900 XTX") in _facts(" /sssssssssssssss.      GPU: Radeon RX 7900 XTX")


def test_words_before_a_colon_name_nothing():
    assert _facts("The CPU: fast enough for this") == set()
    assert _facts("logo   Uptime: 6 days") == set()
