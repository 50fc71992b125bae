package serve

import (
	"fmt"
	"io"
)

// readAllLimited reads r to the end, refusing more than max bytes.
func readAllLimited(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("upload over %d bytes", max)
	}
	return b, nil
}
