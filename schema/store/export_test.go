package store

// Exec runs a statement on the store, for tests that forge states the
// store's methods never produce (an older schema version, a hash
// collision).
func (s *Store) Exec(query string, args ...any) error {
	_, err := s.db.Exec(query, args...)
	return err
}

// Select runs a query into dest, for tests that check rows no method
// returns.
func (s *Store) Select(dest any, query string, args ...any) error {
	return s.db.Select(dest, query, args...)
}
