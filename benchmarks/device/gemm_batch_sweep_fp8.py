"""The decode-shaped GEMM of gemm_batch_sweep.py with 8-bit (FP8 e4m3) weights and activations
(torch._scaled_mm, per-tensor scales, bf16 out): half the bytes per weight, and the tensor cores' FP8
rate. FP8 GEMMs need every dimension divisible by 16, so the batches start at 16.
Prints one CSV row per batch, in the columns of gemm_batch_sweep.py."""

import torch
from gemm_batch_sweep import timed


def main():
    k, n = 8192, 7 * 2**30 // 8192  # the same shape: 7.5 GB at one byte per weight
    print(f"# {torch.cuda.get_device_name(0)}, torch {torch.__version__}, CUDA {torch.version.cuda}")
    print("dtype,batch,k,n,weight_bytes,seconds,tflop_per_s,weight_gb_per_s")
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16).to(torch.float8_e4m3fn).t()  # column-major k x n
    one = torch.ones((), device="cuda")
    wbytes = k * n
    for batch in (16, 32, 48, 64, 96, 128, 160, 192, 256, 320, 384, 512, 768, 1024, 1536, 2048):
        x = torch.randn(batch, k, device="cuda", dtype=torch.bfloat16).to(torch.float8_e4m3fn)
        t = timed(lambda x=x: torch._scaled_mm(x, w, scale_a=one, scale_b=one, out_dtype=torch.bfloat16), 20)
        flops = 2 * batch * k * n
        print(f"float8_e4m3fn,{batch},{k},{n},{wbytes},{t:.6e},{flops / t / 1e12:.1f},{wbytes / t / 1e9:.0f}")


if __name__ == "__main__":
    main()
