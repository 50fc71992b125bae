package ctxwait

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestDo(t *testing.T) {
	want := errors.New("step failed")
	if err := Do(context.Background(), func() error { return want }); err != want {
		t.Errorf("Do = %v; want %v", err, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	defer close(release)
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	t0 := time.Now()
	err := Do(ctx, func() error { <-release; return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Do after cancel = %v; want context.Canceled", err)
	}
	if el := time.Since(t0); el > time.Second {
		t.Errorf("Do returned %v after the cancellation; want < 1 s", el)
	}
	if err := Do(ctx, func() error { t.Error("ran after cancel"); return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("Do on a done context = %v", err)
	}
}
