-- Tenant isolation: the platform connects to each project as its own superuser (supabase_admin),
-- users get a non-superuser `postgres`, and the SQL editor's full connection logs in as a
-- powerless role that acts as `postgres`.
ALTER TABLE projects ADD COLUMN admin_password_sealed text;
ALTER TABLE projects ADD COLUMN editor_password_sealed text;
-- The password chosen at creation is kept (sealed) only until the project is provisioned.
ALTER TABLE projects ALTER COLUMN db_password_sealed DROP NOT NULL;
-- 0: made by a version whose `postgres` was the superuser; 1: the role model of bootstrap-roles.ts.
ALTER TABLE projects ADD COLUMN role_model integer NOT NULL DEFAULT 0;
