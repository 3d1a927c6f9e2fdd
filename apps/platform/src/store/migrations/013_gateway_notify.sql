-- The gateway answers every API request from memory (project status and port, keys, data API settings)
-- and must hear at once when one of them changes: a rotated JWT secret refuses old keys, a paused project
-- stops its PostgREST. Each write names the project it touched (gateway/project-directory.ts listens).
CREATE FUNCTION stratum_notify_gateway_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changed_row jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
  -- projects name themselves by `ref`, the per-project tables by `project_ref`.
  changed text := coalesce(changed_row ->> 'project_ref', changed_row ->> 'ref');
BEGIN
  PERFORM pg_notify('stratum_gateway_changed', changed);
  RETURN NULL;
END
$$;

CREATE TRIGGER projects_gateway_changed AFTER INSERT OR UPDATE OR DELETE ON projects
  FOR EACH ROW EXECUTE FUNCTION stratum_notify_gateway_change();
CREATE TRIGGER project_api_keys_gateway_changed AFTER INSERT OR UPDATE OR DELETE ON project_api_keys
  FOR EACH ROW EXECUTE FUNCTION stratum_notify_gateway_change();
CREATE TRIGGER project_postgrest_config_gateway_changed AFTER INSERT OR UPDATE OR DELETE ON project_postgrest_config
  FOR EACH ROW EXECUTE FUNCTION stratum_notify_gateway_change();
