import type pg from 'pg'
import { API_ROLES, FUNCTIONS_ADMIN_ROLE, NET_OWNER_ROLE, READONLY_ROLE, USER_ROLE } from '../../control/bootstrap-roles.js'
import { refuseTenantSquatting } from '../../control/service-squatting.js'

/** The channel the queue's trigger notifies at commit; the platform's worker (worker.ts) listens on it. */
export const NET_WAKE_CHANNEL = 'stratum_net_wake'

/**
 * pg_net's SQL interface (net.http_get, net.http_post, net.http_delete, net.http_request_queue, net._http_response, as in
 * supabase/pg_net's sql/) and Supabase's database webhooks (supabase_functions.hooks and the trigger function
 * supabase_functions.http_request(), as in supabase/supabase docker/volumes/db/webhooks.sql). No extension: the
 * platform sends the queued requests (worker.ts), which pg_net's background worker does on Supabase.
 *
 * Who owns what, so that the platform's superuser, which reads the queue, never runs a tenant's code:
 * - `net` belongs to NET_OWNER_ROLE, a role without login that no tenant is a member of. Tenants get SELECT and DELETE
 *   on its tables and EXECUTE on the request functions, never TRIGGER, ownership or CREATE: no trigger, rule or policy
 *   of theirs can sit on the tables the worker writes.
 * - `supabase_functions` belongs to FUNCTIONS_ADMIN_ROLE, as on Supabase; http_request() runs as it (so an anon insert
 *   still queues its webhook) and it can do nothing a project's `postgres` cannot. The worker never touches it.
 * Who may call the request functions: `postgres`, service_role and the webhooks (Supabase also grants anon and
 * authenticated; here they reach the network only through a function or webhook the project wrote).
 *
 * Made with the superuser's pinned search_path, every name qualified; safe to run again.
 */
export async function ensureNetSchema(client: pg.Client): Promise<void> {
  await refuseTenantSquatting(
    client,
    'pg_net',
    [
      { name: 'net', owners: [NET_OWNER_ROLE] },
      { name: 'supabase_functions', owners: [FUNCTIONS_ADMIN_ROLE] },
    ],
    [NET_OWNER_ROLE, FUNCTIONS_ADMIN_ROLE],
  )
  for (const role of [NET_OWNER_ROLE, FUNCTIONS_ADMIN_ROLE]) {
    await client.query(`DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = '${role}') THEN CREATE ROLE ${role}; END IF; END $$`)
    await client.query(`ALTER ROLE ${role} WITH NOLOGIN NOINHERIT NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS`)
  }
  await client.query(`CREATE SCHEMA IF NOT EXISTS net AUTHORIZATION ${NET_OWNER_ROLE}`)
  await client.query(`ALTER SCHEMA net OWNER TO ${NET_OWNER_ROLE}`)
  await client.query(`GRANT USAGE ON SCHEMA net TO ${USER_ROLE}, service_role, ${FUNCTIONS_ADMIN_ROLE}, ${READONLY_ROLE}`)
  await client.query(`DO $$ BEGIN
    IF pg_catalog.to_regtype('net.http_method') IS NULL THEN
      CREATE DOMAIN net.http_method AS text CHECK (VALUE ILIKE 'get' OR VALUE ILIKE 'post' OR VALUE ILIKE 'delete');
    END IF;
  END $$`)
  // Unlogged as pg_net's: a crash empties them, and nothing of them is replicated.
  await client.query(`CREATE UNLOGGED TABLE IF NOT EXISTS net.http_request_queue (
    id bigserial,
    method net.http_method NOT NULL,
    url text NOT NULL,
    headers jsonb,
    body bytea,
    timeout_milliseconds integer NOT NULL
  )`)
  await client.query(`CREATE UNLOGGED TABLE IF NOT EXISTS net._http_response (
    id bigint,
    status_code integer,
    content_type text,
    headers jsonb,
    content text,
    timed_out boolean,
    error_msg text,
    created timestamptz NOT NULL DEFAULT pg_catalog.now()
  )`)
  await client.query('CREATE INDEX IF NOT EXISTS _http_response_created_idx ON net._http_response (created)')
  // A NOTIFY is delivered when the transaction commits: a request is sent after its commit, never for a rolled-back one.
  await client.query(`CREATE OR REPLACE FUNCTION net._stratum_wake() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
    BEGIN PERFORM pg_catalog.pg_notify('${NET_WAKE_CHANNEL}', ''); RETURN NULL; END $$`)
  await client.query('DROP TRIGGER IF EXISTS stratum_wake ON net.http_request_queue')
  await client.query('CREATE TRIGGER stratum_wake AFTER INSERT ON net.http_request_queue FOR EACH STATEMENT EXECUTE FUNCTION net._stratum_wake()')
  for (const definition of NET_FUNCTIONS) await client.query(definition)
  // A serial's sequence follows its table's owner (Postgres refuses to change it alone).
  for (const object of ['DOMAIN net.http_method', 'TABLE net.http_request_queue', 'TABLE net._http_response']) {
    await client.query(`ALTER ${object} OWNER TO ${NET_OWNER_ROLE}`)
  }
  await client.query(`REVOKE ALL ON net.http_request_queue, net._http_response FROM PUBLIC, ${USER_ROLE}, ${API_ROLES.join(', ')}`)
  await client.query(`GRANT SELECT, DELETE ON net.http_request_queue, net._http_response TO ${USER_ROLE}, service_role`)
  await client.query(`GRANT SELECT ON net.http_request_queue, net._http_response TO ${READONLY_ROLE}`)
  for (const signature of [...NET_HELPERS, ...NET_REQUESTS]) {
    await client.query(`ALTER FUNCTION ${signature} OWNER TO ${NET_OWNER_ROLE}`)
    await client.query(`REVOKE ALL ON FUNCTION ${signature} FROM PUBLIC`)
  }
  for (const signature of NET_REQUESTS) {
    await client.query(`GRANT EXECUTE ON FUNCTION ${signature} TO ${USER_ROLE}, service_role, ${FUNCTIONS_ADMIN_ROLE}`)
  }
  await ensureWebhooksSchema(client)
}

