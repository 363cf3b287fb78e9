package httpclient

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"sync"
)

// DefaultMaxReplayBytes is the default of RetryPolicy.MaxBufferedBody.
const DefaultMaxReplayBytes = 16 << 20

// errAttemptOver ends the body of an attempt that was given up.
var errAttemptOver = errors.New("httpclient: request attempt is over")

// bodySource gives the request body of each attempt of a call. Bytes
// bodies (JSON, form, text) are replayed as they are. A reader (a raw body
// or a multipart file part) is replayed by seeking back when it is an
// io.ReadSeeker (a file, a bytes.Reader); otherwise, when the call may be
// retried, it is read into memory up to a bound before the first attempt;
// a larger one is streamed once and makes the call not replayable.
type bodySource struct {
	r          *Request
	replayable bool
	prepared   bool
	readers    []*replayReader // the raw body's, or one per multipart reader part

	// The previous attempt's body, ended before the next one starts.
	prev     io.Closer
	prevDone chan struct{}
}

// replayReader is one reader of a body and how it is replayed.
type replayReader struct {
	src    io.Reader // the caller's reader
	seeker io.ReadSeeker
	start  int64
	data   []byte // buffered content (replayed)
	head   []byte // read while buffering a reader that turned out too large
	used   bool
}

// open returns the content for one attempt and its length (-1 when
// unknown); ok is false when it cannot be replayed.
func (rr *replayReader) open() (rd io.Reader, n int64, ok bool) {
	switch {
	case rr.data != nil:
		return bytes.NewReader(rr.data), int64(len(rr.data)), true
	case rr.seeker != nil:
		end, err := rr.seeker.Seek(0, io.SeekEnd)
		if err == nil {
			_, err = rr.seeker.Seek(rr.start, io.SeekStart)
		}
		if err != nil {
			if rr.used {
				return nil, 0, false
			}
			end = -1 // not seekable after all: sent once, as it is
		}
		rr.used = true
		if end < 0 {
			return rr.seeker, -1, true
		}
		return rr.seeker, end - rr.start, true
	case rr.used:
		return nil, 0, false
	}
	rr.used = true
	if rr.head != nil {
		return io.MultiReader(bytes.NewReader(rr.head), rr.src), -1, true
	}
	return rr.src, -1, true
}

// newReplayReader prepares rd; buffer says whether a reader that cannot seek
// is read into memory (up to *budget bytes, which it uses up).
func newReplayReader(rd io.Reader, buffer bool, budget *int64) (*replayReader, error) {
	rr := &replayReader{src: rd}
	if f, ok := rd.(File); ok && f.Body != nil {
		rd = f.Body
	}
	if rs, ok := rd.(io.ReadSeeker); ok {
		if pos, err := rs.Seek(0, io.SeekCurrent); err == nil {
			rr.seeker, rr.start = rs, pos
			return rr, nil
		}
	}
	if !buffer {
		return rr, nil
	}
	b, err := io.ReadAll(io.LimitReader(rd, *budget+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > *budget {
		rr.head = b // too large: streamed once, not replayed
		*budget = -1
		return rr, nil
	}
	*budget -= int64(len(b))
	rr.data = b
	return rr, nil
}

// prepare sets up the readers of the body; buffer says whether the call may
// be retried (so that readers are worth buffering).
func (bs *bodySource) prepare(buffer bool, limit int64) error {
	if bs.prepared {
		return nil
	}
	bs.prepared = true
	r := bs.r
	budget := limit
	bs.replayable = true
	add := func(rd io.Reader) error {
		rr, err := newReplayReader(rd, buffer, &budget)
		if err != nil {
			return err
		}
		if rr.seeker == nil && rr.data == nil {
			bs.replayable = false
		}
		bs.readers = append(bs.readers, rr)
		return nil
	}
	switch {
	case r.parts != nil:
		for _, p := range r.parts {
			if p.reader != nil {
				if err := add(p.reader); err != nil {
					return err
				}
			}
		}
	case r.reader != nil:
		return add(r.reader)
	}
	return nil
}

// next returns the body of the next attempt, its length (-1 when unknown)
// and its content type; ok is false when the body cannot be sent again.
func (bs *bodySource) next() (body io.Reader, length int64, contentType string, ok bool) {
	bs.endPrev()
	r := bs.r
	switch {
	case r.parts != nil:
		readers := make([]io.Reader, len(bs.readers))
		for i, rr := range bs.readers {
			if readers[i], _, ok = rr.open(); !ok {
				return nil, 0, "", false
			}
		}
		body, contentType = r.sendParts(bs, r.parts, readers)
		return body, -1, contentType, true
	case r.reader != nil:
		rd, n, ok := bs.readers[0].open()
		if !ok {
			return nil, 0, "", false
		}
		g := &guardedReader{r: rd}
		bs.prev = g
		return g, n, r.contentType, true
	case r.body != nil:
		return bytes.NewReader(r.body), int64(len(r.body)), r.contentType, true
	}
	return nil, 0, "", true
}

// pipeParts streams the multipart body of parts (with the content of
// readers for their reader parts) through a pipe, written by a goroutine;
// bs ends it before the next attempt.
func pipeParts(bs *bodySource, parts []part, readers []io.Reader) (io.Reader, string) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	done := make(chan struct{})
	go func() {
		defer close(done)
		pw.CloseWithError(writeParts(mw, parts, readers))
	}()
	bs.prev, bs.prevDone = pr, done
	return pr, mw.FormDataContentType()
}

// endPrev stops the previous attempt's body (the transport may still be
// reading it in a goroutine) before its readers are rewound.
func (bs *bodySource) endPrev() {
	if bs.prev == nil {
		return
	}
	if pr, ok := bs.prev.(*io.PipeReader); ok {
		pr.CloseWithError(errAttemptOver)
	} else {
		bs.prev.Close()
	}
	if bs.prevDone != nil {
		<-bs.prevDone
	}
	bs.prev, bs.prevDone = nil, nil
}

// close ends the call's body: the caller's raw body is closed when it is an
// io.Closer, as net/http closes a request body after sending it.
func (bs *bodySource) close() {
	if bs.prevDone == nil {
		bs.prev = nil // a pipe's writer ends once the transport is done with it
	}
	if r := bs.r; r.reader != nil {
		if c, ok := r.reader.(io.Closer); ok {
			c.Close()
		}
	}
}

// guardedReader is one attempt's view of a raw body: net/http closes it
// (perhaps from another goroutine, after RoundTrip returned), and once it is
// closed it reads nothing more, so that the next attempt may rewind the
// reader underneath. It does not close the caller's reader.
type guardedReader struct {
	mu     sync.Mutex
	r      io.Reader
	closed bool
}

func (g *guardedReader) Read(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return 0, errAttemptOver
	}
	return g.r.Read(p)
}

func (g *guardedReader) Close() error {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	return nil
}
