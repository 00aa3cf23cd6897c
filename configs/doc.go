// Package configs reads flitsim's YAML experiments: the schema
// ([Experiment] and its parts), a strict loader ([Load], [Parse],
// [LoadAll]) and the canonical hash that identifies a resolved experiment in
// results ([Experiment.Hash]). The YAML files beside this package are the
// worked examples: configs/quickstart.yaml, and one per feature. The schema
// is documented key by key in docs/config.md.
//
// # Modes
//
// mode: network (the default) is the flit-level router network of
// sim/network, mapped by [Experiment.NetworkConfig]. Three paper modes each
// read their own section and map onto their package's Config:
//
//	closed   Reed 1983 closed networks      closed:   ClosedConfig    sweep.unit population
//	delta    Makrucki–Mudge delta networks  delta:    DeltaConfig     sweep.unit rho (lambda = rho * mu)
//	slotted  Jacquet–Mühlethaler hypercube  slotted:  SlottedConfig   sweep.unit packets/node/slot
//
// Every mapper takes (point, seed), the seed being the sweep unit's
// (sweep.UnitSeed). A key the mode does not read is refused, not ignored;
// run: keeps its key names in every mode, read in the mode's time unit
// (max_time instead of max_cycles in the continuous-time modes closed and
// delta). A delta file may list several queue lengths; [LoadAll] expands
// it into one experiment per length ([Experiment.Variants]).
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
//     unknown model names; in the paper modes, a key or section the mode
//     does not read, a load unit or model of another mode, and each
//     mode's own rules (a population that is not a whole number, a
//     resubmission delay without resubmission, slotted rho*mu > 1, ...);
//     finally each mode's engine builds sweep point 0, so a clash with an
//     engine default is refused at load time too.
//
// Anchors, aliases and merge keys are refused too: an experiment file is
// short, and each setting should be visible where it applies.
//
// # Units
//
// Time in cycles; message lengths and buffers in flits; offered load in the
// unit the file names explicitly in sweep.unit (messages/node/cycle or
// flits/node/cycle), converted by the mean message length where needed
// ([Experiment.MessageRate], [Experiment.FlitRate]). The paper modes keep
// their papers' units: time units of the service means (closed, delta) or
// slots (slotted), and the load units above.
//
// # Invariants
//
// An *Experiment returned without error has every default resolved and
// passes every check above; its Hash depends only on the resolved values
// (not on comments, key order, the file path or the seed), and only on the
// keys its mode reads: the sections of other modes are zero and left out
// of the canonical encoding, so mode-network hashes did not change when the
// paper modes were added.
package configs
