-- Members join by invitation, which the invitee accepts (docs/ARCHITECTURE.md "Accounts, invitations, permissions").
-- There is no mail server: the inviter is shown a one-time link once and hands it over; only the
-- link's hash is kept, so a leaked platform database yields no usable link.
CREATE TABLE invitations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id bigint NOT NULL REFERENCES organizations ON DELETE CASCADE,
  -- Normalised as sign-in normalises emails (trimmed, lower case).
  email text NOT NULL CHECK (email = lower(btrim(email))),
  role text NOT NULL CHECK (role IN ('owner', 'administrator', 'developer', 'read_only')),
  invited_by uuid REFERENCES users ON DELETE SET NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  -- Set once, when the invitee accepts: the link then stops working. Revoked and declined
  -- invitations are deleted.
  accepted_at timestamptz
);
-- One open invitation per address and organization (an expired one is replaced by a new one).
CREATE UNIQUE INDEX invitations_open ON invitations (organization_id, email) WHERE accepted_at IS NULL;
CREATE INDEX invitations_email ON invitations (email) WHERE accepted_at IS NULL;

-- Installation-wide settings: a single row. STRATUM_ORGANIZATION_CREATION and STRATUM_PLAN_CHANGES,
-- when set, take precedence over it (config.ts).
CREATE TABLE installation_settings (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  -- 'everyone': every account may create organizations; 'installation_owner': only the first account.
  organization_creation text NOT NULL DEFAULT 'everyone'
    CHECK (organization_creation IN ('everyone', 'installation_owner')),
  -- 'installation_owner': only the first account changes plans (of any organization), so the
  -- free-project limit means something; 'organization_owners': each organization's owners do.
  plan_changes text NOT NULL DEFAULT 'installation_owner'
    CHECK (plan_changes IN ('installation_owner', 'organization_owners')),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO installation_settings DEFAULT VALUES;
