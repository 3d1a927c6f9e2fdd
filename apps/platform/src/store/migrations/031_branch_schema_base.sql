-- Branch diff and merge by schema comparison (control/branching/schema-merge.ts): the branch's catalog
-- snapshot when it was copied from its parent (and again after each merge), the common ancestor that tells
-- the branch's schema changes from the parent's own, so that an object both changed is a conflict.
CREATE TABLE branch_schema_bases (
  branch_id uuid PRIMARY KEY REFERENCES branches (id) ON DELETE CASCADE,
  snapshot jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
