// Package queue runs grids of independent cells (an audit's defence
// settings, labelinf repro's items) on a distributed work
// queue: River (github.com/riverqueue/river) on PostgreSQL, in a
// database of its own, so that workers on other machines hold no
// credential to a competition's keys, budgets or defence state.
//
// # Grids, cells and kinds
//
// A grid is one input (a [Kind]'s bytes: for the audit, an audit.Plan,
// which carries the labels and the honest submissions by value) and its
// cells, numbered from 0. The input is stored once in the queue's
// database under its SHA-256 (table labelinf_blob); each cell is one
// River job whose arguments name the kind, the grid, the cell, the input's
// hash and the code's version ([Version]). A grid's ID is the hash of its
// kind, its input and the version, and a job is unique by (grid, cell):
// submitting a grid twice inserts nothing new, and a build of other code
// makes another grid, never reusing a stale result.
//
// A worker ([Work]) serves the River queue of its own version only
// (queue names carry the version's hash): a worker built from another
// commit never takes a job it cannot reproduce, and one that receives
// such a job cancels it, saying why. A worker reads the input once per
// grid (checking its hash: a damaged input fails its cells), runs the
// cell, and writes the result in the transaction that completes the job
// (River's JobCompleteTx), so that a result is stored exactly once. A
// cell that fails is retried after 1, 2, 4, … s (at most a minute) up to
// its attempts (default 3); then its error is the cell's result in the
// report. A cell's timeout (default 1 h) must exceed the longest cell;
// a worker killed mid-cell leaves its job running until River's rescuer
// (on the leader worker, every 30 s) finds it older than the worker's
// rescue-after (default the timeout plus 10 minutes) and makes it
// available again.
//
// The kinds are registered once, in this package (kinds.go): the audit
// ([KindAudit]: a cell is a defence setting, its result the cell's
// audit.CellResult), repro ([KindRepro]: a cell is an item, its result
// the files it writes), attack sweeps ([KindSweep]: a cell is a
// scorer against a benchmark labeling, its result the catalog.SweepRun)
// and BLIA experiments ([KindBLIA]: a cell is one trained model, a
// (seed, ε), its result the passive.Run). The lower packages know
// nothing of the queue: audit exports its plan and cells (audit.Plan),
// repro the assembly of REPRO.md (repro.Assemble), catalog a sweep's
// cells and report (catalog.Sweep), passive an experiment's units, their
// assembly and its configuration's wire form (passive.RunUnit,
// passive.Assemble, passive.ConfigWire).
//
// # Roles
//
// The coordinator (labelinf audit -queue) connects as the database's
// owner: [Queue.Setup] runs River's migrations and creates the tables.
// Workers should connect as a role [Queue.Grant] set up: it reads the
// inputs, writes results and works River's tables, and can neither
// change an input nor create anything.
package queue
