package configs

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxItems bounds every list in a config, so a hostile or mistaken file
// cannot make the loader allocate without limit.
const maxItems = 10000

// decoder walks a yaml.Node tree into a struct by its yaml tags, strictly:
// unknown and duplicate keys, wrong scalar types, anchors, aliases and merge
// keys are all problems, recorded with their position and the decoder goes
// on, so that every problem in the file is reported at once.
type decoder struct {
	r *reporter
}

// kindName names the YAML type of a node in messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		case "!!int":
			return "the integer " + n.Value
		case "!!float":
			return "the number " + n.Value
		case "!!bool":
			return "the boolean " + n.Value
		case "!!null":
			return "no value"
		}
		return "the value " + n.Value
	}
	return "an unexpected node"
}

// join appends a key to a dotted path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// typeErr records a decoding problem at path and marks the path bad.
func (d *decoder) typeErr(path, format string, args ...any) {
	d.r.errorf(path, format, args...)
	d.r.markBad(path)
}

// decode fills v from n; path is the dotted key of n.
func (d *decoder) decode(n *yaml.Node, v reflect.Value, path string) {
	if n.Anchor != "" {
		d.typeErr(path, "anchors (&%s) are not supported: write the value out", n.Anchor)
		return
	}
	if n.Kind == yaml.AliasNode {
		d.typeErr(path, "aliases (*%s) are not supported: write the value out", n.Value)
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		d.mapping(n, v, path)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			d.typeErr(path, "expected a list, got %s", kindName(n))
			return
		}
		if len(n.Content) > maxItems {
			d.typeErr(path, "list has %d items, at most %d allowed", len(n.Content), maxItems)
			return
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, item := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			d.r.pos[p] = pos{item.Line, item.Column}
			d.decode(item, s.Index(i), p)
		}
		v.Set(s)
	default:
		d.scalar(n, v, path)
	}
}

// mapping decodes a YAML mapping into the struct v.
func (d *decoder) mapping(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.MappingNode {
		d.typeErr(path, "expected a mapping of keys, got %s", kindName(n))
		return
	}
	fields := map[string]int{}
	var known []string
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		tag := t.Field(i).Tag.Get("yaml")
		if tag == "" || tag == "-" {
			continue
		}
		fields[tag] = i
		known = append(known, tag)
	}
	sort.Strings(known)
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind != yaml.ScalarNode || kn.ShortTag() == "!!merge" {
			d.r.errorAt(pos{kn.Line, kn.Column}, path, "in %s: keys must be plain names (merge keys << are not supported)", orTop(path))
			continue
		}
		key := join(path, kn.Value)
		if seen[kn.Value] {
			d.r.errorAt(pos{kn.Line, kn.Column}, key, "duplicate key (first at line %d)", d.r.pos[key].line)
			continue
		}
		seen[kn.Value] = true
		d.r.pos[key] = pos{kn.Line, kn.Column}
		idx, ok := fields[kn.Value]
		if !ok {
			d.r.errorf(key, "unknown key%s (known keys here: %s)", suggest(kn.Value, known), strings.Join(known, ", "))
			continue
		}
		if t.Field(idx).Tag.Get("scalar") == "list" && vn.Kind == yaml.ScalarNode && vn.Anchor == "" {
			// A list key that also takes one value (delta.queue_length: 4):
			// decode the scalar as a list of one, reported at the key.
			vn = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: vn.Line, Column: vn.Column, Content: []*yaml.Node{vn}}
			d.decodeOne(vn, v.Field(idx), key)
			continue
		}
		d.decode(vn, v.Field(idx), key)
	}
}

// decodeOne fills the slice v from the one-item sequence n written as a
// scalar; problems are reported at path itself, not at path[0].
func (d *decoder) decodeOne(n *yaml.Node, v reflect.Value, path string) {
	s := reflect.MakeSlice(v.Type(), 1, 1)
	d.scalar(n.Content[0], s.Index(0), path)
	v.Set(s)
}

// orTop names a path for messages, "the top level" when empty.
func orTop(path string) string {
	if path == "" {
		return "the top level"
	}
	return path
}

// suggest returns ` (did you mean "x"?)` for the known key nearest to k by
// edit distance, if it is close.
func suggest(k string, known []string) string {
	best, bestD := "", 3
	for _, c := range known {
		if dd := editDistance(k, c); dd < bestD {
			best, bestD = c, dd
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance between a and b, capped in cost
// by the short keys it is used on.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// scalar decodes a scalar node into a string, bool, integer or float field.
func (d *decoder) scalar(n *yaml.Node, v reflect.Value, path string) {
	tag := n.ShortTag()
	if n.Kind != yaml.ScalarNode {
		tag = ""
	}
	switch v.Kind() {
	case reflect.String:
		if tag != "!!str" {
			d.typeErr(path, "expected a string, got %s", kindName(n))
			return
		}
		v.SetString(n.Value)
	case reflect.Bool:
		if tag != "!!bool" {
			d.typeErr(path, "expected true or false, got %s", kindName(n))
			return
		}
		var b bool
		if err := n.Decode(&b); err != nil {
			d.typeErr(path, "expected true or false, got %s", kindName(n))
			return
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int64:
		if tag != "!!int" {
			d.typeErr(path, "expected an integer, got %s", kindName(n))
			return
		}
		var x int64
		if err := n.Decode(&x); err != nil || v.OverflowInt(x) {
			d.typeErr(path, "integer %s is out of range", n.Value)
			return
		}
		v.SetInt(x)
	case reflect.Uint64:
		if tag != "!!int" {
			d.typeErr(path, "expected a non-negative integer, got %s", kindName(n))
			return
		}
		var x uint64
		if err := n.Decode(&x); err != nil {
			d.typeErr(path, "expected a non-negative integer below 2^64, got %s", n.Value)
			return
		}
		v.SetUint(x)
	case reflect.Float64:
		if tag != "!!float" && tag != "!!int" {
			d.typeErr(path, "expected a number, got %s", kindName(n))
			return
		}
		var x float64
		if err := n.Decode(&x); err != nil {
			// Integers beyond int64 still are numbers.
			f, perr := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
			if perr != nil {
				d.typeErr(path, "expected a number, got %s", kindName(n))
				return
			}
			x = f
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			d.typeErr(path, "expected a finite number, got %s", n.Value)
			return
		}
		v.SetFloat(x)
	default:
		panic(fmt.Sprintf("configs: field %s has unsupported type %s", path, v.Type()))
	}
}
