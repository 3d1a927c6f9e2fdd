-- The data API's settings per project (PostgREST's db-schemas, db-max-rows, db-extra-search-path, db-pool),
-- as the Management API's /v1/projects/{ref}/postgrest shows them. No row = the defaults (services/rest/config.ts).
CREATE TABLE project_postgrest_config (
  project_ref text PRIMARY KEY REFERENCES projects (ref) ON DELETE CASCADE,
  db_schema text NOT NULL,
  max_rows integer NOT NULL CHECK (max_rows BETWEEN 0 AND 1000000),
  db_extra_search_path text NOT NULL,
  db_pool integer CHECK (db_pool BETWEEN 0 AND 1000),
  updated_at timestamptz NOT NULL DEFAULT now()
);
