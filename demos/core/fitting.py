"""Power-law fits without scipy, in the two forms Kaplan et al. (2020) use.

    L(T) = a + b·T^(−c)    loss against position in the context (their Figure 20): for each c
                           on a fine grid, a and b are a linear least-squares fit; the best c wins.
    L(N) = k·N^(−α)        loss against parameters (their L(N) = (N_c/N)^α_N): a straight line
                           in log-log coordinates.
"""
import numpy as np

EXPONENTS = np.geomspace(0.005, 4.0, 800)  # the values of c tried


def fit_offset_power_law(x, y, weights=None) -> dict:
    """The a, b, c of y ≈ a + b·x^(−c) minimising the weighted squared error, and the fit's
    root-mean-square error (unweighted, in the units of y). Always finite."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    w = np.ones_like(x) if weights is None else np.asarray(weights, dtype=float)
    root_w = np.sqrt(w / w.sum())
    best = None
    for c in EXPONENTS:
        design = np.stack([np.ones_like(x), x ** -c], axis=1)  # (n, 2): columns for a and b
        (a, b), *_ = np.linalg.lstsq(design * root_w[:, None], y * root_w, rcond=None)
        error = float(np.sum(w * (a + b * x ** -c - y) ** 2))
        if best is None or error < best[0]:
            best = (error, float(a), float(b), float(c))
    _, a, b, c = best
    rmse = float(np.sqrt(np.mean((a + b * x ** -c - y) ** 2)))
    return {"a": a, "b": b, "c": c, "rmse": rmse}


def offset_power_law(x, fit: dict) -> list[float]:
    """The fitted curve a + b·x^(−c) at each x."""
    return [fit["a"] + fit["b"] * float(v) ** -fit["c"] for v in x]


def fit_power_law(x, y) -> dict:
    """The k and α of y ≈ k·x^(−α): least squares on log y against log x (needs two or more x)."""
    log_x, log_y = np.log(np.asarray(x, dtype=float)), np.log(np.asarray(y, dtype=float))
    slope, intercept = np.polyfit(log_x, log_y, 1)
    return {"k": float(np.exp(intercept)), "alpha": float(-slope)}
