package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// ReadSeries reads a published time-series file: a JSON array of forks
// (processes), each an array of positive numbers in measurement order, as
// Traini et al. published their steady-state data (timeseries/all). A
// gzip-compressed file is read as well.
//
// A malformed file is a *record.SyntaxError naming the file and line.
func ReadSeries(path string) ([][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseSeries(f, path)
}

// maxSeriesBytes bounds what ParseSeries reads: 64 MiB holds twenty
// thousand forks of the published length.
const maxSeriesBytes = 64 << 20

// ParseSeries reads a published time-series file from r; file names r in
// error messages.
func ParseSeries(r io.Reader, file string) ([][]float64, error) {
	data, err := readSeries(r, file)
	if err != nil {
		return nil, err
	}
	d := &seriesDecoder{file: file, data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	d.dec.UseNumber()
	tok, off, err := d.token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('[') {
		return nil, d.synErr(off, "want an array of forks, got %v", describe(tok))
	}
	var forks [][]float64
	for {
		tok, off, err := d.token()
		if err != nil {
			return nil, err
		}
		if tok == json.Delim(']') {
			break
		}
		if tok != json.Delim('[') {
			return nil, d.synErr(off, "fork %d: want an array of numbers, got %v", len(forks), describe(tok))
		}
		fork, err := d.fork(len(forks))
		if err != nil {
			return nil, err
		}
		forks = append(forks, fork)
	}
	if _, err := d.dec.Token(); err != io.EOF {
		return nil, d.synErr(d.dec.InputOffset(), "data after the array of forks")
	}
	if len(forks) == 0 {
		return nil, d.synErr(0, "no forks")
	}
	return forks, nil
}

// readSeries reads all of r, gunzipped if it is gzip, up to
// maxSeriesBytes.
func readSeries(r io.Reader, file string) ([]byte, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &record.SyntaxError{File: file, Line: 1, Msg: "gzip: " + err.Error()}
		}
		defer zr.Close()
		r = zr
	} else {
		r = br
	}
	data, err := io.ReadAll(io.LimitReader(r, maxSeriesBytes+1))
	if err != nil {
		return nil, &record.SyntaxError{File: file, Line: 1, Msg: err.Error()}
	}
	if len(data) > maxSeriesBytes {
		return nil, &record.SyntaxError{File: file, Line: 1, Msg: fmt.Sprintf("larger than %d MiB", maxSeriesBytes>>20)}
	}
	return data, nil
}

// seriesDecoder reads the JSON tokens of a series file, naming the line
// of each error.
type seriesDecoder struct {
	file string
	data []byte
	dec  *json.Decoder
}

func (d *seriesDecoder) synErr(off int64, format string, args ...any) error {
	off = min(max(off, 0), int64(len(d.data)))
	line := 1 + bytes.Count(d.data[:off], []byte{'\n'})
	return &record.SyntaxError{File: d.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// token returns the next token and its offset. A token's offset is that
// of its last byte: the line it ends on.
func (d *seriesDecoder) token() (json.Token, int64, error) {
	off := d.dec.InputOffset()
	tok, err := d.dec.Token()
	if err == nil {
		return tok, d.dec.InputOffset() - 1, nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	if err == io.EOF {
		return nil, off, d.synErr(off, "unexpected end of file")
	}
	return nil, off, d.synErr(off, "%v", err)
}

// fork reads the values of fork n, after its opening bracket.
func (d *seriesDecoder) fork(n int) ([]float64, error) {
	var fork []float64
	for {
		tok, off, err := d.token()
		if err != nil {
			return nil, err
		}
		if tok == json.Delim(']') {
			if len(fork) == 0 {
				return nil, d.synErr(off, "fork %d is empty", n)
			}
			return fork, nil
		}
		num, ok := tok.(json.Number)
		if !ok {
			return nil, d.synErr(off, "fork %d, value %d: want a number, got %v", n, len(fork), describe(tok))
		}
		v, err := num.Float64()
		if err != nil || math.IsInf(v, 0) || v <= 0 {
			return nil, d.synErr(off, "fork %d, value %d: %s is not a positive finite number", n, len(fork), num)
		}
		fork = append(fork, v)
	}
}

// describe names a JSON token for an error message.
func describe(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		return fmt.Sprintf("%q", string(t))
	case string:
		return fmt.Sprintf("the string %q", t)
	case nil:
		return "null"
	}
	return fmt.Sprint(tok)
}
