-- Exit surveys from the delete-project flow.
CREATE TABLE exit_surveys (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid REFERENCES users ON DELETE SET NULL,
  project_ref text NOT NULL,
  organization_slug text NOT NULL,
  reasons text[] NOT NULL DEFAULT '{}',
  additional_feedback text NOT NULL DEFAULT '',
  exit_action text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
