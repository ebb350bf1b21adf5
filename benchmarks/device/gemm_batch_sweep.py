"""Weight-read rate and FLOP rate of one decode-shaped GEMM as the batch grows, on one GPU.

A decode step multiplies a (batch x k) activation by a (k x n) weight: it reads the weight once and
does 2 x batch x k x n FLOPs, so its arithmetic intensity is the batch (in FLOP per byte for 16-bit
weights: 2 x batch FLOPs per 2 bytes). Below the ridge the weight read limits it; above, the FLOPs.
Prints one CSV row per (dtype, batch): the times are CUDA-event means over repeats.
"""

import sys

import torch


def timed(fn, reps):
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / 1000 / reps


def main():
    k, n = 8192, 7 * 2**30 // 8192  # a 14 GiB 16-bit weight: far beyond any cache
    print(f"# {torch.cuda.get_device_name(0)}, torch {torch.__version__}, CUDA {torch.version.cuda}")
    print("dtype,batch,k,n,weight_bytes,seconds,tflop_per_s,weight_gb_per_s")
    for dtype in (torch.bfloat16,):
        w = torch.randn(k, n, dtype=dtype, device="cuda")
        wbytes = w.numel() * w.element_size()
        for batch in (1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 160, 192, 256, 320, 384, 512, 768, 1024):
            x = torch.randn(batch, k, dtype=dtype, device="cuda")
            t = timed(lambda x=x, w=w: x @ w, 20)
            flops = 2 * batch * k * n
            print(
                f"{str(dtype).split('.')[-1]},{batch},{k},{n},{wbytes},{t:.6e},{flops / t / 1e12:.1f},{wbytes / t / 1e9:.0f}"
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
