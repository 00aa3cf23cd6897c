#!/usr/bin/env python3
"""An analytical model of a k-ary n-cube torus, outside flitsim.

flitsim runs this program once per experiment (`models: ["command:python3
model.py"]` in the config): it reads the experiment as JSON on standard input
and prints its predictions as JSON on standard output, in the schema
flitsim-model/1 (docs/external-models.md). Standard library only.

The model: dimension-order routing on a torus under uniform traffic, each
channel an M/D/1 queue whose service time is the message length L (flits).

    H    mean hops to a destination other than the source
    hop  cycles a header spends per hop: router pipeline + link latency
    rho  channel utilisation = lambda * H / c  (lambda in flits/node/cycle,
         c = channels leaving a router: 2n bidirectional, n unidirectional)
    W    M/D/1 waiting time per hop = rho * L / (2 (1 - rho))
    T    = H * hop + L + H * W   (cycles, creation to tail delivery)

The throughput prediction is accepted = offered below saturation
(rho = 1, i.e. lambda = c / H). Anything the model does not describe (a mesh,
another pattern, variable lengths) is reported point by point as
out-of-domain, never guessed.
"""

import json
import sys

SCHEMA = "flitsim-model/1"


def mean_hops(k, n, bidirectional):
    """Mean minimal distance to a destination other than the source."""
    if bidirectional:
        per_dim = [min(d, k - d) for d in range(k)]
    else:
        per_dim = list(range(k))
    mean_dim = sum(per_dim) / k  # over all k offsets, self included
    nodes = k ** n
    # The sum over all destinations, self included, divided by the others.
    return n * mean_dim * nodes / (nodes - 1)


def predict(x):
    cfg = x.get("config") or {}
    rates = x["rates"]

    def all_out(reason):
        return [{"load": r, "status": "out-of-domain", "reason": reason} for r in rates]

    if x["mode"] != "network":
        return {"points": all_out("the model describes mode network only")}
    net, traffic, router = cfg["network"], cfg["traffic"], cfg["router"]
    if net["topology"] != "torus":
        return {"points": all_out("the model describes tori only")}
    if traffic["pattern"] != "uniform" or traffic["length"]["distribution"] != "fixed":
        return {"points": all_out("the model assumes uniform traffic and fixed lengths")}
    if cfg.get("routing") != "dimension-order":
        return {"points": all_out("the model assumes dimension-order routing")}

    k, n, bidir = net["radix"], net["dimensions"], net["bidirectional"]
    length = traffic["length"]["flits"]
    hops = mean_hops(k, n, bidir)
    channels = 2 * n if bidir else n
    hop = 1 + net["link_latency"] + router["routing_delay"] + router["vc_alloc_delay"] \
        + router["switch_alloc_delay"] + router["switch_traversal_delay"]
    to_flits = length if x["rate_unit"] == "messages/node/cycle" else 1
    saturation = channels / hops / to_flits  # in the experiment's rate unit

    points = []
    for r in rates:
        lam = r * to_flits
        rho = lam * hops / channels
        if rho >= 1:
            points.append({"load": r, "status": "saturated", "reason": "channel utilisation %.3f >= 1" % rho})
            continue
        wait = rho * length / (2 * (1 - rho))
        points.append({"load": r, "latency": hops * hop + length + hops * wait, "throughput": lam})
    return {"saturation": saturation, "points": points}


def main():
    x = json.load(sys.stdin)
    if x.get("schema") != SCHEMA:
        print("model.py: input schema %r, want %r" % (x.get("schema"), SCHEMA), file=sys.stderr)
        return 2
    out = {"schema": SCHEMA, "name": "M/D/1 per hop (Python example)"}
    out.update(predict(x))
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
