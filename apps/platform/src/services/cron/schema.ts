import type pg from 'pg'
import { CRON_RUNNER_ROLE, READONLY_ROLE, USER_ROLE } from '../../control/bootstrap-roles.js'
import { refuseTenantSquatting } from '../../control/service-squatting.js'
import { SCHEDULE_CHECK_SQL } from './schedule-check.js'

/**
 * The login that runs cron jobs (scheduler.ts). It holds nothing but EXECUTE on each job's function: every job runs
 * inside `cron.job_<id>()`, SECURITY DEFINER and owned by the role that scheduled it, so the job's SQL runs as that
 * role, and Postgres refuses SET ROLE, SET SESSION AUTHORIZATION and RESET ROLE inside a security-definer function.
 */
export { CRON_RUNNER_ROLE }
/** The channel cron.job's trigger notifies on every change (the scheduler LISTENs on it). */
export const JOB_CHANGES_CHANNEL = 'stratum_cron_jobs'
/** Changed with the statements below: the scheduler sets the schema up again in projects that have an older one. */
export const CRON_SCHEMA_VERSION = "pg_cron's interface, run by Stratum (schema 2)"

/**
 * pg_cron's interface (citusdata/pg_cron's pg_cron--*.sql), in every project database, made by the platform's
 * superuser. What differs from pg_cron, and why:
 * - cron.schedule & co. are plain (SECURITY INVOKER) functions writing cron.job as the caller; its triggers set
 *   `username` to current_user (BYPASSRLS roles included), refuse a superuser, another database and an invalid
 *   schedule, and let a role change or remove only its own jobs.
 * - An AFTER trigger, owned by the superuser, makes each job's function owned by the job's role; event triggers
 *   refuse any other DDL on cron's objects (ALTER FUNCTION ... SECURITY INVOKER would otherwise run the job as the
 *   runner), a job's function moved out of cron (SET SCHEMA) and any drop there, and a tenant has no CREATE on the
 *   schema (no CREATE OR REPLACE, RENAME or SET SCHEMA into it either).
 * - Every change notifies the scheduler (LISTEN, scheduler.ts): nothing polls cron.job.
 */
