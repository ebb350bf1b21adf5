"""Board power and SM clock while the decode-shaped GEMM of gemm_batch_sweep.py runs back to back at
one batch for a few seconds: how much of its power limit a memory-bound step draws against a
compute-bound one. nvidia-smi samples power.draw (W) and clocks.sm (MHz) every 100 ms in the
background; the first second of each batch is dropped as the ramp. One CSV row per sample."""

import subprocess
import sys
import time

import torch

SECONDS = 4.0


def main():
    k, n = 8192, 7 * 2**30 // 8192
    w = torch.randn(k, n, dtype=torch.bfloat16, device="cuda")
    print(f"# {torch.cuda.get_device_name(0)}, torch {torch.__version__}, CUDA {torch.version.cuda}")
    print("dtype,batch,sample,seconds_in,power_w,sm_mhz,step_s")
    for batch in (1, 16, 64, 128, 192, 256, 512, 1024):
        x = torch.randn(batch, k, dtype=torch.bfloat16, device="cuda")
        smi = subprocess.Popen(
            ["nvidia-smi", "--query-gpu=power.draw,clocks.sm", "--format=csv,noheader,nounits", "-lms", "100"],
            stdout=subprocess.PIPE,
            text=True,
        )
        start, steps = time.perf_counter(), 0
        torch.cuda.synchronize()
        while time.perf_counter() - start < SECONDS:
            for _ in range(10):
                x @ w
            torch.cuda.synchronize()
            steps += 10
        elapsed = time.perf_counter() - start
        smi.terminate()
        out, _ = smi.communicate()
        for i, line in enumerate(out.strip().splitlines()):
            t = i * 0.1
            if t < 1.0:
                continue
            power, mhz = (v.strip() for v in line.split(","))
            print(f"bfloat16,{batch},{i},{t:.1f},{power},{mhz},{elapsed / steps:.6e}")
        sys.stdout.flush()
        time.sleep(2.0)  # let the board settle between batches


if __name__ == "__main__":
    main()
