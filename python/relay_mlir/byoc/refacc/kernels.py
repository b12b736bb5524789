"""refacc's kernel library: the C functions its generated code calls.

Plain C11, freestanding (IREE's embedded ELF loader has no libc), ``static`` so that the
library can be linked into several external functions' objects, float accumulation, dense
row-major tensors. A real accelerator's codegen would instead emit calls into its driver or
its own instruction stream here.
"""

KERNELS = r"""
#include <stddef.h>

/* y[n][o][i][j] = relu(b[o] + sum_{c,ki,kj} x[n][c][i*sh+ki*dh-pt][j*sw+kj*dw-pl] * w[o][c][ki][kj]) */
static void refacc_conv2d_bias_relu(const float *x, const float *w, const float *b, float *y,
                                    long N, long C, long H, long W, long O, long KH, long KW,
                                    long SH, long SW, long PT, long PL, long DH, long DW,
                                    long OH, long OW) {
  for (long n = 0; n < N; ++n)
    for (long o = 0; o < O; ++o)
      for (long i = 0; i < OH; ++i)
        for (long j = 0; j < OW; ++j) {
          float acc = b[o];
          for (long c = 0; c < C; ++c)
            for (long ki = 0; ki < KH; ++ki) {
              long h = i * SH + ki * DH - PT;
              if (h < 0 || h >= H) continue;
              for (long kj = 0; kj < KW; ++kj) {
                long v = j * SW + kj * DW - PL;
                if (v < 0 || v >= W) continue;
                acc += x[((n * C + c) * H + h) * W + v] * w[((o * C + c) * KH + ki) * KW + kj];
              }
            }
          y[((n * O + o) * OH + i) * OW + j] = acc > 0.0f ? acc : 0.0f;
        }
}

/* y[m][u] = sum_k x[m][k] * w[u][k]  (relay's nn.dense: x . w^T) */
static void refacc_dense(const float *x, const float *w, float *y, long M, long K, long U) {
  for (long m = 0; m < M; ++m)
    for (long u = 0; u < U; ++u) {
      float acc = 0.0f;
      for (long k = 0; k < K; ++k) acc += x[m * K + k] * w[u * K + k];
      y[m * U + u] = acc;
    }
}

/* y = a + b, element by element */
static void refacc_add(const float *a, const float *b, float *y, long n) {
  for (long i = 0; i < n; ++i) y[i] = a[i] + b[i];
}

/* y = a (an output that is also an input, a constant or another output) */
static void refacc_copy(const float *a, float *y, long n) {
  for (long i = 0; i < n; ++i) y[i] = a[i];
}
"""
