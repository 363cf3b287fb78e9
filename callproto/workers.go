package callproto

import (
	"sync/atomic"
	"time"
)

// workers runs a hub's requests on goroutines that stay for the next one.
// A fresh goroutine per request starts on a small stack that the handler's
// calls (JSON decoding, the Registry, the bus) grow by copying, on every
// request: across processes that copying was a tenth of a hub's CPU time.
// A worker keeps its grown stack: after a task it waits up to
// workerIdle for the next before it exits.
type workers struct {
	tasks chan func() // unbuffered: a send succeeds only into an idle worker
	stop  <-chan struct{}
	idle  atomic.Int32 // workers waiting for a task
}

// workerIdle is how long a worker waits for another task before it exits.
const workerIdle = 10 * time.Second

func newWorkers(stop <-chan struct{}) *workers {
	return &workers{tasks: make(chan func()), stop: stop}
}

// run runs task on an idle worker, or on a new one when none is idle.
func (w *workers) run(task func()) {
	if w.idle.Load() > 0 {
		select {
		case w.tasks <- task:
			return
		default:
		}
	}
	go w.work(task)
}

func (w *workers) work(task func()) {
	var t *time.Timer
	for {
		task()
		if t == nil {
			t = time.NewTimer(workerIdle)
		} else {
			t.Reset(workerIdle)
		}
		w.idle.Add(1)
		select {
		case task = <-w.tasks:
			w.idle.Add(-1)
		case <-t.C:
			w.idle.Add(-1)
			return
		case <-w.stop:
			w.idle.Add(-1)
			t.Stop()
			return
		}
	}
}