const NET_HELPERS = ['net._stratum_wake()', 'net._urlencode_string(character varying)', 'net._encode_url_with_params_array(text, text[])']
const NET_REQUESTS = ['net.http_get(text, jsonb, jsonb, integer)', 'net.http_post(text, jsonb, jsonb, jsonb, integer)', 'net.http_delete(text, jsonb, jsonb, integer, jsonb)']

/** Runs as the table owner with the catalog first: the caller's search_path and operators play no part. */
const DEFINER = 'SECURITY DEFINER SET search_path = pg_catalog, pg_temp'

/** `key=value` pairs of a jsonb object, each part percent-encoded (pg_net does this in C). */
const ENCODED_PARAMS = `SELECT COALESCE(pg_catalog.array_agg(net._urlencode_string(p.key) OPERATOR(pg_catalog.||) '=' OPERATOR(pg_catalog.||) net._urlencode_string(p.value)), '{}')
      INTO params_array FROM pg_catalog.jsonb_each_text(COALESCE(params, '{}'::jsonb)) AS p(key, value)`

const NET_FUNCTIONS = [
  // RFC 3986's unreserved characters stay, every other byte of the UTF-8 text becomes %XX.
  `CREATE OR REPLACE FUNCTION net._urlencode_string(string character varying) RETURNS text LANGUAGE sql IMMUTABLE STRICT
     SET search_path = pg_catalog, pg_temp AS $$
     SELECT COALESCE(pg_catalog.string_agg(
              CASE WHEN (b BETWEEN 48 AND 57) OR (b BETWEEN 65 AND 90) OR (b BETWEEN 97 AND 122) OR b IN (45, 46, 95, 126)
                   THEN pg_catalog.chr(b)
                   ELSE '%' || pg_catalog.upper(pg_catalog.lpad(pg_catalog.to_hex(b), 2, '0')) END, '' ORDER BY i), '')
       FROM (SELECT i, pg_catalog.get_byte(bytes, i) AS b
               FROM (SELECT pg_catalog.convert_to(string::text, 'UTF8') AS bytes) AS s,
                    pg_catalog.generate_series(0, pg_catalog.length(s.bytes) - 1) AS i) AS e $$`,
  `CREATE OR REPLACE FUNCTION net._encode_url_with_params_array(url text, params_array text[]) RETURNS text LANGUAGE sql IMMUTABLE
     SET search_path = pg_catalog, pg_temp AS $$
     SELECT CASE WHEN pg_catalog.cardinality(params_array) IS NULL OR pg_catalog.cardinality(params_array) = 0 THEN url
                 ELSE url || CASE WHEN pg_catalog.strpos(url, '?') > 0 THEN '&' ELSE '?' END || pg_catalog.array_to_string(params_array, '&') END $$`,
  `CREATE OR REPLACE FUNCTION net.http_get(url text, params jsonb DEFAULT '{}'::jsonb, headers jsonb DEFAULT '{}'::jsonb,
       timeout_milliseconds integer DEFAULT 5000) RETURNS bigint LANGUAGE plpgsql ${DEFINER} AS $$
     DECLARE request_id bigint; params_array text[];
     BEGIN
       ${ENCODED_PARAMS};
       INSERT INTO net.http_request_queue (method, url, headers, timeout_milliseconds)
       VALUES ('GET', net._encode_url_with_params_array(url, params_array), headers, timeout_milliseconds)
       RETURNING id INTO request_id;
       RETURN request_id;
     END $$`,
  // As pg_net's: the body is JSON; a Content-Type header is added when missing and must be application/json.
  `CREATE OR REPLACE FUNCTION net.http_post(url text, body jsonb DEFAULT '{}'::jsonb, params jsonb DEFAULT '{}'::jsonb,
       headers jsonb DEFAULT '{"Content-Type": "application/json"}'::jsonb, timeout_milliseconds integer DEFAULT 5000)
       RETURNS bigint LANGUAGE plpgsql ${DEFINER} AS $$
     DECLARE request_id bigint; params_array text[]; content_type text;
     BEGIN
       SELECT h.value INTO content_type FROM pg_catalog.jsonb_each_text(COALESCE(headers, '{}'::jsonb)) AS h(name, value)
        WHERE pg_catalog.lower(h.name) = 'content-type' LIMIT 1;
       IF content_type IS NULL THEN
         headers := COALESCE(headers, '{}'::jsonb) OPERATOR(pg_catalog.||) '{"Content-Type": "application/json"}'::jsonb;
       END IF;
       IF content_type <> 'application/json' THEN
         RAISE EXCEPTION 'Content-Type header must be "application/json"';
       END IF;
       ${ENCODED_PARAMS};
       INSERT INTO net.http_request_queue (method, url, headers, body, timeout_milliseconds)
       VALUES ('POST', net._encode_url_with_params_array(url, params_array), headers, pg_catalog.convert_to(body::text, 'UTF8'), timeout_milliseconds)
       RETURNING id INTO request_id;
       RETURN request_id;
     END $$`,
  `CREATE OR REPLACE FUNCTION net.http_delete(url text, params jsonb DEFAULT '{}'::jsonb, headers jsonb DEFAULT '{}'::jsonb,
       timeout_milliseconds integer DEFAULT 5000, body jsonb DEFAULT NULL) RETURNS bigint LANGUAGE plpgsql ${DEFINER} AS $$
     DECLARE request_id bigint; params_array text[];
     BEGIN
       ${ENCODED_PARAMS};
       INSERT INTO net.http_request_queue (method, url, headers, body, timeout_milliseconds)
       VALUES ('DELETE', net._encode_url_with_params_array(url, params_array), headers, pg_catalog.convert_to(body::text, 'UTF8'), timeout_milliseconds)
       RETURNING id INTO request_id;
       RETURN request_id;
     END $$`,
]

