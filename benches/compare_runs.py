#!/usr/bin/env python3
"""Two runs' predictions compared turn by turn: which turns the second run
fixed (wrong before, right after) and which it broke (right before, wrong
after), by the rule of the ConvFinQA scoring script (its `correct`,
imported, so both agree). Used for the critic's figures in README.md.

usage: compare_runs.py SCORE.py GOLD.json BEFORE/predictions.jsonl AFTER/predictions.jsonl
"""
import importlib.util
import json
import sys


def predictions(path):
    out = {}
    for line in open(path):
        if line.strip():
            r = json.loads(line)
            out[(r["id"], int(r["turn"]))] = r.get("answer")
    return out


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    spec = importlib.util.spec_from_file_location("score", sys.argv[1])
    score = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(score)
    gold = json.load(open(sys.argv[2]))
    gold = gold["dev"] if isinstance(gold, dict) else gold
    before, after = predictions(sys.argv[3]), predictions(sys.argv[4])
    fixed, broken, changed, total, right_before, right_after = [], [], 0, 0, 0, 0
    for c in gold:
        d = c["dialogue"]
        for t, (g, text) in enumerate(zip(d["executed_answers"], d["conv_answers"])):
            key = (c["id"], t)
            total += 1
            x = score.correct(before.get(key), g, text)
            y = score.correct(after.get(key), g, text)
            right_before += x
            right_after += y
            changed += before.get(key) != after.get(key)
            if x and not y:
                broken.append((c["id"], t, before.get(key), after.get(key)))
            if y and not x:
                fixed.append((c["id"], t, before.get(key), after.get(key)))
    print(f"before {right_before}/{total}, after {right_after}/{total}; "
          f"answers changed {changed}; fixed {len(fixed)}, broken {len(broken)}")
    for f in fixed:
        print("fixed ", *f)
    for b in broken:
        print("broken", *b)


if __name__ == "__main__":
    main()
