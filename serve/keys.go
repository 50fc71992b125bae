package serve

// This file makes and checks API keys.

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
)

// An API key reads lik_ID_SECRET: ID (16 hex digits) finds the stored key,
// SECRET (32 random bytes, base64url) proves it. Only the SHA-256 of the
// secret is stored. A plain hash is enough here, unlike for passwords: a
// 256-bit random secret cannot be guessed from its hash by search.
const keyPrefix = "lik_"

// NewKey makes a key for name at t: the stored Key and the token to hand
// to its holder (shown once).
func NewKey(name string, t time.Time) (Key, string, error) {
	if name == "" || len(name) > 100 || strings.ContainsAny(name, "\n\r\t") {
		return Key{}, "", errors.New("serve: key name: want 1 to 100 characters on one line")
	}
	var id [8]byte
	var secret [32]byte
	if _, err := rand.Read(id[:]); err != nil {
		return Key{}, "", err
	}
	if _, err := rand.Read(secret[:]); err != nil {
		return Key{}, "", err
	}
	sec := base64.RawURLEncoding.EncodeToString(secret[:])
	k := Key{ID: hex.EncodeToString(id[:]), Name: name, Hash: hashSecret(sec), Created: t.UTC()}
	return k, keyPrefix + k.ID + "_" + sec, nil
}

func hashSecret(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

// splitToken splits a token into its id and secret, reporting whether it
// has a key's shape (lik_, 16 characters, _, 43 characters).
func splitToken(token string) (id, secret string, ok bool) {
	rest, ok := strings.CutPrefix(token, keyPrefix)
	id, secret, ok2 := strings.Cut(rest, "_")
	return id, secret, ok && ok2 && len(id) == 16 && len(secret) == 43
}

// wellFormedToken reports whether token has a key's shape: only such a
// token can authenticate.
func wellFormedToken(token string) bool {
	_, _, ok := splitToken(token)
	return ok
}

// errBadKey is every authentication failure's error, whatever the cause,
// except revocation (which tells the holder something they may act on).
var errBadKey = errors.New("invalid API key")
var errRevokedKey = errors.New("API key revoked")

// dummyHash is compared against when no stored key matches the id, so an
// unknown id costs the same hash and comparison as a wrong secret.
var dummyHash = hashSecret("no such key")

// Authenticate returns the stored key that token proves, comparing hashes
// in constant time.
func Authenticate(ctx context.Context, st Store, token string) (Key, error) {
	id, secret, ok := splitToken(token)
	if !ok {
		return Key{}, errBadKey
	}
	k, err := st.Key(ctx, id)
	want := k.Hash
	if errors.Is(err, ErrNotFound) {
		want = dummyHash
	} else if err != nil {
		return Key{}, fmt.Errorf("serve: key lookup: %w", err)
	}
	got := hashSecret(secret)
	if subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 || err != nil {
		return Key{}, errBadKey
	}
	if !k.Revoked.IsZero() {
		return Key{}, errRevokedKey
	}
	return k, nil
}
