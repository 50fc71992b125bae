package serve

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// OpenPostgres connects to PostgreSQL with the connection string dsn (a
// URL or key=value list) and migrates the schema. Every session runs with
// synchronous_commit=on, so a commit is flushed to the server's WAL on
// disk before Submit returns, whatever the server's default. Several serve
// replicas may share one database: a key's budget row is locked (SELECT …
// FOR UPDATE) for the length of its submission's transaction, and
// migrations take an advisory lock.
func OpenPostgres(ctx context.Context, dsn string) (Store, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("serve: postgres dsn: %w", err)
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	cfg.RuntimeParams["synchronous_commit"] = "on"
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(32)
	s := &sqlStore{db: db, d: dialect{
		name:           "postgres",
		forUpdate:      " FOR UPDATE",
		lockMigrations: "SELECT pg_advisory_xact_lock(7036761890177300001)", // arbitrary constant, "labelinf migrations"
		durability:     []string{"SHOW synchronous_commit", "SHOW fsync"},
		durabilityKeys: []string{"synchronous_commit", "fsync"},
	}}
	if err := s.db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("serve: postgres: %w", err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}
