"""Small helpers the benchmark scripts share: percentiles and a table printer."""
import statistics


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation, as numpy's default does."""
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def describe_ms(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"median {statistics.median(ms):7.2f} ms   p90 {percentile(ms, 90):7.2f} ms   "
            f"p99 {percentile(ms, 99):7.2f} ms   max {max(ms):7.2f} ms   (n={len(ms)})")