export async function ensureCronSchema(client: pg.Client): Promise<void> {
  const runner = CRON_RUNNER_ROLE
  await refuseTenantSquatting(client, 'pg_cron', [{ name: 'cron', owners: [] }], [runner])
  await client.query(`DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = '${runner}') THEN CREATE ROLE ${runner}; END IF; END $$`)
  await client.query(`ALTER ROLE ${runner} WITH LOGIN NOINHERIT NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS`)
  await client.query(`
    CREATE SCHEMA IF NOT EXISTS cron;
    REVOKE ALL ON SCHEMA cron FROM PUBLIC;
    GRANT USAGE ON SCHEMA cron TO ${USER_ROLE} WITH GRANT OPTION;
    GRANT USAGE ON SCHEMA cron TO ${READONLY_ROLE}, ${runner};
    CREATE SEQUENCE IF NOT EXISTS cron.jobid_seq;
    CREATE SEQUENCE IF NOT EXISTS cron.runid_seq;
    CREATE TABLE IF NOT EXISTS cron.job (
      jobid bigint PRIMARY KEY DEFAULT pg_catalog.nextval('cron.jobid_seq'),
      schedule text NOT NULL,
      command text NOT NULL,
      nodename text NOT NULL DEFAULT 'localhost',
      nodeport int NOT NULL DEFAULT pg_catalog.inet_server_port(),
      database text NOT NULL DEFAULT pg_catalog.current_database(),
      username text NOT NULL DEFAULT current_user,
      active boolean NOT NULL DEFAULT true,
      jobname text,
      CONSTRAINT jobname_username_uniq UNIQUE (jobname, username)
    );
    CREATE TABLE IF NOT EXISTS cron.job_run_details (
      jobid bigint,
      runid bigint PRIMARY KEY DEFAULT pg_catalog.nextval('cron.runid_seq'),
      job_pid integer,
      database text,
      username text,
      command text,
      status text,
      return_message text,
      start_time timestamptz,
      end_time timestamptz
    );
    -- A job's latest runs (the page, and the scheduler keeping only the last ones of each job).
    CREATE INDEX IF NOT EXISTS job_run_details_jobid_runid_idx ON cron.job_run_details (jobid, runid);
    ALTER TABLE cron.job ENABLE ROW LEVEL SECURITY;
    ALTER TABLE cron.job_run_details ENABLE ROW LEVEL SECURITY;
    DROP POLICY IF EXISTS cron_job_policy ON cron.job;
    CREATE POLICY cron_job_policy ON cron.job USING (username OPERATOR(pg_catalog.=) current_user);
    DROP POLICY IF EXISTS cron_job_run_details_policy ON cron.job_run_details;
    CREATE POLICY cron_job_run_details_policy ON cron.job_run_details USING (username OPERATOR(pg_catalog.=) current_user);
    REVOKE ALL ON cron.job, cron.job_run_details, cron.jobid_seq, cron.runid_seq FROM PUBLIC;
    -- As pg_cron: everyone with the schema reads (their own rows), and deletes their own run history.
    GRANT SELECT ON cron.job, cron.job_run_details TO PUBLIC;
    GRANT DELETE ON cron.job_run_details TO PUBLIC;
    GRANT SELECT ON cron.jobid_seq, cron.runid_seq TO PUBLIC;
    -- Writes go through cron.schedule & co. as the caller: these columns only (jobid, username, database are the triggers').
    GRANT INSERT (jobname, schedule, command, active), UPDATE (jobname, schedule, command, active), DELETE ON cron.job TO ${USER_ROLE} WITH GRANT OPTION;
    GRANT USAGE ON SEQUENCE cron.jobid_seq TO ${USER_ROLE} WITH GRANT OPTION;
  `)
  await client.query(SCHEDULE_CHECK_SQL)
  await client.query(jobTriggersSql())
  await client.query(apiFunctionsSql())
  await client.query(`COMMENT ON SCHEMA cron IS ${client.escapeLiteral(CRON_SCHEMA_VERSION)}`)
}

