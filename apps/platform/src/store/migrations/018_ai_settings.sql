-- The installation's AI provider chosen in the dashboard (ai/settings-store.ts): one row at most. Without
-- it the STRATUM_AI_* environment applies; with it, the row does. The API key is sealed with the data-dir
-- key (control/secret-box.ts) and never answered.
CREATE TABLE ai_settings (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  provider text NOT NULL CHECK (provider IN ('openai', 'anthropic', 'openai-compatible')),
  model text NOT NULL CHECK (length(model) BETWEEN 1 AND 200),
  base_url text CHECK (base_url ~ '^https?://' AND length(base_url) <= 2048),
  api_key_sealed text,
  CHECK (provider <> 'openai-compatible' OR base_url IS NOT NULL),
  updated_by uuid REFERENCES users ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
