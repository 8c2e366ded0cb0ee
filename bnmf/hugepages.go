package bnmf

// hugePagesMin is the size in bytes from which backWithHugePages asks for
// huge pages: smaller arrays span few 4 KiB pages and fit the TLB's reach,
// and collapsing costs about 2 ms per MiB.
const hugePagesMin = 4 << 20
