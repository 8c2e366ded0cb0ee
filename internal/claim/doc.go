// Package claim lets several processes share out the work items (a
// study's cells) of one directory, and locks that directory against a
// process that would discard it.
//
// Claims. Several processes may run one study into one directory: a user
// starting a second run, or the shards of a job array on a shared file
// system, or machines pulling cells from one directory without a shard
// plan. Before a process runs a cell it claims it by creating <key>.claim
// in the claims directory exclusively (O_EXCL), holding its host, pid and
// start time (File); it removes the claim once the cell's result is
// stored. A process skips a cell whose claim is live, and takes over one
// whose holder is gone:
//
//   - A holder keeps its claims live by touching them every Refresh. A
//     claim untouched for Lease is stale, wherever its holder runs (a
//     crashed machine, a killed or hung process, a reused pid).
//   - On the same host, a claim whose pid is no longer alive is stale at
//     once (process.Alive).
//
// Taking over renames the stale claim aside, checks that it is still the
// claim that was judged stale (else puts it back), and creates a new one
// exclusively, so two processes never both take one cell. Clocks of
// different hosts sharing a directory should agree to well within Lease;
// a file system that does not keep modification times, or implements
// O_EXCL loosely (some NFS versions), defeats the scheme.
//
// Lock. A run holds a Lock on the directory for its whole life: shared,
// so that runs share the directory, or exclusive while one discards it
// (see Lock).
package claim
