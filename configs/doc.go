// Package configs reads flitsim's YAML experiments: the schema
// ([Experiment] and its parts), a strict loader ([Load], [Parse],
// [LoadAll]) and the canonical hash that identifies a resolved experiment in
// results ([Experiment.Hash]). The YAML files beside this package are the
// worked examples: configs/quickstart.yaml, and one per feature. The schema
// is documented key by key in docs/config.md.
//
// # Strictness
//
// The file is decoded from a yaml.Node tree, never by reflection on the
// whole document, so each problem carries the file, line, column and dotted
// key (router.vcs, sweep.rates[2]) it concerns. Four classes are refused
// before anything runs, all of them reported together as [Errors]:
//
//   - unknown keys (with the nearest known key suggested) and duplicate keys;
//   - wrong types (a string where an integer belongs, a float for an int);
//   - out-of-range values (vcs 0, phi 1.5, a negative rate);
//   - impossible combinations: a ring or torus with one VC (the wrap-around
//     cycle deadlocks), a hypercube of radix other than 2, a bidirectional
//     ring or torus of radix < 3, a scouting distance without scouting
//     switching, cut-through or store-and-forward buffers shorter than the
//     longest message, transpose on an odd number of dimensions, bit
//     permutations on a node count that is not a power of two, a sphere of
//     locality covering the whole network with phi < 1, duplicate rates,
//     unknown model names.
//
// Anchors, aliases and merge keys are refused too: an experiment file is
// short, and each setting should be visible where it applies.
//
// # Units
//
// Time in cycles; message lengths and buffers in flits; offered load in the
// unit the file names explicitly in sweep.unit (messages/node/cycle or
// flits/node/cycle), converted by the mean message length where needed
// ([Experiment.MessageRate], [Experiment.FlitRate]).
//
// # Invariants
//
// An *Experiment returned without error has every default resolved and
// passes every check above; its Hash depends only on the resolved values
// (not on comments, key order, the file path or the seed).
package configs
