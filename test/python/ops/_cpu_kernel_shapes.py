"""Convolution shapes both CPU kernels' tests run (test_vnni_matmul.py: 8-bit,
test_f32_kernels.py: f32): each a case the depthwise kernel treats apart."""
from __future__ import annotations

# (name, NHWC input, kernel (kh, kw), strides, padding, dilation): MobileNet's 3x3 (stride 1:
# an odd width leaving one pixel of a pair; stride 2), channels not in groups of 16 (masked
# loads and stores), kernel rows of 1, 2 and 4 taps, dilation, batch 2, asymmetric padding
DEPTHWISE = [
    ("3x3_s1_odd_width", (1, 9, 11, 32), (3, 3), (1, 1), (1, 1), (1, 1)),
    ("3x3_s2_24ch", (1, 15, 14, 24), (3, 3), (2, 2), (1, 1), (1, 1)),
    ("3x3_s1_7ch_batch2", (2, 6, 8, 7), (3, 3), (1, 1), (1, 1), (1, 1)),
    ("5x2_dilated_40ch", (1, 13, 12, 40), (5, 2), (1, 1), (2, 1), (2, 3)),
    ("1x4_s1x2_asym_pad", (1, 7, 17, 16), (1, 4), (1, 2), (0, 1, 0, 2), (1, 1)),
    # no padding, a row and a column no window reaches: the whole input read in place
    ("3x3_s2_trimmed", (1, 10, 12, 16), (3, 3), (2, 2), (0, 0), (1, 1)),
]
