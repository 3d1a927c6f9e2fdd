-- Saved SQL snippets and their folders (the SQL editor spec's snippets and folders). Folders are their owner's: their
-- names are unique among the owner's folders of the project. Only private snippets sit in folders;
-- deleting a folder deletes what it holds.
CREATE TABLE content_folders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id bigint NOT NULL REFERENCES projects ON DELETE CASCADE,
  owner_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  parent_id uuid REFERENCES content_folders ON DELETE CASCADE,
  name text NOT NULL,
  inserted_at timestamptz NOT NULL DEFAULT now(),
  CHECK (parent_id IS DISTINCT FROM id)
);
CREATE UNIQUE INDEX content_folders_name ON content_folders (project_id, owner_id, name);
CREATE INDEX content_folders_parent ON content_folders (parent_id);

CREATE TABLE content (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id bigint NOT NULL REFERENCES projects ON DELETE CASCADE,
  owner_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  last_updated_by uuid REFERENCES users ON DELETE SET NULL,
  folder_id uuid REFERENCES content_folders ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  type text NOT NULL CHECK (type IN ('sql', 'report', 'log_sql')),
  visibility text NOT NULL CHECK (visibility IN ('user', 'project', 'org', 'public')),
  favorite boolean NOT NULL DEFAULT false,
  content jsonb NOT NULL,
  inserted_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (folder_id IS NULL OR visibility = 'user')
);
CREATE INDEX content_project_owner ON content (project_id, owner_id);
CREATE INDEX content_project_visibility ON content (project_id, visibility);
CREATE INDEX content_folder ON content (folder_id);
