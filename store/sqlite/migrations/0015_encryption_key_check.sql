-- One row: a check of the encryption key that seals this store's secrets
-- (an HMAC of a fixed text under the key, and a short fingerprint of it;
-- never the key). Written by the first replica to start on an empty store,
-- or after an existing secret opened with the key on upgrade; every later
-- start compares its own key's check and refuses to start on a mismatch.
CREATE TABLE encryption_key_check (
	id          INTEGER PRIMARY KEY CHECK (id = 1),
	key_id      TEXT NOT NULL,
	check_value TEXT NOT NULL,
	created_at  INTEGER NOT NULL
) STRICT;
