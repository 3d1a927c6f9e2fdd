-- Who may reach which project changes rarely and is read on every query a user runs. The platform
-- caches it and drops the cache when any of these tables change: every statement that writes them
-- notifies, whoever runs it (routes, operation jobs, the CLI).
CREATE FUNCTION stratum_notify_access_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('stratum_access_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER projects_access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON projects
  FOR EACH STATEMENT EXECUTE FUNCTION stratum_notify_access_change();
CREATE TRIGGER members_access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON members
  FOR EACH STATEMENT EXECUTE FUNCTION stratum_notify_access_change();
CREATE TRIGGER organizations_access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION stratum_notify_access_change();
