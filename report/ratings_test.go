package report

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/dataset"
)

// movieLens100K is the rating distribution of the MovieLens 100K data
// after the paper's cleaning.
var movieLens100K = []dataset.RatingCount{{Value: 1, Count: 6007}, {Value: 2, Count: 11324}, {Value: 3, Count: 27084}, {Value: 4, Count: 34128}, {Value: 5, Count: 21180}}

func TestWriteRatingTable(t *testing.T) {
	var b strings.Builder
	if err := WriteRatingTable(&b, "movielens-100k", movieLens100K); err != nil {
		t.Fatal(err)
	}
	want := `Rating distribution of movielens-100k (99,723 ratings)

| Rating |  Count | Share (%) |
|-------:|-------:|----------:|
|      1 |  6,007 |       6.0 |
|      2 | 11,324 |      11.4 |
|      3 | 27,084 |      27.2 |
|      4 | 34,128 |      34.2 |
|      5 | 21,180 |      21.2 |
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// readPNG decodes the PNG at path.
func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// barPixels counts the pixels of the bar colour.
func barPixels(img image.Image) int {
	n := 0
	want := ratingBarColor()
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 == uint32(want.R) && g>>8 == uint32(want.G) && bl>>8 == uint32(want.B) {
				n++
			}
		}
	}
	return n
}

func TestWriteRatingChart(t *testing.T) {
	halfStars := make([]dataset.RatingCount, 10)
	for i := range halfStars {
		halfStars[i] = dataset.RatingCount{Value: 0.5 * float64(i+1), Count: 100 * (i + 1)}
	}
	continuous := make([]dataset.RatingCount, 200)
	for i := range continuous {
		continuous[i] = dataset.RatingCount{Value: float64(i) / 40, Count: 1 + i%7}
	}
	tests := []struct {
		name   string
		counts []dataset.RatingCount
	}{
		{"stars", movieLens100K},
		{"half stars", halfStars},
		{"histogram", continuous},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ratings.png")
			if err := WriteRatingChart(path, "Ratings of "+tt.name, tt.counts); err != nil {
				t.Fatal(err)
			}
			img := readPNG(t, path)
			// 5 x 3.5 inches at FigureDPI.
			if b := img.Bounds(); b.Dx() != 5*FigureDPI || b.Dy() != 7*FigureDPI/2 {
				t.Errorf("image is %d x %d pixels, want %d x %d", b.Dx(), b.Dy(), 5*FigureDPI, 7*FigureDPI/2)
			}
			// The bars cover a visible part of the image: at least 3% of it.
			if n, all := barPixels(img), img.Bounds().Dx()*img.Bounds().Dy(); n < all*3/100 {
				t.Errorf("bars cover %d of %d pixels", n, all)
			}
		})
	}
}

func TestRatingErrors(t *testing.T) {
	tests := []struct {
		name   string
		counts []dataset.RatingCount
	}{
		{"empty", nil},
		{"all zero", []dataset.RatingCount{{Value: 1}}},
		{"negative count", []dataset.RatingCount{{Value: 1, Count: -1}}},
		{"unsorted", []dataset.RatingCount{{Value: 2, Count: 1}, {Value: 1, Count: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := WriteRatingTable(&strings.Builder{}, "x", tt.counts); err == nil {
				t.Error("WriteRatingTable gave no error")
			}
			if err := WriteRatingChart(filepath.Join(t.TempDir(), "x.png"), "x", tt.counts); err == nil {
				t.Error("WriteRatingChart gave no error")
			}
		})
	}
	if err := WriteRatingChart(filepath.Join(t.TempDir(), "missing", "x.png"), "x", movieLens100K); err == nil {
		t.Error("writing into a missing directory gave no error")
	}
}

func TestRatingCountFormats(t *testing.T) {
	tests := []struct {
		n             int
		full, compact string
	}{
		{0, "0", "0"},
		{999, "999", "999"},
		{6083, "6,083", "6,083"},
		{34101, "34,101", "34k"},
		{999_499, "999,499", "999k"},
		{3_600_000, "3,600,000", "3.6M"},
		{25_000_095, "25,000,095", "25.0M"},
	}
	for _, tt := range tests {
		if got := ratingThousands(tt.n); got != tt.full {
			t.Errorf("ratingThousands(%d) = %q, want %q", tt.n, got, tt.full)
		}
		if got := ratingCompact(tt.n); got != tt.compact {
			t.Errorf("ratingCompact(%d) = %q, want %q", tt.n, got, tt.compact)
		}
	}
}
