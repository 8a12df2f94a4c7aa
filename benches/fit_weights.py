#!/usr/bin/env python3
"""Fits the rules planner's grounding weights on the tune half of a split.

usage: fit_weights.py GOLD.json [--finkg target/release/finkg] [--rounds 2]
                      [--start weights.json] [--out weights.json]

Coordinate ascent: one feature at a time, a few weights around the current
one are tried by running `finkg eval` on the **tune half** only (the
conversations score.py's `half()` puts there, split by company) with
FINKG_GROUNDING_WEIGHTS pointing at the candidate weights; a change is kept
when it raises tune-half turn accuracy (first-turn accuracy breaks ties).
The check half is never run here: read it afterwards, with the fitted
weights, as the estimate on unseen reports. Gold is read only to score.
"""
import argparse, json, os, subprocess, sys, tempfile
from pathlib import Path

FEATURES_RS = Path(__file__).resolve().parent.parent / "src/plan/features.rs"


def default_weights():
    """The feature names and default weights, as declared in features.rs."""
    import re
    text = FEATURES_RS.read_text()
    body = text[text.index("features! {"):]
    body = body[:body.index("\n}\n")]
    w = {m.group(1): float(m.group(2)) for m in re.finditer(r"^\s+(\w+) = (-?[\d.]+),", body, re.M)}
    floor = float(re.search(r"floor: (-?[\d.]+)", text).group(1))
    w["floor"] = floor
    return w


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gold")
    ap.add_argument("--finkg", default="target/release/finkg")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--start")
    ap.add_argument("--out", default="fitted_weights.json")
    ap.add_argument("--only", help="comma-separated feature names to fit")
    a = ap.parse_args()
    sys.path.insert(0, str(Path(a.gold).resolve().parent))
    from score import half, correct  # the split's own scorer

    convs = json.load(open(a.gold))
    convs = convs["dev"] if isinstance(convs, dict) else convs
    tune = [c for c in convs if half(c["id"]) == "tune"]
    tmp = Path(tempfile.mkdtemp(prefix="fit-"))
    data = tmp / "tune.json"
    data.write_text(json.dumps({"dev": tune}))
    gold = {(c["id"], t): (g, gt) for c in tune
            for t, (g, gt) in enumerate(zip(c["dialogue"]["executed_answers"], c["dialogue"]["conv_answers"]))}

    def evaluate(w):
        wf = tmp / "w.json"
        wf.write_text(json.dumps(w))
        out = tmp / "run"
        env = dict(os.environ, FINKG_GROUNDING_WEIGHTS=str(wf))
        subprocess.run([a.finkg, "eval", str(data), "--out", str(out), "--no-progress"],
                       env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        right = first = 0
        for line in open(out / "predictions.jsonl"):
            r = json.loads(line)
            g, gt = gold[(r["id"], r["turn"])]
            ok = correct(r.get("answer"), g, gt)
            right += ok
            first += ok and r["turn"] == 0
        return (right, first)

    w = default_weights()
    if a.start:
        w.update(json.load(open(a.start)))
    best = evaluate(w)
    print(f"start: {best[0]}/{len(gold)} turns, {best[1]} first turns", flush=True)
    names = [n for n in w if not a.only or n in a.only.split(",")]
    for rnd in range(a.rounds):
        changed = False
        for name in names:
            cur = w[name]
            step = 0.005 if name.endswith("position") else max(abs(cur), 0.2)
            for mult in (-2, -1, -0.5, -0.25, 0.25, 0.5, 1, 2):
                trial = dict(w)
                trial[name] = round(cur + mult * step, 4)
                score = evaluate(trial)
                if score > best:
                    best, w, changed = score, trial, True
                    print(f"round {rnd}: {name} {cur} -> {trial[name]}: {score[0]} turns, {score[1]} first",
                          flush=True)
            Path(a.out).write_text(json.dumps(w, indent=1))
        if not changed:
            break
    print(json.dumps(w, indent=1))
    print(f"best: {best[0]}/{len(gold)} tune turns, {best[1]} first turns")


if __name__ == "__main__":
    main()
