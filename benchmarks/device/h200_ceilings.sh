#!/usr/bin/env bash
# Measures what one GPU reaches against its datasheet peaks: memory bandwidth (device-to-device copy)
# and dense bf16/fp16 matmul throughput, with the card's power limit and clocks. Run on a GPU machine:
#   OUT=<folder> bash benchmarks/device/h200_ceilings.sh
set -u
OUT=${OUT:-.}
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
nvidia-smi -q -d POWER,CLOCK,MEMORY > "$OUT/nvidia-smi-q.txt" 2>&1
python3 - > "$OUT/ceilings.txt" 2>&1 <<'PY'
import sys, platform
print("python", platform.python_version())
try:
    import torch
except Exception as e:
    print("no torch:", e); sys.exit(0)
print("torch", torch.__version__, "cuda", torch.version.cuda, "device", torch.cuda.get_device_name(0))
dev = "cuda"
def timed(fn, reps):
    fn(); torch.cuda.synchronize()
    s, e = torch.cuda.Event(True), torch.cuda.Event(True)
    s.record()
    for _ in range(reps):
        fn()
    e.record(); torch.cuda.synchronize()
    return s.elapsed_time(e) / 1000 / reps
for gib in (1, 4):
    n = gib * 2**30 // 2
    a = torch.empty(n, dtype=torch.float16, device=dev); b = torch.empty_like(a)
    t = timed(lambda: b.copy_(a), 50)
    print(f"copy {gib} GiB: {2 * a.numel() * 2 / t / 1e9:.0f} GB/s (read + write bytes / time)")
    del a, b
for dt in (torch.bfloat16, torch.float16):
    for m in (4096, 8192, 16384):
        x = torch.randn(m, m, dtype=dt, device=dev); y = torch.randn(m, m, dtype=dt, device=dev)
        t = timed(lambda: x @ y, 20)
        print(f"matmul {str(dt).split('.')[-1]} {m}^3: {2 * m**3 / t / 1e12:.0f} TFLOP/s")
        del x, y
# decode-like: a batch-1 GEMV over a 14 GiB weight (the bandwidth a 7B fp16 decode step can use)
w = torch.randn(8192, 7 * 2**30 // 8192, dtype=torch.float16, device=dev)
v = torch.randn(1, 8192, dtype=torch.float16, device=dev)
t = timed(lambda: v @ w, 20)
print(f"gemv batch 1 over {w.numel() * 2 / 2**30:.0f} GiB fp16: {w.numel() * 2 / t / 1e9:.0f} GB/s")
for bsz in (8, 32, 128, 512):
    v = torch.randn(bsz, 8192, dtype=torch.float16, device=dev)
    t = timed(lambda: v @ w, 20)
    print(f"gemm batch {bsz} over the same weight: {2 * bsz * w.numel() / t / 1e12:.0f} TFLOP/s, {w.numel() * 2 / t / 1e9:.0f} GB/s of weight read")
PY
cat "$OUT/ceilings.txt"
grep -E 'Power Limit|Max Clocks|Graphics|Memory  ' "$OUT/nvidia-smi-q.txt" | head -20
