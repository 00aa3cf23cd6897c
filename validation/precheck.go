package validation

import (
	"fmt"
	"strings"

	"github.com/flitsim/flitsim/configs"
)

// CheckModels evaluates every model e lists over each of its Setups
// (setups, from FromExperiments of e) and returns, as configs.Errors placed
// at the models: entry in e's file, every model that cannot be evaluated
// there at all: an unknown name or variant (draper-ghosh:nonsense), a
// model of another mode, or parameters the model cannot represent (Dally
// 1990 on a bidirectional torus). It runs only the analytical models, in
// milliseconds, so flitsim validate refuses such a file (exit 3) before it
// simulates anything. Points outside a model's domain or past its
// saturation are statuses, not problems, and pass.
func CheckModels(e *configs.Experiment, setups []Setup) error {
	var errs configs.Errors
	seen := map[string]bool{}
	for _, s := range setups {
		for i, m := range s.Models {
			if IsExternal(m) {
				continue // evaluated by CheckExternal, with its timeout
			}
			for _, name := range expand([]string{m}) {
				_, err := EvaluateModel(s, name)
				if err == nil {
					continue
				}
				msg := strings.TrimPrefix(err.Error(), "validation: "+s.Name+": ")
				msg = strings.TrimPrefix(msg, "model "+name+": ")
				key := fmt.Sprintf("models[%d]", i)
				if seen[key+msg] {
					continue
				}
				seen[key+msg] = true
				errs = append(errs, e.ErrorAt(key, "model %q does not apply to this experiment: %s", m, msg))
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}
