"""Line plots for the examples: matplotlib when installed, else a small SVG
written by hand (Debian's python3 has no matplotlib by default)."""
import html


def plot(path, curves, title, xlabel, ylabel, logy=False, logx=False):
    """curves: list of (label, xs, ys). Writes path (.svg or, with
    matplotlib, any format it knows)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return _svg(path, curves, title, xlabel, ylabel, logy, logx)
    fig, ax = plt.subplots(figsize=(7, 4))
    for label, xs, ys in curves:
        ax.plot(xs, ys, label=label)
    if logy:
        ax.set_yscale("log")
    if logx:
        ax.set_xscale("log")
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    ax.legend()
    fig.savefig(path)
    plt.close(fig)
    return path


def _svg(path, curves, title, xlabel, ylabel, logy, logx):
    import math
    W, H, L, B = 700, 400, 70, 50
    tr = (lambda y: math.log10(y)) if logy else (lambda y: y)
    tx = (lambda x: math.log10(x)) if logx else (lambda x: x)
    ok = lambda x, y: (not logy or y > 0) and (not logx or x > 0)
    pts = [(tx(x), tr(y)) for _, xs, ys in curves for x, y in zip(xs, ys) if ok(x, y)]
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
    x1, y1 = (x1 if x1 > x0 else x0 + 1), (y1 if y1 > y0 else y0 + 1)
    sx = lambda x: L + (x - x0) / (x1 - x0) * (W - L - 20)
    sy = lambda y: H - B - (y - y0) / (y1 - y0) * (H - B - 30)
    colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="18" text-anchor="middle">{html.escape(title)}</text>',
           f'<line x1="{L}" y1="{H - B}" x2="{W - 20}" y2="{H - B}" stroke="black"/>',
           f'<line x1="{L}" y1="30" x2="{L}" y2="{H - B}" stroke="black"/>',
           f'<text x="{W / 2}" y="{H - 12}" text-anchor="middle">{html.escape(xlabel)}</text>',
           f'<text x="14" y="{H / 2}" transform="rotate(-90 14 {H / 2})" text-anchor="middle">'
           f'{html.escape(ylabel + (" (log10)" if logy else ""))}</text>',
           f'<text x="{W - 20}" y="{H - B + 30}" text-anchor="end">{"log10 " if logx else ""}</text>',
           f'<text x="{L - 4}" y="{sy(y0)}" text-anchor="end">{y0:.3g}</text>',
           f'<text x="{L - 4}" y="{sy(y1) + 4}" text-anchor="end">{y1:.3g}</text>',
           f'<text x="{L}" y="{H - B + 16}" text-anchor="middle">{x0:.3g}</text>',
           f'<text x="{W - 20}" y="{H - B + 16}" text-anchor="middle">{x1:.3g}</text>']
    for i, (label, xs, ys) in enumerate(curves):
        c = colors[i % len(colors)]
        p = " ".join(f"{sx(tx(x)):.1f},{sy(tr(y)):.1f}" for x, y in zip(xs, ys) if ok(x, y))
        out.append(f'<polyline fill="none" stroke="{c}" stroke-width="1.5" points="{p}"/>')
        out.append(f'<text x="{W - 150}" y="{40 + 16 * i}" fill="{c}">{html.escape(label)}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return path
