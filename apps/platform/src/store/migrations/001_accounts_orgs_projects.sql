-- Accounts, organizations, projects, support requests.

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  username text NOT NULL,
  password_hash text NOT NULL,
  -- Set for accounts created by an inviter with a one-time password.
  password_change_required boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE access_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  token_alias text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX access_tokens_user ON access_tokens (user_id);

CREATE TABLE organizations (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  plan text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'pro')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE members (
  organization_id bigint NOT NULL REFERENCES organizations ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'administrator', 'developer', 'read_only')),
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX members_user ON members (user_id);

CREATE TABLE projects (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  ref text NOT NULL UNIQUE CHECK (ref ~ '^[a-z]{20}$'),
  organization_id bigint NOT NULL REFERENCES organizations,
  name text NOT NULL,
  status text NOT NULL,
  status_reason text,
  region text NOT NULL DEFAULT 'local',
  postgres_major text NOT NULL CHECK (postgres_major IN ('15', '16', '17')),
  postgres_version text NOT NULL DEFAULT '',
  compute_size text NOT NULL,
  port integer NOT NULL UNIQUE,
  -- Sealed with the data directory's key (control/secret-box.ts).
  db_password_sealed text NOT NULL,
  readonly_password_sealed text NOT NULL,
  authenticator_password_sealed text NOT NULL,
  inserted_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX projects_org ON projects (organization_id);

CREATE TABLE support_requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  category text NOT NULL,
  project_ref text,
  subject text NOT NULL,
  message text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX support_requests_user ON support_requests (user_id, created_at DESC);