/** The triggers of cron.job: who a job belongs to, its function, the scheduler's notification; and the DDL guard. */
function jobTriggersSql(): string {
  return `
    CREATE OR REPLACE FUNCTION cron.job_check() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $fn$
    DECLARE
      privileged boolean := (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) current_user);
    BEGIN
      IF TG_OP OPERATOR(pg_catalog.=) 'DELETE' THEN
        IF OLD.username OPERATOR(pg_catalog.<>) current_user AND NOT privileged THEN
          RAISE EXCEPTION 'could not find valid entry for job %', OLD.jobid;
        END IF;
        RETURN OLD;
      END IF;
      IF TG_OP OPERATOR(pg_catalog.=) 'INSERT' THEN
        IF NOT privileged THEN
          NEW.username := current_user;
          NEW.database := pg_catalog.current_database();
        END IF;
      ELSIF NOT privileged THEN
        IF OLD.username OPERATOR(pg_catalog.<>) current_user THEN
          RAISE EXCEPTION 'Job % does not exist or you don''t own it', OLD.jobid;
        END IF;
        NEW.jobid := OLD.jobid;
        NEW.username := OLD.username;
        NEW.database := OLD.database;
      END IF;
      IF NEW.database OPERATOR(pg_catalog.<>) pg_catalog.current_database() THEN
        RAISE EXCEPTION 'cron jobs can only run in database %', pg_catalog.current_database();
      END IF;
      IF coalesce((SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) NEW.username), true) THEN
        RAISE EXCEPTION 'cannot schedule jobs as superuser' USING ERRCODE = 'insufficient_privilege',
          DETAIL = 'Jobs run as the role that scheduled them, which must exist and not be a superuser.';
      END IF;
      IF NOT cron.schedule_is_valid(NEW.schedule) THEN
        RAISE EXCEPTION 'invalid schedule: %', NEW.schedule USING ERRCODE = 'invalid_parameter_value',
          HINT = 'Use cron format (e.g. 5 4 * * *), or interval format ''[1-59] seconds''';
      END IF;
      RETURN NEW;
    END $fn$;
    REVOKE ALL ON FUNCTION cron.job_check() FROM PUBLIC;

    -- Owned by the superuser: the one place that may give a function to another role. Its trigger's BEFORE
    -- sibling has set NEW.username to the caller; EXECUTE is revoked so no other table can borrow it.
    CREATE OR REPLACE FUNCTION cron.job_function_sync() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    DECLARE
      name text;
    BEGIN
      IF TG_TABLE_SCHEMA OPERATOR(pg_catalog.<>) 'cron' OR TG_TABLE_NAME OPERATOR(pg_catalog.<>) 'job' THEN
        RAISE EXCEPTION 'cron.job_function_sync() belongs to cron.job';
      END IF;
      IF TG_OP OPERATOR(pg_catalog.=) 'DELETE' THEN
        EXECUTE pg_catalog.format('DROP FUNCTION IF EXISTS cron.%I()', 'job_' OPERATOR(pg_catalog.||) OLD.jobid);
        RETURN OLD;
      END IF;
      IF TG_OP OPERATOR(pg_catalog.=) 'UPDATE' AND OLD.username OPERATOR(pg_catalog.=) NEW.username
         AND pg_catalog.to_regprocedure(pg_catalog.format('cron.%I()', 'job_' OPERATOR(pg_catalog.||) NEW.jobid)) IS NOT NULL THEN
        RETURN NEW;
      END IF;
      name := 'job_' OPERATOR(pg_catalog.||) NEW.jobid;
      EXECUTE pg_catalog.format('CREATE OR REPLACE FUNCTION cron.%I() RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS %L', name, cron.job_function_body(NEW.jobid));
      EXECUTE pg_catalog.format('ALTER FUNCTION cron.%I() OWNER TO %I', name, NEW.username);
      EXECUTE pg_catalog.format('REVOKE ALL ON FUNCTION cron.%I() FROM PUBLIC', name);
      EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION cron.%I() TO ${CRON_RUNNER_ROLE}', name);
      RETURN NEW;
    END $fn$;
    REVOKE ALL ON FUNCTION cron.job_function_sync() FROM PUBLIC;

    CREATE OR REPLACE FUNCTION cron.job_function_body(job bigint) RETURNS text LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $fn$
      SELECT pg_catalog.replace($body$
        DECLARE
          job_sql text;
          affected bigint;
        BEGIN
          SELECT j.command INTO job_sql FROM cron.job j WHERE j.jobid OPERATOR(pg_catalog.=) JOBID AND j.username OPERATOR(pg_catalog.=) current_user;
          IF job_sql IS NULL THEN
            RAISE EXCEPTION 'cron job JOBID does not belong to %', current_user;
          END IF;
          EXECUTE job_sql;
          GET DIAGNOSTICS affected = ROW_COUNT;
          RETURN affected OPERATOR(pg_catalog.||) CASE WHEN affected OPERATOR(pg_catalog.=) 1 THEN ' row' ELSE ' rows' END;
        END
      $body$, 'JOBID', job::text)
    $fn$;
    REVOKE ALL ON FUNCTION cron.job_function_body(bigint) FROM PUBLIC;

    CREATE OR REPLACE FUNCTION cron.job_notify() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $fn$
    BEGIN
      PERFORM pg_catalog.pg_notify('${JOB_CHANGES_CHANNEL}', '');
      RETURN NULL;
    END $fn$;
    REVOKE ALL ON FUNCTION cron.job_notify() FROM PUBLIC;

    DROP TRIGGER IF EXISTS job_check ON cron.job;
    CREATE TRIGGER job_check BEFORE INSERT OR UPDATE OR DELETE ON cron.job FOR EACH ROW EXECUTE FUNCTION cron.job_check();
    DROP TRIGGER IF EXISTS job_function_sync ON cron.job;
    CREATE TRIGGER job_function_sync AFTER INSERT OR UPDATE OR DELETE ON cron.job FOR EACH ROW EXECUTE FUNCTION cron.job_function_sync();
    DROP TRIGGER IF EXISTS job_notify ON cron.job;
    CREATE TRIGGER job_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cron.job FOR EACH STATEMENT EXECUTE FUNCTION cron.job_notify();

    -- What pg_event_trigger_ddl_commands() names is where the object is after the command: a job's function moved out
    -- by ALTER ... SET SCHEMA (its owner may, with CREATE on the target) is recognised by its name and the body
    -- cron.job_function_body() wrote, which no ALTER changes. Moving anything in needs CREATE on cron, which no tenant has.
    CREATE OR REPLACE FUNCTION cron.ddl_guard() RETURNS event_trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $fn$
    DECLARE
      command record;
    BEGIN
      IF (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) current_user) THEN
        RETURN;
      END IF;
      FOR command IN SELECT * FROM pg_catalog.pg_event_trigger_ddl_commands() LOOP
        IF (command.schema_name OPERATOR(pg_catalog.=) 'cron' AND command.command_tag OPERATOR(pg_catalog.<>) ALL (ARRAY['GRANT', 'REVOKE']))
           OR (command.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass AND EXISTS (
                 SELECT FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) command.objid
                    AND p.proname OPERATOR(pg_catalog.~) '^job_[0-9]+$'
                    AND pg_catalog.strpos(p.prosrc, 'FROM cron.job j WHERE j.jobid') OPERATOR(pg_catalog.>) 0)) THEN
          RAISE EXCEPTION 'cron''s objects are managed by the platform: use cron.schedule, cron.alter_job and cron.unschedule'
            USING ERRCODE = 'insufficient_privilege';
        END IF;
      END LOOP;
    END $fn$;
    DROP EVENT TRIGGER IF EXISTS stratum_cron_ddl_guard;
    CREATE EVENT TRIGGER stratum_cron_ddl_guard ON ddl_command_end EXECUTE FUNCTION cron.ddl_guard();

    -- Drops are not among pg_event_trigger_ddl_commands(): a job's owner may drop its function (DROP FUNCTION, DROP
    -- OWNED BY). Only cron.job's trigger, as the superuser, drops one (cron.unschedule).
    CREATE OR REPLACE FUNCTION cron.drop_guard() RETURNS event_trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $fn$
    BEGIN
      IF (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) current_user) THEN
        RETURN;
      END IF;
      IF EXISTS (SELECT FROM pg_catalog.pg_event_trigger_dropped_objects() d WHERE d.schema_name OPERATOR(pg_catalog.=) 'cron') THEN
        RAISE EXCEPTION 'cron''s objects are managed by the platform: use cron.schedule, cron.alter_job and cron.unschedule'
          USING ERRCODE = 'insufficient_privilege';
      END IF;
    END $fn$;
    DROP EVENT TRIGGER IF EXISTS stratum_cron_drop_guard;
    CREATE EVENT TRIGGER stratum_cron_drop_guard ON sql_drop EXECUTE FUNCTION cron.drop_guard();
  `
}

