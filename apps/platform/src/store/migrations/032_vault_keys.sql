-- Each project's Vault key (services/vault/vault-keys.ts): 32 random bytes, sealed with the data-dir key
-- (control/secret-box.ts). Kept outside the project database on purpose: a dump or a copy of the project's data
-- carries ciphertext only. A branch holds its parent's key (its data is a copy of the parent's); point-in-time
-- recovery, restores and upgrades keep the project's own.
CREATE TABLE project_vault_keys (
  project_ref text PRIMARY KEY REFERENCES projects (ref) ON DELETE CASCADE,
  key_sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