/**
 * supabase_functions: the hooks audit table and the webhook trigger function. http_request() takes Supabase's trigger
 * arguments (url, method GET or POST, headers and params as JSON text, timeout in ms) and posts
 * { type, table, schema, record, old_record }. Supabase's optional sixth argument (retries) is not honoured: the
 * response only exists after the commit, so a retry inside the transaction would only send the request again.
 */
async function ensureWebhooksSchema(client: pg.Client): Promise<void> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS supabase_functions AUTHORIZATION ${FUNCTIONS_ADMIN_ROLE}`)
  await client.query(`ALTER SCHEMA supabase_functions OWNER TO ${FUNCTIONS_ADMIN_ROLE}`)
  await client.query(`GRANT USAGE ON SCHEMA supabase_functions TO ${USER_ROLE}, ${API_ROLES.join(', ')}, ${READONLY_ROLE}`)
  await client.query(`CREATE TABLE IF NOT EXISTS supabase_functions.migrations (version text PRIMARY KEY, inserted_at timestamptz NOT NULL DEFAULT pg_catalog.now())`)
  await client.query(`INSERT INTO supabase_functions.migrations (version) VALUES ('initial'), ('20210809183423_update_grants') ON CONFLICT DO NOTHING`)
  await client.query(`CREATE TABLE IF NOT EXISTS supabase_functions.hooks (
    id bigserial PRIMARY KEY,
    hook_table_id integer NOT NULL,
    hook_name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    request_id bigint
  )`)
  await client.query('CREATE INDEX IF NOT EXISTS supabase_functions_hooks_request_id_idx ON supabase_functions.hooks USING btree (request_id)')
  await client.query('CREATE INDEX IF NOT EXISTS supabase_functions_hooks_h_table_id_h_name_idx ON supabase_functions.hooks USING btree (hook_table_id, hook_name)')
  await client.query(`COMMENT ON TABLE supabase_functions.hooks IS 'Supabase Functions Hooks: Audit trail for triggered hooks.'`)
  await client.query(`CREATE OR REPLACE FUNCTION supabase_functions.http_request() RETURNS trigger LANGUAGE plpgsql ${DEFINER} AS $$
    DECLARE
      local_request_id bigint;
      payload jsonb;
      url text := TG_ARGV[0]::text;
      method text := TG_ARGV[1]::text;
      headers jsonb DEFAULT '{}'::jsonb;
      params jsonb DEFAULT '{}'::jsonb;
      timeout_ms integer DEFAULT 1000;
    BEGIN
      IF url IS NULL OR url = 'null' THEN
        RAISE EXCEPTION 'url argument is missing';
      END IF;
      IF method IS NULL OR method = 'null' THEN
        RAISE EXCEPTION 'method argument is missing';
      END IF;
      IF TG_ARGV[2] IS NULL OR TG_ARGV[2] = 'null' THEN
        headers := '{"Content-Type": "application/json"}'::jsonb;
      ELSE
        headers := TG_ARGV[2]::jsonb;
      END IF;
      IF TG_ARGV[3] IS NOT NULL AND TG_ARGV[3] <> 'null' THEN
        params := TG_ARGV[3]::jsonb;
      END IF;
      IF TG_ARGV[4] IS NOT NULL AND TG_ARGV[4] <> 'null' THEN
        timeout_ms := TG_ARGV[4]::integer;
      END IF;
      CASE
        WHEN method = 'GET' THEN
          local_request_id := net.http_get(url, params, headers, timeout_ms);
        WHEN method = 'POST' THEN
          payload := pg_catalog.jsonb_build_object('old_record', OLD, 'record', NEW, 'type', TG_OP, 'table', TG_TABLE_NAME, 'schema', TG_TABLE_SCHEMA);
          local_request_id := net.http_post(url, payload, params, headers, timeout_ms);
        ELSE
          RAISE EXCEPTION 'method argument % is invalid', method;
      END CASE;
      INSERT INTO supabase_functions.hooks (hook_table_id, hook_name, request_id) VALUES (TG_RELID::integer, TG_NAME, local_request_id);
      RETURN NEW;
    END $$`)
  for (const object of ['TABLE supabase_functions.migrations', 'TABLE supabase_functions.hooks', 'FUNCTION supabase_functions.http_request()']) {
    await client.query(`ALTER ${object} OWNER TO ${FUNCTIONS_ADMIN_ROLE}`)
  }
  // No TRIGGER for tenants here either: http_request() writes hooks as FUNCTIONS_ADMIN_ROLE.
  await client.query(`REVOKE ALL ON supabase_functions.hooks, supabase_functions.migrations FROM PUBLIC, ${USER_ROLE}, ${API_ROLES.join(', ')}`)
  await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON supabase_functions.hooks TO ${USER_ROLE}, service_role`)
  await client.query(`GRANT SELECT ON supabase_functions.migrations TO ${USER_ROLE}, service_role`)
  await client.query(`GRANT USAGE, SELECT ON SEQUENCE supabase_functions.hooks_id_seq TO ${USER_ROLE}, service_role`)
  await client.query(`GRANT SELECT ON supabase_functions.hooks, supabase_functions.migrations TO ${READONLY_ROLE}`)
  await client.query('REVOKE ALL ON FUNCTION supabase_functions.http_request() FROM PUBLIC')
  await client.query(`GRANT EXECUTE ON FUNCTION supabase_functions.http_request() TO ${USER_ROLE}, ${API_ROLES.join(', ')}`)
}
