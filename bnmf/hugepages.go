package bnmf

// hugePagesMin is the size in bytes from which backWithHugePages asks for
// huge pages: smaller arrays span few 4 KiB pages and fit the TLB's reach,
// and collapsing pages has a cost per MiB (README, Speed).
const hugePagesMin = 4 << 20
