"""The 95 % Wilson score interval, shared by the table scripts (draws count half)."""

import math


def wilson(points, n, z=1.959963984540054):
    if n == 0:
        return (0.0, 1.0)
    p = points / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denom = 1 + z * z / n
    return (max(0.0, (centre - margin) / denom), min(1.0, (centre + margin) / denom))
