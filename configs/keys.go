package configs

import (
	"reflect"
	"regexp"
	"strings"
)

// The keys of an engine's refusal.
//
// An engine refuses a configuration in its own terms: the fields of its
// Config, by their Go names ("Run.MaxWarmup", "PE.Mean"). Each mode's
// config builder says, next to the code that fills the engine's Config,
// which field of the Experiment each engine field comes from (fieldLink,
// by pointers: a misspelt or renamed field does not compile). The names on
// both sides are read from the types, never written by hand: the engine's
// from its struct fields, the file's from the schema's yaml tags
// (schemaKey). So a refusal names the file's keys, and is reported at the
// section of the first key it names.

// fieldLink ties a field of an engine's Config (engine, a pointer into it)
// to the field of the Experiment it is built from (schema, a pointer into
// the Experiment); note says how the value was derived when it is not the
// key's own ("times n").
type fieldLink struct {
	engine, schema any
	note           string
}

// link is a fieldLink without a note.
func link(engine, schema any) fieldLink { return fieldLink{engine: engine, schema: schema} }

// engineKeys maps the Go names of the linked fields of cfg (a pointer to
// an engine's Config) to the keys of e's schema: each field by its path
// ("Run.MaxWarmup") and, where no other linked field shares it, by its
// last name ("MaxWarmup"), as engines write both.
func engineKeys(e *Experiment, cfg any, links []fieldLink) map[string]string {
	root := reflect.ValueOf(e).Elem()
	ecfg := reflect.ValueOf(cfg).Elem()
	out := map[string]string{}
	leaves := map[string][]string{}
	for _, l := range links {
		path, ok := fieldPath(ecfg, reflect.ValueOf(l.engine), goName)
		if !ok {
			panic("configs: an engine link points outside the engine's Config")
		}
		key, ok := fieldPath(root, reflect.ValueOf(l.schema), yamlName)
		if !ok {
			panic("configs: an engine link points outside the schema")
		}
		if l.note != "" {
			key += " (" + l.note + ")"
		}
		out[path] = key
		if i := strings.LastIndexByte(path, '.'); i >= 0 {
			leaves[path[i+1:]] = append(leaves[path[i+1:]], key)
		}
	}
	for leaf, keys := range leaves {
		if _, taken := out[leaf]; !taken && len(keys) == 1 {
			out[leaf] = keys[0]
		}
	}
	return out
}

// goName and yamlName name a struct field: by its Go name, or by its key
// in the file ("" for a field with no key).
func goName(f reflect.StructField) string { return f.Name }

func yamlName(f reflect.StructField) string {
	tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if tag == "-" {
		return ""
	}
	return tag
}

// fieldPath returns the dotted names (by name) of the field of struct v
// that ptr points to, searching nested structs; a struct and its first
// field share an address, so the type decides between them.
func fieldPath(v reflect.Value, ptr reflect.Value, name func(reflect.StructField) string) (string, bool) {
	for i := 0; i < v.NumField(); i++ {
		sf := v.Type().Field(i)
		n := name(sf)
		if n == "" || !sf.IsExported() {
			continue
		}
		f := v.Field(i)
		if f.Addr().Pointer() == ptr.Pointer() && f.Type() == ptr.Type().Elem() {
			return n, true
		}
		if f.Kind() == reflect.Struct {
			if p, ok := fieldPath(f, ptr, name); ok {
				return n + "." + p, true
			}
		}
	}
	return "", false
}

// goIdent matches a Go field name or path in an engine's message.
var goIdent = regexp.MustCompile(`[A-Z][A-Za-z0-9]*(\.[A-Z][A-Za-z0-9]*)*`)

// inKeys writes msg, an engine's refusal, with every linked Go name it
// holds as the file's key (written within section `within`, when the
// engine's whole Config is that section: mode network's run control), and
// returns the full key of the first one (or "").
func inKeys(msg string, keys map[string]string, within string) (string, string) {
	first := ""
	out := goIdent.ReplaceAllStringFunc(msg, func(id string) string {
		k, ok := keys[id]
		if !ok {
			return id
		}
		if first == "" {
			first, _, _ = strings.Cut(k, " ")
		}
		if within != "" {
			k = strings.TrimPrefix(k, within+".")
		}
		return k
	})
	return out, first
}
