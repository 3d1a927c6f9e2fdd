-- Storage buckets and edge functions as records (their data APIs come later), and the storage
-- archive the delete-project flow downloads. Object and function files live under the data
-- directory: storage/<ref>/<bucket>/, functions/<ref>/<slug>/<version>/, storage-archives/<ref>/.

CREATE TABLE storage_buckets (
  project_ref text NOT NULL REFERENCES projects (ref) ON DELETE CASCADE,
  -- The bucket's name is its id (as in Supabase Storage); also its directory name.
  id text NOT NULL CHECK (id ~ '^[A-Za-z0-9][A-Za-z0-9._-]*$' AND length(id) <= 100),
  owner uuid REFERENCES users ON DELETE SET NULL,
  public boolean NOT NULL DEFAULT false,
  -- NULL: every type allowed; empty array: none.
  allowed_mime_types text[],
  -- Bytes; NULL: no limit.
  file_size_limit bigint CHECK (file_size_limit >= 0),
  type text NOT NULL DEFAULT 'STANDARD' CHECK (type IN ('STANDARD', 'ANALYTICS')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_ref, id)
);

-- One archive per project; a new request replaces the previous one.
CREATE TABLE storage_archives (
  project_ref text PRIMARY KEY REFERENCES projects (ref) ON DELETE CASCADE,
  id uuid NOT NULL,
  status text NOT NULL CHECK (status IN ('building', 'ready', 'failed')),
  file_path text,
  error text,
  requested_by uuid REFERENCES users ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE edge_functions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_ref text NOT NULL REFERENCES projects (ref) ON DELETE CASCADE,
  slug text NOT NULL CHECK (slug ~ '^[A-Za-z][A-Za-z0-9_-]*$'),
  name text NOT NULL,
  -- Starts at 1, one more on every deploy; files are in functions/<ref>/<slug>/<version>/.
  version integer NOT NULL DEFAULT 1,
  verify_jwt boolean NOT NULL DEFAULT true,
  entrypoint_path text NOT NULL,
  import_map_path text,
  -- [{ "name": "index.ts", "size": 123 }], in upload order.
  files jsonb NOT NULL DEFAULT '[]',
  deployed_by uuid REFERENCES users ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_ref, slug)
);
