package wormhole

import (
	"errors"

	"github.com/flitsim/flitsim/analytic"
)

func errorsIsSaturated(err error) bool { return errors.Is(err, analytic.ErrSaturated) }