/** cron.schedule, cron.schedule_in_database, cron.unschedule, cron.alter_job: pg_cron's signatures and messages. */
function apiFunctionsSql(): string {
  const common = 'LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp'
  return `
    CREATE OR REPLACE FUNCTION cron.schedule(job_name text, schedule text, command text) RETURNS bigint ${common} AS $fn$
    DECLARE id bigint;
    BEGIN
      IF $1 IS NULL THEN RAISE EXCEPTION 'job_name can not be NULL'; END IF;
      IF $2 IS NULL THEN RAISE EXCEPTION 'schedule can not be NULL'; END IF;
      IF $3 IS NULL THEN RAISE EXCEPTION 'command can not be NULL'; END IF;
      INSERT INTO cron.job AS j (jobname, schedule, command) VALUES ($1, $2, $3)
        ON CONFLICT ON CONSTRAINT jobname_username_uniq DO UPDATE SET schedule = EXCLUDED.schedule, command = EXCLUDED.command
        RETURNING j.jobid INTO id;
      RETURN id;
    END $fn$;
    CREATE OR REPLACE FUNCTION cron.schedule(schedule text, command text) RETURNS bigint ${common} STRICT AS $fn$
    DECLARE id bigint;
    BEGIN
      INSERT INTO cron.job AS j (schedule, command) VALUES ($1, $2) RETURNING j.jobid INTO id;
      RETURN id;
    END $fn$;
    CREATE OR REPLACE FUNCTION cron.schedule_in_database(job_name text, schedule text, command text, database text, username text DEFAULT NULL, active boolean DEFAULT true)
    RETURNS bigint ${common} AS $fn$
    DECLARE id bigint;
    BEGIN
      IF $5 IS NOT NULL AND $5 OPERATOR(pg_catalog.<>) current_user THEN RAISE EXCEPTION 'must be superuser to create a job for another role'; END IF;
      IF $4 IS DISTINCT FROM pg_catalog.current_database() THEN RAISE EXCEPTION 'cron jobs can only run in database %', pg_catalog.current_database(); END IF;
      id := cron.schedule($1, $2, $3);
      UPDATE cron.job j SET active = coalesce($6, true) WHERE j.jobid OPERATOR(pg_catalog.=) id;
      RETURN id;
    END $fn$;
    CREATE OR REPLACE FUNCTION cron.unschedule(job_id bigint) RETURNS boolean ${common} STRICT AS $fn$
    BEGIN
      DELETE FROM cron.job j WHERE j.jobid OPERATOR(pg_catalog.=) $1 AND j.username OPERATOR(pg_catalog.=) current_user;
      IF NOT FOUND THEN RAISE EXCEPTION 'could not find valid entry for job %', $1; END IF;
      RETURN true;
    END $fn$;
    CREATE OR REPLACE FUNCTION cron.unschedule(job_name text) RETURNS boolean ${common} STRICT AS $fn$
    BEGIN
      DELETE FROM cron.job j WHERE j.jobname OPERATOR(pg_catalog.=) $1 AND j.username OPERATOR(pg_catalog.=) current_user;
      IF NOT FOUND THEN RAISE EXCEPTION 'could not find valid entry for job ''%''', $1; END IF;
      RETURN true;
    END $fn$;
    CREATE OR REPLACE FUNCTION cron.alter_job(job_id bigint, schedule text DEFAULT NULL, command text DEFAULT NULL, database text DEFAULT NULL,
      username text DEFAULT NULL, active boolean DEFAULT NULL) RETURNS void ${common} AS $fn$
    BEGIN
      IF $1 IS NULL THEN RAISE EXCEPTION 'job_id can not be NULL'; END IF;
      IF $5 IS NOT NULL THEN RAISE EXCEPTION 'must be superuser to alter username'; END IF;
      IF $4 IS NOT NULL AND $4 OPERATOR(pg_catalog.<>) pg_catalog.current_database() THEN
        RAISE EXCEPTION 'cron jobs can only run in database %', pg_catalog.current_database();
      END IF;
      IF $2 IS NULL AND $3 IS NULL AND $4 IS NULL AND $6 IS NULL THEN
        RAISE EXCEPTION 'no updates specified' USING HINT = 'You must specify at least one job attribute to change when calling alter_job';
      END IF;
      UPDATE cron.job j SET schedule = coalesce($2, j.schedule), command = coalesce($3, j.command), active = coalesce($6, j.active)
       WHERE j.jobid OPERATOR(pg_catalog.=) $1 AND j.username OPERATOR(pg_catalog.=) current_user;
      IF NOT FOUND THEN RAISE EXCEPTION 'Job % does not exist or you don''t own it', $1; END IF;
    END $fn$;
    REVOKE ALL ON FUNCTION cron.schedule(text, text, text), cron.schedule(text, text), cron.schedule_in_database(text, text, text, text, text, boolean),
      cron.unschedule(bigint), cron.unschedule(text), cron.alter_job(bigint, text, text, text, text, boolean) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION cron.schedule(text, text, text), cron.schedule(text, text), cron.schedule_in_database(text, text, text, text, text, boolean),
      cron.unschedule(bigint), cron.unschedule(text), cron.alter_job(bigint, text, text, text, text, boolean) TO ${USER_ROLE} WITH GRANT OPTION;
  `
}
