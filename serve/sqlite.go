package serve

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"

	_ "modernc.org/sqlite" // database/sql driver "sqlite"
)

// OpenSQLite opens (creating if needed) the SQLite database file at path
// and migrates it. Durability is set on every connection: WAL journal and
// synchronous=FULL (a commit is on disk, WAL fsynced, before Submit
// returns) [SQLite, "Write-Ahead Logging" and PRAGMA synchronous]. One
// process at a time may serve a database file; several replicas need
// [OpenPostgres].
func OpenSQLite(ctx context.Context, path string) (Store, error) {
	v := url.Values{}
	v.Add("_pragma", "busy_timeout(10000)")
	v.Add("_pragma", "journal_mode(WAL)")
	v.Add("_pragma", "synchronous(FULL)")
	v.Add("_pragma", "foreign_keys(ON)")
	v.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+v.Encode())
	if err != nil {
		return nil, fmt.Errorf("serve: sqlite %s: %w", path, err)
	}
	s := &sqlStore{db: db, d: dialect{
		name:           "sqlite",
		durability:     []string{"PRAGMA journal_mode", "PRAGMA synchronous"},
		durabilityKeys: []string{"journal_mode", "synchronous"},
		serialise:      true,
	}}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}
